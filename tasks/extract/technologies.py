"""Common technologies known by name (issue 23 item 4): a small, general list of widely used
languages, databases, queues, cloud services, infrastructure and observability tools, so a
document that names one in lower case ("we restarted postgres") or only once where it counts
(its title, a heading, its summary or root cause) still has it as a subject. Not a registry of
everything: a name missing here is found as before, by how often and where it is written.

Each name is matched as a whole word. A name that is also an English word ("Go", "Vault",
"Rust", "Harbor", "Spark") is matched only as written here, capitalized; "Go" only where the
context says it is the language ("in Go", "Go programs", "Go 1.18"). Pure.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from functools import cache
from itertools import accumulate

# Matched in any case: names that are no English word.
_ANY_CASE = """
Python JavaScript TypeScript Kotlin Scala Elixir Erlang Haskell OCaml Clojure Golang
Node.js Deno Django FastAPI Laravel GraphQL gRPC Protobuf WebAssembly JVM
PostgreSQL Postgres MySQL MariaDB SQLite MongoDB Redis Memcached Cassandra DynamoDB
Elasticsearch OpenSearch ClickHouse CockroachDB BigQuery Redshift Neo4j InfluxDB TimescaleDB
etcd ZooKeeper Vitess PgBouncer ElastiCache Bigtable HBase Hadoop Kafka RabbitMQ Kinesis
ActiveMQ Sidekiq Airflow Dagster
Kubernetes k8s Docker containerd Podman Terraform Ansible Pulumi Istio Linkerd NGINX HAProxy
Traefik Cilium CoreDNS Knative OpenShift ArgoCD Jenkins GitLab CircleCI Buildkite Bazel Gradle
npm Artifactory Ceph MinIO AWS GCP EC2 ECS EKS GKE AKS Cloudflare CloudFront Heroku
Prometheus Grafana Jaeger Zipkin OpenTelemetry Datadog Sentry PagerDuty Opsgenie Splunk Kibana
Logstash Fluentd Thanos Alertmanager StatsD Nagios Zabbix
GitHub Bitbucket Jira LLVM OAuth LDAP Keycloak Okta Auth0 Twilio SendGrid Firebase Supabase
cron systemd Patroni pgpool Velero Restic Debezium dbt Fivetran Metabase Kustomize Karpenter
Crossplane Spinnaker Tekton Vagrant Mesos RocksDB LevelDB Tomcat VictoriaMetrics Pyroscope KEDA
kubelet kubeadm kube-proxy kube-dns crictl cert-manager external-dns FFmpeg
Proxmox VMware vSphere ESXi EMQX HiveMQ QuestDB Couchbase CouchDB Graylog
SaltStack Berkshelf chrony SQLCipher
SAML WebAuthn TOTP Kerberos
Solr Lucene Vespa Meilisearch Typesense FAISS Milvus Qdrant pgvector
PyTorch TensorFlow scikit-learn XGBoost LightGBM MLflow Kubeflow ONNX Databricks Airbyte Avro
"""
# Matched only as written: names that are English words too, or need their capitals.
_AS_WRITTEN = """
Go Rust Java Ruby PHP Swift Perl Lua Dart Julia React Vue Angular Rails Spring Flask Celery
Spark Flink Presto Trino Hive Druid Pulsar NATS SQS SNS S3 GCS EBS EFS Lambda Aurora RDS MSK
Spanner Snowflake Consul Vault Nomad Packer Helm Envoy Harbor Nexus Azure Loki Tempo Mimir
Cortex Slack Git Linux Ubuntu Debian Windows macOS Okta Stripe Looker SES FCM APNs Tableau
Superset Flux Chef Puppet Varnish Squid Graphite
"""
# Names of more than one word.
_PHRASES = (
    "Argo CD", "Fluent Bit", "GitHub Actions", "New Relic", "Amazon SES", "Amazon S3",
    "Google Cloud", "SQL Server", "Cloud SQL", "Ruby on Rails", "Spring Boot", "Next.js",
    "Apache Kafka", "Apache Spark", "Cloud Storage", "Route 53", "Lambda@Edge", "Kafka Connect",
    "Kafka Streams", "Cluster Autoscaler", "Cloud Run", "Cloud Functions", "Cloud Build", "App Engine",
    "Pub/Sub", "Cloud CDN", "React Native", "Couchbase Lite",
    # sign-in: identity protocols and directories
    "Active Directory", "Azure AD", "Entra ID", "Azure Service Bus",
    # search engines and vector stores, machine learning and the lakehouse's table formats
    "Apache Solr", "Apache Iceberg", "Delta Lake", "Apache Hudi", "Apache Beam",
)
# "Go" is the language after these words or before these.
_GO_RE = re.compile(
    r"(?:\b(?:in|of|for|to|with|and|like|than|the|about|write|writing|written)\s+Go\b"
    r"(?!\s+(?:to|back|ahead|through|away|on|out|down|up|into|over|further|beyond|wrong|live)\b))"
    r"|\bGo(?=(?:'s|\s+v?\d|\s+(?:language|program|programs|code|compiler|toolchain|modules?|"
    r"developers|programmers|users|source|spec|specification|community|runtime|version|"
    r"release|types?|generics|functions?|packages?|syntax|standard)\b))"
)


_WORD_RE = re.compile(r"[a-z0-9]+")
_GO_WORD_RE = re.compile(r"G(?<!\wG)o\b")  # "\bGo\b", opened by its letter (found where "G" is)


@cache
def _names() -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """(lower-case name -> usual spelling) of the names matched in any case, (name -> name) of
    those matched as written (phrases of two words too), and every name's usual spelling."""
    any_case = {name.lower(): name for name in _ANY_CASE.split()}
    as_written = {name: name for name in [*_AS_WRITTEN.split(), *_PHRASES] if name != "Go"}
    return any_case, as_written, {**{n.lower(): n for n in as_written}, **any_case}


@cache
def _by_first_word() -> dict[str, tuple[str, ...]]:
    """Every name (lower-case) by its first run of letters and digits, longest first."""
    first: dict[str, list[str]] = {}
    for key in _names()[2]:
        first.setdefault(_WORD_RE.findall(key)[0], []).append(key)
    return {word: tuple(sorted(keys, key=lambda k: (-len(k), k))) for word, keys in first.items()}


def known_technologies(lines: Iterable[tuple[int, str]]) -> dict[str, list[tuple[int, str]]]:
    """The known technologies `lines` name: their usual spelling (lower-case) -> (line, the
    name as written), in the order written. A name is a whole word: not part of a path, a
    URL, a hyphenated or dotted word ("rust-lang/rust", "redis-cli")."""
    numbered = list(lines)
    # Consecutive lines are joined by a blank: a name hard-wrapped across a line end ("Apache\n
    # Airflow", "Amazon\nAurora") is one name, as it is when the paragraph is written on one line.
    text = "".join(("" if i == 0 else " " if n == numbered[i - 1][0] + 1 else "\n") + line
                   for i, (n, line) in enumerate(numbered))
    lower = text.lower()
    firsts = _by_first_word()
    keys = sorted({key for word in set(_WORD_RE.findall(lower)) & firsts.keys() for key in firsts[word]},
                  key=lambda k: (-len(k), k))
    starts = list(accumulate((len(line) + 1 for _, line in numbered), initial=0))
    any_case, _, usual = _names()
    seen: dict[str, list[tuple[int, str]]] = {}
    taken: set[int] = set()  # where a longer name ("Amazon S3") was found
    for key in keys:
        at = lower.find(key)
        while at >= 0:
            end = at + len(key)
            if (at not in taken and end - 1 not in taken and _whole_word(text, at, end)
                    and (key in any_case or text[at:end] == usual[key])):
                taken.update(range(at, end))
                seen.setdefault(key, []).append((numbered[bisect_right(starts, at) - 1][0], text[at:end]))
            at = lower.find(key, end)
    line_of = dict(numbered)
    _with_vendor(seen, line_of)
    _cloud_products(seen, line_of)
    for tracker in _TRACKERS & seen.keys():  # "filed an issue on GitHub": where work is tracked
        seen[tracker] = [(n, written) for n, written in seen[tracker]
                         if not _TRACKER_RE.search(f"{line_of.get(n - 1, '')} {line_of[n]}")]
        if not seen[tracker]:
            del seen[tracker]
    if "Go" in text and _GO_WORD_RE.search(text):  # "Go" as a word, which every match writes
        for match in _GO_RE.finditer(text):
            seen.setdefault("go", []).append((numbered[bisect_right(starts, match.start()) - 1][0], "Go"))
    return {key: sorted(hits) for key, hits in sorted(seen.items(), key=lambda kv: kv[1][0])}


# Code hosts and trackers named as where issues are filed, not as what a document is about.
_TRACKERS = frozenset({"github", "gitlab", "bitbucket", "jira"})
_TRACKER_RE = re.compile(
    r"\b(?:issues?|tickets?|tracker|filed|reported|bugs?|pull requests?|PRs?|discussions?)\b", re.I)
_VENDOR_RE = re.compile(r"\b(Amazon|AWS|Apache|Google|Azure|Microsoft) $")
_VENDORS = frozenset({"amazon", "aws", "apache", "google", "azure", "microsoft"})


def _with_vendor(seen: dict[str, list[tuple[int, str]]], line_of: dict[int, str]) -> None:
    """A name its vendor's name opens anywhere in the text ("Amazon Aurora", "Apache Airflow")
    is written so everywhere: its bare hits ("Aurora") become the vendor's name's hits."""
    for key in [k for k in seen if " " not in k]:
        vendors = {m.group(1) for n, written in seen[key]
                   for m in [_VENDOR_RE.search(_before(line_of, n, written))] if m}
        full = next((k for k in seen if k.endswith(" " + key) and k.split()[0] in _VENDORS), None)
        if full is None and len(vendors) != 1:
            continue
        spelling = seen[full][0][1] if full else f"{vendors.pop()} {usual_spelling(key) or seen[key][0][1]}"
        full = full or spelling.lower()
        seen[full] = sorted((n, spelling) for n, _ in [*seen.get(full, []), *seen.pop(key)])


def _before(line_of: dict[int, str], number: int, written: str) -> str:
    """The text before a name's first hit on its line, the line before included when the name
    opens its line (its vendor may end the line before: "scheduled by Apache\nAirflow")."""
    line = line_of[number]
    head = line[:max(0, line.find(written))]
    if head.strip() or number - 1 not in line_of:
        return head
    return f"{line_of[number - 1].rstrip()} "


def _cloud_products(seen: dict[str, list[tuple[int, str]]], line_of: dict[int, str]) -> None:
    """A cloud's name that opens a product's ("Google Cloud Spanner", "Azure Key Vault"): the
    product, not the cloud and a part of the product's name ("Spanner", "Vault") apart."""
    for cloud in sorted(_CLOUDS & seen.keys()):
        kept: list[tuple[int, str]] = []
        for number in sorted({n for n, _ in seen[cloud]}):
            written = next(w for n, w in seen[cloud] if n == number)
            # "Azure Database for PostgreSQL", "Azure Cache for Redis": a product named for another
            pattern = rf"(?<![\w/.-]){re.escape(written)}(?: ({_PRODUCT_WORDS}{_FOR_PRODUCT}))?"
            line = line_of[number]
            # a product's name may go on past the line's end ("Azure Load\nTesting")
            joined = f"{line.rstrip()} {line_of[number + 1].lstrip()}" if number + 1 in line_of else line
            for match in re.finditer(pattern, joined):
                if match.start() >= len(line.rstrip()):
                    break
                words = (match.group(1) or "").split()
                while words and words[-1].lower() in _NOT_PRODUCT_WORDS:
                    words.pop()
                if not words:
                    kept.append((number, written))
                    continue
                product = f"{written} {' '.join(words)}"
                for part in [k for k in seen if k != cloud and k in product.lower()]:
                    seen[part] = [hit for hit in seen[part]
                                  if hit[0] != number or hit[1].lower() not in product.lower()]
                    if not seen[part]:
                        del seen[part]
                seen.setdefault(product.lower(), []).append((number, product))
        if kept:
            seen[cloud] = kept
        else:
            del seen[cloud]
    _bare_products(seen)


def _bare_products(seen: dict[str, list[tuple[int, str]]]) -> None:
    """A cloud product's bare name written elsewhere ("Spanner" beside "Google Cloud Spanner",
    "Pub/Sub" beside "Google Cloud Pub/Sub"): the product, written as the page first does."""
    for product in [k for k in seen if any(k.startswith(f"{cloud} ") for cloud in _CLOUDS)]:
        cloud = next(c for c in sorted(_CLOUDS) if product.startswith(f"{c} "))
        bare = product.removeprefix(f"{cloud} ")
        if bare in seen and bare != product:
            spelling = seen[product][0][1]
            seen[product] = sorted({*seen[product], *[(n, spelling) for n, _ in seen.pop(bare)]})


_PRODUCT = r"[A-Z][\w/]*\w"  # a capitalized word of a product's name ("Spanner", "Pub/Sub")
_PRODUCT_WORDS = rf"{_PRODUCT}(?: {_PRODUCT}){{0,2}}"
_FOR_PRODUCT = rf"(?: for {_PRODUCT})?"  # the product it is for: "Azure Database for PostgreSQL"
_CLOUDS = frozenset({"google cloud", "azure"})
# Capitalized words after a cloud's name that name no product ("Azure The ...", "Google Cloud In").
_NOT_PRODUCT_WORDS = frozenset("the a an in on of for to and or is was we our this that it".split())


def vendor_product(name: str) -> bool:
    """Is `name` written as a product of a known technology or vendor: that name, then one to
    four capitalized words or numbers of the product's own ("Spring Security", "Argo Workflows",
    "AWS Secrets Manager", "Azure Data Lake Storage Gen2", "Grafana Tempo")? A name like this
    is a product's whoever writes it; whether a page writes it as one (mid-sentence, not a
    heading's title case, not "Kafka ACL") is the caller's to weigh."""
    words = name.split()
    if not 2 <= len(words) <= 5 or not words[0][:1].isupper():
        return False
    head = words[0].lower()
    if head not in _PRODUCT_VENDORS and head not in _names()[2] or head in _SYSTEMS_RUN_ON:
        return False
    tail = words[1:]
    return (all(word[:1].isupper() or word[:1].isdigit() for word in tail)
            and any(word[:1].isalpha() for word in tail)
            and tail[-1].lower().strip(".,") not in _NOT_PRODUCT_TAILS)


# Vendors and families whose name opens their products' ("Microsoft Presidio", "Stripe Checkout",
# "SAP IS-U", "Argo Events").
_PRODUCT_VENDORS = _VENDORS | frozenset({"oracle", "ibm", "sap", "apple", "elastic", "atlassian", "hashicorp",
                                         "salesforce", "adobe", "cisco", "fastly", "confluent", "stripe",
                                         "argo"})  # (a family of projects: Argo Workflows, Argo Events)
# Last words that make a known name's phrase a kind of thing, a place, a company or a document,
# not a product: "Kafka ACL", "Tekton API", "Cortex PR", "Harbor Ave", "Grafana Labs".
_NOT_PRODUCT_TAILS = frozenset("""api apis ui cli sdk sdks pr prs url urls ttl crd crds vm vms dag dags
    dba acl acls issue issues team teams cluster clusters node nodes pod pods instance instances
    ave avenue street st road rd lane labs inc ltd llc corp gmbh plc docs doc documentation
    architecture design proposal proposals sre faq vip vips
    secret secrets job jobs cronjob cronjobs deployment deployments configmap configmaps namespace
    namespaces ingress statefulset statefulsets daemonset daemonsets""".split())  # Kubernetes' kinds
# Operating systems: what a server runs ("RHEL and Windows Server"), where, not what, a page is about.
_SYSTEMS_RUN_ON = frozenset({"windows", "linux", "macos", "ubuntu", "debian", "rhel"})


def vendor_alias(name: str) -> list[str]:
    """The bare name of a vendor's product ("Amazon Aurora" -> "Aurora", "AWS Secrets Manager"
    -> "Secrets Manager", "Azure Service Bus" -> "Service Bus"), kept as an alias: a known
    technology's, or a name of two words or more or with a capital inside (not "Support" of
    "AWS Support", a word that names other things too)."""
    vendor, _, bare = name.partition(" ")
    if vendor.lower() not in _VENDORS or not bare:
        return []
    spelling = usual_spelling(bare) or (bare if vendor_product(name) and (
        " " in bare or any(ch.isupper() for ch in bare[1:])) else None)
    return [spelling] if spelling else []


def _whole_word(text: str, start: int, end: int) -> bool:
    """Is text[start:end] a whole word: not inside a path, a URL, a hyphenated or dotted word
    (but the name of "a Memcached-backed cache", "Kafka-based")?"""
    before = text[start - 1] if start else " "
    after = text[end:end + 2]
    if before.isalnum() or before in "_@/.-":
        return False
    if _BACKED_RE.match(text, end):
        return True
    return not after or not (after[0].isalnum() or after[0] in "_@"
                             or (after[0] in ".-" and after[1:2].isalnum()))


_BACKED_RE = re.compile(r"-(?:backed|based|powered|compatible|managed|hosted|native)\b")


def usual_spelling(name: str) -> str | None:
    """A known technology's usual spelling ("postgres" -> "Postgres"), or None."""
    return _names()[2].get(" ".join(name.split()).lower())

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
from collections.abc import Iterable
from functools import cache

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
"""
# Matched only as written: names that are English words too, or need their capitals.
_AS_WRITTEN = """
Go Rust Java Ruby PHP Swift Perl Lua Dart Julia React Vue Angular Rails Spring Flask Celery
Spark Flink Presto Trino Hive Druid Pulsar NATS SQS SNS S3 GCS EBS EFS Lambda Aurora RDS MSK
Spanner Snowflake Consul Vault Nomad Packer Helm Envoy Harbor Nexus Azure Loki Tempo Mimir
Cortex Slack Git Linux Ubuntu Debian Windows macOS Okta Stripe
"""
# Names of more than one word.
_PHRASES = (
    "Argo CD", "Fluent Bit", "GitHub Actions", "New Relic", "Amazon SES", "Amazon S3",
    "Google Cloud", "SQL Server", "Cloud SQL", "Ruby on Rails", "Spring Boot", "Next.js",
    "Apache Kafka", "Apache Spark", "Cloud Storage", "Route 53", "Lambda@Edge",
)
# "Go" is the language after these words or before these.
_GO_RE = re.compile(
    r"(?:\b(?:in|of|for|to|with|and|like|than|the|about|write|writing|written)\s+Go\b"
    r"(?!\s+(?:to|back|ahead|through|away|on|out|down|up|into|over|further|beyond|wrong|live)\b))"
    r"|\bGo(?=(?:'s|\s+v?\d|\s+(?:language|program|programs|code|compiler|toolchain|modules?|"
    r"developers|programmers|users|source|spec|specification|community|runtime|version|"
    r"release|types?|generics|functions?|packages?|syntax|standard)\b))"
)


def _words(block: str) -> list[str]:
    return block.split()


@cache
def _matchers() -> tuple[re.Pattern[str], re.Pattern[str], dict[str, str]]:
    any_case = sorted({*_words(_ANY_CASE)}, key=lambda n: (-len(n), n))
    as_written = sorted({*_words(_AS_WRITTEN), *_PHRASES} - {"Go"}, key=lambda n: (-len(n), n))
    usual = {name.lower(): name for name in [*any_case, *as_written]}

    def alternation(names: Iterable[str]) -> str:
        return "|".join(re.escape(name).replace(r"\ ", r"\s+") for name in names)

    edge = r"(?<![\w@/.-]){}(?![\w@]|[.-]\w)"
    return (re.compile(edge.format(f"(?:{alternation(any_case)})"), re.I),
            re.compile(edge.format(f"(?:{alternation(as_written)})")), usual)


def known_technologies(lines: Iterable[tuple[int, str]]) -> dict[str, list[tuple[int, str]]]:
    """The known technologies `lines` name: their usual spelling (lower-case) -> (line, the
    name as written), in the order written."""
    any_case, as_written, usual = _matchers()
    seen: dict[str, list[tuple[int, str]]] = {}
    for number, text in lines:
        for pattern in (any_case, as_written):
            for match in pattern.finditer(text):
                written = " ".join(match.group(0).split())
                seen.setdefault(usual.get(written.lower(), written).lower(), []).append((number, written))
        for _ in _GO_RE.finditer(text):
            seen.setdefault("go", []).append((number, "Go"))
    return seen


def usual_spelling(name: str) -> str | None:
    """A known technology's usual spelling ("postgres" -> "Postgres"), or None."""
    return _matchers()[2].get(" ".join(name.split()).lower())

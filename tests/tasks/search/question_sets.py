"""Development question sets for ranking (issue 28), written by hand over ../shared/corpus and
tests/fixtures/relevance/. Answers are corpus-relative paths (a hit counts when its source page,
a shard of it, or an entity page derived from it is ranked). These sets tune the ranking; the
measurement that judges it uses other documents."""

from __future__ import annotations

Question = tuple[str, frozenset[str]]


def _set(*rows: tuple[str, str]) -> tuple[Question, ...]:
    return tuple((question, frozenset(answers.split("|"))) for question, answers in rows)


PM = "posthog-postmortems/"
RB = "openshift-runbooks/"
CX = "cortex-docs/"
TEP = "tektoncd-teps/"
GO = "golang-proposal-design/"

# Paraphrased questions over the non-ADR genres: postmortems, runbooks, architecture and
# reference pages, design documents and enhancement proposals.
GENRE_QUESTIONS = _set(
    ("why did the flag service go down when the database connection timeout was shortened?",
     PM + "2025-09-29-flags-is-down.md"),
    ("what made retries multiply during the outage and turn a load problem into a full outage?",
     PM + "2025-09-29-flags-is-down.md"),
    ("which SDK release broke older clients by calling a persistence function that did not exist?",
     PM + "2025-10-03-surveys-sdk-bug.md"),
    ("what was the shared cause of several flag incidents in one autumn month?",
     PM + "2025-10-21-feature-flags-recurring-outages.md"),
    ("nodes too small for the pods' CPU requests caused saturation",
     PM + "2025-10-21-feature-flags-recurring-outages.md"),
    ("why were events delayed by up to two days in the US region?",
     PM + "2025-11-15-persons-db-migration.md"),
    ("which database limit forced us to move the persons data?",
     PM + "2025-11-15-persons-db-migration.md"),
    ("how did the attacker get our npm publishing token?", PM + "2025-11-26-shai-hulud-attack.md"),
    ("supply chain worm compromised packages, what should users do?",
     PM + "2025-11-26-shai-hulud-attack.md"),
    ("the replay extension's fetch wrapper broke customer websites",
     PM + "2026-01-17-replay-sdk-fetch-wrapper-incident.md"),
    ("requests with a streaming body need the duplex option",
     PM + "2026-01-17-replay-sdk-fetch-wrapper-incident.md"),
    ("clients retrying flags all at once overloaded us in February",
     PM + "investigations/2024-02-28-decide is down.md"),
    ("what to do when etcd has no leader", RB + "cluster-etcd-operator/etcdNoLeader.md"),
    ("etcd does not have enough healthy instances for quorum",
     RB + "cluster-etcd-operator/etcdInsufficientMembers.md"),
    ("one etcd member went down during a cluster upgrade",
     RB + "cluster-etcd-operator/etcdMembersDown.md"),
    ("none of the Kubernetes API servers are reachable by monitoring",
     RB + "cluster-kube-apiserver-operator/KubeAPIDown.md|" + RB + "cluster-monitoring-operator/KubeAPIDown.md"),
    ("too many 5xx errors or slow requests on the API server burn the error budget",
     RB + "cluster-kube-apiserver-operator/KubeAPIErrorBudgetBurn.md"),
    ("a node's disk is predicted to run out of space",
     RB + "cluster-monitoring-operator/NodeFilesystemSpaceFillingUp.md"),
    ("Prometheus cannot scrape some of its targets",
     RB + "cluster-monitoring-operator/TargetDown.md"),
    ("the storage cluster has been in error state for ten minutes",
     RB + "openshift-container-storage-operator/CephClusterErrorState.md"),
    ("metadata server CPU too high, add more MDS daemons",
     RB + "openshift-container-storage-operator/CephMdsCPUUsageHighNeedsHorizontalScaling.md"),
    ("how do I run ceph commands inside an OpenShift cluster?",
     RB + "openshift-container-storage-operator/helpers/cephCLI.md"),
    ("check network connectivity between ceph daemons",
     RB + "openshift-container-storage-operator/helpers/networkConnectivity.md"),
    ("how does the compactor merge and deduplicate blocks?", CX + "blocks-storage/compactor.md"),
    ("what does the store gateway do with blocks in object storage?",
     CX + "blocks-storage/store-gateway.md"),
    ("how does the querier fetch series from ingesters and long-term storage?",
     CX + "blocks-storage/querier.md"),
    ("per-tenant index of blocks kept in the bucket to avoid listing it",
     CX + "blocks-storage/bucket-index.md|" + CX + "proposals/blocks-storage-bucket-index.md"),
    ("isolating tenants so one noisy tenant affects few others",
     CX + "guides/shuffle-sharding.md"),
    ("replicating series across availability zones", CX + "guides/zone-replication.md"),
    ("how many zones are needed at minimum for zone-aware replication?",
     CX + "guides/zone-replication.md"),
    ("what is the on-disk format of the index header?", CX + "blocks-storage/binary-index-header.md"),
    ("running the ruler highly available", CX + "proposals/ruler-ha.md|" + CX + "proposals/ruler-ha-new.md"),
    ("how do components of the system fit together and what is the role of Prometheus?",
     CX + "architecture.md"),
    ("run a pipeline task for every combination of parameter values", TEP + "0090-matrix.md"),
    ("fetch tasks and pipelines from git or a registry instead of the cluster",
     TEP + "0060-remote-resource-resolution.md"),
    ("let results be dictionaries with named keys", TEP + "0075-object-param-and-result-types.md"),
    ("allow a task to return a list of values as a result", TEP + "0076-array-result-types.md"),
    ("parameters given to a pipeline flow down to its tasks without repeating them",
     TEP + "0107-propagating-parameters.md|" + TEP + "0023-implicit-mapping.md"),
    ("turning experimental features on and off with flags", TEP + "0033-tekton-feature-gates.md|"
     + TEP + "0138-decouple-api-and-feature-versioning.md"),
    ("workspaces backed by any volume type, proposal withdrawn", TEP + "0038-generic-workspaces.md"),
    ("a human readable name for each matrix combination", TEP + "0150-displayname-in-matrix.md"),
    ("a builtin that returns early when an error is not nil", GO + "32437-try-builtin.md"),
    ("the accepted design for type parameters with constraints as interfaces",
     GO + "43651-type-parameters.md"),
    ("contracts as the way to describe requirements on type arguments",
     GO + "go2draft-contracts.md"),
    ("check and handle keywords for error handling", GO + "go2draft-error-handling.md"),
)

CV = "conversations/"

# LoCoMo-style questions about a multi-session chat (tests/fixtures/relevance/conversations):
# what happened and when; the answer is the session that holds the evidence.
CONVERSATION_QUESTIONS = _set(
    ("what evening is Maya's pottery class?", CV + "session-01.md"),
    ("who recommended the pottery class to Maya?", CV + "session-01.md"),
    ("what was wrong with Tomas's bicycle?", CV + "session-01.md"),
    ("how long did it take Tomas to fix the shifting after the new cable came?", CV + "session-02.md"),
    ("what advice did the teacher give Maya about centering clay?", CV + "session-02.md"),
    ("where is Tomas's cousin moving for work?", CV + "session-02.md|" + CV + "session-05.md"),
    ("what kind of dog did Maya adopt?", CV + "session-03.md"),
    ("how did the cat react to the new dog?", CV + "session-03.md"),
    ("when is the half marathon Tomas trains for?", CV + "session-03.md"),
    ("how did Tomas get injured while training?", CV + "session-04.md"),
    ("what happened to Maya's blue bowl in the kiln?", CV + "session-04.md"),
    ("what did Maya give her mother for her birthday?", CV + "session-04.md"),
    ("why did the dog go to the vet?", CV + "session-05.md"),
    ("where was the farewell dinner for Lena?", CV + "session-05.md"),
    ("when did Lena leave for Lisbon?", CV + "session-05.md"),
    ("how is Maya learning Portuguese?", CV + "session-06.md"),
    ("what project does Maya lead at work?", CV + "session-06.md"),
    ("why did Tomas change his running shoes?", CV + "session-06.md"),
    ("what did they see and eat when visiting Lisbon?", CV + "session-07.md"),
    ("when did the billing system go live and did anything fail?", CV + "session-07.md"),
    ("what was Tomas's finishing time in Porto?", CV + "session-08.md"),
    ("what are they making in Maya's advanced pottery class?", CV + "session-08.md"),
    ("did Biscuit complete any training?", CV + "session-08.md"),
    ("what happened in August 2025?", CV + "session-07.md"),
    ("what did Maya and Tomas talk about in early April 2025?", CV + "session-03.md"),
)

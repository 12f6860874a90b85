"""Terms a page's structure marks (tasks/extract/subject_marks.py): bold-term and
component-table lines and component headings of a reference page, tools its shell commands
run, an organisation's own project linked by repository path, lines of code written as text."""

from __future__ import annotations

from tasks.extract.structure import Structure, scan
from tasks.extract.subject_marks import (
    affected_systems,
    appositive_names,
    code_like_lines,
    command_arguments,
    command_tools,
    defined_terms,
    inline_commands,
    names_process,
    own_project,
    structural_text,
)

PAGE = """# Ingest architecture

| Component | Responsibility |
|---|---|
| `collector` | Tails files on each node. |
| `router` | Hashes each stream to a partition. |

| Setting | Default |
|---|---|
| `timeout` | 10s |

**indexer**: owns one partition at a time; the router sends it batches.

**Note:** the indexer and the router never share a partition.

archiver
: writes compacted chunks to object storage.

## Indexer

The indexer flushes its index every five minutes.

## Hashing

Hashing spreads streams; hashing is cheap.
"""

RUNBOOK = """# EtcdSlow

```console
$ oc rsh -n openshift-etcd etcd-0
$ etcdctl endpoint status -w table
$ etcdctl check perf
$ grep slow /var/log/etcd.log
```

```sh
sum by(resource) (rate(apiserver_request_total[1d]))
psql -c 'select 1'
```

```yaml
# breaker is half-open
kubectl: no
```
"""


def _structure(text: str) -> Structure:
    return scan(text.splitlines(), 1)


def test_bold_terms_component_tables_and_component_headings() -> None:
    found = defined_terms(_structure(PAGE), PAGE)
    assert {"collector", "router", "indexer", "archiver"} <= set(found)
    assert "timeout" not in found  # a table of settings names no components
    assert "hashing" not in found  # a heading that names a process, not a thing


def test_a_table_with_a_column_of_duties_names_components_in_its_first_column() -> None:
    """A components table is known by its first header (a C4 "Container") or by a column that
    says what each row does ("Responsibility", "Purpose"), whatever the first header says; a
    table of actions with an owner is none."""
    page = """# Platform containers

| Container | Technology |
|---|---|
| Event bus | NATS JetStream |

| Building block | Responsibility | Owner |
|---|---|---|
| Lintel reservation API | Read-only view of reservations | Property Systems team |

| Action | Owner |
|---|---|
| Rotate the secret | Platform SRE |
"""
    found = defined_terms(_structure(page), page)
    assert {"event bus", "lintel reservation api"} <= set(found)
    assert "rotate the secret" not in found


def test_names_process() -> None:
    assert names_process("Log ingestion") and names_process("Hashing") and names_process("Replication")
    assert not names_process("store gateway") and not names_process("Querier")


def test_tools_run_by_shell_commands() -> None:
    tools = command_tools(_structure(RUNBOOK))
    assert [(tool, len(hits)) for tool, hits in sorted(tools.items())] == [("etcdctl", 2), ("psql", 1)]


def test_own_project_by_repository_path() -> None:
    lines = [(1, "- [#61812](https://github.com/rust-lang/rust/pull/61812) and rust-lang/rust#64564"),
             (2, "- [RFC 2532](https://github.com/rust-lang/rfcs/pull/2532)"),
             (3, "- [#64564](https://github.com/rust-lang/rust/pull/64564)"),
             (4, "- https://github.com/rust-lang/rfcs/pull/1210")]
    project = own_project(lines)
    assert project is not None and project[0] == "rust" and [n for n, _ in project[1]] == [1, 3]
    assert own_project(lines[1:2] + lines[3:]) is None  # a repository of documents is no project
    assert own_project([(1, "https://github.com/PostHog/posthog-js/pull/1"),
                        (2, "https://github.com/PostHog/posthog-js/pull/2")]) == (
        "posthog-js", [(1, "posthog-js"), (2, "posthog-js")])


def test_code_written_as_indented_text() -> None:
    lines = [(1, "    impl<T> Extend for T where T: Iterator { ... }"), (2, "    type Output: Ord;"),
             (3, "Extend is a trait; see below."), (4, "    - the store keeps <b>one</b> copy")]
    assert code_like_lines(lines) == {1, 2}


def test_structural_text_is_headings_and_rows_fields_bold_and_code() -> None:
    text = """# Search outage

Owner: search team. The **shard allocator** moved the `force-merge` job.
Plain prose names the batch job only.

| Affected services | order-router |
|---|---|

## Product index
"""
    headings, marked = structural_text(scan(text.splitlines(), 1))
    assert headings.splitlines() == ["search outage", "product index"]
    assert "owner: search team" in marked and "shard allocator" in marked and "force-merge" in marked
    assert "order-router" in marked and "batch job" not in marked


def test_the_names_shell_commands_act_on() -> None:
    text = ("# Runbook\n\n## Diagnosis\n\n```bash\nkafka-consumer-groups --describe --group billing-events\n"
            "kubectl -n billing logs deploy/billing-consumer --tail=100\nhelm upgrade ./chart-dir\n```\n")
    assert set(command_arguments(scan(text.splitlines(), 1))) == {"billing-events", "billing-consumer"}


def test_affected_systems_reads_a_header_field_of_systems() -> None:
    page = [
        "# BSMs dropped after a gateway failover",
        "",
        "**Systems:** BagTrack, SITA Type B network, baggage sortation controller",
        "| Affected services | search API, checkout |",
        "Our systems: none of them were down, and the whole paragraph goes on for a while.",
        "- Systems affected: ledger-writer",
    ]
    found = {hits[0][1]: [n for n, _ in hits] for hits in affected_systems(scan(page, 1)).values()}
    assert found == {"BagTrack": [3], "SITA Type B network": [3], "baggage sortation controller": [3],
                     "search API": [4], "ledger-writer": [6]}  # "checkout": an English word alone


def test_an_appositive_that_tells_a_state_names_nothing() -> None:
    found = appositive_names([(1, "A vendor claims system, customised, on PostgreSQL 15."),
                              (2, "Conveyor, our job runner, starts each job; our deploy tool, shipit, ships it.")])
    assert "customised" not in found
    assert {"conveyor", "shipit"} <= set(found)


def test_a_subcommand_written_alone_in_a_code_span_is_no_tool() -> None:
    page = """# Recover the stream

1. Drop the lost peers:

```bash
nats --context crewline-admin stream cluster peer-remove CREW_JOBS nats-1
```

## Verification

- `stream info CREW_JOBS` shows a leader; `patronictl switchover --candidate pg-2` moves it.
"""
    assert sorted(inline_commands(_structure(page))) == ["patronictl"]

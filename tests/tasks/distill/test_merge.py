"""merge_extractions is pure: extractions + a loaded graph and registry in, a merged graph out,
with no memory root at all (sources read in earlier runs come through the `earlier` port)."""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import replace

from schemas.distill_inbox import TombstoneList
from tasks.distill.merge import MergeInputs, merge_extractions
from tasks.distill.plan import DistillPlan
from tasks.distill.registry_rows import LoadedRegistry
from tasks.distill.resolve import Forgotten
from tasks.extract import Extraction, SourceRef, extract_facts
from tasks.store.graph_store import empty_graph, empty_registry, graph_data

NOW = "2026-03-24T22:40:05Z"


def source(name: str, text: str) -> Extraction:
    ref = SourceRef(name * 64 if len(name) == 1 else name, f"wiki/sources/{name}.md", f"raw/{name}.md")
    return extract_facts(text, ref)


API = """---
entity: Billing API
entity_type: service
---

# Billing API

- [fact] Billing API answers in 40 ms
- depends_on [[Ledger]]
"""

LEDGER = """---
entity: Ledger
entity_type: database
---

# Ledger

- [fact] Ledger keeps every entry forever
- [fact] Ledger was built for Project Falcon

The Billing API writes here.
"""


NOTES = """# Backup notes

We should back up the Ledger every night.
"""


class Earlier:
    """The port: records what it was asked, returns nothing (no earlier run)."""

    def __init__(self) -> None:
        self.asked: list[tuple[dict[str, str], set[str]]] = []

    def __call__(self, names: Mapping[str, str], read_now: AbstractSet[str]) -> list[Extraction]:
        self.asked.append((dict(names), set(read_now)))
        return []


def inputs(*topics: str) -> MergeInputs:
    tombstones = TombstoneList.model_validate({"tombstones": [
        {"topic": topic, "reason": "r", "tombstonedAtUtc": NOW} for topic in topics]})
    return MergeInputs(graph_data(empty_graph(NOW)), LoadedRegistry.of_model(empty_registry(NOW)),
                       Forgotten(tombstones), NOW)


def test_merge_builds_entities_relations_and_mentions_without_a_root() -> None:
    extractions = [source("a", API), source("b", LEDGER), source("c", NOTES)]
    earlier = Earlier()
    result = merge_extractions(inputs(), extractions, DistillPlan(), earlier)
    graph = result.merge.graph()
    by_name = {e["entityName"]: e for e in graph["entities"]}
    assert by_name["Ledger"]["entityType"] == "database"
    assert "[fact] Billing API answers in 40 ms" in by_name["Billing API"]["observations"]
    relations = {(r["sourceEntityName"], r["relationType"], r["targetEntityName"])
                 for r in graph["relations"]}
    assert ("Billing API", "depends_on", "Ledger") in relations
    # Ledger's prose names the Billing API, already related more precisely: no "mentions".
    assert ("Ledger", "mentions", "Billing API") not in relations
    # A plain document that states no fact is an entity only because it mentions one.
    assert ("Backup notes", "mentions", "Ledger") in relations
    assert result.merge.delta.entities_added_count == 3
    assert sorted(result.resolver.added) == ["backup notes", "billing api", "ledger"]
    # The port was asked once, before pass 3, with the names passes 1-2 registered.
    (names, read_now), = earlier.asked
    assert names == {"Billing API": "Billing API", "Ledger": "Ledger"}
    assert read_now == {"a" * 64, "b" * 64, "c" * 64}


def test_forgotten_topics_never_enter_the_graph() -> None:
    result = merge_extractions(inputs("project falcon"), [source("b", LEDGER)], DistillPlan(),
                               Earlier())
    (ledger,) = result.merge.graph()["entities"]
    assert ledger["observations"] == ["[fact] Ledger keeps every entry forever"]


def test_the_merge_is_deterministic() -> None:
    first = merge_extractions(inputs(), [source("a", API), source("b", LEDGER)], DistillPlan(),
                              Earlier()).merge.graph()
    again = merge_extractions(inputs(), [source("a", API), source("b", LEDGER)], DistillPlan(),
                              Earlier()).merge.graph()
    assert first == again


RECORD = """# Decision: cache the parsed graph

## Status

Accepted.

## Decision

We cache what membank wrote, revision {revision}.
"""


def record_in(folder: str, revision: int) -> Extraction:
    name = f"{folder}-{revision}"
    ref = SourceRef(name, f"wiki/sources/{name}.md", f"raw/{name}.md",
                    f"{folder}/team-decision-on-caching.md")
    return extract_facts(RECORD.format(revision=revision), ref)


def test_a_record_registered_again_under_its_qualified_name_brings_no_new_name() -> None:
    # The same file name in two folders: the second is kept as "<title> (<folder>)", and each
    # new version of it registers that name again. The name is in the registry already, so
    # the sources of earlier runs are not read again for it (20,000 at 100,000 pages).
    first = merge_extractions(inputs(), [record_in("other", 0)], DistillPlan(), Earlier())
    memory = replace(inputs(), registry=LoadedRegistry.of_model(first.resolver.registry(NOW, None)))
    second = merge_extractions(memory, [record_in("notes", 1)], DistillPlan(), earlier := Earlier())
    assert earlier.asked[0][0] == {"Decision: cache the parsed graph (notes)":
                                   "Decision: cache the parsed graph (notes)"}
    assert second.resolver.renewed == set()
    key = "decision: cache the parsed graph (notes)"
    second.resolver.add_alias(second.resolver.entries[key], "graph cache decision")  # a later run's alias
    memory = replace(inputs(), registry=LoadedRegistry.of_model(second.resolver.registry(NOW, None)))
    third = merge_extractions(memory, [record_in("notes", 2)], DistillPlan(), earlier := Earlier())
    # The new version finds its entry by its record and folder: nothing is registered again, and
    # the entry keeps the aliases it had.
    assert third.resolver.added == [] and third.resolver.renewed == set()
    assert "graph cache decision" in third.resolver.entries[key].aliases
    (names, _), = earlier.asked
    assert names == {}


PIPELINE = """---
entity: Pipeline
entity_type: component
---

# Pipeline

- [fact] Pipeline runs every build step in order
"""


def test_a_common_word_entity_is_related_only_where_written_as_a_name_or_in_the_title() -> None:
    asides = """# Cache warm-up notes

We warm the cache before each pipeline starts.
Any pipeline waits for the warm-up to finish.
"""
    named = """# Build notes

Every team uses the Pipeline for releases. The Pipeline retries a failed step once.
"""
    titled = """# Pipeline retries

A failed pipeline step is retried once; the pipeline then stops.
"""
    result = merge_extractions(inputs(), [source("p", PIPELINE), source("w", asides),
                                          source("n", named), source("t", titled)],
                               DistillPlan(), Earlier())
    related = {r["sourceEntityName"] for r in result.merge.graph()["relations"]
               if r["targetEntityName"] == "Pipeline"}
    # "each pipeline", "any pipeline": an ordinary word; written "the Pipeline", or the
    # title's word, it is the registered component
    assert related == {"Build notes", "Pipeline retries"}

"""Record-to-record relations through distill: resolved to the record with that stem or number
in the same log, a link to nothing is a candidate (never a stub entity), names alone never
relate two records, and a link waits for a record distilled later."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from schemas.graph import RegistryEntry
from tasks.distill.apply import distill_memory
from tasks.distill.record_graph import RecordIndex
from tasks.extract.record_links import SUPERSEDES, RecordLink
from tasks.store.operation import writing_operation
from tasks.store.settings import load_settings
from tests.conftest import FIXED_NOW
from tests.stored_sources import bootstrap, store_source

LATER = "2026-03-25T08:00:00Z"


def record(number: int, title: str, extra: str = "", status: str = "Accepted") -> str:
    return (
        f"# {number}. {title}\n\nDate: 2024-01-{number:02d}\n\n## Status\n\n{status}\n\n"
        f"## Context\n\nWhy {title.lower()}.\n\n## Decision\n\nWe will {title.lower()}.\n\n{extra}\n"
    )


def distill(root: Path, now: str = FIXED_NOW) -> None:
    with writing_operation(load_settings(root, fixed_clock=now), "distill") as operation:
        report = distill_memory(operation)
    assert report.status == "success", report.problems


def graph(root: Path) -> dict:
    return json.loads((root / "context/knowledge-graph.index.jsonc").read_text())


def relations(root: Path) -> set[tuple[str, str, str]]:
    return {
        (r["sourceEntityName"], r["relationType"], r["targetEntityName"])
        for r in graph(root)["relations"]
    }


def candidates(root: Path) -> dict[str, str]:
    inbox = json.loads((root / "context/distill-candidates.jsonc").read_text())
    return {c["term"]: c["kind"] for c in inbox["candidates"]}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path / ".memories"
    bootstrap(path)
    return path


@pytest.mark.parametrize(
    ("statement", "expected"),
    [
        ("Supersedes [ADR 1](0001-old-name.md).", ("Two", "supersedes", "One")),  # wrong file
        ("This ADR replaces the approach of 0001.", ("Two", "supersedes", "One")),
        ("Supersedes some aspects of ADR-1.", ("Two", "partially_supersedes", "One")),
        ("Amends adr-0001.", ("Two", "amends", "One")),
        ("See also ADR 1 for the background.", ("Two", "relates_to", "One")),
    ],
)
def test_record_relations_resolve_by_number_in_the_same_log(
    root: Path, statement: str, expected: tuple[str, str, str]
) -> None:
    store_source(root, "adr/0001-one.md", record(1, "One"))
    store_source(root, "adr/0002-two.md", record(2, "Two", statement))
    store_source(root, "other/0001-elsewhere.md", record(1, "Elsewhere"))  # another log's 1
    distill(root)
    assert relations(root) == {expected}
    one = next(e for e in graph(root)["entities"] if e["entityName"] == "One")
    whole = expected[1] == "supersedes"
    assert ("Decision: We will one." in one["observations"]) is not whole  # partial: stays current
    if expected[1] == "partially_supersedes":
        assert any(o.startswith("Partly superseded by Two: ") for o in one["observations"])


def test_a_link_to_no_record_is_a_candidate_never_a_stub_entity(root: Path) -> None:
    store_source(root, "adr/0002-two.md", record(2, "Two", "Supersedes [Old](0001-gone.md) and ADR 9."))
    distill(root)
    assert [e["entityName"] for e in graph(root)["entities"]] == ["Two"]
    assert candidates(root) == {"0001-gone": "record_link", "ADR 9": "record_link"}


def test_two_records_with_one_number_are_not_guessed_between(root: Path) -> None:
    store_source(root, "adr/adr013-use-fetch.md", record(13, "Use fetch"))
    store_source(root, "adr/adr013-use-node-fetch.md", record(13, "Use node fetch"))
    store_source(root, "adr/adr014-later.md", record(14, "Later", "Unlike ADR013, this one ..."))
    distill(root)
    assert relations(root) == set()
    assert candidates(root).get("ADR013") == "record_link"


def test_heading_words_and_titles_alone_never_relate_records(root: Path) -> None:
    untitled = "# Context\n\nWe need queues.\n\n## Decision\n\nUse a queue.\n\n## Status\n\nAccepted\n"
    store_source(root, "adr/0001-queues.md", untitled)
    store_source(root, "adr/0002-two.md", record(2, "Two", "The Context above and the queues matter."))
    distill(root)
    names = sorted(e["entityName"] for e in graph(root)["entities"])
    assert names == ["Two", "queues"]  # the untitled record is named by its file, not "Context"
    assert relations(root) == set()


def test_a_link_waits_for_the_record_distilled_later(root: Path) -> None:
    store_source(root, "adr/0002-two.md", record(2, "Two", "Amends [ADR 1](0001-one.md)."))
    distill(root)
    assert relations(root) == set() and "0001-one" in candidates(root)
    store_source(root, "adr/0001-one.md", record(1, "One"), now_iso=LATER)
    distill(root, LATER)
    assert relations(root) == {("Two", "amends", "One")}
    assert "0001-one" not in candidates(root)
    state = (root / "context/distill-state.jsonc").read_text()
    assert "pendingRecordLinks" not in state
    before = {p: p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
    distill(root, LATER)  # nothing new: nothing changes
    assert {p: p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()} == before


def test_prose_list_items_are_not_relations_and_names_keep_their_case(root: Path) -> None:
    store_source(
        root,
        "notes/handoff.md",
        "---\nentity: Handoff\n---\n\n- The [[Memory Writer]] now opens the database in WAL mode\n"
        "- [Memory Writer] keeps the lock for 30 s\n- [Decision] Use WAL\n- depends_on [[- Disk]]\n",
    )
    distill(root)
    assert relations(root) == {
        ("Handoff", "mentions", "Memory Writer"),
        ("Handoff", "depends_on", "Disk"),
    }
    handoff = next(e for e in graph(root)["entities"] if e["entityName"] == "Handoff")
    assert "[Memory Writer] keeps the lock for 30 s" in handoff["observations"]
    assert "[decision] Use WAL" in handoff["observations"]
    page = next((root / "wiki/entities").glob("*__memory-writer.md")).read_text()
    assert "Memory Writer is an entity of this memory." in page or "is a concept entity" in page
    assert "entity entity" not in page


def test_a_path_written_from_another_folder_resolves_by_its_folder_and_stem(root: Path) -> None:
    """A link written from the memory's root ("proposals/x.md" inside proposals/), or to where a
    document used to be, still means the one document with that folder name and stem."""
    store_source(root, "docs/proposals/0001-one.md", record(1, "One"))
    store_source(root, "docs/proposals/0002-two.md",
                 record(2, "Two", "Supersedes [the first](proposals/0001-one.md)."))
    distill(root)
    assert ("Two", "supersedes", "One") in relations(root)


def test_a_reference_by_series_and_number_finds_that_document_in_any_folder() -> None:
    """'RFD 12', 'PEP 14' (Superseded-By: 14) and 'RFC 0007' name the document whose stem or
    title starts with that id, also in another folder; a number of another series does not
    (links35)."""
    def entry(name: str, stem: str, log: str) -> RegistryEntry:
        return RegistryEntry.model_validate({"canonicalName": name, "entityType": "document",
                                             "recordKey": stem, "recordLog": log})

    rfd = entry("Edge cache", "rfd-0012-edge-cache", "docs/proposals")
    pep = entry("Adaptive client retries", "pep-0014-adaptive-retry", "docs/proposals")
    inc = entry("INC-42: Brokers out of disk", "broker-disk-full", "docs/incidents")
    index = RecordIndex.build([rfd, pep, inc])

    def link(text: str, number: int) -> RecordLink:
        return RecordLink(SUPERSEDES, False, text, None, number, 1, text)

    assert index.resolve(link("RFD 12", 12), "docs/proposals") is rfd
    assert index.resolve(link("14", 14), "docs/proposals") is pep
    assert index.resolve(link("INC-42", 42), "docs/proposals") is inc  # by its title, elsewhere
    assert index.resolve(link("KEP-12", 12), "docs/ops") is None


def test_a_dated_entry_is_the_one_page_of_the_folder_whose_stem_starts_with_that_date() -> None:
    later = RegistryEntry.model_validate({"canonicalName": "Sync, 2025-06-01", "entityType": "meeting",
                                          "recordKey": "2025-06-01-sync", "recordLog": "ops"})
    index = RecordIndex.build([later])
    dated = RecordLink(SUPERSEDES, True, "2025-06-01", None, None, 1, "x", "ops")
    assert index.resolve(dated, "ops") is later
    assert index.resolve(RecordLink(SUPERSEDES, True, "2025-06-02", None, None, 1, "x", "ops"), "ops") is None


CATALOGUE_ENTRY = (
    "# Meter Reads API\n\nThe read store behind the customer portal and the billing run.\n\n"
    "Its figures are in the [capacity sheet](../capacity/read-store-sizing.md).\n"
)
POSTMORTEM_LINKING_IT = (
    "# Postmortem: portal shows no meter reads\n\nDate: 2025-06-14\n\n## Summary\n\n"
    "The portal showed no reads for two hours.\n\n## Root cause\n\n"
    "A full disk on the read store.\n\n## Related\n\n"
    "- The service's [catalogue entry](../catalogue/meter-reads-api.md)\n"
)


def distill_in_runs(root: Path, page: tuple[str, str], linking: tuple[str, str], runs: str) -> None:
    """Store and distill a linked page and the page linking it (path, text): in "one run", "the
    page first" or "the link first" (two runs)."""
    batches = {"one run": [[page, linking]], "the page first": [[page], [linking]],
               "the link first": [[linking], [page]]}[runs]
    for number, batch in enumerate(batches):
        now = FIXED_NOW if number == 0 else LATER
        for path, text in batch:
            store_source(root, path, text, now_iso=now)
        distill(root, now)


@pytest.mark.parametrize("runs", ["one run", "the page first", "the link first"])
def test_a_plain_document_is_found_by_its_file_in_any_run(root: Path, runs: str) -> None:
    """A document of no genre and no type of its own (a catalogue entry) is a link's target by
    its file, whether it was distilled in the same run, an earlier one or a later one; the
    pages it links to are related to it (and a link to nothing stays a candidate)."""
    page = ("catalogue/meter-reads-api.md", CATALOGUE_ENTRY)
    linking = ("postmortems/2025-06-14-no-reads.md", POSTMORTEM_LINKING_IT)
    distill_in_runs(root, page, linking, runs)
    assert ("Postmortem: portal shows no meter reads", "relates_to", "Meter Reads API") in relations(root)
    assert "meter-reads-api" not in candidates(root)
    state = json.loads((root / "context/distill-state.jsonc").read_text())
    keys = {s.get("documentKey"): s.get("documentEntity") for s in state["sources"]}
    assert keys.get("catalogue/meter-reads-api") == "Meter Reads API"


def test_same_titled_plain_documents_in_two_folders_stay_one_entity_in_either_order(
    tmp_path: Path,
) -> None:
    """Being found by its file is no identity: two plain pages of one title in two folders are
    one entity (as before), and the registry does not depend on which was distilled first."""
    licence = "# Apache License 2.0\n\nThe code of this folder is licensed under it ([notice](NOTICE.md)).\n"
    registries = []
    for order in (("a", "b"), ("b", "a")):
        root = tmp_path / "".join(order) / ".memories"
        bootstrap(root)
        for number, folder in enumerate(order):
            now = FIXED_NOW if number == 0 else LATER
            store_source(root, f"{folder}/LICENSE.md", licence, now_iso=now)
            distill(root, now)
        registry = json.loads((root / "context/entity-registry.jsonc").read_text())
        registries.append([(e["canonicalName"], e.get("recordKey"), e.get("recordLog"))
                           for e in registry["entries"]])
    assert registries[0] == registries[1]
    assert [name for name, _key, _log in registries[0]].count("Apache License 2.0") == 1


def test_a_mention_means_only_the_one_document_that_states_its_id() -> None:
    """"see ADR-0015" names the decision record numbered 15 by its file alone ("0015-x.md": the
    log's records are its ADRs) or a document whose stem or title states the id, in any folder;
    never a page of the same number in the mentioning folder, nor one of two records of that
    number."""
    def entry(name: str, stem: str, log: str, entity_type: str = "decision") -> RegistryEntry:
        return RegistryEntry.model_validate({"canonicalName": name, "entityType": entity_type,
                                             "recordKey": stem, "recordLog": log})

    adr = entry("Score claims asynchronously", "0015-score-claims", "docs/decisions")
    inc = entry("INC-318: Repairers paid twice", "inc-318-duplicates", "docs/postmortems", "incident")
    numbered = entry("Storm-day runbook", "0016-storm-day", "docs/runbooks", "runbook")
    dated = entry("Use Kafka", "2024-05-14-use-kafka", "docs/decisions")
    index = RecordIndex.build([adr, inc, numbered, dated])

    def mention(text: str, number: int) -> RecordLink:
        return RecordLink("relates_to", False, text, None, number, 1, text, "docs/runbooks", mention=True)

    assert index.resolve(mention("ADR-0015", 15), "docs/runbooks") is adr
    assert index.resolve(mention("INC-318", 318), "docs/runbooks") is inc
    assert index.resolve(mention("ADR 16", 16), "docs/runbooks") is None  # a runbook's number is no ADR
    assert index.resolve(mention("RFC 16", 16), "docs/runbooks") is None
    assert index.resolve(mention("ADR-2024", 2024), "docs/runbooks") is None  # a date is no number
    twice = RecordIndex.build([adr, entry("Other log's 15", "0015-other", "svc/decisions")])
    assert twice.resolve(mention("ADR-0015", 15), "docs/runbooks") is None
    # a key of more parts names only the document whose names open with all of it
    coe = entry("COE-2024-02: Wrong platforms", "coe-2024-02-wrong-platforms", "docs/postmortems", "incident")
    keyed = RecordIndex.build([coe])
    assert keyed.resolve(mention("COE-2024-02", 2024), "docs/runbooks") is coe
    assert keyed.resolve(mention("COE-2024-03", 2024), "docs/runbooks") is None
    assert index.names_series(mention("INC-9", 9)) and index.names_series(mention("RFC 1", 1))
    assert not index.names_series(mention("HTTP 503", 503))


POSTMORTEM_NAMING_RECORDS = (
    "# Postmortem: claims intake down\n\nDate: 2026-01-12\n\n## Summary\n\n"
    "Intake calls the scorer synchronously (ADR-0001) and timed out for two hours.\n\n"
    "## Root cause\n\nA slow model release; the same as INC-9876 last year, with HTTP 503 errors.\n"
)


def test_a_postmortem_naming_a_record_by_id_relates_to_it_and_an_unknown_id_is_a_candidate(
    root: Path,
) -> None:
    store_source(root, "docs/decisions/0001-one.md", record(1, "One"))
    store_source(root, "docs/postmortems/2026-01-12-intake-down.md", POSTMORTEM_NAMING_RECORDS)
    distill(root)
    # named by its key, the record is cited (tasks/distill/record_keys.py), and known by that key
    found = {(source, target) for source, kind, target in relations(root) if kind == "references_decision"}
    assert ("Postmortem: claims intake down", "One") in found
    registry = json.loads((root / "context/entity-registry.jsonc").read_text())
    assert "ADR-0001" in next(e for e in registry["entries"] if e["canonicalName"] == "One")["aliases"]
    inbox = candidates(root)
    assert inbox.get("INC-9876") == "record_link"  # a number no document states: never a guess
    assert "HTTP 503" not in inbox


def test_a_link_left_unresolved_waits_once() -> None:
    """A source read again (for its mentions) brings its links from the extraction and from the
    distill state: the link that still resolves to nothing is kept pending once, as one run
    keeps it (test_batching)."""
    from tasks.distill.record_graph import RecordIndex, _Linker, _Linking
    from tasks.extract import SourceRef
    from tasks.extract.record_links import RecordLink

    waiting = RecordLink("relates_to", False, "the limits page", "resource-limits", None, 3, "see it",
                         "docs/advanced")
    source = SourceRef("a" * 64, "wiki/sources/x.md", "raw/x.md", "docs/x.md")
    subject = RegistryEntry(canonicalName="Sources", entityType="document")
    linker = _Linker(merge=None, index=RecordIndex(), forgotten=lambda _: False)  # type: ignore[arg-type]
    linker.link(_Linking(source, None, subject, (waiting, waiting)), typed=False)
    assert linker.left == {"a" * 64: [waiting]}


def test_a_title_no_page_of_the_folder_has_is_the_one_page_of_that_title_elsewhere() -> None:
    """"Replaces: Disk pressure triage" in a field: a page of that title in another folder, when
    the memory has one; a title of one word ("Kafka") names a thing more often than a page."""
    def entry(name: str, stem: str, log: str) -> RegistryEntry:
        return RegistryEntry.model_validate({"canonicalName": name, "entityType": "runbook",
                                             "recordKey": stem, "recordLog": log})

    triage = entry("Disk pressure triage", "disk-pressure", "kb/ops")
    kafka = entry("Kafka", "kafka", "kb/radar")
    index = RecordIndex.build([triage, kafka])

    def titled(text: str) -> RecordLink:
        return RecordLink(SUPERSEDES, False, text, None, None, 1, text, "kb/runbooks")

    assert index.resolve(titled("Disk pressure triage"), "kb/runbooks") is triage
    assert index.resolve(titled("Kafka"), "kb/runbooks") is None
    twice = RecordIndex.build([triage, entry("Disk pressure triage", "disk-pressure", "kb/old")])
    assert twice.resolve(titled("Disk pressure triage"), "kb/runbooks") is None


def test_a_tracker_number_names_the_one_page_titled_with_it() -> None:
    """'#2291' (or 'Redmine #2291') in prose names the page a tracker titles "Feature #2291" or
    "... #57", and is cited by it; a number no page is titled with names none."""
    def entry(name: str, stem: str, log: str, entity_type: str) -> RegistryEntry:
        return RegistryEntry.model_validate({"canonicalName": name, "entityType": entity_type,
                                             "recordKey": stem, "recordLog": log})

    feature = entry("Feature #2291", "redmine-2291-specify", "kb/decisions", "decision")
    issue = entry("Leak alerts as push notifications #57", "issue-57-leak-alerts", "kb/notes", "document")
    index = RecordIndex.build([feature, issue])

    def cited(text: str) -> RecordLink:
        return RecordLink("relates_to", False, text, None, int(text[1:]), 1, text, "kb/minutes", mention=True)

    assert index.resolve(cited("#2291"), "kb/minutes") is feature
    assert index.resolve(cited("#57"), "kb/minutes") is issue
    assert index.resolve(cited("#58"), "kb/minutes") is None
    from tasks.distill.record_keys import relation_for_key
    page = entry("Pressbook sync", "sync", "kb/minutes", "meeting")
    assert relation_for_key(cited("#2291"), page, feature, index.cited_ids(feature), "kb/decisions") \
        == "references_decision"

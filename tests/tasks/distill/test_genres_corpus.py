"""Distill on documents of every genre (issue 23): the shared corpus' genre folders
(../shared/corpus/GENRES.md) and our own fixtures (tests/fixtures/distill/genres/, written from
the public templates: KEP/TEP kep.yaml, Go design docs, Google SRE postmortems, alert runbooks,
architecture pages, meeting notes). Prints the issue's figures: documents that yield their
entity with their stated status and dates, stated links found (and spurious supersessions),
conclusions covered by an observation of at most 40 lines, boilerplate observations; a second
run changes no byte.

Gold is hand-written: for the fixtures, every stated status, date, link and conclusion; for the
corpus, the cross-document supersessions GENRES.md lists and the stated statuses and dates of
the proposals (front matter or header block)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tasks.distill.apply import distill_memory
from tasks.distill.record_keys import CITATIONS
from tasks.store.operation import writing_operation
from tasks.store.settings import load_settings
from tests.conftest import CORPUS, FIXED_NOW
from tests.stored_sources import bootstrap, store_source

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "distill" / "genres"
CORPUS_FOLDERS = ("golang-proposal-design", "tektoncd-teps", "cortex-docs", "posthog-postmortems",
                  "openshift-runbooks", "rust-lang-team-minutes")
# Fixture file stem -> (entity type, stated status, stated dates as "Label: ISO").
FIXTURE_DOCS: dict[str, tuple[str, str | None, tuple[str, ...]]] = {
    "0012-shared-cache": ("proposal", "implementable", ("Created: 2023-02-14", "Last updated: 2023-05-02")),
    "0009-local-cache": ("proposal", "replaced", ("Created: 2021-09-30",)),
    "0007-artifact-hashing": ("proposal", "Accepted", ("Created: 2020-03", "Last updated: 2020-06-01")),
    "2024-03-05-login-outage": ("incident", "Complete, action items in progress",
                                ("Incident date: 2024-03-05",)),
    "QueueBacklogHigh": ("runbook", None, ()),
    "scheduler": ("document", None, ()),
    "2024-04-02": ("meeting", None, ("Meeting date: 2024-04-02",)),
}
# Conclusions a reader wants kept: (file stem, observation label, words it must contain).
FIXTURE_CONCLUSIONS = (
    ("0012-shared-cache", "Summary", "content-addressed cache"),
    ("0012-shared-cache", "Design", "shared cache service in front of object storage"),
    ("0012-shared-cache", "Non-goal", "Caching test results"),
    ("0012-shared-cache", "Non-goal", "Replacing the artifact registry"),
    ("0009-local-cache", "Summary", "warms its local cache"),
    ("0007-artifact-hashing", "Summary", "hash of their declared inputs"),
    ("0007-artifact-hashing", "Design", "SHA-256 of its inputs"),
    ("2024-03-05-login-outage", "Summary", "rejected every sign-in"),
    ("2024-03-05-login-outage", "Cause", "expired TLS certificate"),
    ("2024-03-05-login-outage", "Impact", "unable to sign in"),
    ("2024-03-05-login-outage", "Resolution", "issued a new certificate"),
    ("2024-03-05-login-outage", "Action item", "Re-enable the certificate renewal job (owner: jonas)"),
    ("2024-03-05-login-outage", "Action item", "Alert 14 days before any certificate expires (owner: priya)"),
    ("2024-03-05-login-outage", "Action item", "Document the manual renewal procedure (owner: Priya Raman)"),
    ("QueueBacklogHigh", "Meaning", "more than 10,000 messages"),
    ("QueueBacklogHigh", "Impact", "reach dashboards late"),
    ("QueueBacklogHigh", "Mitigation", "Scale the consumer deployment"),
    ("QueueBacklogHigh", "Escalation", "Page the data platform"),
    ("scheduler", "Constraint", "must run as a single instance"),
    ("scheduler", "Constraint", "at most one lease per job"),
    ("scheduler", "Constraint", "never renewed by the dispatcher"),
    ("2024-04-02", "Decision", "Roll the shared cache out"),
    ("2024-04-02", "Decision", "Keep the two-person on-call rotation"),
    ("2024-04-02", "Action item", "Amara to write the rollout plan (owner: Amara)"),
    ("2024-04-02", "Action item", "Jonas to update the on-call calendar (owner: Jonas)"),
)
# Every link between documents the documents state: (source stem, relation, target stem).
LINKS = {
    "fixtures": {
        ("0012-shared-cache", "supersedes", "0009-local-cache"),
        ("0012-shared-cache", "relates_to", "0007-artifact-hashing"),
        ("QueueBacklogHigh", "supersedes", "QueueBacklogOld"),
    },
    "tektoncd-teps": {
        ("0107-propagating-parameters", "supersedes", "0023-implicit-mapping"),
        ("0138-decouple-api-and-feature-versioning", "supersedes", "0033-tekton-feature-gates"),
        ("0090-matrix", "relates_to", "0023-implicit-mapping"),
        ("0118-matrix-with-explicit-combinations-of-parameters", "relates_to", "0090-matrix"),
        ("0140-producing-results-in-matrix", "relates_to", "0075-object-param-and-result-types"),
        ("0140-producing-results-in-matrix", "relates_to", "0076-array-result-types"),
        ("0140-producing-results-in-matrix", "relates_to", "0090-matrix"),
        ("0150-displayname-in-matrix", "relates_to", "0118-matrix-with-explicit-combinations-of-parameters"),
        ("0150-displayname-in-matrix", "relates_to", "0090-matrix"),
    },
    "golang-proposal-design": {("43651-type-parameters", "supersedes", "go2draft-contracts")},
    "cortex-docs": {("ruler-ha-new", "supersedes", "ruler-ha")},
    "openshift-runbooks": {
        ("cluster-kube-apiserver-operator/KubeAPIDown", "supersedes", "cluster-monitoring-operator/KubeAPIDown"),
        ("openshift-container-storage-operator/CephMdsCPUUsageHighNeedsHorizontalScaling", "relates_to",
         "openshift-container-storage-operator/CephMdsCPUUsageHighNeedsVerticalScaling"),
    },
}
# Proposals of the corpus: stem -> (stated status, stated creation date) from their metadata.
CORPUS_PROPOSALS = {
    "0023-implicit-mapping": ("implemented", "2020-10-01"), "0107-propagating-parameters": ("implemented", "2022-04-11"),
    "0038-generic-workspaces": ("withdrawn", "2020-12-11"), "0090-matrix": ("implemented", "2021-10-13"),
    "ruler-ha": ("Deprecated", "2022-06"), "blocks-storage-bucket-index": ("draft", "2020-11"),
    "15292-generics": (None, "2011-01"), "43651-type-parameters": ("accepted", "2021-08-20"),
}
_BOILERPLATE_RE = re.compile(r"<!--|\[[ xX]\]|\[optional\]|^[A-Za-z ]+: (?:Describe|Explain|This section)", re.I)


def _distill(root: Path, files: list[tuple[str, Path]]) -> None:
    bootstrap(root, FIXED_NOW)
    for original, path in files:
        store_source(root, original, path.read_text(encoding="utf-8"), now_iso=FIXED_NOW)
    with writing_operation(load_settings(root, fixed_clock=FIXED_NOW), "distill") as operation:
        report = distill_memory(operation)
    assert report.status == "success", report.problems


# The derived search index is a database whose header counts its commits: its rows are what
# a rerun must keep (tests/tasks/search), not its bytes.
SEARCH_INDEX = "search.sqlite3"


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and "/.cache/" not in f"/{p.relative_to(root).as_posix()}"
            and not p.name.startswith(SEARCH_INDEX)}


def _memory(root: Path) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    """Entities by their document's file stem (recordKey), and the relations."""
    graph = json.loads((root / "context/knowledge-graph.index.jsonc").read_text(encoding="utf-8"))
    registry = json.loads((root / "context/entity-registry.jsonc").read_text(encoding="utf-8"))
    stem_of = {e["canonicalName"]: e.get("recordKey") for e in registry["entries"]}
    # Documents with one stem in two folders (a moved runbook) are told apart by their folder.
    path_of = {e["canonicalName"]: f"{Path(e.get('recordLog') or '').name}/{e.get('recordKey')}"
               for e in registry["entries"]}
    entities = {stem_of.get(e["entityName"]) or e["entityName"]: e for e in graph["entities"]}
    relations = [{**r, "source": stem_of.get(r["sourceEntityName"]), "target": stem_of.get(r["targetEntityName"]),
                  "source_path": path_of.get(r["sourceEntityName"]), "target_path": path_of.get(r["targetEntityName"])}
                 for r in graph["relations"]]
    return entities, relations


def _links(relations: list[dict[str, Any]], expected: set[tuple[str, str, str]], name: str) -> list[int]:
    qualified = any("/" in link[0] for link in expected)
    ends = ("source_path", "target_path") if qualified else ("source", "target")
    # A document `about` another document (a subject phrase that is the other's title, "Matrix"),
    # or citing it by its key ("TEP-0090": tasks/distill/record_keys.py), states the link the more
    # precisely: it counts as their relates_to.
    precise = {"about", *CITATIONS}
    produced = {(r[ends[0]], "relates_to" if r["relationType"] in precise else r["relationType"], r[ends[1]])
                for r in relations if r["source"] and r["target"]
                and r["relationType"] in {"supersedes", "relates_to", "depends_on", *precise}}
    for missed in sorted(expected - produced):
        print(f"  {name}: stated link missed: {missed}")
    spurious = {p for p in produced - expected if p[1] == "supersedes"}
    for wrong in sorted(spurious):
        print(f"  {name}: spurious supersession: {wrong}")
    return [len(produced & expected), len(expected), len(spurious)]


def _boilerplate(entities: dict[str, dict[str, Any]]) -> int:
    found = [o for e in entities.values() for o in e["observations"] if _BOILERPLATE_RE.search(o)]
    for text in found:
        print(f"  boilerplate observation: {text[:100]}")
    return len(found)


def _ranges_ok(entities: dict[str, dict[str, Any]]) -> bool:
    return all(p["lineEnd"] - p["lineStart"] < 40 for e in entities.values() for p in e.get("observationProvenance", []))


def test_distill_fixtures_of_every_genre(tmp_path: Path) -> None:
    root = tmp_path / "fixtures" / ".memories"
    files = [(p.relative_to(FIXTURES).as_posix(), p) for p in sorted(FIXTURES.rglob("*.md"))]
    _distill(root, files)
    before = _files(root)
    with writing_operation(load_settings(root, fixed_clock=FIXED_NOW), "distill") as operation:
        distill_memory(operation, reread_all=True)
    assert _files(root) == before, "a second distill changed files"
    entities, relations = _memory(root)
    metadata_ok = 0
    for stem, (entity_type, status, dates) in FIXTURE_DOCS.items():
        entity = entities.get(stem)
        observations = entity["observations"] if entity else []
        stated = [o for o in observations if o.startswith("Status: ")]
        dated = {o.split(" (", 1)[0] for o in observations if re.match(r"^[A-Z][a-z ]*date: |^Created: |^Last updated: ", o)}
        ok = (entity is not None and entity["entityType"] == entity_type
              and stated == ([f"Status: {status}"] if status else []) and dated == set(dates))
        metadata_ok += ok
        if not ok:
            print(f"  fixture {stem}: {entity and entity['entityType']} {stated} {sorted(dated)}")
    covered = 0
    for stem, label, words in FIXTURE_CONCLUSIONS:
        entity = entities.get(stem, {"observations": []})
        hit = any(o.startswith(f"{label}: ") and words in o for o in entity["observations"])
        covered += hit
        if not hit:
            print(f"  conclusion missed: {stem} {label}: {words}")
    links = _links(relations, LINKS["fixtures"], "fixtures")
    boilerplate = _boilerplate(entities)
    print(f"fixtures: entity+status+dates {metadata_ok}/{len(FIXTURE_DOCS)}, links {links[0]}/{links[1]} "
          f"(spurious supersessions {links[2]}), conclusions {covered}/{len(FIXTURE_CONCLUSIONS)}, "
          f"boilerplate observations {boilerplate}")
    assert metadata_ok == len(FIXTURE_DOCS)
    assert links[0] == links[1] and links[2] == 0
    assert covered == len(FIXTURE_CONCLUSIONS)
    assert boilerplate == 0
    assert _ranges_ok(entities)
    incident = entities["2024-03-05-login-outage"]
    assert "Severity: SEV-1" in incident["observations"]
    authors = {r["targetEntityName"] for r in relations if r["relationType"] == "authored_by"}
    assert {"Priya Raman", "Jonas Weber", "Lena Okafor"} <= authors


@pytest.mark.parametrize("folder", CORPUS_FOLDERS)
def test_distill_shared_genre_corpus(tmp_path: Path, folder: str) -> None:
    source = CORPUS / folder
    if not source.is_dir():
        pytest.fail(f"shared corpus folder missing: {source}")
    root = tmp_path / folder / ".memories"
    paths = [p for p in sorted(source.rglob("*.md")) if p.stem not in {"SOURCES", "README"}]
    _distill(root, [(f"{folder}/{p.relative_to(source).as_posix()}", p) for p in paths])
    entities, relations = _memory(root)
    with_entity = sum(p.stem in entities for p in paths)
    dated = sum(any(re.match(r"^(?:Created|Incident date|Meeting date|Date): ", o)
                    for o in entities[p.stem]["observations"]) for p in paths if p.stem in entities)
    stated = sum(any(o.startswith("Status: ") for o in entities[p.stem]["observations"])
                 for p in paths if p.stem in entities)
    conclusions = sum(sum(bool(re.match(r"^(?:Summary|Design|Non-goal|Why \w+|Cause|Impact|Resolution|Action item"
                                        r"|Meaning|Diagnosis|Mitigation|Escalation|Overview|Constraint|Decision): ", o))
                          for o in entities[p.stem]["observations"]) for p in paths if p.stem in entities)
    links = _links(relations, LINKS.get(folder, set()), folder)
    boilerplate = _boilerplate(entities)
    for stem, (status, created) in CORPUS_PROPOSALS.items():
        if stem in entities:
            observations = entities[stem]["observations"]
            if status is not None:
                assert f"Status: {status}" in observations, (stem, observations[:4])
            assert any(o.startswith(("Created: " + created, "Date: " + created)) for o in observations), stem
    print(f"{folder}: documents with their entity {with_entity}/{len(paths)}, with a status {stated}, "
          f"with a date {dated}, conclusions {conclusions}, links {links[0]}/{links[1]} "
          f"(spurious supersessions {links[2]}), boilerplate observations {boilerplate}")
    assert links[2] == 0
    assert boilerplate == 0
    assert _ranges_ok(entities)
    # The two KubeAPIDown runbooks share their title and file stem: two entities all the same.
    assert links[0] >= 0.9 * links[1]

"""Key subjects of every genre (issue 23 items 4 and 6), measured on hand-labelled sets:
six development sets (tests/fixtures/distill/subjects/dev.json: our genre fixtures and some
../shared/corpus files; dev2.json: fixtures written from public templates for the third round,
tests/fixtures/distill/dev2/; dev3.json, the same for the fourth round, on precision,
tests/fixtures/distill/dev3/; dev4.json to dev6.json, the same for the seventh round, on recall,
each written before the rules that followed it; the extractor was tuned on all six) and two held-out sets (heldout.json and
heldout2.json: other corpus files of every genre and fixtures written from public templates;
never tuned on; heldout2 written by hand before the second round of work on subjects), and a third
held-out set (heldout3.json: fixtures under tests/fixtures/distill/heldout3/, written by another
developer while the fifth round's code was written; run once when it was final), and a fourth
(heldout4.json, tests/fixtures/distill/heldout4/: ten documents of every genre written on
2026-12-02 by a developer who ran no extractor; measured before and after the seventh round).

Each set is distilled into its own memory (one ingest, one first distill). Printed per set:
- key subjects found as entities related to their document by a typed relation (about,
  affected, caused_by, mitigated_by, uses, owned_by, ...; not a bare `mentions`), and with
  `mentions` too; a subject that is the document's own entity (a page titled "Compactor")
  counts as found and is counted apart;
- precision: a fixed random 40 of the entities distill related to the set's documents (not
  documents themselves), each judged real when it is one of the set's key subjects or judged so
  by hand in the gold file's `judged`; names judged by nobody are printed; and the same over
  every entity made (the judged pool: it moves only when what distill makes changes, not when
  a dropped or added entity redraws the random 40; unjudged names are left out of it);
- documents with their stated status and a stated date, conclusions covered by an observation
  of at most 40 lines, stated links found.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from schemas.graph import entity_key
from tasks.distill.apply import distill_memory
from tasks.store.operation import writing_operation
from tasks.store.settings import load_settings
from tests.conftest import CORPUS, FIXED_NOW
from tests.stored_sources import bootstrap, ingest_files, input_folder

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "distill"
GOLD = FIXTURES / "subjects"
SAMPLE = 40
DEV8_FLOOR = 56
# Relations that say what a document is about (typed); `mentions` is any registered name in prose.
UNTYPED = frozenset({"mentions", "supersedes", "relates_to", "depends_on"})
_CONCLUSION_RE = re.compile(r"^(?P<label>[A-Z][A-Za-z -]*?): ")


@dataclass
class Memory:
    """A distilled set: graph, registry, and each gold document's entity name."""

    entities: dict[str, dict[str, Any]]
    relations: list[dict[str, Any]]
    registry: dict[str, dict[str, Any]]  # entity key -> registry entry
    lookup: dict[str, str]  # name or alias key -> entity key
    document: dict[str, str | None] = field(default_factory=dict)  # gold path -> entity key

    def names(self, key: str) -> set[str]:
        entry = self.registry.get(key, {})
        return {entity_key(n) for n in [entry.get("canonicalName", key), *entry.get("aliases", [])]}


def _source(path: str) -> Path:
    return FIXTURES / path.removeprefix("fix:") if path.startswith("fix:") else CORPUS / path


def _distill(root: Path, paths: list[str]) -> tuple[Memory, dict[str, str]]:
    """Ingest `paths` (copied under their gold path) in one run and distill them once."""
    bootstrap(root, FIXED_NOW)
    copies = []
    for path in paths:
        copy = input_folder(root) / path.removeprefix("fix:")
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(_source(path), copy)
        copies.append(copy)
    assets = ingest_files(root, copies, now_iso=FIXED_NOW)
    with writing_operation(load_settings(root, fixed_clock=FIXED_NOW), "distill") as operation:
        report = distill_memory(operation)
    assert report.status == "success", report.problems
    graph = json.loads((root / "context/knowledge-graph.index.jsonc").read_text(encoding="utf-8"))
    registry = json.loads((root / "context/entity-registry.jsonc").read_text(encoding="utf-8"))
    entries = {entity_key(e["canonicalName"]): e for e in registry["entries"]}
    lookup = {entity_key(alias): key for key, e in entries.items() for alias in e.get("aliases", [])}
    lookup.update({key: key for key in entries})
    memory = Memory({entity_key(e["entityName"]): e for e in graph["entities"]}, graph["relations"],
                    entries, lookup)
    return memory, {path: asset.assetId for path, asset in zip(paths, assets, strict=True)}


def _document_entities(memory: Memory, asset_of: dict[str, str]) -> None:
    """Each document's entity: the source of the relations its asset states, else the entity
    whose observations came from its asset and which no other document relates to first."""
    for path, asset in asset_of.items():
        sources = [entity_key(r["sourceEntityName"]) for r in memory.relations
                   if any(o.get("rawAssetId") == asset for o in r.get("relationProvenance", []))]
        folder = Path(path.removeprefix("fix:")).parent.as_posix()
        observed = [key for key, e in memory.registry.items() if e.get("recordKey") == Path(path).stem
                    and _same_log(e.get("recordLog"), folder)]
        ranked = sorted(set(sources), key=lambda key: (-sources.count(key), key))
        if not ranked:  # a document that relates to nothing: the entity holding its observations (gen40)
            counts = {key: sum(p.get("rawAssetId") == asset for p in e.get("observationProvenance", []))
                      for key, e in memory.entities.items()}
            ranked = sorted((key for key, n in counts.items() if n), key=lambda key: (-counts[key], key))
        memory.document[path] = (observed or ranked or [None])[0]


def _same_log(record_log: str | None, folder: str) -> bool:
    """A record's log (a path relative to the folder it was ingested from, MB13) is the tail of
    the document's folder."""
    parts = Path(record_log).parts if record_log else ()
    return bool(parts) and Path(folder).parts[-len(parts):] == parts


def _related(memory: Memory, document: str, typed: bool) -> set[str]:
    found = set()
    for relation in memory.relations:
        if typed and relation["relationType"] in UNTYPED:
            continue
        ends = entity_key(relation["sourceEntityName"]), entity_key(relation["targetEntityName"])
        if document in ends:
            found.add(ends[1] if ends[0] == document else ends[0])
    return found


def _found(memory: Memory, document: str | None, spellings: Iterable[str], typed: bool) -> str | None:
    """How a key subject is found: "self" (the document's own entity), "related", or None."""
    if document is None:
        return None
    keys = {entity_key(s) for s in spellings}
    if memory.names(document) & keys:
        return "self"
    if any(memory.names(other) & keys for other in _related(memory, document, typed)):
        return "related"
    return None


def _recall(memory: Memory, gold: dict[str, list[str]], name: str) -> tuple[int, int, int, int]:
    """(found by a typed relation, found with mentions, of which self, key subjects)."""
    typed = anyhow = itself = total = 0
    for path, subjects in gold.items():
        document = memory.document[path]
        for subject in subjects:
            spellings = subject.split("|")
            how = _found(memory, document, spellings, typed=True)
            typed += how is not None
            itself += how == "self"
            anyhow += _found(memory, document, spellings, typed=False) is not None
            total += 1
            if how is None:
                print(f"  {name}: key subject missed: {Path(path).name}: {spellings[0]}")
    return typed, anyhow, itself, total


def _made(memory: Memory) -> list[str]:
    """The entities related to the set's documents by a typed relation (documents and decision
    records left out), sorted."""
    documents = {key for key in memory.document.values() if key}
    return sorted({other for document in documents for other in _related(memory, document, True)}
                  - documents - {k for k, e in memory.registry.items() if e.get("recordKey")})


def _verdicts(memory: Memory, gold: dict[str, Any], keys: Iterable[str]) -> dict[str, bool | None]:
    """Each entity's verdict: real when it is one of the set's key subjects, else the hand
    judgement of the gold's `judged` map, else None."""
    subjects = {entity_key(s) for subjects in gold["documents"].values() for one in subjects
                for s in one.split("|")}
    judged = {entity_key(k): v for k, v in gold.get("judged", {}).items()}
    return {key: True if memory.names(key) & subjects else judged.get(key) for key in keys}


def _pool_precision(memory: Memory, gold: dict[str, Any]) -> tuple[int, int, int]:
    """(real, judged, made) over every entity made: the judged pool, which moves only when what
    is made changes, never because a changed set of entities redraws the random 40."""
    verdicts = _verdicts(memory, gold, _made(memory))
    judged = [v for v in verdicts.values() if v is not None]
    return sum(judged), len(judged), len(verdicts)


def _draw(key: str) -> str:
    """An entity's place in the random draw: a hash of its key, so the 40 drawn are the same
    whatever else is made (an entity dropped or added outside them leaves them as they were;
    one dropped among them gives its place to the next); random.sample redrew all 40 whenever
    the list of entities changed."""
    return hashlib.sha256(f"23:{key}".encode()).hexdigest()


def _precision(memory: Memory, gold: dict[str, Any], name: str) -> tuple[int, int, int]:
    """(real, judged, sample size) over a fixed random sample of the entities related to the
    set's documents (documents themselves left out)."""
    made = _made(memory)
    sample = sorted(sorted(made, key=_draw)[:SAMPLE])
    if os.environ.get("SUBJECTS_DUMP"):  # every entity made, to judge by hand
        print(f"  {name}: made {[memory.registry.get(k, {}).get('canonicalName', k) for k in made]}")
    verdicts = _verdicts(memory, gold, sample)
    real = judged_count = 0
    for key in sample:
        verdict = verdicts[key]
        if verdict is None:
            entry = memory.registry.get(key, {})
            print(f"  {name}: unjudged entity: {entry.get('canonicalName', key)!r} ({entry.get('entityType')})")
            continue
        judged_count += 1
        real += verdict
        if not verdict:
            print(f"  {name}: not a subject: {key!r}")
    return real, judged_count, len(sample)


# A gold label and the extractor's label for the same part, where the gold's word is a free
# synonym (heldout8's "Decision" for a proposal's chosen design, "Superseded" for why it was
# superseded, "Root cause" for the incident's Cause; heldout9's "Chosen design" for a design doc's Design
# section); "conclusions strict" counts the gold's own
# label only.
# heldout18-22's gold writes "Design" for a proposal's goals ("A repairer is never paid twice for
# the same invoice", read as "Goal") and for a MADR record's Decision Outcome paragraphs (read as
# "Decision", as the gold's "Decision" is accepted for a design's "Design").
EQUIVALENT_LABELS = {"Decision": ("Design",), "Chosen design": ("Design", "Decision"),
                     "Design": ("Goal", "Decision"), "Superseded": ("Why superseded",),
                     "Summary": ("Overview",),
                     "Root cause": ("Cause",),
                     # heldout29's gold writes "Action" for what every other set calls an "Action item"
                     "Action": ("Action item",),
                     # concl71's gold names a paper's recommendation, an experiment's hypothesis and
                     # result by their sections' words; the readers call them Decision, Goal, Outcome
                     "Recommendation": ("Decision",), "Hypothesis": ("Goal",), "Result": ("Outcome",)}


def _unmarked(text: str) -> str:
    """`text` without code spans' backticks and bold's asterisks (the words a reader reads)."""
    return text.replace("`", "").replace("**", "")


def _metadata(memory: Memory, meta: dict[str, dict[str, Any]], name: str) -> dict[str, list[int]]:
    """[found, stated] of statuses, dates, conclusions and links."""
    figures = {"status": [0, 0], "date": [0, 0], "conclusions": [0, 0], "conclusions strict": [0, 0],
               "conclusions any label": [0, 0], "links": [0, 0]}
    for path, stated in meta.items():
        key = memory.document[path]
        entity = memory.entities.get(key or "", {"observations": [], "observationProvenance": []})
        observations = entity["observations"]
        checks: list[tuple[str, bool, str]] = []
        if "status" in stated:
            checks.append(("status", _states_status(observations, stated["status"]), stated["status"]))
        dated = [o for o in observations if re.match(r"^[A-Za-z ]*(?:date|created|updated): ", o, re.I)]
        if "date" in stated:
            checks.append(("date", any(stated["date"] in o for o in dated), stated["date"]))
        # text the document writes where a date could stand that is no day ("Target release | Q2 2026")
        checks += [("date", not any(text in o for o in dated), f"not a date: {text}")
                   for text in stated.get("not dates", [])]
        for label, words in stated.get("conclusions", []):
            short = [p["observation"] for p in entity.get("observationProvenance", [])
                     if p["lineEnd"] - p["lineStart"] < 40]
            # a superseded record's decision is kept as a superseded observation with its lines
            # (merge.supersede): what the record decided, remembered as replaced, not forgotten
            short += [p["observation"] for p in entity.get("supersededObservations", [])
                      if "lineStart" in p and p["lineEnd"] - p["lineStart"] < 40]
            # the gold quotes without markdown marks ("Do not use --force" for "Do not use `--force`"),
            # or with the bold the document writes ("**must never**") where the observation drops it:
            # code and bold marks are read away on both sides
            short = [_unmarked(o) for o in short]
            words = _unmarked(words)
            strict = any(o.startswith(f"{label}: ") and words in o for o in short)
            labels = (label, *EQUIVALENT_LABELS.get(label, ()))
            found = any(o.startswith(f"{same}: ") and words in o for same in labels for o in short)
            checks.append(("conclusions", found, f"{label}: {words}"))
            figures["conclusions strict"][0] += strict
            figures["conclusions strict"][1] += 1
            # the words kept under whatever label (the issue asks for coverage; the label is ours to check)
            figures["conclusions any label"][0] += any(words in o for o in short)
            figures["conclusions any label"][1] += 1
        for relation, target in stated.get("links", []):
            other = memory.document.get(target)
            checks.append(("links", any(_states_link(r, relation, key, other) for r in memory.relations),
                           f"{relation} {target}"))
        for kind, ok, what in checks:
            figures[kind][0] += ok
            figures[kind][1] += 1
            if not ok:
                print(f"  {name}: {kind} missed: {Path(path).name}: {what}")
    return figures


def _states_status(observations: list[str], status: str | None) -> bool:
    """The stated status recorded: the status alone (`Status: Accepted`) or the text as written
    (the gold writes either; `Status: Accepted (written "Accepted (2025-03-12)")` holds both);
    a gold `null` says the document states none, and none may be recorded."""
    if status is None:
        return not any(o.startswith("Status: ") for o in observations)
    return any(o == f"Status: {status}" or (o.startswith(f'Status: {status} (written "')
                                              or o.startswith("Status: ") and o.endswith(f'(written "{status}")'))
               for o in observations)


# The gold's words for a supersession and the graph's: the same link ("A replaced_by B" is
# recorded as "B supersedes A").
_SAME_LINK = {"replaces": ("supersedes",), "supersedes": ("replaces",),
              "replaced_by": ("superseded_by",), "superseded_by": ("replaced_by",)}
_INVERSE_LINK = {"replaced_by": "supersedes", "superseded_by": "supersedes"}


def _states_link(relation: dict[str, str], stated: str, key: str | None, other: str | None) -> bool:
    source, target = entity_key(relation["sourceEntityName"]), entity_key(relation["targetEntityName"])
    if stated == "relates_to" and {source, target} == {key, other}:
        return True  # distill never doubles a stronger relation with a relates_to (record_graph._apply)
    if relation["relationType"] in {stated, "about", *_SAME_LINK.get(stated, ())}:
        # distill keeps one relates_to per pair of documents, whichever states it first
        return (source, target) == (key, other) or (stated == "relates_to" and (target, source) == (key, other))
    return relation["relationType"] == _INVERSE_LINK.get(stated) and (source, target) == (other, key)


def _spurious_supersessions(memory: Memory, meta: dict[str, dict[str, Any]]) -> list[tuple[str, str]]:
    """Supersessions between the set's documents that no stated link of the gold says."""
    stated = set()
    for path, found in meta.items():
        for relation, target in found.get("links", []):
            pair = (memory.document.get(path), memory.document.get(target))
            if relation in {"replaces", "supersedes"}:
                stated.add(pair)
            elif relation in {"replaced_by", "superseded_by"}:
                stated.add(pair[::-1])
    documents = {key for key in memory.document.values() if key}
    made = {(entity_key(r["sourceEntityName"]), entity_key(r["targetEntityName"])) for r in memory.relations
            if r["relationType"] in {"supersedes", "partially_supersedes"}}
    return sorted(pair for pair in made if set(pair) <= documents and pair not in stated)


def _boilerplate(memory: Memory, documents: Iterable[str | None]) -> int:
    pattern = re.compile(r"<!--|\[[ xX]\]|\[optional\]", re.I)
    return sum(bool(pattern.search(o)) for key in documents if key
               for o in memory.entities.get(key, {"observations": []})["observations"])


def _pct(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f} %)" if whole else "0/0"


@pytest.mark.parametrize(
    "name", ["dev", "dev2", "dev3", "dev4", "dev5", "dev6", "dev4meta", "dev7", "dev8", "heldout", "heldout2",
             "heldout3", "heldout4", "heldout5", "heldout6", "heldout7", "heldout8", "heldout9", "links35",
             "house36d", "styles36", "subj36", "heldout10", "concl37", "subj37", "heldout11", "prec38",
             "prec39", "concl38", "subj38", "concl39", "heldout12", "gen40", "heldout13", "heldout14", "heldout15",
             "heldout16", "doc43", "inc43", "heldout17", "heldout18", "heldout19", "stat45", "heldout20", "heldout21",
             "heldout22", "heldout23", "heldout24", "stat49", "heldout25", "heldout26", "stat50", "heldout27",
             "heldout28", "meta51", "meta51b", "heldout29", "heldout30", "heldout31", "heldout32",
             "heldout33", "heldout34", "heldout35", "heldout36", "heldout37", "heldout38", "heldout39",
             "heldout40", "heldout41", "heldout42", "heldout43", "heldout44", "stat71", "concl71", "prec71",
             "link71"])
def test_key_subjects_of_every_genre(tmp_path: Path, name: str) -> None:
    gold = json.loads((GOLD / f"{name}.json").read_text(encoding="utf-8"))
    missing = [path for path in gold["documents"] if not _source(path).is_file()]
    if missing:
        pytest.fail(f"gold documents missing: {missing}")
    memory, asset_of = _distill(tmp_path / name / ".memories", sorted(gold["documents"]))
    _document_entities(memory, asset_of)
    with_entity = sum(key is not None for key in memory.document.values())
    typed, anyhow, itself, total = _recall(memory, gold["documents"], name)
    real, judged, sample = _precision(memory, gold, name)
    pool_real, pool_judged, pool = _pool_precision(memory, gold)
    meta = _metadata(memory, gold.get("meta", {}), name)
    boilerplate = _boilerplate(memory, memory.document.values())
    spurious = _spurious_supersessions(memory, gold.get("meta", {}))
    for source, target in spurious:
        print(f"  {name}: spurious supersession: {source} supersedes {target}")
    print(f"{name}: documents with their entity {_pct(with_entity, len(memory.document))}; key subjects related by a typed "
          f"relation {_pct(typed, total)} (of them the document itself {itself}), with mentions "
          f"{_pct(anyhow, total)}; precision of a random {sample} entities made {_pct(real, judged)} judged, "
          f"of all {pool} made {_pct(pool_real, pool_judged)} judged; "
          + ", ".join(f"{kind} {_pct(*meta[kind])}" for kind in meta)
          + f"; boilerplate observations {boilerplate}; spurious supersessions {len(spurious)}")
    assert boilerplate == 0
    if name in {"dev", "dev2"}:  # the sets we tuned on hold their figures (the held-out ones are only printed)
        assert with_entity == len(memory.document)
        # dev: 67/88 after the second round of issue 23 (55/88 before), 72/88 after the third;
        # dev2 (written for the third round): 39/46; sixth round (recall): dev 73/88, dev2 43/46
        assert typed >= 0.8 * total
        assert judged == sample and real >= 0.9 * judged
    # dev3, written for the fourth round (precision): 33/40 real and 35/71 found before it, 37/40 and
    # 39/71 after; 40/40 and 39/71 once ordinary-word kinds ("uploads", "API node") need structure;
    # sixth round (recall): 58/71, 40/40 (dev 73/88, dev2 43/46); seventh (recall31): 68/71, 40/40
    # (dev 74/88, dev2 44/46). dev4, dev5 and dev6 were written for the seventh round, each before
    # the rules that followed it: 27/45, 26/51 and 26/42 found when written; 40/45, 41/51 and 35/42
    # after (all 38/38 to 40/40 real but dev4's 39/40)
    # recall32: dev3 69/71, dev5 43/51 (an "-er" noun written four times, "tiered storage"); dev5
    # 44/51 once a name split by a line break is joined ("the Hourly" / "Rollup job"); dev4 41/45
    # once a table cell that is a sentence gives phrases ("... synthetic checks in Checkly |")
    floors = {"dev3": 69, "dev4": 41, "dev5": 44, "dev6": 35}
    if name in floors:
        assert with_entity == len(memory.document) and typed >= floors[name]
        assert judged == sample and real >= 0.9 * judged
    # metadata round (meta31): dev4meta, written before the extractor ran on it, read status 8/8,
    # date 11/13, conclusions 36/57, links 6/7 before and all of them after; the meta gold of dev2
    # and dev3 (written in that round) read conclusions 33/35 and 23/43 before, 35/35 and 43/43 after
    if name == "dev4meta":
        assert with_entity == len(memory.document)
        # recall32: 17/36 found before; 24/36 and 30/32 real once a feed, log, client, runner, tool
        # and CDN are system heads (its new entities judged by hand in its gold's `judged`); 25/36,
        # 31/33 with "tiered storage"
        assert typed >= 25 and judged == sample and real >= 0.9 * judged
    # dev7, written by recall32 before the extractor ran on it: 33/56 found when written, 38/40 real;
    # tuned on afterwards: 34/56 (the line-break join, seen on it: "Firebase" / "Cloud Messaging"),
    # 36/56 (a team the page says owns something, seen on it: "The Search team owns the cluster");
    # recall33: 37/56, 39/40 real (an incident title's problem word is not the system's name:
    # "checkout timeouts" -> "checkout", judged real as the affected system); 41/56, 38/40 once an
    # RFC-titled document with a Proposal section beside Context and Decision is a proposal; 43/56,
    # 37/40 with the name after an opening verb ("Run Unleash") and an Alternatives item's bold
    # product ("- **Flagsmith**: ..."); recall34: 44/56, 36/40 (an alerting tool named once where
    # it paged: "on-call paged through PagerDuty")
    if name == "dev7":
        assert with_entity == len(memory.document) and typed >= 44
        assert judged == sample and real >= 0.9 * judged
        assert all(found == stated for found, stated in meta.values()), meta
    # dev8, written by recall33 before the extractor ran on it (the shapes the earlier sets covered
    # least): found when written 30/81, 35/40 real, documents 9/10, status 5/5, dates 8/9,
    # conclusions 32/47, links 2/5. Tuned on afterwards (recall33): 49/81, 38/40 real, status 5/5,
    # dates 9/9, conclusions 47/47, links 5/5 (the RFC read as a proposal, the Overview/Operations
    # page with a components table as an architecture page, the one-file decision log as a log,
    # "Decision: Recording available here" dropped, incident roles and dash owners as people,
    # the owner row's "Name (team)" as a person and a team, a proposal's "kube-scheduler", a
    # `see-also:` path); 50/81, 37/40 with a team that owns an action item; 51/81, 38/40 with a
    # name (no English word) written twice, once where a conclusion is stated ("Dependabot");
    # recall34: 56/81, 37/40 (a paging tool, a team written once in full and twice by its name)
    if name == "dev8":
        assert with_entity == len(memory.document) and typed >= DEV8_FLOOR
        assert judged == sample and real >= 0.9 * judged
        assert meta["status"][0] == meta["status"][1] and meta["date"][0] == meta["date"][1], meta
        assert meta["conclusions"][0] >= 0.95 * meta["conclusions"][1], meta
    if name in {"dev2", "dev3", "dev4meta"}:
        assert meta["status"][0] == meta["status"][1]
        assert meta["conclusions"][0] >= 0.95 * meta["conclusions"][1], meta
    # run once after the fifth round's code was final: 42/99 found, 38/40 real; once after the
    # sixth (recall) round's: 49/99 found, 38/40 real (its 2 new entities judged by name only);
    # once after the seventh's (recall31): 56/99 found, 36/40 real (its 6 new entities judged by
    # name only: Alertmanager, Route 53 real; "fan-out batch job", a person typed a technology,
    # "PagerDuty service", "re-index" not)
    # With the metadata round (meta31) and the lead's rule for people merged: 58/99, 38/40 real;
    # status 4/5, dates 8/8, conclusions 27/30, links 2/2 (before: 7/8, 24/30, 2/2).
    # After the eighth round (recall32, tuned on dev..dev7 and dev4meta), run once: 59/99 found,
    # 38/40 real (new names judged by the lead: a person typed a technology, 'Grace Oyelaran', is
    # wrong; 'Elasticsearch index', 'Priya Raman', 'security team' real)
    if name == "heldout3":
        assert with_entity == len(memory.document) and typed >= 59
        assert judged == sample and real >= 0.9 * judged
    # heldout4 (written by another developer on 2026-12-02 with no extractor run; judged names by
    # the lead): at e2764fd, before the seventh round, 61/106 found and 36/40 real; status 3/4,
    # dates 5/9, conclusions 12/34, links 0/2; after the seventh round's subject rules (recall31),
    # run once: 67/106 found, 35/40 real (below the 90 % asked: two of its five wrong are a person
    # typed a technology, the class recall31 saw on heldout3 after its code was final). Then the
    # lead's rule for people (bylines, owner notes, bracketed attendance: document_people.py),
    # written after seeing that class here, so no longer a clean figure: 67/106, 38/40. With the
    # metadata round merged (its brief named three shapes of this set, so its meta figures are not
    # clean either): 67/106, 37/40; status 3/4, dates 8/9, conclusions 20/34, links 2/2. After the
    # eighth round (recall32), run once: 69/106, 38/40 ('Storage platform', a breadcrumb, not real)
    if name == "heldout4":
        assert with_entity == len(memory.document) and typed >= 69
        assert judged == sample and real >= 0.9 * judged
    # Tenth session. heldout3 after every branch of the session: 60/99, 37/40 real, status 5/5;
    # heldout4: 70/106, 37/40, dates 9/9, conclusions 23/34. Eleventh session (recall34, both
    # development sets now): heldout3 66/99, 37/40 (an alerting tool, a title's coined name, a
    # cloud's product, an owner's team in brackets); heldout4 72/106, 38/40 (owner slugs)
    if name in {"heldout3", "heldout4"}:
        assert typed >= {"heldout3": 66, "heldout4": 72}[name]
    # heldout5 (written by helper ho5 on 2026-12-02, no extractor run or read): measured once at
    # a3a290d: 11/12 documents, 76/147 found, 30/40 real, status 4/6, dates 10/11, conclusions
    # 62/94, links 1/4. The lead then tuned on it (people by their roles, the one-page decision
    # log, bare and root-relative path links, procedure runbooks, status in a quoted field line,
    # plural code names...): 12/12, 95/147, 37/40, 6/6, 11/11, 77/94, 4/4. A development set now.
    # recall34: 101/147, 37/40 (alerting tools, an Alternatives sub-heading's product, a thing
    # named in code after its kind)
    if name == "heldout5":
        assert with_entity == len(memory.document) and typed >= 101
        assert judged == sample and real >= 0.9 * judged
        assert all(found == stated for kind, (found, stated) in meta.items()
                   if not kind.startswith("conclusions")), meta
    # heldout6 (written by helper ho6, no extractor run or read; never tuned on): at a3a290d
    # 11/12 documents, 68/131 found, 32/40 real, status 4/6, dates 9/11, conclusions 62/103,
    # links 2/4 (3/4 once the test reads "A replaced_by B" as "B supersedes A"). After all the
    # tenth session's branches: 12/12, 75/131, 31/40 real (below the 90 % asked), 5/6, 11/11,
    # 72/103, 4/4 (one link fix, paths written from the set's root, was prompted by ho6's
    # report; the bold field labels of a component were seen in this measurement and then
    # reproduced on our own fixture).
    # Eleventh session's merge: 77/131, 32/40 real (redrawn), conclusions 72/103 (recall34 saw
    # three of its owner lines by a grep; its owner rules came from heldout3 and heldout4).
    if name == "heldout6":
        assert with_entity == len(memory.document) and typed >= 77
        assert judged == sample
    # heldout7 (written by helper ho7 on 2026-12-02, no extractor run or read; never tuned on):
    # measured once at 4a080db, before the eleventh session's code: 11/12 documents, 83/161 found,
    # 34/40 real (judged by the lead by name, with the line each came from), status 6/6, dates
    # 10/10, conclusions 47/108, links 8/18, boilerplate 0. After the session's merge (prec34,
    # recall34, speed34, the lead's conclusions): 11/12, 84/161, 32/40 real in the redrawn sample
    # (every entity judged: 59/72 real before, 61/76 after: recall34's cloud products add the full
    # names and the names cut at a line's end, "Azure Load" of "Azure Load\nTesting"), conclusions
    # 49/108, links 8/18. Held from here.
    # links35 (written by links35 before its code, every form of issue 23 item 2's links and
    # distractors): links 18/29 and 3 spurious supersessions before; 26/29 and 0 after (a reference
    # by series and number in any folder, Rejected alternatives, a verb of another clause); 27/29
    # with a supersession naming its document by id or dated entry ("superseded by KEP-1234")
    if name == "links35":
        assert meta["links"][0] >= 27 and not spurious, meta
    if name == "heldout7":
        assert typed >= 84 and judged == sample and meta["conclusions"][0] >= 71, meta
    # heldout8 (written by helper ho8 on 2026-12-02, no extractor run or read; never tuned on;
    # other house styles: an Atlassian postmortem, a learning review, a PagerDuty timeline table,
    # a Symptoms/Triage playbook, a KEP, a PEP-style header, a PR/FAQ one-pager, a C4 containers
    # page, a service README, Notion notes, a decision log as a table). At 4a080db: 11/12
    # documents, 64/165 found, 31/40 real, status 5/7, dates 7/10, conclusions 33/102, links 6/13.
    # After the session's first round (fa90b45): 69/165, 32/40, 5/7, 7/10, 35/102, 6/13.
    # At the eleventh session's end (8d3f6a2): 69/165, 32/40, 5/7, 7/10, 35/102, links 7/13. From
    # the twelfth session on, heldout8 is a development set (its misses were given to developers).
    # heldout9 (written by helper ho9 on 2026-12-02, no extractor run or read; a hospital group's
    # clinical software; styles no earlier set used: a 5 Whys postmortem, a public availability
    # report, a Google Doc export with setext headings, an Ansible-style procedure, an alert
    # reference page, an Apache KIP-style proposal, a Google design doc, MADR 3 with a Y-statement,
    # a mermaid architecture page, a Backstage service page, email-style minutes, a "### date -
    # title" decision log). Measured at 8d3f6a2, before the twelfth session's code: 12/12
    # documents, 71/162 found, 32/40 real (judged by the lead by name and line), status 4/9,
    # dates 8/10, conclusions 30/100, links 11/15, boilerplate 0, spurious supersessions 0.
    # heldout8 as a development set (twelfth session): concl36d (proposals, architecture pages, minutes
    # in house styles; a PEP header in a fence, a PR/FAQ, a C4 containers page, a service README, a
    # decision log as one table): status 6/7, dates 8/10, conclusions 63/102 strict and 69/102 with
    # EQUIVALENT_LABELS, links 8/13 (9/13 with a stronger relation standing for relates_to),
    # 80/165 found (the decision log's rows), 0 spurious.
    # house36d (concl36d, written from public templates before its code): conclusions 7/37, status
    # 2/3, dates 3/4, links 3/6 before; 36/37, 3/3, 4/4, 6/6 after (the one miss: the gold quotes
    # "does **not** send", the observation is plain text).
    if name == "house36d":
        assert meta["conclusions"][0] >= 36 and meta["status"][0] == 3 and meta["date"][0] == 4, meta
        assert meta["links"][0] == 6 and not spurious and boilerplate == 0, meta
    # concl36p (postmortems and runbooks in house styles), at 8d3f6a2 before its rules and after:
    # heldout8 status 5/7 -> 6/7, dates 7/10 -> 8/10, conclusions 36/102 -> 63/102 (strict, without
    # the Root cause = Cause table: 35 -> 62), links 7/13 -> 10/13, 69 -> 74/165 found. styles36
    # (its four fixtures, written before the rules from public templates): status 1/2 -> 2/2,
    # conclusions 16/36 -> 36/36 (strict 15 -> 35; the learning review and the procedure were no
    # genre before).
    if name == "styles36":
        assert with_entity == len(memory.document)
        assert all(found == stated for kind, (found, stated) in meta.items() if kind != "conclusions strict"), meta
    # Twelfth session (subj36, heldout8 a development set now): 12/12 documents, 97/165 found,
    # 36/40 real (a decision log kept as one table read as a log; the team's systems in code
    # spans; coined names written in lower case). subj36 (written by subj36 before its rules:
    # a table decision log, a service README, an alert playbook, a postmortem): 15/41 found
    # before, 34/41 after; its fourth document 37/46 before its rule, 38/46 after.
    if name == "subj36":
        assert with_entity == len(memory.document) and typed >= 38
        assert judged == sample and real >= 0.9 * judged
    # All three merged (twelfth session; a Detection part is a detail, not read for subjects):
    # heldout8 12/12, 100/165 found, 32/40 real, status 7/7, dates 9/10, conclusions 97/102 (90
    # strict), links 13/13. The held-out sets, measured once after the merge: heldout9 (clean:
    # nothing was tuned on it) 12/12, 76/162 found, 32/40 real, status 6/9, dates 8/10,
    # conclusions 35/100, links 14/15 (from 71/162, 32/40, 4/9, 8/10, 30/100, 11/15): the
    # house-style rules written for heldout8's styles carry little to heldout9's other styles.
    # heldout7 91/161, 36/40, 51/108, links 15/18; heldout6 78/131, 33/40, 73/103.
    # Twelfth session, second round (subj37, heldout9 a development set now): 95/162 found, 31/40 real in the
    # redrawn sample (a registered subject named on two lines is one the document is about: 84; an
    # arc42 page's Building blocks list its components; a coined word in code that acts in a
    # sentence, `labroute`): its five new entities are all key subjects; conclusions 41/100 (35)
    # once the arc42 page is an architecture page. heldout5 109/147, heldout8 101/165.
    # subj37 (written by subj37 before its code from public styles, never tuned on): 61/94 found
    # and 35/40 real at 215cc68; 63/94, 35/40 after.
    if name == "subj37":
        assert with_entity == len(memory.document) and typed >= 63 and judged == sample, meta
    if name == "heldout9":
        assert with_entity == len(memory.document) and typed >= 95 and judged == sample, meta
        assert not spurious and boilerplate == 0
    # heldout10 (written by helper ho10 on 2026-12-02, no extractor run or read; an online
    # insurer's platform team; styles no earlier set used: an Amazon COE, an incident report with
    # a key-facts table and a chat log, a postmortem as one e-mail, an SOP, a troubleshooting
    # table, a Shape Up pitch, a Notion spec, an IETF-style RFC, a design overview with a numbered
    # data flow, an ownership matrix, a weekly ops review, a decision register with bold labels).
    # Measured at 215cc68, before the twelfth session's second round: 12/12 documents, 70/159
    # found, 36/40 real (judged by the lead by name and line), status 6/7, dates 8/11, conclusions
    # 35/100 (34 strict), links 8/12, boilerplate 0, spurious supersessions 0.
    # At 8d3f6a2 (the session's start, measured later): 68/159, 34/100, links 8/12: the first
    # round (heldout8's styles) carried +2 found and +1 conclusion to it. After the second round
    # (concl37, subj37: rules that read what a section or sentence says, tuned on heldout9),
    # measured once: 85/159 found, 33/40 real (from 36/40: 'DocSight)', an on-call rotation and
    # 'queue worker' among the new names), status 6/7, dates 9/11, conclusions 43/100 (39
    # strict), links 11/12, boilerplate 0, spurious 0. heldout6 then 80/131, 31/40, 83/103;
    # heldout7 93/161, 33/40, 58/108, links 15/18.
    # Twelfth session, third round (concl38, heldout10 a development set now): rules that read what
    # a part says in the house styles heldout10 showed (an e-mail postmortem, a troubleshooting
    # table, a Shape Up pitch, a plain-text RFC, an SOP, a weekly review's issues): conclusions
    # 43 -> 82/100 (39 -> 75 strict), status 6/7 -> 7/7, dates 9/11 -> 11/11, links 12/12, found
    # 85 -> 99/159 (the newly recognised documents), 33/40 real (nine names judged by concl38).
    # gen40 (fourteenth session; eight documents of no genre or of unusual shape written with their gold
    # from public templates before tasks/extract/plain_conclusions.py, the genre-independent conclusion
    # reader): conclusions 0/38 before, 37/38 after. heldout12 (a development set now) 28 -> 57/108,
    # heldout11 59 -> 62/100, concl39 16 -> 19/31, heldout10 82 -> 83/100 in the same change; no other figure moved.
    if name == "gen40":
        assert with_entity == len(memory.document) and meta["conclusions"][0] >= 37, meta
        assert not spurious and boilerplate == 0, meta
    # lead40 (fourteenth session): a plain document found by its file (Extraction.document_key) and
    # a bare relative path in a sentence read as a link: heldout12 links 6 -> 15/15; a page of no
    # genre's 'Entry status:' and status sentence, 'adopted:' as its date: status 7 -> 8/10, dates 8 -> 9/11.
    # concl41 (fifteenth session): decision logs kept in one page (plain `Decision:` fields, a
    # register's Outcome/Consequences, a log table's Chosen column) and tables of owned actions
    # (an Owner and a Due/Target column, in any section and in pages of no genre): conclusions
    # heldout7 62 -> 71/108 (its log no longer read as an index page: documents 11 -> 12/12, links
    # 15 -> 18/18), heldout12 57 -> 66/108, heldout13 39 -> 53/133, concl39 19 -> 22/31. Entities the
    # change added: 9, 8 real; the random 40 redrawn (heldout7 34 -> 31/40, heldout12 36 -> 33/40,
    # heldout13 33 -> 31/40), the old names the redraw brought judged by hand.
    if name == "heldout12":
        assert meta["conclusions"][0] >= 66 and boilerplate == 0 and not spurious, meta
        assert meta["links"][0] >= 15 and meta["status"][0] >= 8 and meta["date"][0] >= 9, meta
    # heldout13 (ho13, fourteenth session: a university's central IT and research computing, twelve
    # house styles no other set uses), measured clean at 9e2822b: 65/149 found, 33/40 real, status
    # 6/8, dates 6/11, conclusions 22/133, links 4/15, 0 boilerplate, 0 spurious. Then, clean (the
    # code written before the set existed): the plain document found by its file, links 4 -> 12/15;
    # gen40's plain_conclusions, conclusions 22 -> 39/133 (38 strict); everything else unmoved. Not
    # clean: links 15/15 after the bare-path links, written after its three misses were seen.
    # heldout14 (ho14, fifteenth session: an airport's systems team, twelve house styles, written
    # without reading the extractor), measured clean: at 9e2822b 115/179 found, 33/40 real, status
    # 8/9, dates 10/12, conclusions 64/156, links 19/24, 0 boilerplate, 0 spurious; after the
    # fourteenth session's work (da8c36c + fixes) conclusions 66/156, links 24/24, the rest unmoved.
    # heldout15 (ho15, fifteenth session: a game studio's online services, twelve house styles,
    # written without reading the extractor), measured clean at a6ce11a (before the session's second
    # round): 109/180 found, 30/40 real (the lead's judgements), status 4/7, dates 9/12, conclusions
    # 73/165 (68 strict), links 31/31, 0 boilerplate, 0 spurious.
    # After the second round (adr42, inc42, subj42, none of which saw heldout15): conclusions 73 ->
    # 91/165 (adr42's decision-record parts: consequences, rejected options, drivers, rationale);
    # inc42's incident styles and subj42's single-mention names moved nothing on it.
    # Sixteenth session (helpers read only its summary line): doc43 91 -> 96, inc43 96 -> 100 and
    # dates 9 -> 10, concl44 100 -> 106/165 and found 110 -> 113/180.
    # Seventeenth session (no helper opened it): found 113 -> 117 (concl45's rejected options).
    # Twenty-second session (no helper opened it): found 128 -> 139 (subj51), status 5 -> 6/7,
    # conclusions 113 -> 114/165, 35/40 real (two consulted teams drawn, judged real by the lead).
    # Twenty-fourth session (no helper opened it): dates 10 -> 11/12, conclusions 114 -> 115/165.
    if name == "heldout15":
        assert with_entity == len(memory.document) and judged == sample and typed >= 139, meta
        assert meta["conclusions"][0] >= 115 and meta["links"][0] >= 31 and meta["date"][0] >= 11, meta
        assert not spurious and boilerplate == 0, meta
    # heldout16 (ho16, sixteenth session: a weather service's forecast platform, twelve house styles,
    # written without reading the extractor), measured clean at 6349008: 111/187 found, 38/40 real
    # (the lead's judgements), status 7/7, dates 11/12, conclusions 102/161 (99 strict), links
    # 26/26, 1 boilerplate observation (a MADR "[Optional]" line of a decision record), 1 spurious
    # supersession (a decision-log table row's "Superseded by D-058" read as the log's). Both fixed
    # by the lead (lead43, after seeing them): the log's decisions count again, conclusions 111/161.
    # Round 1 (doc43, inc43, prec43, dspeed43) moved nothing on it. Then a development set: concl44
    # (alert runbooks, design told in sub-sections, arc42 building blocks, incident.io's Reported at)
    # conclusions 111 -> 133/161, found 111 -> 116, dates 11 -> 12.
    if name == "heldout16":
        assert with_entity == len(memory.document) and judged == sample and typed >= 126, meta
        assert meta["conclusions"][0] >= 137 and meta["links"][0] >= 26, meta
        assert meta["status"][0] >= 7 and meta["date"][0] >= 12, meta
        assert not spurious and boilerplate == 0, meta
    # heldout17 (ho17, sixteenth session: a satellite operator's ground systems, twelve house styles,
    # written without reading the extractor), measured clean at fe5d307 (after the session's first
    # round: doc43, inc43, prec43, dspeed43 and the lead's fixes; before ing43 and concl44): 114/164
    # found, 38/40 real (the lead's judgements), status 7/7, dates 11/12, conclusions 92/139,
    # links 22/22, 0 boilerplate, 0 spurious supersessions. Then concl44 (tuned on heldout16, never
    # saw heldout17), still clean: conclusions 92 -> 99/139 (71 %), dates 11 -> 12/12.
    # Seventeenth session: a development set (concl45: plain-text e-mail write-ups, SRE fields as a
    # list, decision-log Why columns, rollout steps, names opening in lower case, a document's own
    # identifier as its alias): conclusions 99 -> 118/139, found 114 -> 124.
    if name == "heldout17":
        assert with_entity == len(memory.document) and judged == sample and typed >= 125, meta
        assert meta["conclusions"][0] >= 118 and meta["links"][0] >= 22, meta
        assert meta["status"][0] >= 7 and meta["date"][0] >= 12, meta
        assert not spurious and boilerplate == 0, meta
    # heldout18 (ho18, seventeenth session: a city government's digital services) and heldout19
    # (ho19: a genomics institute's compute platform), twelve house styles each, written without
    # reading the extractor; measured clean at a576421 (before the session's helpers landed):
    # heldout18 82/180 found, 29/40 real (the lead's judgements), status 8/9, dates 12/12,
    # conclusions 105/162, links 23/23; heldout19 98/189 found, 34/40 real, status 7/12, dates
    # 11/12, conclusions 102/159, links 26/26; 0 boilerplate, 0 spurious supersessions in both.
    # After the session's helpers (concl45 tuned on heldout17, stat45 on its own forms, neither saw
    # heldout18/19), still clean: heldout18 found 84, status 9/9, conclusions 109/162; heldout19
    # found 102, conclusions 102/159 (34/40 real after one newly drawn name was judged).
    # Then development sets (prec46, their false entities' classes fixed): heldout18 found 86,
    # 32/40 real; heldout19 found 103, 38/40 real (newly drawn names judged by hand).
    # Round 2 (development sets now): concl46 conclusions heldout18 109 -> 117, heldout19 102 -> 123;
    # prec46 precision 29 -> 32/40 and 34 -> 38/40; found 87 and 104 after both.
    # Round 3 (concl48; the test now counts a superseded record's decisions and the gold's "Design"
    # for a Goal or a MADR Decision): heldout18 130 -> 138/162, heldout19 128 -> 138/159, heldout20
    # 132 -> 140/155 (all of it the measure), heldout21 134 -> 151/164, heldout22 129 -> 147/157
    # (found 111 -> 113); heldout14 123 -> 134/156.
    if name == "heldout18":
        assert with_entity == len(memory.document) and judged == sample and typed >= 98, meta
        assert meta["conclusions"][0] >= 138 and meta["links"][0] >= 23, meta
        assert meta["status"][0] >= 9 and meta["date"][0] >= 12, meta
        assert not spurious and boilerplate == 0, meta
    if name == "heldout19":
        assert with_entity == len(memory.document) and judged == sample and typed >= 111, meta
        assert meta["conclusions"][0] >= 138 and meta["links"][0] >= 26, meta
        assert meta["status"][0] >= 12 and meta["date"][0] >= 12, meta
        assert not spurious and boilerplate == 0, meta
    # heldout20 (ho20, seventeenth session: a public broadcaster's streaming platform, twelve house
    # styles, written without reading the extractor), measured clean at e4f5790 (after the session's
    # first round): 118/183 found, 37/40 real (the lead's judgements), status 7/7, dates 11/12,
    # conclusions 117/155 (75 %), links 23/23, 0 boilerplate, 1 spurious supersession (a MADR
    # Links item "Supersedes ADR-0003; see [the architecture page]": the verb typed both links;
    # fixed by the lead after seeing it, so the 0 here is not clean).
    # Then round 2 (concl46, prec46; neither saw it), still clean: conclusions 117 -> 119/155.
    if name == "heldout20":
        assert with_entity == len(memory.document) and judged == sample and typed >= 137, meta
        assert meta["conclusions"][0] >= 140 and meta["links"][0] >= 23, meta
        assert meta["status"][0] >= 7 and meta["date"][0] >= 12, meta
        assert not spurious and boilerplate == 0, meta
    # heldout21 (ho21, eighteenth session: an insurer's claims platform) and heldout22 (ho22: a
    # national library's preservation and catalogue platform), twelve house styles each, written
    # without reading the extractor; measured clean at 3625c4f (the session's start plus two lead
    # fixes that move no set): heldout21 125/187 found, 32/40 real (the lead's judgements), status
    # 7/7, dates 11/12, conclusions 129/164 (79 %), links 27/31; heldout22 100/188 found, 36/40,
    # status 7/12, dates 12/12, conclusions 127/157 (81 %), links 20/20; 0 boilerplate, 0 spurious.
    # (heldout22's five documents that state no status are gold `null`: meta47's measure counts
    # them met when no status is recorded, so its clean status under that measure is 12/12.)
    # After the session's round (prec47, concl47, found47, meta47; none saw either set): heldout21
    # found 128, 33/40, conclusions 134/164; heldout22 found 111, 36/40, conclusions 129/157;
    # heldout15 (never opened) found 117 -> 125, 34/40, the rest unchanged.
    if name == "heldout21":
        assert with_entity == len(memory.document) and judged == sample and typed >= 128, meta
        assert meta["conclusions"][0] >= 151 and meta["links"][0] >= 27, meta
        assert meta["status"][0] >= 7 and meta["date"][0] >= 11, meta
        assert not spurious and boilerplate == 0, meta
    if name == "heldout22":
        assert with_entity == len(memory.document) and judged == sample and typed >= 113, meta
        assert meta["conclusions"][0] >= 147 and meta["links"][0] >= 20, meta
        assert meta["status"][0] >= 12 and meta["date"][0] >= 12, meta
        assert not spurious and boilerplate == 0, meta
    # heldout23 (ho23, nineteenth session: a pharmaceutical company's clinical-trial data platform)
    # and heldout24 (ho24: a mobile operator's provisioning platform), twelve house styles each,
    # written without reading the extractor; measured clean at 4a3d4df (the session's start):
    # heldout23 95/176 found, 35/40 real (the lead's judgements), status 9/9, dates 11/12,
    # conclusions 108/165 (65 %), links 20/21; heldout24 108/175 found, 32/40, status 9/9, dates
    # 12/12, conclusions 120/164 (73 %), links 24/25; 0 boilerplate, 0 spurious. The round's test
    # changes (concl48: a superseded record's decisions count; "Design" accepts Goal and Decision)
    # made those 111/165 and 128/164 on the same code. After the round (dec48, concl48, meta48,
    # prec48, speed48; none saw either set): heldout23 found 107, 36/40, conclusions 111, links
    # 21/21; heldout24 found 114, 34/40, conclusions 131, links 25/25.
    # prec49 tuned on their false entities (what a page names by its kind or a word about it):
    # heldout23 36/40 -> 38/40 real; heldout24 34/40 -> 37/40, found 114 -> 119 ("NPX connector",
    # "Provisioning Platform"); every entity either makes judged by hand: pools 82/97, 65/74.
    if name == "heldout23":
        assert with_entity == len(memory.document) and judged == sample and typed >= 107, meta
        assert real >= 38, real
        assert meta["conclusions"][0] >= 111 and meta["links"][0] >= 21, meta
        assert meta["status"][0] >= 9 and meta["date"][0] >= 11, meta
        assert not spurious and boilerplate == 0, meta
    if name == "heldout24":
        assert with_entity == len(memory.document) and judged == sample and typed >= 119, meta
        assert real >= 37, real
        assert meta["conclusions"][0] >= 131 and meta["links"][0] >= 25, meta
        assert meta["status"][0] >= 9 and meta["date"][0] >= 12, meta
        assert not spurious and boilerplate == 0, meta
    # heldout25 (ho25, twentieth session: an agricultural cooperative's farm-telemetry and
    # grain-marketing platform, US month-first dates) and heldout26 (ho26: a legal-tech e-discovery
    # platform), twelve house styles each (Tyree-Akerman, DACI, PR/FAQ, HashiCorp RFC, status-page
    # updates, Etsy debrief, Azure DevOps wiki; Oxide RFD, README decision log, Rust-RFC-like, Jira
    # SM post-incident review, FireHydrant export, Grafana OnCall), written without reading the
    # extractor; measured clean at b687b77 (the session's start, plus the secrets gate's prose fix
    # that let heldout26's runbook in): heldout25 11/12 documents with their entity, 93/169 found,
    # 28/40 real (the lead's judgements), status 7/8, dates 10/12, conclusions 100/161 (62 %),
    # links 21/24; heldout26 12/12, 131/188 found, 33/40, status 7/7, dates 12/12, conclusions
    # 117/165 (71 %), links 29/29, 1 spurious supersession; 0 boilerplate. After the round
    # (concl49, subj49, prec49, stat49, speed49; none saw either set): heldout25 89/169 found (-4:
    # Marisol Okafor no longer related to three documents, 'LoRaWAN gateway' no longer made; +1 an
    # e-mail's sender), 27/40, conclusions 100; heldout26 131, 33/40, conclusions 120. The floors
    # hold those figures; the spurious supersession is known (heldout26's decision-log table).
    # Then tuned on (stat50): heldout26's RFD 'replaces decision DL-10 in the [decision log](..)'
    # no longer supersedes the log (0 spurious); heldout25's '[RFC-RT-004] ...' page is read (12/12
    # documents, status 8/8, dates 12/12 with the debrief's 'April 2026' byline, links 24/24).
    # subj50 (tuned on both): heldout25 12/12 documents (the RFC titled '[RFC-RT-004] ...' no longer
    # read as a template), 122/169 found, 28/40 real, status 8/8, dates 11/12, conclusions 108, links
    # 24/24; heldout26 135/188 found, 33/40.
    # prec50 tuned on their false entities (every entity either makes judged by hand, pools 49/64
    # and 77/93; a time zone after a time, a priority, a chat channel, the page's own kind as an
    # acronym, what the page says is not there, a thing in a state, a release before a kind, a
    # post, a licence, an identifier's prefix, a diagram's node, what a team owns in brackets, a
    # place in emphasis): heldout25 27/40 -> 36/40 real, pool 50/54;
    # heldout26 33/40 -> 35/40, pool 77/88. heldout25 found 89 -> 90 ('Elm Prairie'). Then either
    # of two kinds ("a compression or retention job"), a role in a message's path ("the receiving
    # mail server"), a machine of a pool ("GPU node pool"), and a longer name said short ("the
    # activity job" of "RowTrack's field activity job"): heldout25 36 -> 38/40, found 91;
    # heldout26 35 -> 37/40.
    # After the merge of the round (stat50, concl50, subj50, keys50, prec50): heldout25 12/12,
    # 124/169 found, 38/40 real, status 8/8, dates 12/12, conclusions 132/161, links 24/24; heldout26
    # 140/188, 37/40, conclusions 136/165, links 29/29, 0 spurious.
    if name == "heldout25":
        assert with_entity == len(memory.document) and judged == sample and typed >= 124 and real >= 38, meta
        assert meta["conclusions"][0] >= 132 and meta["links"][0] >= 24, meta
        assert meta["status"][0] >= 8 and meta["date"][0] >= 12 and boilerplate == 0 and not spurious, meta
    if name == "heldout26":
        assert with_entity == len(memory.document) and judged == sample and typed >= 140 and real >= 37, meta
        assert meta["conclusions"][0] >= 136 and meta["links"][0] >= 29, meta
        assert meta["status"][0] >= 7 and meta["date"][0] >= 12 and boilerplate == 0 and not spurious, meta
    # heldout27 (ho27, twenty-first session: a hotel group's hospitality platform; MADR 4, a GitHub
    # issue thread, an Uber-style RFC, a Shape Up pitch, Opsgenie, an e-mail, a Jeli-style review,
    # Rundeck and PagerDuty runbooks, a Structurizr container list, a Teams recap) and heldout28
    # (ho28: a semiconductor fab's MES; Nygard, log4brains, a dated decision journal, a handbook
    # design doc, a Sourcegraph RFC, Rootly, a Cloudflare-style blog post, a Slack-thread summary,
    # an SRE playbook entry, a GitLab runbook, an ISO 42010 description, Confluence minutes), written
    # by helpers who never read the extractor, measured clean at 080fd79 and after the round (none
    # of its helpers saw them; the lead judged the random 40s): heldout27 found 113 -> 119/185, real
    # 34/40 -> 33/40 ('Oracle' drawn), status 7/7, dates 12/12, conclusions 92 -> 96/157, links
    # 20/20; heldout28 11/12 documents, found 95 -> 96/182, 35/40, status 7/7, dates 10/12,
    # conclusions 98 -> 101/167, links 17/22. The floors hold the after-figures.
    # prec51 (twenty-second session) judged every entity both make (pools 66/83 and 59/72 at a51bb4f)
    # and tuned on their false ones (a sentence in a technology cell, a message in a code span, a
    # post in brackets, a status row, two kinds joined by "and", a plural acronym beside its
    # singular, a manager written as a job, a maker's possessive, a well-known city): heldout27
    # random 40 33 -> 36/40, pool 66/77; heldout28 35 -> 39/40, pool 60/66, found 96 -> 97.
    # Then tuned on (concl51, conclusions): heldout27 conclusions 96 -> 116/157; heldout28 101 ->
    # 133/167, its decision log kept as dated list items no longer read as a log's index (12/12
    # documents, found 96 -> 104, dates 10 -> 11/12, links 17 -> 22/22; 'metrology tool' drawn,
    # judged false: 35/40).
    # meta51 (heldout28 a development set): its decision log kept as a list of dated entries
    # ("- **2026-02-17 — decided:** ...") was read as a log's index page and yielded nothing; an
    # incident tool's "Started at" field and its "Exported from Rootly on ..." line: documents
    # 11 -> 12/12, dates 10 -> 12/12, links 17 -> 22/22, found 96 -> 104, 36/40 real.
    # subj51 (a name registered elsewhere written once in full, dotted topics, a components
    # table's first column, web-domain names, MADR 4 'consulted'): heldout27 found 119 -> 141,
    # heldout28 96 -> 112. All four merged (the lead judged 'tool operator' false): heldout27 141/185,
    # 37/40, conclusions 116/157; heldout28 12/12 documents, 122/182, 37/40, dates 12/12,
    # conclusions 133/167, links 22/22.
    if name == "heldout27":
        assert with_entity == len(memory.document) and judged == sample and typed >= 141 and real >= 37, meta
        assert meta["conclusions"][0] >= 116 and meta["links"][0] >= 20, meta
        assert meta["status"][0] >= 7 and meta["date"][0] >= 12 and boilerplate == 0 and not spurious, meta
    if name == "heldout28":
        assert with_entity == len(memory.document) and judged == sample and typed >= 122 and real >= 37, meta
        assert meta["conclusions"][0] >= 133 and meta["links"][0] >= 22, meta
        assert meta["status"][0] >= 7 and meta["date"][0] >= 12 and boilerplate == 0 and not spurious, meta
    # Then tuned on (a development set): adr42 conclusions 66 -> 84, inc42 84 -> 113/156, status 9/9,
    # dates 12/12, found 122; subj42 found 123/179.
    if name == "heldout14":
        assert with_entity == len(memory.document) and judged == sample and typed >= 123, meta
        assert meta["conclusions"][0] >= 134 and meta["links"][0] >= 24, meta
        assert meta["status"][0] >= 9 and meta["date"][0] >= 12, meta
        assert not spurious and boilerplate == 0, meta
    # subj41 (fifteenth session, recall; heldout13's misses read, so no longer a clean figure): the
    # teams named where a page says who owns or does something (tasks/extract/owner_teams.py: owner
    # fields and cells, action owners, a task table's owner column, a person's team in brackets that
    # the page names again): heldout13 65 -> 69/149, heldout12 106 -> 117/167, gen40 9 -> 12/32,
    # heldout11 108 -> 111/164, concl39 11 -> 15/21, heldout6, heldout7, heldout10, concl37 +1 each;
    # 28 of its 30 new entities real (the two not: an organisation and "FHIR R4 store", let in by
    # the cap the teams no longer take); samples redrawn, newly sampled names judged in `judged`.
    if name == "heldout13":
        assert with_entity == len(memory.document) and judged == sample, meta
        assert meta["conclusions"][0] >= 53 and meta["links"][0] >= 15 and typed >= 69, meta
        assert not spurious and boilerplate == 0, meta
    if name == "heldout10":
        assert with_entity == len(memory.document) and typed >= 99 and judged == sample, meta
        assert meta["conclusions"][0] >= 82 and not spurious and boilerplate == 0, meta
        assert meta["status"][0] >= 7 and meta["date"][0] >= 11, meta
    if name == "heldout8":
        assert meta["conclusions"][0] >= 63 and meta["status"][0] >= 6, meta
        assert with_entity == len(memory.document) and typed >= 97 and judged == sample, meta
        assert not spurious and boilerplate == 0
    # concl37 (twelfth session, second round): heldout9 tuned on with rules that read what a section or line
    # says (dated log entries, plain `Decisions:` labels, a page of alerts, Constraints sections,
    # each paragraph of a design and its alternatives): conclusions 35/100 -> 78/100, dates 8/10
    # -> 9/10, links 15/15, found 90/162, 30/40 real (new names judged by concl37). concl37's own
    # set (tests/fixtures/distill/concl37, six documents in public styles no other set uses,
    # written with its gold before the code and never tuned on): status 2/3, dates 5/5,
    # conclusions 19/38 before, 26/38 after (arc42's section names, added for heldout9's
    # "Building blocks" / "Cross-cutting", are also its architecture page's: not a clean figure there).
    if name == "heldout9":  # concl38: MADR's header-table status, a status in a sentence, a YAML fence
        assert meta["conclusions"][0] >= 79 and meta["date"][0] >= 10 and meta["status"][0] >= 8, meta
    # subj38 (thirteenth session, recall; written by subj38 before its rules from public styles):
    # 27/43 found at cd0a1ae, 36/43 after (a registered subject named once in a sentence or in a
    # code span of its own name; a code span named once where its line says its kind of system).
    # heldout10 85 -> 117/159, heldout9 101 -> 116/162, heldout8 101 -> 124/165 in the same round.
    if name == "subj38":
        assert with_entity == len(memory.document) and typed >= 36 and judged == sample, meta
    if name == "concl37":  # 28/38 after concl38's rules (a repair told in the story, a loss it states)
        assert with_entity == len(memory.document) and not spurious and boilerplate == 0
        assert meta["conclusions"][0] >= 28, meta
    # prec38 (thirteenth session, precision; written before its rules from public styles, holding
    # the non-subjects the unseen sets showed in other words): 34/45 found, 21/33 real before;
    # 34/45, 24/34 after (on-call rotations, places after "at" and numbered rooms, a line of bold
    # fields, a title cut at a bracket, given names, an action's verb, an "A & B (on-call rota)"
    # owner read as one team, an owning-team field cut at its channel). What stays: system phrases
    # of generic words ("archive queue", "label queue", "worker") and a table cell's verb phrase.
    # Across the other sets (SUBJECTS_DUMP, every entity made): 31 names removed, none a key
    # subject or judged real (23 judged not, 8 unjudged: rotations, places, given names, a person
    # split from "Fares & Payments"); 7 added, 5 of them key subjects. heldout10 33/40 -> 39/40
    # real, heldout8 32 -> 35/40, heldout9 32 -> 35/40 and 101 -> 104/162 found ("Azure Database
    # for PostgreSQL"); heldout8 lost "Timefold Solver" (written once under an agenda topic that
    # was read as an action item) and found "Fares & Payments"; subj36 found "Catalogue team".
    if name == "prec38":
        assert with_entity == len(memory.document) and typed >= 34 and judged == sample, meta
        assert real >= 24 and meta["status"][0] == 2 and boilerplate == 0, meta
    # prec39 (fourteenth session, precision; six documents written with their gold before a run, from
    # public styles: an After Action Review, board minutes, a one-pager with a byline, a status-page
    # incident history, an alert runbook, a system overview): 38/38 found, 17/21 real before
    # ('After Action', 'history', two people of attendance and byline fields typed technology);
    # 38/38, 18/18 after (tasks/extract/document_people.py attendance fields, non_subjects.py
    # cut_from_title_label; 'Kafka broker' judged real). Its labels before a number (Phase 2, Sprint
    # 14, Wave 3, Release 7) were no entity before either: heldout11's 'Season' is the case of that rule.
    if name == "prec39":
        assert with_entity == len(memory.document) and typed >= 38 and judged == sample, meta
        assert real >= 17 and real == judged and boilerplate == 0, meta
    # concl38 (tests/fixtures/distill/concl38: nine documents in heldout10's genres in other words, written
    # with their gold before concl38's code): status 2/4, dates 5/8, conclusions 16/48 before; the rules
    # were then written reading both heldout10's and these misses, so the after figure (4/4, 8/8, 47/48)
    # is a development figure, not a held-out one.
    if name == "concl38":
        assert with_entity == len(memory.document) and not spurious and boilerplate == 0 and judged == sample
        assert meta["conclusions"][0] >= 47 and meta["status"][0] >= 4 and meta["date"][0] >= 8, meta
    # concl39 (thirteenth session, second round; tests/fixtures/distill/concl39: six documents in public
    # styles no other set uses, a PR/FAQ, an SLO document, change board minutes, a PRD, a risk
    # acceptance record and a hot debrief, written with their gold before concl39's code or any miss
    # was read): status 2/3, dates 4/6, conclusions 5/31 before; 2/3, 5/6, 16/31 after (rules read
    # by what a section or sentence says: a design document's own Decisions section and dated
    # decision log, items under a heading that says it lists rules, a rule stated in a FAQ answer,
    # an SLO table's target, an error budget policy, an approval's conditions; PR/FAQ, SLO pages
    # and system pages written as questions recognised). Not read: the risk acceptance (no genre),
    # the debrief's bold questions, a PRD's requirements table. heldout11 (a development set now):
    # conclusions 51 -> 59/100, dates 9 -> 10/12, subjects 106 -> 107/164, 31/40 real.
    if name == "concl39":
        assert with_entity == len(memory.document) and not spurious and boilerplate == 0 and judged == sample
        assert meta["conclusions"][0] >= 22 and meta["status"][0] >= 2 and meta["date"][0] >= 5, meta
    if name == "heldout11":
        assert with_entity == len(memory.document) and not spurious and boilerplate == 0, meta
        assert meta["conclusions"][0] >= 59 and meta["date"][0] >= 10 and typed >= 107, meta
    # meta41 (fifteenth session, status and dates; every miss read, none tuned on heldout14): a bold
    # field closed before its prose, a status-page or review sentence, a byline's status line, a
    # Backstage lifecycle, a verdict; day spans, "on the morning of", a revision history table, a
    # postmortem's byline date passed over; pages of no genre dated by Last reviewed, a title's day,
    # a byline, the file name; a second field after a sentence; a weekday or the folder settling
    # `04/11/2025`. Status / dates before -> after: heldout 7/7, 10 -> 12/12; heldout2 6/6, 10 ->
    # 11/11; heldout8 7/7, 9 -> 10/10; heldout9 8 -> 9/9; heldout11 6 -> 10/10, 10 -> 12/12;
    # heldout12 8 -> 9/10, 9 -> 10/11; heldout13 6 -> 8/8, 6 -> 10/11; gen40 1 -> 3/3; concl39
    # dates 5 -> 6/6. The owners a second field names are new entities (judged real).
    meta_floors = {"heldout": (7, 12), "heldout2": (6, 11), "heldout8": (7, 10), "heldout9": (9, 10),
                   "heldout11": (10, 12), "heldout12": (9, 10), "heldout13": (8, 10), "gen40": (0, 3),
                   "concl39": (2, 6)}
    if name in meta_floors:
        status, dates = meta_floors[name]
        assert meta["status"][0] >= status and meta["date"][0] >= dates, meta
    # inc43 (issue 23 items 1-3 and 5): six incident write-ups, one per public template or tool
    # (the SRE book's markdown template, PagerDuty's, Atlassian's, an incident.io export, a
    # Statuspage incident with its Postmortem update, a FireHydrant retrospective export), written
    # with their gold before a run. At 6349008: status 4/4, dates 5/6, conclusions 36/51 (35
    # strict), 15/25 found. After inc43 (Trigger sections, "was triggered by", incident.io's
    # Contributors / Mitigators / Learnings, PagerDuty's Impact table, How'd We Do? and the SEV
    # its Overview names, FireHydrant's Customer Impact Summary and bold-question lessons, a status
    # page's updates): dates 6/6, conclusions 48/51 (47 strict), 16/25 found, 22/23 real; 17/25,
    # 23/24 with a team owning a corrective action beside its ticket ("(owner: Booking team, HOT-3932).").
    if name == "inc43":
        assert with_entity == len(memory.document) and meta["status"][0] == meta["status"][1] and typed >= 17
        assert meta["date"][0] == meta["date"][1] and meta["conclusions"][0] >= 48, meta
    # stat45 (issue 23 items 2 and 6: status and dates as incident and wiki tools state them; fourteen
    # documents, each in the form of a public template or export, written with their gold before a
    # run): status 10/14, dates 13/15 before (an incident.io export's fields under "Key information",
    # FireHydrant's "Current milestone" among bold fields on one line, a status page's history copied
    # as text, a channel summary's "Incident closed at ...", a Backstage entry's lifecycle in a
    # fence); 14/14 and 15/15 after, and a Last reviewed or Last updated row no longer the main date.
    # stat49 (the shapes stat45 left: badges, call-outs, bold key/value tables, 'Status - Accepted', RFD
    # state, KEP status, lifecycle, title marks, struck-through and arrowed histories, Confluence
    # exports, GitHub issues; dotted and apostrophe-year dates, yearless days under a titled year;
    # nineteen documents written with their gold before a run): status 13/18, dates 16/24 before
    # (a struck-through or arrowed history, "Status - Accepted", "Project status", "Status: see the
    # checklist below"; "09.03.2026", "3.2.2026", "Mar 3 '26", "Created by ..., last modified on ...",
    # "opened this issue on ...", "Date: 9 February" under "# Incident review 2026"); 18/18 and 24/24 after.
    # stat50 (tracker and tool exports: Jira printable view and REST export, GitHub pull request,
    # Linear, Notion, Azure DevOps; 'Mar. 3rd', '5th March 2026', ISO with an offset, ISO weeks and
    # milestones never dates; a decision log kept as a list whose entries supersede each other;
    # thirteen documents written with their gold before a run): status 10/12, dates 19/22, links
    # 5/8, 12/13 documents before (Jira's '| Status: | Done |', GitHub's '**Merged**' and 'merged 6
    # commits into main ... on Mar 12, 2026', 'Released: 5th March 2026', the list log read as a
    # log's index page); 12/12, 22/22, 8/8, 13/13 after, its entries' supersessions none of the page's.
    # meta51 (issue 23 items 2 and 6: status, dates and links as wikis and docs tools write them; ten
    # documents written with their gold before a run): status 6/9, dates 9/10, links 12/12 before (a
    # status's closing full stop, "Status — Withdrawn, replaced by [..](..)", a "## Status: Closed"
    # heading, an "INC-0419: ..." title not read as an incident's); 9/9, 10/10, 12/12 after.
    # meta51b (its second set, seven documents written with their gold before a run: blogs' and wikis'
    # bylines, fields on one line, URL-escaped and site-root links, a log numbered in its own series):
    # status 6/7, dates 6/7, links 5/10 before ("**Page status:** Current ✅ &nbsp;|&nbsp; ...", a
    # yearless incident day under "By Tim Okafor · July 4, 2025", '%20' in a link, '/ops/x' without
    # suffix, "Supersedes: DR-001" and "superseded by DR-004"); 7/7, 7/7, 10/10 after.
    if name in {"meta51", "meta51b"}:
        assert with_entity == len(memory.document) and not spurious and boilerplate == 0 and judged == sample
        assert all(found == stated for kind, (found, stated) in meta.items()
                   if not kind.startswith("conclusions")), meta
    # heldout29 (a rail operator's passenger information) and heldout30 (a veterinary chain's
    # practice platform), written on 2026-12-04 by writer sessions that never read or ran the
    # extractor, in house styles no earlier set used (Notion, DACI, OpenStack spec, KIP-style,
    # Amazon COE, ITIL problem record, TOGAF view, Obsidian and org-mode notes...). Measured clean at
    # a51bb4f (the lead judged the 17 unjudged names of their random 40s): heldout29 12/12, 123/201
    # found, 35/40 real, status 4/8, dates 10/11, conclusions 59/169, links 22/31; heldout30 12/12,
    # 118/196, 36/40, status 4/6, dates 8/9, conclusions 75/163 (73 strict), links 13/26; 0
    # boilerplate, 0 spurious. After the twenty-second session's round (subj51, concl51, prec51,
    # meta51; none of them opened these sets): found 134/201 and 125/196, every other figure unmoved.
    # concl52 (heldout29 a development set now): its gold's "Action" read as "Action item" and
    # quotes compared without code-span marks 59 -> 71/169, then general rules 71 -> 100/169.
    # After the short second round (concl52, meta52, prec52 tuned on heldout29; heldout30 closed,
    # the lead judged 'PID' false): heldout29 135/201, 37/40, status 8/8, dates 11/11, conclusions
    # 100/169 (86 strict), links 31/31; heldout30 125/196, 36/40, status 4/6, dates 8/9 (meta52's
    # deadline rule had cost it one: a deadline row now dates a page with no other day), conclusions
    # 98/163 (87 strict; 89/163 with the matching before concl52's: its rules alone 75 -> 89), links
    # 13 -> 16/26. heldout30 shares eight of its twelve house styles with heldout29 (both writers
    # chose from one list of suggestions): its rise is transfer to the same styles by another hand.
    # Twenty-fourth session (heldout30 still closed): 36 -> 37/40 real, conclusions 98 -> 100/163,
    # links 16 -> 21/26 (meta62's bare root paths and links typed by what their text calls a page).
    if name in {"heldout29", "heldout30"}:
        floors = {"heldout29": (135, 37, 100, 31), "heldout30": (125, 37, 100, 21)}[name]
        assert with_entity == len(memory.document) and judged == sample and not spurious and boilerplate == 0
        figures = (typed, real, meta["conclusions"][0], meta["links"][0])
        assert all(figure >= floor for figure, floor in zip(figures, floors, strict=True)), (figures, meta)
    # meta52 (twenty-third session; heldout29's status, date and link misses read, so a development
    # set for them now): a Status section's "Superseded by ADR-019 (June 2024). Kept for history.",
    # "approved for the 2024.2 release cycle (...)", a byline's "· Final ·" and "· Approved by the
    # Architecture Board, 11 March 2025"; a DACI page's Due date row passed over for its Outcome's
    # "decided 05/11/2024"; a link to a record's file cites it whatever its text, a key of more
    # parts ("COE-2024-02") is a mention, a runbook's `incident: ../postmortems/x.md` links it:
    # status 4 -> 8/8, dates 10 -> 11/11, links 22 -> 31/31, 0 spurious; heldout22 found 119 -> 120.
    if name == "heldout29":
        assert meta["status"][0] >= 8 and meta["date"][0] >= 11 and meta["links"][0] >= 31, meta
    # heldout31 (a library consortium), heldout32 (a wind and solar operator) and heldout33 (a
    # university's student systems), written on 2026-12-04 by writer sessions that never ran the
    # extractor, in house styles no earlier set used (Logseq and Basecamp pages, FireHydrant and
    # status-page incidents, NASA LLIS entries, RFC-style specs, DACI pages, Jira and Bugzilla
    # exports, Fedora Change and DEP proposals, Azure reference architectures, NTSB-style reports).
    # Measured clean at acfec0b5 (the lead judged the unjudged names of their random 40s):
    # heldout31 12/12, 120/202 found, 31/40 real, status 5/6, dates 11/12, conclusions 68/163,
    # links 18/24; heldout32 126/208, 33/40, 2/4, 5/9, 45/165, 9/31; heldout33 132/207, 35/40, 4/6,
    # 5/11, 38/190, 12/27. Twenty-fourth session, first round (conc62a, conc62b, meta62, prec62
    # tuned on heldout31 and heldout32; heldout33 closed): heldout31 124/202, 37/40, status 6/6,
    # dates 11/12, conclusions 114/163, links 21/24; heldout32 141/208, 34/40, 4/4, 9/9, 97/165,
    # 17/31 (four of its misses are "replaces DL-07 in the log", which by heldout26's rule does not
    # supersede the log); heldout33, still clean: 132/207, 34/40, 4/6, 5/11, conclusions 38 -> 50/190,
    # links 12 -> 14/27. Second round (conc63, meta63, subj63 tuned on heldout33, a development set
    # since): heldout33 151/207, 37/40, status 6/6, dates 10/11, conclusions 91/190, links 19/27.
    # Twenty-fifth session (conc64a, conc64b, meta64, subj64, tuned on every non-clean set's misses):
    # heldout31 conclusions 117/163; heldout32 conclusions 101/165, links 20/31 (a log entry cited by
    # its key); heldout33 153/207 found, dates 11/11, conclusions 112/190, links 20/27.
    # heldout34 (a container terminal) and heldout35 (a fintech's cards and ledger), written on
    # 2026-12-04 by writer sessions that never saw the extractor, in house styles no earlier set
    # used (Alexandrian ADR, Loomio, MyST, Spolsky spec, 8D, GitLab incident, Docusaurus, Zendesk,
    # LeanIX, AsyncAPI, HackMD, Zoom; GitHub Discussion, Amazon six-pager, Datadog, Google Cloud
    # report, RUP SAD, GitBook, Gemini notes). Clean at dbd81ee1 (the lead judged their random
    # 40s): heldout34 117/232, 30/40, status 4/7, dates 10/12, conclusions 62/224, links 15/30;
    # heldout35 150/219, 35/40, 2/6, 10/12, 78/221, 23/31. Clean again after the twenty-fifth
    # session's first round (55f62986): heldout34 unchanged; heldout35 conclusions 85/221. Then
    # development sets of the second round (conc65a, conc65b, meta65, subj65): below.
    # heldout36 (a marketplace's search and ranking team), heldout37 (an airline's flight
    # operations systems) and heldout38 (a botanic trust's seed bank), measured clean in the
    # twenty-sixth session, are development sets from the twenty-seventh: floors at those figures
    # (heldout38's Etherpad export yields no document entity). heldout15, 30, 39, 40 (and 41, 42,
    # written in the twenty-seventh session) stay clean.
    # heldout43 (a water utility's OT data team) and heldout44 (a weather service's forecast
    # production systems), written on 2026-12-05 by writer sessions that never saw the extractor
    # (the lead renamed their link words 'related'/'see_also' to the gold's 'relates_to'), clean too.
    # First measured at 8028f6fc (the lead judged their random 40s): heldout43 11/12 documents,
    # 133/234 found, 34/40, status 4/6, dates 11/12, conclusions 87/203 (any label 134), links 16/27;
    # heldout44 12/12, 154/228, 36/40, 7/8, 11/12, 98/193 (147), 27/30.
    if name in {"heldout36", "heldout37", "heldout38"}:
        floors = {"heldout36": (12, 112, 37, 3, 10, 72, 24), "heldout37": (12, 138, 31, 6, 9, 79, 19),
                  "heldout38": (11, 106, 36, 3, 5, 59, 12)}[name]
        assert judged == sample and not spurious and boilerplate == 0
        figures = (with_entity, typed, real, meta["status"][0], meta["date"][0], meta["conclusions"][0],
                   meta["links"][0])
        assert all(figure >= floor for figure, floor in zip(figures, floors, strict=True)), (figures, meta)
    # link71 (issue 23 item 2: stated links as teams write them; thirteen documents of a water
    # utility's telemetry team in plain folders that say nothing of the genre, written with their
    # gold before a run): wiki links by title with a verb, in an anchor and in front-matter lists,
    # "see: Page Title", keys in fields and tables ("Supersedes | SOP-NET-004 rev C"), a GitHub
    # issue's "superseded by #57", links to the former path of a moved page, breadcrumbs, links to
    # pages not in the memory. Before: 13/13, 104/129 found, 31/40 real, status 8/9, dates 12/13,
    # conclusions 19/22, links 30/36, 0 boilerplate, 0 spurious supersessions. After the link readers
    # of tasks/extract/link_items.py and former_paths.py: links 36/36, the rest unmoved (heldout36
    # links 31 -> 32/34, heldout37 22 -> 24/24, heldout38 18 -> 22/30 and found 124 -> 127).
    if name == "link71":
        assert with_entity == len(memory.document) and judged == sample and not spurious and boilerplate == 0
        figures = (typed, real, meta["status"][0], meta["date"][0], meta["conclusions"][0], meta["links"][0])
        assert all(figure >= floor for figure, floor in zip(figures, (104, 31, 8, 12, 19, 36), strict=True)), meta
    if name in {"heldout31", "heldout32", "heldout33", "heldout34", "heldout35"}:
        floors = {"heldout31": (124, 37, 6, 11, 117, 21), "heldout32": (141, 34, 4, 9, 101, 20),
                  "heldout33": (153, 37, 6, 11, 112, 20), "heldout34": (136, 35, 7, 12, 118, 22),
                  "heldout35": (161, 36, 6, 12, 126, 26)}[name]
        assert with_entity == len(memory.document) and judged == sample and not spurious and boilerplate == 0
        figures = (typed, real, meta["status"][0], meta["date"][0], meta["conclusions"][0], meta["links"][0])
        assert all(figure >= floor for figure, floor in zip(figures, floors, strict=True)), (figures, meta)
    # prec71 (twenty-eighth session, entity precision; eight documents of a freight forwarder's customs
    # systems written with their gold before a run, to tempt the rules with kind and plural acronyms,
    # a trade's parties, described systems, a byline's "By", places, organisations and events):
    # 71/77 found, 33/40 real (pool 37/44), status 2/3, dates 8/8, conclusions 9/10, links 3/3 at
    # 8028f6fc (its unjudged names then judged by hand); 71/77, 35/40 (37/42) after prec71's rules
    # (a byline's "By"; "Tillbrook Logistics Ltd · ..." heading the page is a company, not a person).
    # Left: a port and an event typed technology (Felixstowe, Welcome Week), a shipping line typed
    # person, "schedule-sync logs `401`" read as a log; "ines alvarado", judged false as the byline's
    # author typed technology, is a person (an attendee) after, and still scores false by name.
    if name == "prec71":
        assert with_entity == len(memory.document) and typed >= 71 and judged == sample, meta
        assert real >= 35 and not spurious and boilerplate == 0, meta
    if name in {"stat45", "stat49", "stat50"}:
        assert with_entity == len(memory.document) and not spurious and boilerplate == 0 and judged == sample
        assert meta["status"][0] == meta["status"][1] and meta["date"][0] == meta["date"][1], meta
    # stat71 (issue 23 item 2: status and dates in the shapes least like the tuning sets': a controlled
    # SOP and an obsolete architecture page, Redmine, GitHub and GitLab issues, a Confluence design,
    # Google Docs, CAB change request and minutes, title marks, a status only in a document
    # history's last row; written with its gold before any extractor run). At 8028f6fc: 14/14
    # documents, 59/72 found, 34/40 real (its names judged by its writer), status 11/14, dates 16/17,
    # conclusions 27/30, links 3/3, 0 boilerplate, 0 spurious. After stat71's rules: status 14/14,
    # dates 17/17 (GitLab's state line, Redmine's filing byline over a Start date, a draft's "for
    # approval" clause, the revision history's latest row), the rest unchanged.
    if name == "stat71":
        assert with_entity == len(memory.document) and not spurious and boilerplate == 0 and judged == sample
        assert meta["status"][0] == meta["status"][1] and meta["date"][0] == meta["date"][1], meta
        assert typed >= 59 and real >= 34 and meta["conclusions"][0] >= 27 and meta["links"][0] == 3, meta
    # concl71 (twenty-eighth session; 13 documents of a library consortium's digital services
    # team, written with their gold before the extractor ran on them, in the styles the other
    # sets hold least: a committee paper with numbered plain-text sections, a decision notice, two
    # experiment write-ups (one as a test card and learning card), a CAB record, a change request,
    # Redmine and GitHub issues as text, a MeetBot summary, a briefing note, a one-pager, a lessons
    # register, a decision e-mail). Before (8028f6fc): 13/13 documents, 54/91 found, status 4/5,
    # dates 10/11, conclusions 26/93 (25 strict, 37 any label), links 1/1, 0 boilerplate, 0
    # spurious. After its rules (plain-text headings, statements led by a part's label, an
    # experiment's cards and results, an issue's closing comment, options turned down in prose):
    # 54/91, 29/35 real, status 5/5, dates 10/11, conclusions 74/93 (66 strict, 89 any label).
    if name == "concl71":
        assert with_entity == len(memory.document) and judged == sample and not spurious and boilerplate == 0
        assert meta["conclusions"][0] >= 74 and meta["status"][0] == 5 and typed >= 54, meta

"""What the cached scan keeps of the knowledge graph, computed on the file's plain JSON shape.

The graph is the largest file of a memory (423 MB at 100,000 pages). Reading it into pydantic
models cost more than a third of a full reconcile; here it is validated by pydantic-core into
plain dicts (schemas.graph.KNOWLEDGE_GRAPH_DATA, the models' field-for-field mirror) and every
fact is computed on those dicts: the same facts, about 3x less time and memory.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from schemas.common import name_key
from schemas.graph import (
    KNOWLEDGE_GRAPH_DATA,
    STALE_OBSERVATIONS_KEY,
    SUPERSEDED_RELATIONS_KEY,
    KnowledgeGraph,
    entity_key,
)
from schemas.relation_vocabulary import RELATION_VERBS
from tasks.checks.facts import (
    ConflictFacts,
    EntityRow,
    GraphContentFacts,
    GraphFacts,
    ObservationRow,
    StaleSummary,
)
from tasks.store.graph_order import entity_in_order, increasing, relation_key

# A "key: value" fact, as written by hand (`owner: platform team`) or in the spec's observation
# form (`[fact] Owner: platform team #ownership`): a key of at most three words.
_ATTRIBUTE_RE = re.compile(r"^(?:\[[^\]\n]{1,40}\]\s*)?([A-Za-z](?:[A-Za-z0-9_-]*(?: [A-Za-z0-9_-]+){0,2})?)"
                           r"\s*:\s*(\S.*)$")
_TAG_RE = re.compile(r"\s+#[\w-]+")
# Keys whose facts are items of a list, not values of one attribute: a document states many
# decisions, constraints and action items, and two notes about one entity add to its lists.
# Values of these from two sources are no conflict, and reconcile supersedes none of them.
LIST_ATTRIBUTES = frozenset({
    "action item", "alert", "alternative", "cause", "chosen design", "consequence", "constraint",
    "contributing factor", "decision", "design", "detection", "diagnosis", "drawback",
    "escalation", "follow-up", "goal", "impact", "lesson", "meaning", "mitigation", "non-goal",
    "open question", "overview", "procedure", "rationale", "rejected", "requirement",
    "resolution", "responsibility", "risk", "root cause", "step", "summary", "trigger"})
_NAME_MARKUP_RE = re.compile(r"^(?:[-*+>#=]|\d+[.)]\s)")
# An observation is one atomic, actionable statement (memory-bank quality gates): longer than
# this it is a paragraph, not a fact.
OBSERVATION_MAX_CHARS = 1000
RELATION_PREFIX = "relation "  # an erased-fact text naming a relation, not an observation


def graph_json(data: bytes) -> dict[str, Any]:
    """The graph file as validated plain dicts; raises ValueError when the fast parser cannot
    read it or a field breaks the schema (the caller then takes the JSONC and model path,
    whose errors name the field)."""
    return dict(KNOWLEDGE_GRAPH_DATA.validate_json(data))


def model_json(graph: KnowledgeGraph) -> dict[str, Any]:
    return graph.model_dump(mode="json")


def observation_digest(entity_name: str, observation: str) -> str:
    return _digest(name_key(entity_name), observation)


def _digest(key: str, observation: str) -> str:
    text = f"{key}|{observation.strip()}"
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


def observation_digests(graph: dict[str, Any]) -> dict[str, str]:
    """Every observation, active or superseded: digest -> "<entity>: <observation>"."""
    digests: dict[str, str] = {}
    for entity in graph["entities"]:
        name = entity["entityName"]
        key = name_key(name)
        superseded = (s["observation"] for s in entity.get("supersededObservations") or ())
        for text in [*(entity.get("observations") or ()), *superseded]:
            digests[_digest(key, text)] = f"{name}: {text.strip()}"
    digests.update(_relation_digests(graph))
    return digests


def _relation_digests(graph: dict[str, Any]) -> dict[str, str]:
    """Digest -> "relation A -type-> B" of every relation, active or superseded: a relation
    that leaves both lists was deleted, not superseded (check_erased_facts)."""
    rows = [(r["sourceEntityName"], r["relationType"], r["targetEntityName"])
            for r in graph["relations"]]
    for old in graph.get(SUPERSEDED_RELATIONS_KEY) or ():
        if isinstance(old, dict):
            rows.append((str(old.get("sourceEntityName", "")), str(old.get("relationType", "")),
                         str(old.get("targetEntityName", ""))))
    return relation_digests(rows)


def relation_digests(rows: Iterable[tuple[str, str, str]]) -> dict[str, str]:
    """Digest -> "relation A -type-> B" of (source, type, target) rows."""
    return {_digest(name_key(source), f"{RELATION_PREFIX}{kind.strip()} {name_key(target)}"):
            f"{RELATION_PREFIX}{source} -{kind.strip()}-> {target}" for source, kind, target in rows}


def _attribute(text: str) -> re.Match[str] | None:
    """_ATTRIBUTE_RE's match of a stripped observation, the regex spared where it cannot
    match: no ":", or (without a "[tag]" first) more than two spaces in the key before the
    first ":" (a key is at most three words, one space apart; blanks may end it)."""
    colon = text.find(":")
    if colon < 0 or (text[:1] != "[" and text[:colon].rstrip().count(" ") > 2):
        return None
    return _ATTRIBUTE_RE.match(text)


def _attribute_conflicts(entity: dict[str, Any]) -> list[ConflictFacts]:
    """Active "key: value" facts of one entity that state different values for one key, from
    two sources or more (one source listing several values is no conflict, nor are the items of
    LIST_ATTRIBUTES from several); facts without provenance (added by hand) always count."""
    by_attribute: dict[str, list[str]] = {}
    for text in entity.get("observations") or ():
        match = _attribute(text.strip())
        if match:
            by_attribute.setdefault(match.group(1).lower(), []).append(text.strip())
    conflicts: list[ConflictFacts] = []
    for attribute, texts in sorted(by_attribute.items()):
        if attribute in LIST_ATTRIBUTES:
            continue
        values = sorted(set(texts))
        if len({_TAG_RE.sub("", v.partition(":")[2]).strip().lower() for v in values}) < 2:
            continue
        provenance = entity.get("observationProvenance") or ()
        sources = {
            text: sorted({(p["sourcePage"], p["rawAssetId"]) for p in provenance
                          if p["observation"].strip() == text})
            for text in values
        }
        origins = {origin for found in sources.values() for origin in found}
        if len(origins) == 1 and all(sources.values()):
            continue
        conflicts.append({"entity": entity["entityName"], "attribute": attribute,
                          "observations": values, "sources": sources})
    return conflicts


def _entity_facts(entity: dict[str, Any], facts: GraphFacts) -> None:
    name = entity["entityName"]
    observations = entity.get("observations") or []
    superseded = entity.get("supersededObservations") or []
    active = {o.strip() for o in observations}
    row: EntityRow = (name, entity["entityType"], len(observations), len(superseded))
    facts["entities"].append(row)
    for old in superseded:
        if not (old.get("supersededBy") or "").strip():
            facts["superseded_unlinked"].append((name, old["observation"]))
        if old["observation"].strip() in active:
            facts["active_and_superseded"].append((name, old["observation"]))
    facts["conflicts"] += _attribute_conflicts(entity)
    oversized: list[ObservationRow] = [(name, o) for o in observations
                                       if len(o) > OBSERVATION_MAX_CHARS or len(o.split(maxsplit=1)) < 2]
    facts["not_atomic"] += oversized


class GraphFactsBuilder:
    """The graph's facts (and its observation digests) from its entities one at a time, then
    the rest of the document (relations, extra keys): what tasks.store.graph_stream reads, so
    the graph is never held whole. `graph_facts` is this over a graph held whole."""

    def __init__(self, *, digests: bool = True) -> None:
        """`digests`: also collect the observation digests (`digests`) and the stale summary
        (`stale`); without, they stay empty and None: a rescan after stale marking, which
        changes no observation and marks nothing more, needs neither."""
        self.digesting = digests
        self.facts: GraphFacts = {
            "problem": None, "entities_without_evidence": [], "names_with_markup": [],
            "unknown_relation_types": [], "entities": [], "relations": 0, "normalized": True,
            "superseded_unlinked": [], "active_and_superseded": [], "conflicts": [],
            "not_atomic": [], "dangling_relations": [], "entity_rows": {}, "stale_marked": 0}
        self.digests: dict[str, str] = {}
        self._names: set[str] = set()
        self._last_key: str | None = None
        self._unevidenced: list[tuple[str, str]] = []  # (name, key) without observations
        self._rows: dict[str, Any] = {}  # entity key -> hasher fed its observation rows
        self.stale: StaleSummary | None = {"groups": {}, "marked": 0} if digests else None

    def add(self, entity: dict[str, Any]) -> None:
        name = entity["entityName"]
        key = name_key(name)
        facts = self.facts
        if facts["normalized"] and not (
                (self._last_key is None or self._last_key < key) and entity_in_order(entity)):
            facts["normalized"] = False
        self._last_key = key
        self._names.add(key)
        if not entity.get("observations") and not entity.get("observationProvenance") \
                and not entity.get("supersededObservations"):
            self._unevidenced.append((name, key))
        if _NAME_MARKUP_RE.match(name.strip()):
            facts["names_with_markup"].append(name)
        _entity_facts(entity, facts)
        facts["stale_marked"] += len(entity.get(STALE_OBSERVATIONS_KEY) or ())
        if self.stale is not None:
            try:
                _add_stale(self.stale, entity)
            except (TypeError, KeyError, AttributeError):
                self.stale = None  # a shape stale marking reads on the models instead
        if self.digesting:
            self._add_digests(entity, name, key)
        rows = hashlib.blake2b(digest_size=8)
        rows.update(("\n".join(sorted(o.strip() for o in entity.get("observations") or ()))
                     + "\n--\n").encode("utf-8"))
        self._rows[entity_key(name)] = rows  # a repeated key: its first place, the last rows

    def _add_digests(self, entity: dict[str, Any], name: str, key: str) -> None:
        superseded = (s["observation"] for s in entity.get("supersededObservations") or ())
        texts = [text.strip() for text in [*(entity.get("observations") or ()), *superseded]]
        if not texts:
            return
        # _digest, inlined: the entity's "<key>|" hashed once and each text hashed on a copy of
        # that state (the same digest; a third less than a new hasher per observation)
        copy = hashlib.blake2b(f"{key}|".encode(), digest_size=8).copy
        hexes = []
        for text in texts:
            hasher = copy()
            hasher.update(text.encode())
            hexes.append(hasher.hexdigest())
        self.digests.update(zip(hexes, [f"{name}: {text}" for text in texts], strict=True))

    def finish(self, graph: dict[str, Any]) -> GraphFacts:
        """The facts, once every entity was added; `graph`: the document's other keys."""
        facts, relations = self.facts, graph["relations"]
        stating = {name_key(r[end]) for r in relations if r.get("relationProvenance")
                   for end in ("sourceEntityName", "targetEntityName")}
        facts["entities_without_evidence"] = sorted(
            name for name, key in self._unevidenced if key not in stating)
        facts["names_with_markup"].sort()
        facts["unknown_relation_types"] = sorted({r["relationType"] for r in relations}
                                                 - RELATION_VERBS)
        facts["relations"] = len(relations)
        facts["normalized"] = facts["normalized"] and increasing(
            relation_key(r) for r in relations)
        facts["dangling_relations"] = [
            (r["sourceEntityName"], r["relationType"], r["targetEntityName"]) for r in relations
            if name_key(r["sourceEntityName"]) not in self._names
            or name_key(r["targetEntityName"]) not in self._names]
        facts["entity_rows"] = self._entity_rows(relations)
        if self.digesting:
            self.digests.update(_relation_digests(graph))
        return facts

    def _entity_rows(self, relations: list[dict[str, Any]]) -> dict[str, str]:
        """entity_rows.graph_digests, from the observation rows hashed entity by entity."""
        shown = relation_rows(relations)
        return {key: rows_digest(rows, shown.get(key, [])) for key, rows in self._rows.items()}


def relation_rows(relations: Iterable[dict[str, Any]], keys: AbstractSet[str] | None = None,
                  ends: Iterable[tuple[str, str]] | None = None) -> dict[str, list[str]]:
    """Entity key -> the relation rows its page shows (of the entities of `keys` alone, when
    given). `ends`: each relation's source and target entity keys, when the caller made them."""
    shown: dict[str, list[str]] = {}
    pairs = zip(relations, ends, strict=True) if ends is not None else (
        (relation, (entity_key(relation["sourceEntityName"]),
                    entity_key(relation["targetEntityName"]))) for relation in relations)
    for relation, (source, target) in pairs:
        kind = relation["relationType"]
        if keys is None or source in keys:
            shown.setdefault(source, []).append(f"out|{kind}|{target}")
        if keys is None or target in keys:
            shown.setdefault(target, []).append(f"in|{kind}|{source}")
    return shown


def rows_digest(rows: Any, shown: list[str]) -> str:
    """An entity's entity_rows digest: its observation rows' hasher (GraphFactsBuilder.add)
    fed the relation rows its page shows."""
    rows.update("\n".join(sorted(shown)).encode("utf-8"))
    return str(rows.hexdigest())


@dataclass
class EntityPart:
    """One entity's share of the graph's facts: what GraphFactsBuilder.add adds for it."""

    row: EntityRow
    facts: GraphFacts  # its items of the per-entity lists, stale_marked its marks
    unevidenced: bool  # no observation, provenance or superseded observation
    normalized: bool  # graph_is_normalized's checks within the entity
    digests: dict[str, str]  # its observation digests
    rows: Any  # the hasher of its observation rows (rows_digest)


def entity_part(entity: dict[str, Any]) -> EntityPart:
    builder = GraphFactsBuilder()
    builder.add(entity)
    facts = builder.facts
    return EntityPart(row=facts["entities"][0], facts=facts, unevidenced=bool(builder._unevidenced),
                      normalized=facts["normalized"], digests=builder.digests,
                      rows=builder._rows[entity_key(entity["entityName"])])


def _add_stale(summary: StaleSummary, entity: dict[str, Any]) -> None:
    """Group an entity's active observations by their provenance rows, counting those marked
    (what stale.mark_stale reads of it: its marks, observations and provenance)."""
    marked = {str(m.get("observation", "")).strip()
              for m in entity.get(STALE_OBSERVATIONS_KEY) or () if isinstance(m, dict)}
    summary["marked"] += len(marked)
    provenance = entity.get("observationProvenance") or ()
    groups = summary["groups"]
    active = dict.fromkeys(o.strip() for o in entity.get("observations") or ()).keys()
    pairs = {(prov["sourcePage"], prov["rawAssetId"]) for prov in provenance}
    if len(pairs) == 1:  # one source (the usual entity): every observation in one group
        aged = active & {prov["observation"].strip() for prov in provenance}
        if aged:
            counts = groups.setdefault(frozenset(pairs), [0, 0])
            counts[0] += len(aged)
            counts[1] += len(aged & marked)
        return
    rows: dict[str, set[tuple[str, str]]] = {}
    for prov in provenance:
        rows.setdefault(prov["observation"].strip(), set()).add(
            (prov["sourcePage"], prov["rawAssetId"]))
    for text in active:
        found = rows.get(text)
        if found is not None:
            counts = groups.setdefault(frozenset(found), [0, 0])
            counts[0] += 1
            counts[1] += text in marked


def graph_facts(graph: dict[str, Any]) -> GraphFacts:
    """The facts reconcile's gates read of a validated graph (plain dicts)."""
    return graph_facts_and_digests(graph)[0]


def graph_facts_and_digests(graph: dict[str, Any]) -> tuple[GraphFacts, dict[str, str]]:
    """graph_facts and observation_digests in one pass."""
    builder = GraphFactsBuilder()
    for entity in graph["entities"]:
        builder.add(entity)
    return builder.finish(graph), builder.digests


def content_facts(graph: dict[str, Any]) -> GraphContentFacts:
    """Entities without any evidence, names that start with markup, relation types outside the
    relation vocabulary (each listed once, sorted)."""
    relations = graph["relations"]
    stating = {  # entities a source names in a relation it states (from them or to them)
        name_key(r[end]) for r in relations if r.get("relationProvenance")
        for end in ("sourceEntityName", "targetEntityName")
    }
    entities = graph["entities"]
    return {
        "entities_without_evidence": sorted(
            e["entityName"] for e in entities
            if not e.get("observations") and not e.get("observationProvenance")
            and not e.get("supersededObservations")
            and name_key(e["entityName"]) not in stating
        ),
        "names_with_markup": sorted(
            e["entityName"] for e in entities if _NAME_MARKUP_RE.match(e["entityName"].strip())
        ),
        "unknown_relation_types": sorted({r["relationType"] for r in relations} - RELATION_VERBS),
    }

"""An `Extraction` as compact JSON and back, exactly (tasks/distill/extraction_cache.py keeps them).

Each fact type is a positional array of its fields, in the dataclass's order; decoding builds the
same frozen dataclasses with the same field types (tuples where the model holds tuples, bools as
bools), so a decoded extraction equals the one encoded and distill makes the same files from it.
Names (NameRef) are written once per extraction and referred to by number, so a name object
shared by two facts is shared again after decoding: the merge tells a relation from the
subject by identity (`ref is subject.ref`), and an equal name on another fact is not it.

What JSON cannot carry exactly is refused (`NotEncodable`): a store record's typed fields (any
YAML value: dates, integer keys) and anything not of the model's declared types. Such an
extraction is simply not cached. A body that does not decode to the model's shape raises
`BadBody` (the cache then extracts the source again).
"""

from __future__ import annotations

from typing import Any

import orjson

from tasks.extract.model import (
    CandidateFact,
    EntityFact,
    Extraction,
    NameRef,
    ObservationFact,
    RelationFact,
    SourceRef,
    SupersededFact,
)
from tasks.extract.record_links import RecordLink

FORMAT = 3  # bump when the layout below changes


class NotEncodable(ValueError):
    """The extraction holds a value JSON would not give back as it is."""


class BadBody(ValueError):
    """A stored body that is not an encoded extraction list."""


def encode_extractions(extractions: list[Extraction]) -> bytes:
    """One source's extractions as JSON bytes (NotEncodable: see the module's doc)."""
    return orjson.dumps([_extraction(e) for e in extractions])


def decode_extractions(body: bytes) -> list[Extraction]:
    """The extractions `encode_extractions` wrote (BadBody when the bytes are anything else)."""
    try:
        rows = orjson.loads(body)
        if type(rows) is not list:
            raise BadBody("not a list")
        return [_read_extraction(row) for row in rows]
    except (orjson.JSONDecodeError, TypeError, ValueError, IndexError, KeyError) as exc:
        if isinstance(exc, BadBody):
            raise
        raise BadBody(str(exc)) from exc


# --------------------------------------------------------------------------- checks


def _str(value: Any) -> str:
    if type(value) is not str:
        raise NotEncodable(f"expected str, got {type(value).__name__}")
    return value


def _opt_str(value: Any) -> str | None:
    return None if value is None else _str(value)


def _int(value: Any) -> int:
    if type(value) is not int:
        raise NotEncodable(f"expected int, got {type(value).__name__}")
    return value


def _bool(value: Any) -> bool:
    if type(value) is not bool:
        raise NotEncodable(f"expected bool, got {type(value).__name__}")
    return value


def _strs(values: Any) -> list[str]:
    return [_str(v) for v in values]


def _no_typed(typed: Any) -> None:
    if typed is not None:
        raise NotEncodable("typed fields of a store record")


# --------------------------------------------------------------------------- encode


def _source(s: SourceRef) -> list[Any]:
    return [_str(s.asset_id), _str(s.source_page), _str(s.raw_path), _str(s.original_path)]


class _Names:
    """An extraction's NameRef objects, each numbered by identity on first sight."""

    def __init__(self) -> None:
        self.rows: list[list[Any]] = []
        self._numbers: dict[int, int] = {}
        self._kept: list[NameRef] = []  # (alive while numbered: ids stay unique)

    def number(self, n: NameRef) -> int:
        found = self._numbers.get(id(n))
        if found is not None:
            return found
        if type(n) is not NameRef or type(n.names) is not tuple:
            raise NotEncodable("not a NameRef of a tuple of names")
        self._numbers[id(n)] = len(self.rows)
        self._kept.append(n)
        self.rows.append([_strs(n.names), _str(n.entity_type), _int(n.line)])
        return len(self.rows) - 1


def _entity(e: EntityFact, names: _Names) -> list[Any]:
    if type(e.aliases) is not tuple or type(e.tags) is not tuple:
        raise NotEncodable("EntityFact aliases or tags not a tuple")
    return [names.number(e.ref), _strs(e.aliases), _strs(e.tags), _bool(e.explicit_type)]


def _observation(o: ObservationFact) -> list[Any]:
    _no_typed(o.typed)
    return [_str(o.text), _int(o.line_start), _int(o.line_end), _str(o.kind)]


def _relation(r: RelationFact, names: _Names) -> list[Any]:
    return [names.number(r.source), _str(r.relation_type), names.number(r.target)]


def _candidate(c: CandidateFact) -> list[Any]:
    return [_str(c.term), _str(c.kind), _int(c.line), _str(c.excerpt), _int(c.count)]


def _superseded(f: SupersededFact) -> list[Any]:
    _no_typed(f.typed)
    return [_str(f.text), _int(f.line_start), _int(f.line_end), _str(f.reason),
            _opt_str(f.record_id), _opt_str(f.by)]


def _link(k: RecordLink) -> list[Any]:
    number = None if k.number is None else _int(k.number)
    return [_str(k.relation_type), _bool(k.incoming), _str(k.text), _opt_str(k.stem), number,
            _int(k.line), _str(k.excerpt), _opt_str(k.folder), _bool(k.mention)]


def _pair(item: Any) -> tuple[Any, ...]:
    if type(item) is not tuple or len(item) != 2:
        raise NotEncodable("expected a pair")
    return item


def _extraction(e: Extraction) -> list[Any]:
    if type(e) is not Extraction:
        raise NotEncodable(f"not an Extraction: {type(e).__name__}")
    if e.day_first is not None:
        _bool(e.day_first)
    tombstones = [{_str(k): _str(v) for k, v in t.items()} for t in e.tombstones]
    replaced_by = {_str(k): _str(v) for k, v in e.replaced_by.items()}
    for terms in e.subject_terms:
        if type(terms) is not tuple:
            raise NotEncodable("subject terms not a tuple")
    names = _Names()
    subject = None if e.subject is None else _entity(e.subject, names)
    entities = [_entity(x, names) for x in e.entities]
    relations = [_relation(x, names) for x in e.relations]
    entity_observations = [[names.number(ref), _observation(obs)]
                           for ref, obs in map(_pair, e.entity_observations)]
    return [
        names.rows,
        _source(e.source),
        subject,
        entities,
        [_observation(x) for x in e.observations],
        relations,
        [_candidate(x) for x in e.candidates],
        [[_int(line), _str(text)] for line, text in map(_pair, e.prose)],
        _bool(e.record_superseded),
        _strs(e.rejected_names),
        _bool(e.is_decision_record),
        _str(e.title),
        _opt_str(e.record_key),
        _opt_str(e.document_key),
        [_superseded(x) for x in e.superseded_facts],
        tombstones,
        replaced_by,
        _int(e.order),
        _str(e.record_role),
        [_link(x) for x in e.record_links],
        e.day_first,
        entity_observations,
        [_strs(terms) for terms in e.subject_terms],
        _strs(e.entry_keys),
    ]


# --------------------------------------------------------------------------- decode
# (the shapes were checked when encoding; a body that is not one raises TypeError, ValueError,
# IndexError or KeyError, turned into BadBody above)


def _read_name(row: list[Any]) -> NameRef:
    names, entity_type, line = row
    return NameRef(tuple(names), entity_type, line)


def _read_entity(row: list[Any], names: list[NameRef]) -> EntityFact:
    ref, aliases, tags, explicit = row
    return EntityFact(names[ref], tuple(aliases), tuple(tags), explicit)


def _read_observation(row: list[Any]) -> ObservationFact:
    text, start, end, kind = row
    return ObservationFact(text, start, end, kind)


def _read_relation(row: list[Any], names: list[NameRef]) -> RelationFact:
    source, relation_type, target = row
    return RelationFact(names[source], relation_type, names[target])


def _read_superseded(row: list[Any]) -> SupersededFact:
    text, start, end, reason, record_id, by = row
    return SupersededFact(text, start, end, reason, record_id, by)


def _read_extraction(row: list[Any]) -> Extraction:
    (name_rows, source, subject, entities, observations, relations, candidates, prose,
     record_superseded, rejected, is_decision, title, record_key, document_key, superseded,
     tombstones, replaced_by, order, record_role, links, day_first, entity_observations,
     subject_terms, entry_keys) = row
    names = [_read_name(x) for x in name_rows]
    return Extraction(
        source=SourceRef(*source),
        subject=None if subject is None else _read_entity(subject, names),
        entities=[_read_entity(x, names) for x in entities],
        observations=[_read_observation(x) for x in observations],
        relations=[_read_relation(x, names) for x in relations],
        candidates=[CandidateFact(*x) for x in candidates],
        prose=[(line, text) for line, text in prose],
        record_superseded=record_superseded,
        rejected_names=list(rejected),
        is_decision_record=is_decision,
        title=title,
        record_key=record_key,
        document_key=document_key,
        superseded_facts=[_read_superseded(x) for x in superseded],
        tombstones=[dict(t) for t in tombstones],
        replaced_by=dict(replaced_by),
        order=order,
        record_role=record_role,
        record_links=[RecordLink(*x) for x in links],
        day_first=day_first,
        entity_observations=[(names[ref], _read_observation(obs))
                             for ref, obs in entity_observations],
        subject_terms=[tuple(terms) for terms in subject_terms],
        entry_keys=list(entry_keys),
    )

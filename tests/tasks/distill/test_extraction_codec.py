"""The extraction codec gives back exactly what it was given (tasks/distill/extraction_codec.py)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tasks.distill.extraction_codec import (
    BadBody,
    NotEncodable,
    decode_extractions,
    encode_extractions,
)
from tasks.extract import (
    EntityFact,
    Extraction,
    NameRef,
    ObservationFact,
    RelationFact,
    SourceRef,
    SupersededFact,
    extract_facts,
)
from tasks.extract.record_links import RecordLink
from tests.conftest import CORPUS

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures/distill"
# The held-out sets kept clean (measured only by the lead, in test_subjects_corpus.py): no other
# test reads them, so that no developer's run shows them.
CLEAN_SETS = frozenset({"heldout15", "heldout30", "heldout39", "heldout40", "heldout41", "heldout42", "heldout43", "heldout44"})


def _documents() -> list[Path]:
    corpus = sorted(CORPUS.glob("*/*.md"))
    # (the clean held-out sets are never read by a developer's run)
    fixtures = sorted(p for p in FIXTURES.rglob("*.md") if not CLEAN_SETS & set(p.parts))
    return corpus + fixtures


def _exact(extractions: list[Extraction]) -> tuple[str, list[list[int]]]:
    """repr (it tells a tuple from a list and True from 1, which == does not) and which name
    objects are one object (the merge asks `ref is subject.ref`)."""
    shapes = []
    for e in extractions:
        refs = [*([e.subject.ref] if e.subject else []), *(f.ref for f in e.entities),
                *(r for rel in e.relations for r in (rel.source, rel.target)),
                *(ref for ref, _ in e.entity_observations)]
        first: dict[int, int] = {}
        shapes.append([first.setdefault(id(ref), n) for n, ref in enumerate(refs)])
    return repr(extractions), shapes


def test_real_documents_round_trip_exactly() -> None:
    documents = _documents()
    assert len(documents) > 200
    fields_seen: set[str] = set()
    shared = 0
    for number, path in enumerate(documents):
        ref = SourceRef(f"{number:064x}", f"wiki/sources/{path.stem}.md", f"raw/{path.name}",
                        path.name)
        extraction = extract_facts(path.read_text(encoding="utf-8"), ref)
        decoded = decode_extractions(encode_extractions([extraction]))
        assert _exact(decoded) == _exact([extraction]), path
        shared += sum(n != i for n, i in enumerate(_exact(decoded)[1][0]))
        fields_seen.update(f.name for f in dataclasses.fields(Extraction)
                           if getattr(extraction, f.name) not in (None, [], {}, "", False, 0))
    # the documents exercise the fields distill reads most
    assert {"subject", "entities", "observations", "relations", "candidates", "prose",
            "record_links", "is_decision_record", "entity_observations",
            "subject_terms"} <= fields_seen
    assert shared > 100  # (names shared by facts: relations from the subject)


def test_a_shared_name_stays_shared_and_an_equal_one_stays_apart() -> None:
    subject = NameRef(("Kafka",), "technology", 1)
    equal = NameRef(("Kafka",), "technology", 1)
    other = NameRef(("ZooKeeper",), "technology", 2)
    extraction = Extraction(SourceRef("a" * 64, "p", "r"), subject=EntityFact(subject),
                            relations=[RelationFact(subject, "depends_on", other),
                                       RelationFact(equal, "mentions", other)])
    (decoded,) = decode_extractions(encode_extractions([extraction]))
    assert decoded.subject is not None
    first, second = decoded.relations
    assert first.source is decoded.subject.ref and first.target is second.target
    assert second.source == decoded.subject.ref and second.source is not decoded.subject.ref


def test_every_field_of_every_type_is_carried() -> None:
    name = NameRef(("Kafka", "kafka"), "technology", 3)
    extraction = Extraction(
        source=SourceRef("a" * 64, "wiki/sources/x.md", "raw/x.md", "docs/x.md"),
        subject=EntityFact(name, ("K",), ("infra",), True),
        observations=[ObservationFact("Status: Accepted", 4, 5, "status")],
        prose=[(1, "text")], record_superseded=True, rejected_names=["Foo"],
        is_decision_record=True, title="T", record_key="0001-x", document_key="x",
        superseded_facts=[SupersededFact("old", 1, 2, "retired", "r1", "r2")],
        tombstones=[{"topic": "t", "reason": "r"}], replaced_by={"a": "b"}, order=-1,
        record_role="index",
        record_links=[RecordLink("supersedes", True, "ADR 2", "0002-y", 2, 7, "see", "*/adr",
                                 True)],
        day_first=False, entity_observations=[(name, ObservationFact("uses it", 9, 9))],
        subject_terms=[("Event bus", "event bus")])
    for field in dataclasses.fields(Extraction):  # a new field must be added to the codec
        assert getattr(extraction, field.name) != field.default, field.name
    assert _exact(decode_extractions(encode_extractions([extraction]))) == _exact([extraction])


def test_what_json_cannot_carry_is_refused() -> None:
    source = SourceRef("a" * 64, "p", "r")
    with pytest.raises(NotEncodable):  # a store record's typed fields (YAML values)
        encode_extractions([Extraction(source, observations=[
            ObservationFact("x", 1, 1, "store", {"when": 1})])])
    with pytest.raises(NotEncodable):  # a list where the model holds a tuple
        encode_extractions([Extraction(source, subject=EntityFact(
            NameRef(["A"], "concept", 1)))])  # type: ignore[arg-type]
    with pytest.raises(NotEncodable):  # an int where the model holds a bool
        encode_extractions([Extraction(source, is_decision_record=1)])  # type: ignore[arg-type]


@pytest.mark.parametrize("body", [b"", b"{}", b"[1]", b"[[1, 2]]", b"not json", b'["x"]'])
def test_a_body_of_another_shape_is_a_bad_body(body: bytes) -> None:
    with pytest.raises(BadBody):
        decode_extractions(body)

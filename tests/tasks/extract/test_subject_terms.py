"""Subject terms (tasks/extract/subject_terms.py): system phrases never open with a word that
describes, acts or relates; code that names an error type or a function is no name; minutes'
subject from their titles."""

from __future__ import annotations

from tasks.extract.subject_terms import (
    code_identifiers,
    minutes_subject,
    starts_as_description,
    system_phrases,
    written_often,
)


def test_system_phrases_drop_prepositions_adjectives_and_state_participles() -> None:
    found = system_phrases([
        (1, "Users on an older SDK saw errors; without scheduler runs nothing happens."),
        (2, "The fixed SDK shipped; a multi-tenant cluster and a large cluster failed."),
        (3, "The shared cache and the content-addressed cache stay; the managed database too."),
    ])
    assert "older sdk" not in found and "without scheduler" not in found
    assert "fixed sdk" not in found and "multi tenant cluster" not in found and "large cluster" not in found
    assert {"shared cache", "content addressed cache", "managed database"} <= set(found)


def test_phrases_that_start_as_a_description() -> None:
    assert starts_as_description("older SDK")
    assert starts_as_description("without scheduler")
    assert starts_as_description("consider tracking SDK")
    assert starts_as_description("Generalized type")
    assert starts_as_description("released SDK")
    assert not starts_as_description("shared cache")
    assert not starts_as_description("Payments API")
    assert not starts_as_description("Grafana")


def test_code_naming_an_error_type_or_a_function_is_no_name() -> None:
    hits = {term: [(1, "")] * 3 for term in ["TypeError", "ValueException", "isDisabled", "getValue",
                                              "taskRef", "displayName", "PipelineTask", "orders-consumer"]}
    assert set(code_identifiers(hits)) == {"taskref", "displayname", "pipelinetask", "orders consumer"}


def test_minutes_subject_from_their_titles() -> None:
    assert minutes_subject(["Triage meeting 2021-05-11", "T-lang meeting agenda"], "") == "T-lang"
    assert minutes_subject(["Platform team weekly sync (2024-04-02)"], "") == "Platform team"
    prose = "We reviewed specialization. Specialization is unsound; specialization needs work."
    assert minutes_subject(["Specialization Review, 2020-02-03"], prose) == "Specialization"
    assert minutes_subject(["Infrastructure sync, 2024-05-14"], "infrastructure once") is None
    assert minutes_subject(["Weekly meeting"], "") is None


def test_written_often_counts_whole_words_in_any_case() -> None:
    assert written_often("Matrix", "matrix, a Matrix and matrixes; the matrix-task; MATRIX", 3)
    assert not written_often("Matrix", "matrix, a Matrix and matrixes; the matrix-task", 3)

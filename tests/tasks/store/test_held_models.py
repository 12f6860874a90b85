"""HeldModels: rows held as read, each made its model once, on first read."""

from __future__ import annotations

import pydantic
import pytest

from tasks.store.held_models import HeldModels, Row


class Note(pydantic.BaseModel):
    title: str


class Notes(HeldModels[Note]):
    @staticmethod
    def made(row: Row) -> Note:
        return Note.model_validate(row)


def test_a_row_is_made_its_model_once_and_a_model_is_kept() -> None:
    kept = Note(title="kept")
    notes = Notes({"a": {"title": "row"}, "b": kept})
    first = notes["a"]
    assert first == Note(title="row") and notes["a"] is first
    assert notes["b"] is kept
    assert list(notes) == ["a", "b"] and len(notes) == 2 and "a" in notes and "c" not in notes


def test_a_bad_row_fails_when_read_and_stays_a_row() -> None:
    notes = Notes({"a": {"title": 3}})
    with pytest.raises(pydantic.ValidationError):
        notes["a"]
    with pytest.raises(pydantic.ValidationError):
        notes["a"]

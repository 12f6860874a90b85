"""Models held as the rows a file membank wrote holds, made models on first read.

A writer that plans over every record of a context file and changes a few (the raw manifest's
assets, the distill state's sources) keeps the rows as read (validated when the file was
written: tasks/store/written.py) and validates only the records it reads.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterator, Mapping
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

Row = dict[str, Any]
ModelT = TypeVar("ModelT", bound=BaseModel)


class HeldModels(Mapping[str, ModelT], Generic[ModelT]):
    """Records by key, each a row or its model; a row read becomes its model (`made`)."""

    def __init__(self, held: dict[str, Row | ModelT] | None = None) -> None:
        self._held: dict[str, Row | ModelT] = held if held is not None else {}

    def __getitem__(self, key: str) -> ModelT:
        held = self._held[key]
        if isinstance(held, dict):
            held = self._held[key] = self.made(held)
        return held

    @staticmethod
    @abstractmethod
    def made(row: Row) -> ModelT:
        """The model of one row (the model's validation)."""

    def __iter__(self) -> Iterator[str]:
        return iter(self._held)

    def __len__(self) -> int:
        return len(self._held)

    def __contains__(self, key: object) -> bool:
        return key in self._held

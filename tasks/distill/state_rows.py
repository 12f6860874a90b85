"""The distill state (context/distill-state.jsonc) as plain rows, when the file is as membank
wrote it.

A one-note ingest at 100,000 pages validated every one of the state's 20,000 sources into a
model to plan (is this asset distilled?) and to add one, then dumped every model again: ~0.05 s
to validate, ~0.03 s to dump, against ~0.01 s for orjson alone. A file membank wrote
(tasks/store/written.py) was validated on the way in, so its rows are read as plain dicts;
models are made only for the sources a reader asks for (DistilledSource.model_validate of one
row), and the file is written again from the rows (orjson's two-space layout: the bytes
pydantic's encoder writes for the same data, tests/tasks/store/test_graph_store.py). A file a
person edited, copied in or broke is read through the validated model as before
(load_distill_state), and written from its models as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from schemas.distill_state import DistilledSource, DistillState
from tasks.store.graph_store import load_distill_state, save_distill_state, save_distill_state_data
from tasks.store.held_models import HeldModels, Row
from tasks.store.written import written_data

STAMP = "stateGeneratedAtUtc"


class SourceStates(HeldModels[DistilledSource]):
    """Distilled sources by asset id, held as rows (a file membank wrote) or models, made
    models on first read. A writer plans over all of them and reads a few."""

    @staticmethod
    def made(row: Row) -> DistilledSource:
        return DistilledSource.model_validate(row)

    @classmethod
    def of(cls, sources: Iterable[DistilledSource]) -> SourceStates:
        return cls({source.assetId: source for source in sources})

    def put(self, source: DistilledSource) -> None:
        self._held[source.assetId] = source

    def copy(self) -> SourceStates:
        return SourceStates(dict(self._held))

    @property
    def all_models(self) -> bool:
        """Whether no source is held as a row (the state was not read as rows, or all were read)."""
        return all(isinstance(held, DistilledSource) for held in self._held.values())

    def having(self, field: str) -> Iterator[tuple[str, DistilledSource]]:
        """(asset id, source) of the sources whose `field` is set (not None), in order; the
        others are not made models."""
        for key, held in self._held.items():
            if (held.get(field) if isinstance(held, dict) else getattr(held, field)) is not None:
                yield key, self[key]

    def pages(self) -> Iterator[tuple[str, str | None, str]]:
        """(source page, title, asset id) of every source, in order, without models."""
        for held in self._held.values():
            if isinstance(held, dict):
                yield held["sourcePage"], held.get("title"), held["assetId"]
            else:
                yield held.sourcePage, held.title, held.assetId

    def sorted_rows(self) -> list[Row]:
        """Every source's row by asset id: a row as read, a model as the model dumps it."""
        return [held if isinstance(held, dict) else held.model_dump(mode="json", exclude_none=True)
                for _key, held in sorted(self._held.items(), key=lambda item: item[0])]


def _trusted(path: Path) -> tuple[SourceStates, str] | None:
    data = written_data(path)
    if not isinstance(data, dict) or not isinstance(data.get(STAMP), str):
        return None
    rows = data.get("sources", [])
    if not isinstance(rows, list) or not all(isinstance(row, dict) and isinstance(row.get("assetId"), str)
                                             for row in rows):
        return None
    return SourceStates({row["assetId"]: row for row in rows}), data[STAMP]


def load_source_states(path: Path) -> tuple[SourceStates, str]:
    """The state's sources and its stamp: rows when the file is as membank wrote it, else the
    validated model's sources."""
    trusted = _trusted(path)
    if trusted is not None:
        return trusted
    state = load_distill_state(path)
    return SourceStates.of(state.sources), state.stateGeneratedAtUtc


def save_source_states(path: Path, states: SourceStates, stamp: str, *, now_iso: str) -> bool:
    """Write the state (sources by asset id; the stamp refreshed only on a real change): from
    the rows, or, when every source is a model, from the model, as before."""
    if states.all_models:
        document = DistillState(stateGeneratedAtUtc=stamp, sources=[states[key] for key in sorted(states)])
        return save_distill_state(path, document, now_iso=now_iso)
    return save_distill_state_data(path, {STAMP: stamp, "sources": states.sorted_rows()},
                                   now_iso=now_iso)

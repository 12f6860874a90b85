"""The raw manifest as plain rows, when the file is exactly as membank wrote it.

A one-note ingest at 100,000 pages validated the whole manifest (10 MB, 20,000 assets) into
models to look up one path and append one asset, then dumped every model again: ~0.2 s to
validate, 0.08-0.13 s to dump, against 0.035 s for orjson alone. A file membank wrote
(tasks/store/written.py) was validated on the way in, so its rows are read as plain dicts;
models are made only for the assets a writer asks for (RawAsset.model_validate of one row),
and the file is written again from the rows (orjson's two-space layout: the bytes pydantic's
encoder writes for the same data, tests/tasks/store/test_graph_store.py). A file a person
edited, copied in or broke is read through the validated model as before (load_manifest).

Rows are taken only from a manifest without reverts: a revert's current version is worked
out on models (tasks/store/versions.py), and that path stays as it was.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import orjson

from schemas.raw_manifest import RawAsset, RawManifest, RevertEvent
from tasks.store.filememo import file_identity
from tasks.store.graph_store import handed_over, load_manifest, save_manifest, save_manifest_data
from tasks.store.held_models import HeldModels, Row
from tasks.store.written import as_written, written_data

# A manifest's top-level reverts key as membank's two-space layout writes it (a JSON string
# holds no raw newline, so only the top level has it at this indent)
_REVERTS = b'\n  "reverts": '


# The data of a manifest read before the writer took it (ingest's stored_asset_ids, then the
# writer's open: one parse, 0.035-0.05 s at 100,000 pages), by path, with the file's identity
# then; taken once, and only while the file is still that write.
_READ: dict[str, tuple[list[int] | None, Any]] = {}


def read_rows(path: Path) -> Any:
    """The file parsed (the file's JSON shape, unchecked) when membank wrote it as it is, kept
    for the next trusted_rows of the file in this process; None when it is not as written."""
    data = written_data(path)
    if data is not None:
        _READ[str(path)] = (file_identity(path), data)
    return data


def trusted_rows(path: Path) -> Row | None:
    """The manifest's plain data (the file's JSON shape) when the file is as membank wrote it
    and holds no revert; None otherwise (then validate it: load_manifest). A manifest this
    process just saved as rows is handed over without reading the file again, and one
    read_rows read while the file was this very write is taken as it was read."""
    data = handed_over(path, dict)
    kept = _READ.pop(str(path), None)
    if data is None and kept is not None and kept[0] == file_identity(path) and as_written(path):
        data = kept[1]
    if data is None:
        if not as_written(path):
            return None
        try:
            raw = path.read_bytes()
            if _REVERTS in raw:  # the model path: not parsed twice (membank's top-level key)
                return None
            data = orjson.loads(raw)
        except (OSError, orjson.JSONDecodeError):
            return None
    if not isinstance(data, dict) or not isinstance(data.get("assets"), list) or data.get("reverts"):
        return None
    return data


def row_asset(row: Row | RawAsset) -> RawAsset:
    """A row's model (validated: a row is membank's, but cheap to check one at a time)."""
    return row if isinstance(row, RawAsset) else RawAsset.model_validate(row)


class AssetIndex(HeldModels[RawAsset], MutableMapping[str, RawAsset]):
    """Assets by a key (asset id, original path), held as rows and made models on first read:
    a writer builds the index over every asset and reads a few."""

    @staticmethod
    def made(row: Row) -> RawAsset:
        return RawAsset.model_validate(row)

    def put_row(self, key: str, row: Row, *, first: bool = False) -> None:
        """Hold `row` under `key` (with `first`, only when the key holds nothing yet)."""
        if first:
            self._held.setdefault(key, row)
        else:
            self._held[key] = row

    def __setitem__(self, key: str, asset: RawAsset) -> None:
        self._held[key] = asset

    def __delitem__(self, key: str) -> None:
        del self._held[key]


class WriterManifest:
    """The manifest an ingest writer changes: the validated model, or the rows of a file as
    membank wrote it (until a revert asks for the model: `model`)."""

    def __init__(self, path: Path, *, rows: Row | None = None, model: RawManifest | None = None
                 ) -> None:
        self.path = path
        self._rows = rows
        self._model = model

    @classmethod
    def open(cls, path: Path, empty: RawManifest) -> WriterManifest:
        """The file's manifest (rows when trusted, else validated), or `empty` when missing."""
        if not path.exists():
            return cls(path, model=empty)
        rows = trusted_rows(path)
        return cls(path, rows=rows) if rows is not None else cls(path, model=load_manifest(path))

    @property
    def rows(self) -> list[Row] | None:
        """The assets' rows (None: the manifest is a model)."""
        return self._rows["assets"] if self._rows is not None else None

    def model(self) -> RawManifest:
        """The manifest as the validated model (made from the rows, once, when first asked)."""
        if self._model is None:
            assert self._rows is not None
            self._model = RawManifest.model_validate(self._rows)
            self._rows = None
        return self._model

    def purged_ids(self) -> set[str]:
        if self._rows is not None:
            return {str(p["assetId"]) for p in self._rows.get("purgedAssets") or ()}
        return {p.assetId for p in self.model().purgedAssets or []}

    def append(self, asset: RawAsset) -> None:
        if self._rows is not None:
            # the row a model dump writes for it (fields in order, no None)
            self._rows["assets"].append(asset.model_dump(mode="json", exclude_none=True))
        else:
            self.model().assets.append(asset)

    def add_revert(self, event: RevertEvent) -> None:
        manifest = self.model()
        manifest.reverts = [*(manifest.reverts or []), event]

    def save(self, *, now_iso: str) -> bool:
        """Write the manifest (its stamp refreshed only on a real change); handed over to this
        process's next read of the file, so the caller changes it no more."""
        if self._rows is not None:
            return save_manifest_data(self.path, self._rows, now_iso=now_iso)
        return save_manifest(self.path, self.model(), now_iso=now_iso)

"""The raw manifest as rows when membank wrote it (tasks/store/manifest_rows.py): the same
models, the same bytes written, and a file anyone else wrote validated as before."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from pydantic import ValidationError

from schemas.raw_manifest import PurgedAsset, RawAsset, RawManifest, RevertEvent
from tasks.store.errors import ContractError
from tasks.store.graph_store import empty_manifest, save_manifest
from tasks.store.manifest_rows import AssetIndex, WriterManifest, read_rows, trusted_rows
from tests.memory_builder import build_healthy_memory
from tests.tasks.store.test_written import hand_edit

STAMP, LATER = "2026-05-01T00:00:00Z", "2026-05-02T00:00:00Z"


def _asset(i: int, **more: object) -> RawAsset:
    return RawAsset(assetId=f"{i:064x}", contentHash=f"sha256:{i:064x}", sizeBytes=i,
                    mediaType="text/markdown", originalPath=f"notes/n{i % 3}.md",
                    rawPath=f"raw/2026-05-01T00-00-00Z__n{i}.md", ingestedAtUtc=STAMP,
                    sourcePage=f"wiki/sources/n{i}.md" if i % 2 else None,
                    supersedesAssetId=f"{i - 3:064x}" if i >= 3 else None, **more)


def _manifest() -> RawManifest:
    """Every kind of field a row carries: optional ones left out, extension keys, non-ASCII,
    control characters, secrets recorded with --allow-secrets, purged assets."""
    assets = [_asset(i) for i in range(1, 6)]
    assets.append(_asset(6, storeRole="mem-learning", sourcePath="équipe/n6.md",
                         secretsAllowed=[{"kind": "aws key", "line": 3, "note": None}],
                         extraKey={"nested": [1, 2.5, "tab\there"]}))
    purged = [PurgedAsset(assetId=f"{9:064x}", purgedAtUtc=STAMP, reason="forget --mode purge")]
    return RawManifest(manifestGeneratedAtUtc=STAMP, assets=assets, purgedAssets=purged)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    root = tmp_path / "memory"
    build_healthy_memory(root)
    manifest_file = root / "context/raw-manifest.jsonc"
    save_manifest(manifest_file, _manifest(), now_iso=STAMP)
    return manifest_file


def test_rows_of_membanks_file_are_its_models(path: Path) -> None:
    rows = trusted_rows(path)
    assert rows is not None
    assert RawManifest.model_validate(rows) == RawManifest.model_validate_json(path.read_bytes())


def test_rows_saved_with_a_new_asset_write_the_models_bytes(path: Path, tmp_path: Path) -> None:
    by_model = tmp_path / "memory/context/by-model.jsonc"
    manifest = RawManifest.model_validate_json(path.read_bytes())
    new = _asset(7, sourcePath="notes/n1.md")
    manifest.assets.append(new)
    save_manifest(by_model, manifest, now_iso=LATER)
    writer = WriterManifest.open(path, empty_manifest(LATER))
    assert writer.rows is not None
    writer.append(new)
    assert writer.purged_ids() == {f"{9:064x}"}
    assert writer.save(now_iso=LATER)
    assert path.read_bytes() == by_model.read_bytes()
    # handed over to the next reader (the ingest's distill) as rows, then read from the file
    handed = trusted_rows(path)
    assert handed is not None and handed["assets"][-1] is writer.rows[-1]
    again = trusted_rows(path)
    assert again == handed and again["assets"][-1] is not handed["assets"][-1]
    # nothing appended: nothing written (the stamp stays)
    before = path.read_bytes()
    assert not WriterManifest.open(path, empty_manifest(LATER)).save(now_iso="2026-05-03T00:00:00Z")
    assert path.read_bytes() == before


def test_a_hand_edited_manifest_is_validated(path: Path) -> None:
    hand_edit(path, b'"sizeBytes": 1', b'"sizeBytes": 7')
    assert trusted_rows(path) is None
    writer = WriterManifest.open(path, empty_manifest(LATER))
    assert writer.rows is None and writer.model().assets[0].sizeBytes == 7
    hand_edit(path, b'"sizeBytes": 7', b'"sizeBytes":-1')
    with pytest.raises(ContractError):
        WriterManifest.open(path, empty_manifest(LATER))


def test_a_manifest_with_reverts_is_a_model(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    manifest = RawManifest.model_validate_json(path.read_bytes())
    manifest.reverts = [RevertEvent(assetId=f"{1:064x}", originalPath="notes/n1.md",
                                    supersedesAssetId=f"{4:064x}", revertedAtUtc=LATER)]
    save_manifest(path, manifest, now_iso=LATER)
    parsed: list[bytes] = []
    loads = orjson.loads

    def counted(data: bytes) -> object:
        parsed.append(data)
        return loads(data)

    with monkeypatch.context() as patched:  # told by its bytes: not parsed only to be dropped
        patched.setattr(orjson, "loads", counted)
        assert trusted_rows(path) is None
    assert parsed and not any(b'"assets"' in data for data in parsed)  # (the record read alone)
    assert WriterManifest.open(path, empty_manifest(LATER)).rows is None


def test_a_revert_turns_the_rows_into_the_model(path: Path) -> None:
    writer = WriterManifest.open(path, empty_manifest(LATER))
    event = RevertEvent(assetId=f"{1:064x}", originalPath="notes/n1.md",
                        supersedesAssetId=f"{4:064x}", revertedAtUtc=LATER)
    writer.add_revert(event)
    assert writer.rows is None and writer.model().reverts == [event]
    writer.save(now_iso=LATER)
    assert RawManifest.model_validate_json(path.read_bytes()).reverts == [event]


def test_a_missing_manifest_opens_as_the_empty_one(tmp_path: Path) -> None:
    empty = empty_manifest(LATER)
    writer = WriterManifest.open(tmp_path / "none.jsonc", empty)
    assert writer.rows is None and writer.model() is empty


def test_asset_index_makes_models_when_read() -> None:
    index = AssetIndex()
    row = _asset(1).model_dump(mode="json", exclude_none=True)
    index.put_row("a", row)
    index.put_row("a", {**row, "sizeBytes": 5}, first=True)  # (first: the first row stays)
    assert "a" in index and len(index) == 1 and list(index) == ["a"]
    assert index["a"] == _asset(1) and index["a"] is index["a"]
    index["b"] = _asset(2)
    assert index.get("b") == _asset(2) and index.get("c") is None
    index.put_row("bad", {**row, "assetId": "not hex"})
    with pytest.raises(ValidationError):
        index["bad"]


def test_a_read_is_kept_for_the_writer_while_the_file_is_that_write(path: Path) -> None:
    # (ingest's stored_asset_ids parses the file; the writer's open takes that parse, once)
    read = read_rows(path)
    assert read is not None and trusted_rows(path) is read
    again = trusted_rows(path)
    assert again == read and again is not read
    read_rows(path)
    hand_edit(path, b'"sizeBytes": 1', b'"sizeBytes": 7')  # another write since: not taken
    assert trusted_rows(path) is None and read_rows(path) is None

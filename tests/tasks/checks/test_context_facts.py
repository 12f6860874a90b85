"""The facts of a context file membank wrote, read from its plain JSON, are the facts of the
validated model (tasks/checks/context_facts.py against tasks/checks/scan.py's model path)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from schemas.distill_state import DistillState
from schemas.graph import EntityRegistry
from schemas.raw_manifest import RawManifest
from tasks.checks.context_facts import written_context_facts
from tasks.checks.scan import parse_facts
from tasks.store.graph_store import save_distill_state, save_manifest, save_registry

NOW = "2026-03-24T10:00:00Z"
H1, H2, H3 = "1" * 64, "2" * 64, "3" * 64


def _same(rel: str, data: bytes) -> None:
    validated, _ = parse_facts(rel, data)
    assert validated.get("problem") is None
    assert orjson.dumps(written_context_facts(rel, data)) == orjson.dumps(validated)


def _entry(name: str, *aliases: str, kind: str = "decision") -> dict[str, object]:
    return {"canonicalName": name, "entityType": kind, "aliases": list(aliases)}


@pytest.mark.parametrize("entries", [
    [_entry("Alpha", "A1", "a2"), _entry("Beta")],  # normalized
    [_entry("Beta"), _entry("Alpha")],  # not sorted
    [_entry("Alpha", "x"), _entry("alpha ", "y")],  # a key twice
    [_entry("Alpha", "b", "a")],  # aliases not sorted
    [_entry("Alpha", " a")],  # an alias not trimmed
    [_entry("Alpha", "alpha")],  # an alias that is the name
    [_entry("Alpha", "a", "A")],  # an alias twice
    [],
])
def test_registry_facts(tmp_path: Path, entries: list[dict[str, object]]) -> None:
    path = tmp_path / "entity-registry.jsonc"
    registry = EntityRegistry.model_validate({"registryGeneratedAtUtc": NOW, "entries": entries})
    save_registry(path, registry, now_iso=NOW)
    _same("context/entity-registry.jsonc", path.read_bytes())


def test_manifest_facts_with_optional_fields_and_reverts(tmp_path: Path) -> None:
    asset = {"assetId": H1, "contentHash": f"sha256:{H1}", "sizeBytes": 3, "mediaType": "text/markdown",
             "originalPath": "a.md", "rawPath": "raw/a.md", "ingestedAtUtc": NOW}
    second = {**asset, "assetId": H2, "contentHash": f"sha256:{H2}", "rawPath": "raw/b.md",
              "sourcePage": "wiki/sources/b.md", "supersedesAssetId": H1,
              "supersedesSourcePage": "wiki/sources/a.md"}
    for reverts in (None, [{"assetId": H1, "originalPath": "a.md", "supersedesAssetId": H2,
                            "revertedAtUtc": NOW, "sourcePage": "wiki/sources/c.md"}]):
        manifest = RawManifest.model_validate({"manifestGeneratedAtUtc": NOW,
                                               "assets": [asset, second], "reverts": reverts})
        path = tmp_path / "raw-manifest.jsonc"
        save_manifest(path, manifest, now_iso=NOW)
        _same("context/raw-manifest.jsonc", path.read_bytes())


def test_distill_state_facts(tmp_path: Path) -> None:
    state = DistillState.model_validate({"stateGeneratedAtUtc": NOW, "sources": [
        {"assetId": H1, "sourcePage": "wiki/sources/a.md", "distilledAtUtc": NOW},
        {"assetId": H3, "sourcePage": "wiki/sources/b.md", "distilledAtUtc": NOW,
         "supersededByAssetId": H2, "title": "B"}]})
    path = tmp_path / "distill-state.jsonc"
    save_distill_state(path, state, now_iso=NOW)
    _same("context/distill-state.jsonc", path.read_bytes())


def test_bytes_of_another_shape_give_no_facts() -> None:
    for data in (b"[]", b"{}", b'{"entries": [{"canonicalName": "A"}]}', b"not json"):
        assert written_context_facts("context/entity-registry.jsonc", data) is None

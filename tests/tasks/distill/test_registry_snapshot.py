"""Distill leaves the registry file alone when its merge changed no entry (ingest32): the
snapshot says "saved as it is" only when saving would write the very bytes the file holds."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import tasks.distill.apply as distill_apply
from schemas.graph import EntityRegistry, RegistryEntry
from tasks.distill.apply import RegistrySnapshot
from tasks.store.filememo import file_identity
from tasks.store.graph_store import load_registry, normalize_registry, save_registry
from tasks.store.written import as_written
from tests.snapshots import snapshot
from tests.stored_sources import bootstrap, store_source
from tests.tasks.distill.test_distill import LATER, distill
from tests.tasks.distill.test_incremental_graph import _first, _second

NOW = "2026-03-01T10:00:00Z"


def _saved(root: Path) -> tuple[Path, EntityRegistry, RegistrySnapshot]:
    path = root / "context" / "entity-registry.jsonc"
    registry = normalize_registry(EntityRegistry(registryGeneratedAtUtc=NOW, entries=[
        RegistryEntry(canonicalName="Billing", aliases=["billing service"], entityType="service"),
        RegistryEntry(canonicalName="Ledger", entityType="service", recordKey="0001-ledger",
                      entityPage="wiki/entities/x__ledger.md", owner="team-a"),
    ]))
    save_registry(path, registry, now_iso=NOW)
    assert as_written(path)
    loaded = load_registry(path)
    return path, loaded, RegistrySnapshot.of(loaded, file_identity(path))


def _root(tmp_path: Path) -> Path:
    root = tmp_path / ".memories"
    (root / "context").mkdir(parents=True)
    (root / ".membank").mkdir()
    return root


def test_unchanged_registry_is_saved_as_it_is(tmp_path: Path) -> None:
    path, loaded, before = _saved(_root(tmp_path))
    after = RegistrySnapshot.of(normalize_registry(EntityRegistry(
        registryGeneratedAtUtc=loaded.registryGeneratedAtUtc, entries=list(loaded.entries))))
    assert before.saved_as(after, path)
    assert before.search_changes(after) == set()
    data = path.read_bytes()
    # what the snapshot claims: the full save finds the same bytes and writes nothing
    assert save_registry(path, load_registry(path), now_iso=LATER) is False
    assert path.read_bytes() == data


@pytest.mark.parametrize("change", ["alias", "type", "record", "log", "page", "extra", "new",
                                    "stamp", "order"])
def test_any_change_in_place_is_seen(tmp_path: Path, change: str) -> None:
    path, loaded, before = _saved(_root(tmp_path))
    billing, ledger = loaded.entries
    entries = list(loaded.entries)
    stamp = loaded.registryGeneratedAtUtc
    if change == "alias":
        billing.aliases.append("billing svc")
    elif change == "type":
        billing.entityType = "system"
    elif change == "record":
        billing.recordKey = "0002-billing"
    elif change == "log":
        ledger.recordLog = "adr"
    elif change == "page":
        ledger.entityPage = "wiki/entities/y__ledger.md"
    elif change == "extra":
        assert ledger.__pydantic_extra__ is not None
        ledger.__pydantic_extra__["owner"] = "team-b"
    elif change == "new":
        entries.append(RegistryEntry(canonicalName="Zeta", entityType="service"))
    elif change == "stamp":
        stamp = LATER
    else:
        entries.reverse()
    after = RegistrySnapshot.of(EntityRegistry(registryGeneratedAtUtc=stamp, entries=entries))
    assert not before.saved_as(after, path)
    expected = {"alias": {"billing"}, "page": {"ledger"}, "new": {"zeta"}}.get(change, set())
    assert before.search_changes(after) == expected


def test_a_file_written_by_others_is_saved(tmp_path: Path) -> None:
    path, loaded, before = _saved(_root(tmp_path))
    same = RegistrySnapshot.of(loaded)
    path.write_bytes(path.read_bytes())  # same bytes, another write: not membank's any more
    assert not before.saved_as(same, path)
    _path, _loaded, before = _saved(_root(tmp_path / "b"))
    assert not RegistrySnapshot.of(loaded).saved_as(same, path)  # taken without a written file
    os.utime(_path, ns=(1, 1))  # the identity changed after the snapshot
    assert not before.saved_as(RegistrySnapshot.of(_loaded), _path)


def _scenario(root: Path) -> None:
    bootstrap(root)
    v1 = _first(root)
    _second(root, v1)
    # the same note again, changed: the registry keeps every entry as it was
    store_source(root, "notes/component-2.md", "---\nentity: Component 2\n---\n\n"
                 "- [fact] Handles case 2 and 22\n- depends_on [[Component 3]]\n",
                 now_iso="2026-04-02T08:00:00Z")
    distill(root, "2026-04-02T08:00:00Z")


def test_distill_equals_the_full_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / "work"
    saves: list[bool] = []
    real = distill_apply.save_registry
    monkeypatch.setattr(distill_apply, "save_registry",
                        lambda *a, **k: saves.append(real(*a, **k)) or saves[-1])
    _scenario(work / ".memories")
    skipped = len(saves)
    work.rename(tmp_path / "a")
    monkeypatch.setattr(RegistrySnapshot, "saved_as", lambda *_a: False)
    saves.clear()
    _scenario(work / ".memories")
    work.rename(tmp_path / "b")
    assert snapshot(tmp_path / "a" / ".memories") == snapshot(tmp_path / "b" / ".memories")
    # the last run's save was left out, and it would have written nothing
    assert skipped == len(saves) - 1 and saves[-1] is False

"""The entity registry as rows when membank wrote it (tasks/distill/registry_rows.py): the merge
reads the same entries, the same bytes are written after the same changes as from the validated
models, nothing is written when nothing changed, and any other file is read and written through
the models, normalized, as before."""

from __future__ import annotations

import shutil
from pathlib import Path

import orjson
import pytest

import tasks.distill.registry_rows as registry_rows
from schemas.distill_inbox import TombstoneList
from schemas.graph import EntityRegistry, RegistryEntry, entity_key
from tasks.distill.registry_rows import LoadedRegistry
from tasks.distill.resolve import Forgotten, Resolver
from tasks.extract import NameRef
from tasks.store.atomic import atomic_write_bytes
from tasks.store.filememo import file_identity
from tasks.store.graph_store import (
    RegistryRowsByKey,
    handed_over,
    load_registry,
    normalize_registry,
    save_registry,
)
from tasks.store.layout import STATE_DIR
from tasks.store.written import as_written, record_written
from tests.snapshots import snapshot
from tests.stored_sources import bootstrap, store_source
from tests.tasks.distill.test_distill import distill
from tests.tasks.distill.test_incremental_graph import _first, _second
from tests.tasks.store.test_written import hand_edit

STAMP, LATER = "2026-05-01T00:00:00Z", "2026-05-02T00:00:00Z"


def _entries() -> list[RegistryEntry]:
    """Every kind of field an entry carries: aliases, a decision record's keys, a page,
    extension keys (nested, a float, non-ASCII), a name whose key sorts apart from its spelling."""
    return [
        RegistryEntry(canonicalName="Billing", aliases=["billing service", "BillSvc"], entityType="service"),
        RegistryEntry(canonicalName="ADR 7: Use Kafka", aliases=["ADR-7"], entityType="decision",
                      recordKey="0007-use-kafka", recordLog="adr",
                      entityPage="wiki/entities/x__adr-7-use-kafka.md"),
        RegistryEntry(canonicalName="Ledger", entityType="service", entityPage="wiki/entities/x__ledger.md",
                      owner={"team": "Équipe A", "weight": 2.5, "tags": ["a", "b"]}),
        RegistryEntry(canonicalName="  Café Service", aliases=["café"], entityType="service"),
        RegistryEntry(canonicalName="Zookeeper", entityType="technology"),
    ]


def _root(base: Path) -> Path:
    root = base / ".memories"
    (root / "context").mkdir(parents=True)
    (root / STATE_DIR).mkdir()
    return root


def _written(base: Path) -> Path:
    path = _root(base) / "context" / "entity-registry.jsonc"
    assert save_registry(path, normalize_registry(EntityRegistry(registryGeneratedAtUtc=STAMP,
                                                                 entries=_entries())), now_iso=STAMP)
    assert as_written(path)
    return path


def _resolver(loaded: LoadedRegistry) -> Resolver:
    return Resolver(loaded, Forgotten(TombstoneList()))


def _merge(loaded: LoadedRegistry) -> None:
    """What a merge does to entries in place: an alias that sorts first, a type made precise,
    a page allocated, a record marked, a new name (and one taken back), an extension key."""
    resolver = _resolver(loaded)
    billing, ledger = resolver.find("billsvc"), resolver.find("ledger")
    assert billing is not None and ledger is not None
    resolver.add_alias(billing, " Accounts ")
    resolver.resolve(NameRef(("Zookeeper",), "system", 1), explicit_type=True)
    cafe = resolver.find("café service")
    assert cafe is not None
    cafe.entityPage = "wiki/entities/x__cafe-service.md"
    ledger.recordKey = "ledger"
    assert ledger.__pydantic_extra__ is not None
    ledger.__pydantic_extra__["owner"] = "team-b"
    resolver.register("Zeta", "service", ["zeta svc"])
    resolver.unregister(resolver.register("Omega", "service"))


def test_rows_are_read_without_models_and_give_the_models_entries(tmp_path: Path) -> None:
    path = _written(tmp_path)
    rows = LoadedRegistry.read(path, LATER)
    models = LoadedRegistry.of_model(load_registry(path))
    assert rows.written == file_identity(path) and models.written is None
    assert list(rows.entries.names()) == list(models.entries.names())
    assert list(rows.entries.pages()) == list(models.entries.pages())
    assert all(isinstance(rows.entries.peek(key), dict) for key in rows.entries)  # walks made none
    assert [e.canonicalName for e in rows.recorded()] == ["ADR 7: Use Kafka"]
    assert dict(rows.entries) == dict(models.entries)
    resolver = _resolver(LoadedRegistry.read(path, LATER))
    assert resolver.lookup == _resolver(LoadedRegistry.of_model(load_registry(path))).lookup


def test_a_merge_writes_the_models_bytes_and_search_changes(tmp_path: Path) -> None:
    path = _written(tmp_path / "rows")
    copy = _root(tmp_path / "models") / "context" / "entity-registry.jsonc"
    shutil.copyfile(path, copy)
    rows, models = LoadedRegistry.read(path, LATER), LoadedRegistry.of_model(load_registry(copy))
    _merge(rows)
    _merge(models)
    assert rows.save(path, now_iso=LATER) == models.save(copy, now_iso=LATER) \
        == (True, {"billing", "café service", "zeta"})
    assert path.read_bytes() == copy.read_bytes()
    assert load_registry(path).registryGeneratedAtUtc == LATER
    assert load_registry(path) == normalize_registry(load_registry(path))


@pytest.mark.parametrize("change", ["none", "read", "alias", "type", "page", "extra", "new", "gone"])
def test_each_change_is_seen_and_nothing_else_is_written(tmp_path: Path, change: str) -> None:
    path = _written(tmp_path)
    before, identity = path.read_bytes(), file_identity(path)
    loaded = LoadedRegistry.read(path, LATER)
    entries = loaded.entries
    if change == "read":
        assert entries["ledger"].entityType == "service"  # made a model, not changed
    elif change == "alias":
        entries["ledger"].aliases.append("books")
    elif change == "type":
        entries["zookeeper"].entityType = "system"
    elif change == "page":
        entries["billing"].entityPage = "wiki/entities/x__billing.md"
    elif change == "extra":
        extra = entries["ledger"].__pydantic_extra__
        assert extra is not None
        extra["owner"] = "team-b"
    elif change == "new":
        entries["yak"] = RegistryEntry(canonicalName="Yak", entityType="service")
    elif change == "gone":
        del entries["zookeeper"]
    wrote, search = loaded.save(path, now_iso=LATER)
    expected = {"alias": {"ledger"}, "page": {"billing"}, "new": {"yak"}, "gone": {"zookeeper"}}
    assert search == expected.get(change, set())
    if change in ("none", "read"):
        assert wrote is None and path.read_bytes() == before and file_identity(path) == identity
    else:
        assert wrote is True and load_registry(path).registryGeneratedAtUtc == LATER
    # what the search index's update reads next: the file's entries by key, without reading it
    entries = orjson.loads(path.read_bytes())["entries"]
    assert handed_over(path, RegistryRowsByKey) == {entity_key(e["canonicalName"]): e for e in entries}
    assert handed_over(path, RegistryRowsByKey) is None  # (once)


def test_any_other_file_goes_through_the_models(tmp_path: Path) -> None:
    path = _written(tmp_path)
    hand_edit(path, b'"Zookeeper"', b'"Zookeepex"')
    loaded = LoadedRegistry.read(path, LATER)
    assert loaded.written is None and "zookeepex" in loaded.entries
    # membank's bytes but not in normalize_registry's order (an older writer): the models'
    # path, which writes it normalized
    unsorted = EntityRegistry(registryGeneratedAtUtc=STAMP, entries=list(reversed(_entries())))
    atomic_write_bytes(path, unsorted.model_dump_json(indent=2, exclude_none=True).encode() + b"\n",
                       validate=False)
    record_written(path)
    assert as_written(path)
    loaded = LoadedRegistry.read(path, LATER)
    assert loaded.written is None
    assert loaded.save(path, now_iso=LATER) == (True, set())
    assert load_registry(path) == normalize_registry(unsorted).model_copy(
        update={"registryGeneratedAtUtc": LATER})
    missing = LoadedRegistry.read(tmp_path / "none.jsonc", LATER)
    assert missing.stamp == LATER and not missing.entries


def _scenario(root: Path) -> None:
    bootstrap(root)
    v1 = _first(root)
    _second(root, v1)
    # the same note again, changed: the registry keeps every entry as it was
    store_source(root, "notes/component-2.md", "---\nentity: Component 2\n---\n\n"
                 "- [fact] Handles case 2 and 22\n- depends_on [[Component 3]]\n",
                 now_iso="2026-04-02T08:00:00Z")
    distill(root, "2026-04-02T08:00:00Z")


def test_distill_from_rows_equals_distill_from_models(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / "work"
    saves: list[tuple[bool | None, set[str]]] = []
    real = LoadedRegistry.save
    monkeypatch.setattr(LoadedRegistry, "save",
                        lambda self, *a, **k: saves.append(real(self, *a, **k)) or saves[-1])
    _scenario(work / ".memories")
    work.rename(tmp_path / "a")
    from_rows = list(saves)
    monkeypatch.setattr(registry_rows, "written_data", lambda _path: None)  # models only
    saves.clear()
    _scenario(work / ".memories")
    work.rename(tmp_path / "b")
    assert snapshot(tmp_path / "a" / ".memories") == snapshot(tmp_path / "b" / ".memories")
    # the last run changed no entry: from rows nothing was written, from models the same bytes
    assert from_rows[-1] == (None, set()) and saves[-1] == (False, set())
    assert [search for _wrote, search in from_rows] == [search for _wrote, search in saves]

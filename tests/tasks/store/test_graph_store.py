from pathlib import Path

from schemas.distill_state import DistilledSource, DistillState
from schemas.graph import EntityRegistry, GraphEntity, GraphRelation, KnowledgeGraph, RegistryEntry
from tasks.store.graph_store import (
    empty_graph,
    load_distill_state,
    load_graph,
    load_registry,
    normalize_graph,
    normalize_registry,
    save_distill_state,
    save_graph,
    save_registry,
)

T0, T1 = "2026-03-24T22:40:05Z", "2026-03-25T00:00:00Z"


def test_normalize_graph_dedups_first_seen_and_sorts() -> None:
    graph = KnowledgeGraph(
        graphGeneratedAtUtc=T0,
        entities=[
            GraphEntity(entityName="planner", entityType="agent", observations=["b", "a", "b "]),
            GraphEntity(entityName="Orchestrator", entityType="service", observations=["z"]),
            GraphEntity(entityName="orchestrator ", entityType="agent", observations=["y"]),
        ],
        relations=[
            GraphRelation(sourceEntityName="planner", targetEntityName="orchestrator", relationType="reports_to"),
            GraphRelation(sourceEntityName="Orchestrator", targetEntityName="planner", relationType="delegates_to"),
            GraphRelation(sourceEntityName="orchestrator", targetEntityName="Planner", relationType="delegates_to"),
        ],
    )
    normalized = normalize_graph(graph)
    assert [e.entityName for e in normalized.entities] == ["Orchestrator", "planner"]
    assert normalized.entities[0].entityType == "service"  # first seen wins
    assert normalized.entities[0].observations == ["y", "z"]
    assert normalized.entities[1].observations == ["a", "b"]
    assert [(r.sourceEntityName, r.relationType) for r in normalized.relations] == [
        ("Orchestrator", "delegates_to"), ("planner", "reports_to")]
    assert normalize_graph(normalized) == normalized


def test_normalize_registry_merges_aliases() -> None:
    registry = EntityRegistry(registryGeneratedAtUtc=T0, entries=[
        RegistryEntry(canonicalName="orchestrator", aliases=["Main-Orchestrator"], entityType="service"),
        RegistryEntry(canonicalName="Orchestrator", aliases=["nexus", "orchestrator"], entityType="agent"),
    ])
    normalized = normalize_registry(registry)
    assert len(normalized.entries) == 1
    assert normalized.entries[0].aliases == ["Main-Orchestrator", "nexus"]


def test_save_refreshes_stamp_only_on_change(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonc"
    assert save_graph(path, empty_graph(T0), now_iso=T0)
    assert not save_graph(path, empty_graph(T1), now_iso=T1)
    assert load_graph(path).graphGeneratedAtUtc == T0
    changed = KnowledgeGraph(graphGeneratedAtUtc=T1, entities=[
        GraphEntity(entityName="planner", entityType="agent")], relations=[])
    assert save_graph(path, changed, now_iso=T1)
    assert load_graph(path).graphGeneratedAtUtc == T1
    assert "observationProvenance" not in path.read_text()  # empty extensions stay out


def test_registry_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonc"
    registry = EntityRegistry(registryGeneratedAtUtc=T0, entries=[
        RegistryEntry(canonicalName="planner", aliases=["plan-agent"], entityType="agent")])
    save_registry(path, registry, now_iso=T0)
    assert load_registry(path) == registry


def test_registry_extension_fields_are_declared_and_written_only_when_set(tmp_path: Path) -> None:
    path = tmp_path / "entity-registry.jsonc"
    plain = RegistryEntry(canonicalName="planner", entityType="agent")
    record = RegistryEntry(canonicalName="Use JSONC", entityType="decision", recordKey="0001-use-jsonc",
                           recordLog="docs/adr", entityPage="wiki/entities/use-jsonc.md")
    save_registry(path, EntityRegistry(registryGeneratedAtUtc=T0, entries=[plain, record]), now_iso=T0)
    text = path.read_text(encoding="utf-8")
    assert text.count('"entityPage"') == 1 and "null" not in text
    # In the order distill sets them on a decision record: stem, log, page.
    assert text.index('"recordKey"') < text.index('"recordLog"') < text.index('"entityPage"')
    loaded = load_registry(path)
    assert loaded.entries[1].recordKey == "0001-use-jsonc" and loaded.entries[1].model_extra == {}
    assert loaded.entries[0].entityPage is None
    assert not save_registry(path, loaded, now_iso=T1)  # a rerun changes no byte


def test_distilled_source_title_and_replacement_written_only_when_set(tmp_path: Path) -> None:
    path = tmp_path / "distill-state.jsonc"
    asset, newer = "a" * 64, "b" * 64
    state = DistillState(stateGeneratedAtUtc=T0, sources=[
        DistilledSource(assetId=asset, sourcePage="wiki/sources/a.md", distilledAtUtc=T0,
                        supersededByAssetId=newer),
        DistilledSource(assetId=newer, sourcePage="wiki/sources/b.md", distilledAtUtc=T0, title=""),
    ])
    save_distill_state(path, state, now_iso=T0)
    text = path.read_text(encoding="utf-8")
    assert text.count('"title": ""') == 1 and text.count('"supersededByAssetId"') == 1
    assert "null" not in text
    loaded = load_distill_state(path)
    assert loaded.sources[0].supersededByAssetId == newer and loaded.sources[0].model_extra == {}
    assert not save_distill_state(path, loaded, now_iso=T1)


def _reference_normalize_registry(registry: EntityRegistry) -> list[RegistryEntry]:
    """normalize_registry as the spec says it, written plainly (no shortcut)."""
    entries: dict[str, RegistryEntry] = {}
    aliases: dict[str, list[str]] = {}
    for entry in registry.entries:
        key = entry.canonicalName.strip().lower()
        entries.setdefault(key, entry)
        aliases.setdefault(key, []).extend(entry.aliases)
    out = []
    for key in sorted(entries):
        kept: dict[str, str] = {}
        for alias in aliases[key]:
            alias_key = alias.strip().lower()
            if alias_key and alias_key != key:
                kept.setdefault(alias_key, alias.strip())
        out.append(entries[key].model_copy(update={"aliases": [kept[k] for k in sorted(kept)]}))
    return out


def test_normalize_registry_shares_only_entries_that_are_normal_already() -> None:
    """Random registries: the same entries as the plain rule; an entry is shared with the input
    (not copied) exactly when its aliases are normal already and no duplicate merged into it."""
    import random

    rng = random.Random(17)
    names = ["Queue", "queue ", "Orchestrator", "planner", " Planner", "a", "B", "b", "x y", ""]
    for _ in range(400):
        entries = [RegistryEntry(canonicalName=rng.choice(names[:-1]),
                                 aliases=rng.sample(names, rng.randint(0, 4)), entityType="service")
                   for _ in range(rng.randint(1, 6))]
        registry = EntityRegistry(registryGeneratedAtUtc="2026-03-24T22:40:05Z", entries=entries)
        normalized = normalize_registry(registry).entries
        assert normalized == _reference_normalize_registry(registry)
        keys = [e.canonicalName.strip().lower() for e in entries]
        for entry in normalized:
            key = entry.canonicalName.strip().lower()
            shared = any(entry is given for given in entries)
            assert shared == (keys.count(key) == 1 and entry.aliases == next(
                e.aliases for e in entries if e.canonicalName.strip().lower() == key))


def test_a_forked_child_gets_a_free_saved_guard() -> None:
    """The guard of the models handed over between a save and the next load, held by another
    thread at a fork (reconcile forks its scan workers while its checks run in threads), is
    free in the child."""
    import os
    import threading

    from tasks.store import graph_store

    held, done = threading.Event(), threading.Event()

    def hold() -> None:
        with graph_store._SAVED_GUARD:
            held.set()
            done.wait()

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait()
    try:
        pid = os.fork()
        if pid == 0:  # the child: exit 0 only if the guard is free
            os._exit(0 if graph_store._SAVED_GUARD.acquire(blocking=False) else 4)
    finally:
        done.set()
        holder.join()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_stamped_saves_are_not_parsed_again_before_the_rename(tmp_path: Path, monkeypatch) -> None:
    """orjson's bytes are JSON by construction: the temp file is renamed without a re-parse
    (which cost ~0.15 s per ingest at 100,000 pages), and what lands loads back equal."""
    import tasks.store.atomic as atomic

    def no_reparse(path: Path):
        raise AssertionError(f"{path.name} parsed again")

    monkeypatch.setattr(atomic, "default_validator", no_reparse)
    state = DistillState(stateGeneratedAtUtc=T0, sources=[DistilledSource(
        assetId="a" * 64, sourcePage="wiki/sources/x.md", distilledAtUtc=T0)])
    registry = EntityRegistry(registryGeneratedAtUtc=T0, entries=[
        RegistryEntry(canonicalName="planner", aliases=["plan-agent"], entityType="agent")])
    assert save_registry(tmp_path / "r.jsonc", registry, now_iso=T0)
    registry.entries[0].aliases.append("the planner")
    assert save_registry(tmp_path / "r.jsonc", registry, now_iso=T1)  # the stamp swapped in place
    assert load_registry(tmp_path / "r.jsonc").entries[0].aliases == ["plan-agent", "the planner"]
    assert load_registry(tmp_path / "r.jsonc").registryGeneratedAtUtc == T1
    assert save_distill_state(tmp_path / "s.jsonc", state, now_iso=T0)
    assert load_distill_state(tmp_path / "s.jsonc") == state


def test_models_are_written_as_the_dicts_of_their_dump_would_be(tmp_path: Path) -> None:
    """save_registry / save_distill_state encode the model with pydantic-core instead of
    orjson over model_dump's dicts: the same bytes, for every kind of value an extension
    field or a name may carry."""
    import orjson

    odd = ["a\x00b\x1f\x7f\x80", "é 漢 😀 \u2028\u2029", 'q"\\/t\t\n\r\b\f', "", " "]
    extras = {"f": 1.5e-7, "g": 0.1, "h": 1e300, "i": 12345678901234, "n": None, "l": [],
              "d": {}, "nested": {"a": [1, 2.0, {"b": None}], "c": True, "s": odd}}
    registry = EntityRegistry(registryGeneratedAtUtc=T0, entries=[
        RegistryEntry(canonicalName=f"x{text}", aliases=[text, text.upper()], entityType="t",
                      recordKey=None, **extras) for text in odd])
    state = DistillState(stateGeneratedAtUtc=T0, sources=[DistilledSource(
        assetId="b" * 64, sourcePage=f"wiki/sources/{text}.md", distilledAtUtc=T0, title=text or None,
        **extras) for text in odd])
    for model, save, stamp in [(registry, save_registry, "registryGeneratedAtUtc"),
                               (state, save_distill_state, "stateGeneratedAtUtc")]:
        path = tmp_path / f"{stamp}.jsonc"
        save(path, model, now_iso=T1)
        expected = {**model.model_dump(mode="json", exclude_none=True), stamp: T1}
        assert path.read_bytes() == orjson.dumps(
            expected, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE)
        assert not save(path, model, now_iso=T0)  # the same bytes: the stamp stays T1
        assert getattr(model, stamp) == T0  # the caller's model keeps its own stamp

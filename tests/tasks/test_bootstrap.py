from pathlib import Path

import pytest

from tasks.bootstrap import bootstrap_memory
from tasks.store.operation import begin_operation
from tasks.store.settings import load_settings


def run_bootstrap(root: Path):
    operation = begin_operation(load_settings(root), "bootstrap")
    return bootstrap_memory(operation)


def test_corrupt_graph_is_reported_not_overwritten(memory_root: Path, fixed_clock_env: str) -> None:
    run_bootstrap(memory_root)
    graph = memory_root / "context/knowledge-graph.index.jsonc"
    graph.write_text('{"graphGeneratedAtUtc": "2026-03-24T22:40:05Z", "entities": [')
    report = run_bootstrap(memory_root)
    assert report.status == "partial" and report.exit_code() == 1
    assert report.problems[0].file == "context/knowledge-graph.index.jsonc"
    assert "malformed JSONC" in report.problems[0].message
    assert graph.read_text().endswith('"entities": [')


def test_missing_registry_key_is_reported(memory_root: Path, fixed_clock_env: str) -> None:
    run_bootstrap(memory_root)
    (memory_root / "context/entity-registry.jsonc").write_text('{"entries": []}')
    report = run_bootstrap(memory_root)
    assert "registryGeneratedAtUtc" in report.problems[0].message


def test_recreates_only_what_is_missing(memory_root: Path, fixed_clock_env: str) -> None:
    run_bootstrap(memory_root)
    (memory_root / "sessions").rmdir()
    report = run_bootstrap(memory_root)
    assert [a.path for a in report.artifacts] == ["sessions/", "log.md"]
    assert "sessions/" in (memory_root / "log.md").read_text()


def test_root_that_is_a_file_is_refused(tmp_path: Path) -> None:
    from tasks.store.errors import RootError

    target = tmp_path / "file"
    target.write_text("x")
    with pytest.raises(RootError, match="not a folder"):
        begin_operation(load_settings(target), "bootstrap")


def _graph_bytes(entities: list[dict]) -> bytes:
    """A graph in the layout membank writes (orjson, two-space indent)."""
    import orjson

    return orjson.dumps({"graphGeneratedAtUtc": "2026-03-24T22:40:05Z", "entities": entities,
                         "relations": []}, option=orjson.OPT_INDENT_2)


def _copied_graph(root: Path, entities: list[dict]) -> Path:
    """The graph as a copy or a restore leaves it: bytes no record vouches for."""
    from tasks.store.written import WRITTEN_FILE

    graph = root / "context/knowledge-graph.index.jsonc"
    graph.write_bytes(_graph_bytes(entities))
    (root / WRITTEN_FILE).parent.mkdir(exist_ok=True)  # a memory membank has written before
    (root / WRITTEN_FILE).unlink(missing_ok=True)
    return graph


ENTITIES = [{"entityName": "Kafka", "entityType": "technology", "observations": ["Retention: 7 days"]},
            {"entityName": "Postgres", "entityType": "technology", "observations": ["Version: 15"]}]


def test_a_copied_graph_is_validated_entity_by_entity_and_trusted_after(
        memory_root: Path, fixed_clock_env: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A copied memory's graph is validated a piece at a time (whole, 3.77 GB at 100,000
    pages), then recorded as validated so the readers after bootstrap trust it."""
    import tasks.bootstrap
    from tasks.store.written import as_written

    run_bootstrap(memory_root)
    graph = _copied_graph(memory_root, ENTITIES)
    assert not as_written(graph)

    def whole(path: Path) -> None:
        raise AssertionError(f"{path} read whole")

    monkeypatch.setattr(tasks.bootstrap, "load_graph", whole)
    report = run_bootstrap(memory_root)
    assert report.problems == [] and as_written(graph)


def test_a_copied_graph_out_of_order_is_valid_but_not_trusted(memory_root: Path,
                                                               fixed_clock_env: str) -> None:
    from tasks.store.written import as_written

    run_bootstrap(memory_root)
    graph = _copied_graph(memory_root, ENTITIES[::-1])
    report = run_bootstrap(memory_root)
    assert report.problems == [] and not as_written(graph)


def test_a_copied_graph_that_breaks_the_schema_is_reported(memory_root: Path,
                                                           fixed_clock_env: str) -> None:
    """Streamed or whole, a broken entity is found: the whole-file path names the field."""
    run_bootstrap(memory_root)
    graph = _copied_graph(memory_root, [ENTITIES[0], {"entityName": "Postgres", "entityType": ""}])
    report = run_bootstrap(memory_root)
    assert [p.code for p in report.problems] == ["invalid_context_file"]
    assert "entityType" in report.problems[0].message
    assert graph.read_bytes().startswith(b'{\n  "graphGeneratedAtUtc"')  # not overwritten

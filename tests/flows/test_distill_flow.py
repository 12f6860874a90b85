"""End to end, in-process: the distill flow (and the run job's distill stage) over the real ADR
collections in ../shared/corpus/."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from flows.distill import distill_flow
from flows.run import run_flow
from tests.conftest import CORPUS
from tests.prefect_runs import last_flow_run_task_runs
from tests.snapshots import snapshot
from tests.stored_sources import bootstrap, store_folder

ADR_FOLDERS = ("alphagov-govuk-aws-adrs", "backstage-adrs", "thomvaill-log4brains-adrs")


def test_distill_flow_on_corpus_adrs(
    memory_root: Path, fixed_clock_env: str
) -> None:
    bootstrap(memory_root, fixed_clock_env)
    assets = [
        a
        for folder in ADR_FOLDERS
        for a in store_folder(memory_root, CORPUS / folder, now_iso=fixed_clock_env)
    ]
    report = distill_flow(root=str(memory_root))
    assert report.status == "success", report.problems
    assert report.figures["sources_read"] == len(assets)
    graph = json.loads((memory_root / "context/knowledge-graph.index.jsonc").read_text())
    by_name = {e["entityName"]: e for e in graph["entities"]}
    relations = {
        (r["sourceEntityName"], r["relationType"], r["targetEntityName"])
        for r in graph["relations"]
    }

    # Nygard style (alphagov): status section, superseded by a linked record.
    assert (
        "DNS infrastructure",
        "supersedes",
        "DNS definitions for hosts and services",
    ) in relations
    dns = by_name["DNS definitions for hosts and services"]
    assert dns["entityType"] == "decision"
    assert [s["observation"].split(":")[0] for s in dns["supersededObservations"]] == ["Decision"]
    assert "Status: Accepted" in by_name["Postgres on Puppetmaster"]["observations"]
    # Partly superseded stays active.
    assert any(r[1] == "partially_supersedes" and r[2] == "Networking Outline" for r in relations)
    assert any(o.startswith("Decision: ") for o in by_name["Networking Outline"]["observations"])
    # MADR (log4brains): status line "superseded by [slug](...)" and "Supersedes" in Links.
    assert (
        "Use the ADR slug as its unique ID",
        "supersedes",
        "Use the ADR number as its unique ID",
    ) in relations
    assert not any(
        o.startswith("Decision: ")
        for o in by_name["Use the ADR number as its unique ID"]["observations"]
    )
    # Backstage: frontmatter titles, ":::note Superseded" admonition.
    assert any(
        t == "ADR014: Proper use of HTTP fetching libraries" and k == "supersedes"
        for t, k, _ in relations
    )
    # Templates and index pages are not entities; every entity has a page.
    assert not any("[" in name or "template" in name.lower() for name in by_name)
    pages = list((memory_root / "wiki/entities").glob("*__*.md"))
    assert len(pages) == len(by_name)
    for item in graph["entities"]:
        assert {p["observation"] for p in item.get("observationProvenance", [])} == set(
            item["observations"]
        )

    before = snapshot(memory_root)
    again = distill_flow(root=str(memory_root))
    assert again.figures["sources_read"] == 0 and not again.changed
    assert snapshot(memory_root) == before
    everything = distill_flow(root=str(memory_root), reread_all=True)
    assert everything.figures["sources_read"] == len(assets)
    assert snapshot(memory_root) == before


def test_run_job_has_a_distill_stage(
    memory_root: Path, fixed_clock_env: str
) -> None:
    report = run_flow(root=str(memory_root))
    assert [stage.mode for stage in report.stages][:2] == ["bootstrap", "distill"]
    assert report.status == "success"


def test_cli_distill_json(memory_root: Path, fixed_clock_env: str) -> None:
    from typer.testing import CliRunner

    from flows.cli.app import app
    from tests.stored_sources import store_source

    bootstrap(memory_root, fixed_clock_env)
    store_source(memory_root, "a.md", "---\nentity: SQLite\n---\n\n- [fact] Embedded\n")
    result = CliRunner().invoke(app, ["distill", "--root", str(memory_root), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["mode"] == "distill" and report["graph_delta"]["observations_added_count"] == 1
    again = CliRunner().invoke(app, ["distill", "--root", str(memory_root), "--all"])
    assert again.exit_code == 0 and "distill" in again.stdout
    assert "distill" in CliRunner().invoke(app, ["--help"]).stdout


def test_the_writer_is_a_task_holding_the_lock_from_the_plan(
    memory_root: Path, fixed_clock_env: str, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """open-distill (lock + plan), extract-facts-batch (one run per batch) and apply-distill
    run as tasks; the writer's failure rolls back every file it wrote (one journaled batch from
    the plan to the last write), and its success is one INFO line with its figures."""
    from tasks.distill.registry_rows import LoadedRegistry
    from tests.stored_sources import store_source

    monkeypatch.setenv("MEMBANK_DISTILL_BATCH_SIZE", "1")
    bootstrap(memory_root, fixed_clock_env)
    for name in ("a", "b", "c"):
        store_source(memory_root, f"{name}.md", f"---\nentity: Service {name}\n---\n\n- [fact] Runs\n")
    before = snapshot(memory_root)

    def fail(*args: object, **kwargs: object) -> bool:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(LoadedRegistry, "save", fail)  # after the graph and the pages
    with pytest.raises(OSError):
        distill_flow(root=str(memory_root))
    assert snapshot(memory_root) == before

    monkeypatch.undo()
    monkeypatch.setenv("MEMBANK_FIXED_CLOCK", fixed_clock_env)
    monkeypatch.setenv("MEMBANK_DISTILL_BATCH_SIZE", "1")
    with caplog.at_level(logging.INFO, logger="membank"):
        report = distill_flow(root=str(memory_root))
    assert report.figures["sources_read"] == 3
    (line,) = [r.getMessage() for r in caplog.records if r.getMessage().startswith("apply-distill")]
    assert line.startswith("apply-distill: distill success") and "sources_read=3" in line


def test_the_writer_runs_with_the_collector_paused(
    memory_root: Path, fixed_clock_env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(check40) apply-distill merges and writes with the cyclic collector off, and leaves it
    as it found it, after a failure too."""
    import gc

    import tasks.distill.apply as apply
    from tasks.distill.registry_rows import LoadedRegistry
    from tests.stored_sources import store_source

    bootstrap(memory_root, fixed_clock_env)
    store_source(memory_root, "a.md", "---\nentity: Service a\n---\n\n- [fact] Runs\n")
    seen: list[bool] = []
    merge = apply.merge_extractions

    def watched(*args: object, **kwargs: object) -> object:
        seen.append(gc.isenabled())
        return merge(*args, **kwargs)  # type: ignore[arg-type]

    def fail(*args: object, **kwargs: object) -> bool:
        seen.append(gc.isenabled())
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(apply, "merge_extractions", watched)
    monkeypatch.setattr(LoadedRegistry, "save", fail)
    assert gc.isenabled()
    with pytest.raises(OSError):
        distill_flow(root=str(memory_root))
    assert seen == [False, False] and gc.isenabled()
    monkeypatch.undo()
    monkeypatch.setenv("MEMBANK_FIXED_CLOCK", fixed_clock_env)
    monkeypatch.setattr(apply, "merge_extractions", watched)
    seen.clear()
    report = distill_flow(root=str(memory_root))
    assert report.figures["sources_read"] == 1 and seen == [False] and gc.isenabled()


@pytest.mark.e2e
def test_under_prefect_each_extract_batch_is_an_edge_into_the_writer(
    orchestrated: None, memory_root: Path, fixed_clock_env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.stored_sources import store_source

    monkeypatch.setenv("MEMBANK_DISTILL_BATCH_SIZE", "1")
    bootstrap(memory_root, fixed_clock_env)
    for name in ("a", "b", "c"):
        store_source(memory_root, f"{name}.md", f"---\nentity: Service {name}\n---\n\n- [fact] Runs\n")
    assert distill_flow(root=str(memory_root)).figures["sources_read"] == 3
    task_runs = last_flow_run_task_runs("distill", {"apply-distill": 1, "open-distill": 1,
                                                    "extract-facts-batch": 3})
    (apply,) = [t for t in task_runs if t.name.startswith("apply-distill")]
    (opened,) = [t for t in task_runs if t.name.startswith("open-distill")]
    extracts = {t.id for t in task_runs if t.name.startswith("extract-facts-batch")}
    assert len(extracts) == 3
    assert {edge.id for edge in apply.task_inputs["wait_for"]} == extracts
    assert [edge.id for edge in apply.task_inputs["writer"]] == [opened.id]


def test_distill_all_reads_kept_extractions_and_writes_the_same_files(
    memory_root: Path, fixed_clock_env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(dall50) A second `distill --all` extracts nothing: every source's extraction is kept in
    .membank/extractions.sqlite3 for its bytes and this code; the files it writes are the ones
    a run without the cache writes, and a run whose extractor differs extracts everything."""
    import flows.distill as flow
    from tasks.distill import extraction_cache

    bootstrap(memory_root, fixed_clock_env)
    assets = [a for folder in ADR_FOLDERS[:2]
              for a in store_folder(memory_root, CORPUS / folder, now_iso=fixed_clock_env)]
    extracted: list[int] = []
    extract_each = flow.extract_each

    def counted(items: list) -> list:
        extracted.append(len(items))
        return extract_each(items)

    monkeypatch.setattr(flow, "extract_each", counted)
    assert distill_flow(root=str(memory_root)).figures["sources_read"] == len(assets)
    assert sum(extracted) == len(assets)
    after_first = snapshot(memory_root)
    cache_file = memory_root / extraction_cache.CACHE_FILE
    assert cache_file.exists()

    extracted.clear()
    report = distill_flow(root=str(memory_root), reread_all=True)
    assert report.figures["sources_read"] == len(assets) and sum(extracted) == 0
    with_cache = snapshot(memory_root)

    cache_file.unlink()
    distill_flow(root=str(memory_root), reread_all=True)
    assert sum(extracted) == len(assets)
    assert snapshot(memory_root) == with_cache == after_first

    extracted.clear()
    monkeypatch.setattr(extraction_cache, "extractor_fingerprint", lambda: b"another extractor")
    distill_flow(root=str(memory_root), reread_all=True)
    assert sum(extracted) == len(assets)
    assert snapshot(memory_root) == with_cache

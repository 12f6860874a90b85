"""Health summary: status rule, files under context/health/, Prometheus textfile, schemas."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from prometheus_client.parser import text_string_to_metric_families

from schemas.health import HealthCounts, HealthSummary, decide_status
from tasks.health.files import load_latest, write_health
from tasks.health.findings import cap_findings, finding
from tasks.health.summary import build_summary, prometheus_text, summary_markdown
from tasks.store.errors import RootError

NOW = "2026-03-24T22:40:05Z"


def make(findings, kind="reconcile") -> HealthSummary:
    counts = HealthCounts(pages_total=3, pages_by_type={"hub": 1, "entity": 2}, entities=2,
                          orphans=0, dead_links=1, invalid_files=0)
    return build_summary(kind=kind, mode="check", project="default", root=Path("/m"),
                         now_iso=NOW, findings=findings, counts=counts, repaired=[],
                         durations={"total": 0.5}, limit=2)


@pytest.mark.parametrize(
    ("severities", "status"),
    [([], "healthy"), (["info"], "healthy"), (["info", "warning"], "degraded"),
     (["warning", "error"], "failing")],
)
def test_status_rule(severities: list[str], status: str) -> None:
    findings = [finding("x", s, "a.md", "m") for s in severities]
    decided, rule = decide_status(findings)
    assert decided == status
    assert rule.startswith(status)
    assert make(findings).exit_code() == (0 if status == "healthy" else 1)


def test_findings_capped_per_code_but_counted_exactly() -> None:
    findings = [finding("dead_link", "error", f"p{i}.md", "m") for i in range(5)]
    summary = make(findings)
    assert summary.counts.findings_by_severity == {"error": 5}
    listed = [f for f in summary.findings if f.code == "dead_link"]
    assert len(listed) == 3 and "3 more" in listed[-1].message
    assert len(cap_findings(findings, 10)) == 5


def test_write_health_files(tmp_path: Path) -> None:
    summary = make([finding("dead_link", "error", "a.md", "gone", "fix it")])
    paths = write_health(tmp_path, summary)
    folder = tmp_path / "context/health"
    dated = tmp_path / paths["dated"]
    assert dated.name == "2026-03-24T22-40-05Z__reconcile-health.json"
    assert HealthSummary.model_validate_json(dated.read_bytes()) == summary
    assert (folder / "latest.json").read_bytes() == dated.read_bytes()
    assert (folder / "latest-reconcile.json").exists()
    write_health(tmp_path, make([], kind="freshness"))
    history = [orjson.loads(line) for line in (folder / "history.jsonl").read_bytes().splitlines()]
    assert [h["kind"] for h in history] == ["reconcile", "freshness"]
    assert [h["status"] for h in history] == ["failing", "healthy"]
    assert load_latest(tmp_path).kind == "freshness"
    assert load_latest(tmp_path, "reconcile").status == "failing"
    prom = (folder / "membank-reconcile.prom").read_text()
    families = {f.name: f for f in text_string_to_metric_families(prom)}
    assert families["membank_health_status"].samples[0].value == 2
    assert {"membank_pages", "membank_entities", "membank_dead_links", "membank_findings",
            "membank_observations", "membank_run_duration_seconds"} <= set(families)
    assert all(name.startswith("membank_") for name in families)
    assert "membank_stale_pages" not in families  # not assessed by reconcile: no false zero
    pages = {s.labels["type"]: s.value for s in families["membank_pages"].samples}
    assert pages == {"hub": 1, "entity": 2}


def test_markdown_and_prom_render(tmp_path: Path) -> None:
    summary = make([finding("orphan_page", "warning", "w.md", "alone", "attach it")])
    text = summary_markdown(summary)
    assert "degraded" in text and "orphan_page" in text and "attach it" in text
    assert 'membank_health_status{flow="reconcile"} 1.0' in prometheus_text(summary)


def test_load_latest_without_summary_could_not_run(tmp_path: Path) -> None:
    with pytest.raises(RootError) as info:
        load_latest(tmp_path)
    assert info.value.exit_code == 2


def test_html_page_for_dashboards(tmp_path: Path) -> None:
    summary = make([finding("dead_link", "error", "a.md", "gone <b>", "fix it")])
    paths = write_health(tmp_path, summary)
    html = (tmp_path / paths["html"]).read_text()
    assert html.startswith("<!doctype html>") and "reconcile health: failing" in html
    assert "gone &lt;b&gt;" in html  # content is escaped, never injected


def test_old_health_summaries_and_history_lines_are_pruned(tmp_path: Path) -> None:
    folder = tmp_path / "context/health"
    days = ["2026-01-01T02:00:00Z", "2026-02-20T02:00:00Z", "2026-03-20T02:00:00Z"]
    for day in days:  # three nightly runs, written without a retention
        write_health(tmp_path, make([]).model_copy(update={"generated_at": day}))
    (folder / "history.jsonl").open("ab").write(b"not json, kept\n")
    (folder / "notes.json").write_text("{}")  # not a dated summary: never touched
    assert len(list(folder.glob("*__reconcile-health.json"))) == 3
    paths = write_health(tmp_path, make([]), keep_days=30)  # NOW is 2026-03-24T22:40:05Z
    assert paths["pruned"] == "4"  # two dated files and two history lines
    assert sorted(p.name for p in folder.glob("*__reconcile-health.json")) == [
        "2026-03-20T02-00-00Z__reconcile-health.json", "2026-03-24T22-40-05Z__reconcile-health.json"]
    lines = (folder / "history.jsonl").read_bytes().splitlines()
    assert lines[1] == b"not json, kept"
    assert [orjson.loads(line)["generated_at"] for line in (lines[0], lines[2])] == [
        "2026-03-20T02:00:00Z", NOW]
    assert (folder / "latest.json").exists() and (folder / "notes.json").exists()
    again = write_health(tmp_path, make([]), keep_days=30)
    assert "pruned" not in again  # nothing old is left


def test_the_prom_file_is_written_by_the_atomic_writer(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """D23: prometheus_client's own temp (<name>.<pid>.<thread>) was never swept; the .prom
    file now goes through the atomic writer, whose temp files the next writer sweeps."""
    from tasks.store import atomic
    from tasks.store.journal import recover

    renames: list[tuple[str, str]] = []
    real_replace = atomic.fs.replace

    def record(source: str | Path, target: str | Path) -> None:
        renames.append((Path(source).name, Path(target).name))
        real_replace(source, target)

    monkeypatch.setattr(atomic.fs, "replace", record)
    write_health(tmp_path, make([]))
    prom = [source for source, target in renames if target == "membank-reconcile.prom"]
    assert len(prom) == 1 and atomic.TEMP_NAME_RE.match(prom[0]), renames
    legacy = tmp_path / "context/health/membank-reconcile.prom.4242.139812"
    legacy.write_text("# partial\n")
    assert "context/health/membank-reconcile.prom.4242.139812" in recover(tmp_path).temp_files_removed

"""The record of catalog splices (tasks/store/catalog_delta.py): steps chained by the page's
identity, bounded, and nothing from a record of another shape."""

from __future__ import annotations

from pathlib import Path

from tasks.store.catalog_delta import DELTA_FILE, MAX_STEPS, read_steps, record_step


def test_a_write_that_does_not_follow_starts_the_steps_again(tmp_path: Path) -> None:
    (tmp_path / ".membank").mkdir()
    record_step(tmp_path, "index.md", [1], [2], [])
    record_step(tmp_path, "index.md", [2], [3], [])
    assert [s["to"] for s in read_steps(tmp_path)["index.md"]] == [[2], [3]]
    record_step(tmp_path, "index.md", [9], [10], [])  # written in between without a step
    assert [s["from"] for s in read_steps(tmp_path)["index.md"]] == [[9]]
    for n in range(10, 10 + MAX_STEPS + 5):
        record_step(tmp_path, "index.md", [n], [n + 1], [])
    assert len(read_steps(tmp_path)["index.md"]) == MAX_STEPS
    (tmp_path / DELTA_FILE).write_text("[1, 2]")
    assert read_steps(tmp_path) == {}

"""Golden files: hand-written sources in tests/fixtures/distill/<case>/sources are stored by the real
ingest writer (one run), distilled with the fixed clock, and every file under <case>/expected must
match byte for byte. Regenerate (then read the diff!) with UPDATE_GOLDEN=1."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tasks.distill.apply import distill_memory
from tasks.store.operation import writing_operation
from tasks.store.settings import load_settings
from tests.conftest import FIXED_NOW
from tests.stored_sources import bootstrap, input_folder, store_folder

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "distill"
CASES = sorted(p.name for p in FIXTURES.iterdir() if (p / "sources").is_dir())
COMPARED = (
    "context/knowledge-graph.index.jsonc",
    "context/entity-registry.jsonc",
    "context/distill-candidates.jsonc",
    "wiki/entities",
)


def distill_case(case: str, root: Path) -> None:
    bootstrap(root, FIXED_NOW)
    # Ingested from a copy at <inputs>/<case>/, so a record's log (its folder's absolute path,
    # as ingest records it) reads `<case>` once the machine's part is cut (see `produced`).
    copy = shutil.copytree(FIXTURES / case / "sources", input_folder(root) / case)
    store_folder(root, copy, now_iso=FIXED_NOW)
    with writing_operation(load_settings(root, fixed_clock=FIXED_NOW), "distill") as operation:
        report = distill_memory(operation)
    assert report.status == "success", report.problems


def produced(root: Path) -> dict[str, str]:
    """The compared files, with the absolute path of the ingested copy cut to its case name."""
    machine = f"{input_folder(root)}/"
    files: dict[str, str] = {}
    for name in COMPARED:
        path = root / name
        if path.is_dir():
            for page in sorted(path.glob("*.md")):
                files[page.relative_to(root).as_posix()] = page.read_text(encoding="utf-8").replace(
                    machine, ""
                )
        elif path.exists():
            files[name] = path.read_text(encoding="utf-8").replace(machine, "")
    return files


@pytest.mark.parametrize("case", CASES)
def test_distill_golden(case: str, tmp_path: Path) -> None:
    root = tmp_path / ".memories"
    distill_case(case, root)
    actual = produced(root)
    expected_dir = FIXTURES / case / "expected"
    if os.environ.get("UPDATE_GOLDEN"):
        for relative, text in actual.items():
            target = expected_dir / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
    expected = {
        p.relative_to(expected_dir).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(expected_dir.rglob("*"))
        if p.is_file()
    }
    assert sorted(actual) == sorted(expected)
    for relative, text in expected.items():
        assert actual[relative] == text, relative

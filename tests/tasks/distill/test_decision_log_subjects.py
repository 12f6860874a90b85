"""Precision of what decision records are about (issue 23 item 6), on the shared corpus's three
public ADR logs: every entity distill makes beside the records themselves, keyed "log/name", is
judged by hand in tests/fixtures/distill/decision_log_subjects.json (`judged`; `why_not` says
why a false one is not a subject). Prints a fixed random 40 of them and the whole judged pool;
asserts every name drawn is judged and the random 40 holds its floor."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from tests.tasks.distill.test_corpus import LOGS, _distill_log

JUDGED = Path(__file__).resolve().parents[2] / "fixtures" / "distill" / "decision_log_subjects.json"
SAMPLE = 40
# Real subjects among the random 40 as measured (declog48: 29 before its rules for examples,
# kinds beside their technology, plurals and link-text fragments; 36 after).
FLOOR = 36


def _draw(key: str) -> str:
    """A name's place in the random draw: a hash of its key, so the 40 drawn stay the same
    whatever else is made (one dropped among them gives its place to the next)."""
    return hashlib.sha256(f"declog:{key}".encode()).hexdigest()


def _made(log: str, root: Path) -> set[str]:
    graph = json.loads((root / "context/knowledge-graph.index.jsonc").read_text(encoding="utf-8"))
    return {f"{log}/{e['entityName']}" for e in graph["entities"] if e["entityType"] != "decision"}


def test_what_decision_records_are_about(tmp_path: Path) -> None:
    judged: dict[str, bool] = json.loads(JUDGED.read_text(encoding="utf-8"))["judged"]
    made: set[str] = set()
    for log in LOGS:
        root = tmp_path / log / ".memories"
        _distill_log(log, root)
        made |= _made(log, root)
    sample = sorted(sorted(made, key=_draw)[:SAMPLE])
    unjudged = [key for key in sample if key not in judged]
    for key in sample:
        if key in judged and not judged[key]:
            print(f"  not a subject: {key}")
    pool = [judged[key] for key in sorted(made) if key in judged]
    real = sum(judged.get(key, False) for key in sample)
    print(f"decision-log subjects: random {len(sample)}: {real} real; "
          f"of all {len(made)} made {sum(pool)}/{len(pool)} judged real")
    assert not unjudged, f"judge these by hand in {JUDGED.name}: {unjudged}"
    assert len(sample) == SAMPLE
    assert real >= FLOOR

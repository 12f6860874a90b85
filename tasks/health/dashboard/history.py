"""The health history (history.jsonl) as the dashboard reads it: runs in time order.

history.jsonl is ours, but a hand-edited line must not stop health writes: lines that do not
parse, or lack a valid time and kind, are skipped and counted; fields of the wrong type are
read as absent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from tasks.store.clock import parse_utc

Line = dict[str, Any]


@dataclass(frozen=True)
class History:
    """The parsed history.jsonl: runs in time order, plus how many lines could not be read."""

    runs: list[Line]
    unreadable: int = 0


def parse_history(data: bytes) -> History:
    runs: list[Line] = []
    unreadable = 0
    for raw in data.splitlines():
        if not raw.strip():
            continue
        try:
            line = orjson.loads(raw)
        except orjson.JSONDecodeError:
            unreadable += 1
            continue
        if isinstance(line, dict) and _valid_time(line.get("generated_at")) \
                and isinstance(line.get("kind"), str):
            runs.append(line)
        else:
            unreadable += 1
    runs.sort(key=lambda r: r["generated_at"])  # stable: appends of the same second keep order
    return History(runs, unreadable)


def _valid_time(value: object) -> bool:
    if not isinstance(value, str):
        return False
    try:
        parse_utc(value)
    except ValueError:
        return False
    return True


def number(value: object) -> float | None:
    """A count or a duration from the history; anything else is absent."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return None


def mapping(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def read_history(path: Path) -> History:
    try:
        return parse_history(path.read_bytes())
    except FileNotFoundError:
        return History([])


def run_seconds(run: Line) -> float | None:
    """How long a run took: its total, else the sum of its phases."""
    durations = {k: v for k, v in mapping(run.get("durations_seconds")).items() if number(v) is not None}
    if "total" in durations:
        return float(durations["total"])
    return float(sum(durations.values())) if durations else None


def latest_by_kind(runs: Sequence[Line]) -> dict[str, Line]:
    latest: dict[str, Line] = {}
    for run in runs:
        latest[run["kind"]] = run
    return latest


def status_since(runs: Sequence[Line], kind: str) -> str | None:
    """When the current status of `kind` began: the first run of its unbroken latest streak."""
    streak: str | None = None
    current: str | None = None
    for run in reversed([r for r in runs if r["kind"] == kind]):
        if current is None:
            current = run.get("status")
        elif run.get("status") != current:
            break
        streak = run["generated_at"]
    return streak

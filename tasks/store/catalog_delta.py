"""What each splice of a catalog page (index.md, a hub) changed, for reconcile.

An ingest splices index.md and the hubs row by row (tasks/store/catalog.py). A check made
right after it parsed those pages whole again (17 MB at 100,000 pages: every row's links and
catalog entry) to find the few rows the ingest put. The splice knows those rows: it records,
per page, each write as a step from the page's identity before to its identity after, with
the rows it put in order (the row's path, its line, the path of the row it follows, and the
line it replaced, if any). A check whose cache holds the page's facts at a step's `from`
applies the steps to those facts (tasks/checks/catalog_delta.py) instead of parsing the page.

Bookkeeping, never the source of truth: a step is used only while the steps chain from the
cached identity to the page's identity now; any other write (a whole render, a hand edit, a
restore, a rolled-back batch) gives the page an identity no step leads to, and the page is
parsed whole. Unreadable or of another shape, the record gives nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from tasks.store.atomic import atomic_write_bytes
from tasks.store.layout import STATE_DIR

DELTA_FILE = f"{STATE_DIR}/catalog-delta.json"
# Steps kept per page, latest last: a check made before them parses the page whole (the rows
# of a burst of ingests between two checks would grow the record without bound).
MAX_STEPS = 64

# One row a splice put: [path, line, path of the row before it (None: the first row), the
# line it replaced (None: a new row)].
PutRow = list[Any]


def read_steps(root: Path) -> dict[str, list[dict[str, Any]]]:
    """page -> its recorded steps (empty when the record is missing or of another shape)."""
    try:
        data = orjson.loads((root / DELTA_FILE).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def record_step(root: Path, rel: str, before: list[int] | None, after: list[int] | None,
                puts: list[PutRow]) -> None:
    """Remember that the write of page `rel` from identity `before` to `after` put `puts`.
    A write that does not follow the page's last step starts its steps again."""
    record = root / DELTA_FILE
    if not record.parent.is_dir():
        return
    pages = read_steps(root)
    steps = pages.get(rel)
    steps = list(steps) if isinstance(steps, list) else []
    if before is None or after is None or before == after:
        if before == after and before is not None:
            return  # nothing written
        pages.pop(rel, None)  # a write of unknown identities: no chain through it
    else:
        if steps and (not isinstance(steps[-1], dict) or steps[-1].get("to") != before):
            steps = []
        steps.append({"from": before, "to": after, "puts": puts})
        pages[rel] = steps[-MAX_STEPS:]
    atomic_write_bytes(record, orjson.dumps(pages, option=orjson.OPT_SORT_KEYS), validate=False)


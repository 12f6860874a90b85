"""Shared builders for proposal tests: a bootstrapped memory root with a page to extend."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from tasks.bootstrap import bootstrap_memory
from tasks.store.catalog import CatalogEntry, update_hub, update_index
from tasks.store.layout import MemoryLayout
from tasks.store.operation import writing_operation
from tasks.store.page_writes import write_page
from tasks.store.pages import new_page_meta
from tasks.store.settings import load_settings
from tests import snapshots

SEED_TIME = "2026-03-20T10:00:00Z"
EXISTING = "wiki/concepts/2026-03-20T10-00-00Z__retry-policy.md"
TOPIC_HUB = "wiki/concepts/2026-03-20T10-00-00Z__resilience.md"
RAW_NOTE = "raw/2026-03-20T10-00-00Z__design-notes.md"
EXISTING_BODY = """# Retry policy

How uploads are retried.

## Budget

Retry three times.

## Backoff

Exponential, starting at 1 s.
"""
ASSET = "a" * 64


def seed_memory(root: Path) -> MemoryLayout:
    """Bootstrap `root`, then add a concept page with two sections and a topic hub."""
    settings = load_settings(root, fixed_clock=SEED_TIME)
    with writing_operation(settings, "bootstrap") as operation:
        bootstrap_memory(operation)
    layout = MemoryLayout(root.resolve())
    meta = new_page_meta(
        SEED_TIME,
        type="concept",
        title="Retry policy",
        description="How uploads are retried.",
        child_of=["wiki/concepts/index.md"],
    )
    write_page(layout.root / EXISTING, meta, EXISTING_BODY, now_iso=SEED_TIME)
    hub_meta = new_page_meta(
        SEED_TIME,
        type="hub",
        title="Resilience",
        description="Everything about surviving failures.",
        child_of=["wiki/concepts/index.md"],
    )
    write_page(
        layout.root / TOPIC_HUB,
        hub_meta,
        "# Resilience\n\n## Overview\n\nEverything about surviving failures.\n",
        now_iso=SEED_TIME,
    )
    (layout.root / RAW_NOTE).write_text("design notes\n", encoding="utf-8")
    update_hub(
        layout,
        "wiki/concepts/index.md",
        [
            CatalogEntry(EXISTING, "Retry policy", "How uploads are retried."),
            CatalogEntry(TOPIC_HUB, "Resilience", "Everything about surviving failures."),
        ],
        now_iso=SEED_TIME,
    )
    update_index(
        layout,
        [
            CatalogEntry(EXISTING, "Retry policy", "How uploads are retried."),
            CatalogEntry(TOPIC_HUB, "Resilience", "Everything about surviving failures."),
        ],
        now_iso=SEED_TIME,
    )
    return layout


def proposal(**overrides: Any) -> dict[str, Any]:
    """A valid new-leaf proposal, with fields replaced (None removes a field)."""
    data: dict[str, Any] = {
        "title": "Upload retry findings",
        "description": "What the planner learned about retrying uploads.",
        "type": "synthesis",
        "memory": {"memoryRole": "knowledge", "source": "dream leg of the planner, session 12"},
        "placement": {"kind": "new_leaf", "hub": "wiki/synthesis"},
        "body": "# Upload retry findings\n\nRetries beyond three never succeeded.\n\n"
        "## Evidence\n\n- 40 failed uploads, none recovered after the third retry.\n",
    }
    for key, value in overrides.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return data


def proposal_markdown(data: dict[str, Any]) -> str:
    meta = {k: v for k, v in data.items() if k != "body"}
    return (
        "---\n"
        + yaml.safe_dump(meta, sort_keys=False, allow_unicode=True)
        + "---\n"
        + data.get("body", "")
    )


def snapshot(
    root: Path, *, skip: tuple[str, ...] = (".membank", "proposals/inbox", "context/health")
) -> dict[str, bytes]:
    # context/health/ holds the health summaries every reconcile/audit (and so `run`) writes.
    return snapshots.snapshot(root, skip=skip)

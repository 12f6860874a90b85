"""A small memory with a topic spread over sources, pages, the graph and proposals, for forget."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from schemas.health import HealthSummary
from tasks.checks.reconcile import reconcile_memory
from tasks.distill.apply import distill_memory
from tasks.ingest import collect_inputs, prepare_batch, write_ingest
from tasks.privacy.forget import ForgetRequest, forget_operation
from tasks.store.operation import begin_operation, reading_operation, writing_operation
from tasks.store.settings import load_settings

NOW = "2026-03-24T22:40:05Z"
EARLIER = "2026-03-25T08:00:00Z"
LATER = "2026-03-25T09:00:00Z"
TOPIC = "Falcon"

FALCON_NOTE = """---
entity: Falcon
entity_type: project
---

# Falcon launch plan

Falcon is the codename of the new upload pipeline.

- [decision] Falcon uses WAL mode for its queue
- depends_on [[Upload Service]]
"""

FALCON_FACT = "- [fact] Upload Service was load-tested by the Falcon team\n"
SHARED_NOTE = """---
entity: Upload Service
entity_type: service
---

# Upload service notes

The upload service stores files in object storage.

- [decision] Upload Service retries three times
- [fact] Upload Service was load-tested by the Falcon team
- [fact] Upload Service keeps a dead-letter queue

## Falcon rollout

Only this section talks about the rollout.

## Operations

Page the on-call engineer when the queue backs up.
"""

PLAIN_NOTE = """# Storage costs

Object storage costs about two cents per gigabyte.
"""


def build_memory(root: Path, tmp: Path) -> Path:
    """Ingest three notes (one about the topic, one mentioning it, one without it), distill, then
    a second version of the one mentioning it that drops one Falcon fact (superseded history);
    reconcile; return the folder the notes came from."""
    folder = tmp / "notes"
    folder.mkdir()
    (folder / "launch-plan.md").write_text(FALCON_NOTE)
    (folder / "upload-service.md").write_text(SHARED_NOTE)
    (folder / "storage-costs.md").write_text(PLAIN_NOTE)
    ingest_and_distill(root, folder, NOW)
    # A second version no longer states the Falcon fact: it becomes superseded history.
    (folder / "upload-service.md").write_text(SHARED_NOTE.replace(FALCON_FACT, ""))
    ingest_and_distill(root, folder, EARLIER)
    reconcile(root, now=EARLIER)
    return folder


def ingest_and_distill(root: Path, folder: Path, now: str) -> None:
    settings = load_settings(root, fixed_clock=now)
    inputs, problems = collect_inputs([folder])
    write_ingest(settings, prepare_batch(inputs, settings), problems)
    with writing_operation(settings, "distill") as operation:
        distill_memory(operation)


def reconcile(root: Path, *, now: str = LATER, check: bool = False) -> HealthSummary:
    settings = load_settings(root, fixed_clock=now)
    if check:
        return reconcile_memory(begin_operation(settings, "reconcile"), check=True)[1]
    with writing_operation(settings, "reconcile") as operation:
        return reconcile_memory(operation, check=False)[1]


def grep(root: Path, needle: str) -> list[str]:
    """Root-relative files whose bytes contain `needle`, case-insensitively (like grep -ril)."""
    folded = needle.casefold()
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*")
                  if p.is_file() and folded in p.read_bytes().decode("utf-8", "replace").casefold())


def confirmed(root: Path, request: ForgetRequest, *, now: str = LATER,
              allow_broad: bool = True) -> ForgetRequest:
    """`request` carrying the hash of the plan a dry run shows now (what a user passes to
    --confirm-plan after reviewing it), allowing a broad match unless told not to."""
    settings = load_settings(root, fixed_clock=now)
    with reading_operation(settings, "forget") as operation:  # a killed batch rolled back first
        plan = forget_operation(operation, request, apply=False)
    return replace(request, confirm_plan=str(plan.figures["plan"]), allow_broad=allow_broad)

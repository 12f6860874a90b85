"""What runs where and when: one description of every deployment, read by serve.py and by
render.py (which writes prefect.yaml). Schedules and the memory root come from settings."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tasks.store.settings import MembankSettings

WORK_POOL = "membank"


@dataclass(frozen=True)
class DeploymentSpec:
    name: str
    entrypoint: str  # flows/deployed.py:flow_object, relative to the repository root
    description: str
    cron: str | None = None
    parameters: dict[str, Any] = field(default_factory=dict)
    writes_memory: bool = True  # takes the per-root concurrency limit
    tags: tuple[str, ...] = ("membank",)


def deployment_specs(settings: MembankSettings) -> list[DeploymentSpec]:
    root = str(settings.root)
    return [
        DeploymentSpec(
            name="bootstrap",
            entrypoint="flows/deployed.py:bootstrap_flow",
            description="On demand: create what is missing of the memory tree.",
            parameters={"root": root},
        ),
        DeploymentSpec(
            name="ingest",
            entrypoint="flows/deployed.py:ingest_flow",
            description="On demand: store sources (paths: files, folders, globs) in raw/, write "
            "source and shard pages, then distill what is new.",
            parameters={"paths": [], "root": root, "distill": True},
        ),
        DeploymentSpec(
            name="distill",
            entrypoint="flows/deployed.py:distill_flow",
            description="On demand: distill sources not distilled yet into entity pages and the "
            "knowledge graph (reread_all re-reads every source).",
            parameters={"root": root, "reread_all": False},
        ),
        DeploymentSpec(
            name="proposal-intake",
            entrypoint="flows/deployed.py:proposals_flow",
            description="On demand (after an agent drops proposals in proposals/inbox/): gate, "
            "apply or reject each one.",
            parameters={"root": root},
        ),
        DeploymentSpec(
            name="nightly-reconcile",
            entrypoint="flows/deployed.py:nightly_flow",
            description="Nightly: reconcile (validate every quality gate, repair what is safe), "
            "then the freshness audit; health summaries under context/health/.",
            cron=settings.nightly_reconcile_cron,
            parameters={"root": root},
        ),
        DeploymentSpec(
            name="freshness-audit",
            entrypoint="flows/deployed.py:freshness_flow",
            description="Scheduled, read-only: page and hub ages, changed sources, unconfirmed "
            "observations; writes only its health summary.",
            cron=settings.freshness_audit_cron,
            parameters={"root": root},
            writes_memory=False,
        ),
    ]

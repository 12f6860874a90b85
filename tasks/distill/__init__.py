"""Distill: ingested sources -> entity pages, graph entities, observations and relations.

    plan         what to read (manifest + state only), reading it: plan_distill, extract_batch
    resolve      names -> registry entries; forgotten topics (pure)
    merge        extractions merged into the graph and registry, supersession (pure)
    candidates   the weaker-guesses inbox merged (pure)
    apply        the single writer (apply_distill) and the whole stage in one call

Flows, tests and benchmarks use the names below; the modules' other names are the stage's own.
"""

from tasks.distill.apply import distill_memory, distill_planned, nothing_to_distill
from tasks.distill.plan import (
    DistillPlan,
    DistillSource,
    ExtractOutcome,
    batches,
    extract_batch,
    plan_distill,
)

__all__ = [
    "DistillPlan",
    "DistillSource",
    "ExtractOutcome",
    "batches",
    "distill_memory",
    "distill_planned",
    "extract_batch",
    "nothing_to_distill",
    "plan_distill",
]

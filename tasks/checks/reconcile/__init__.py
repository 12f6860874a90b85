"""reconcile: validate the memory against every quality gate, repair what is safe, report the rest.

- context.py: what the gates share (parsed context files, pages and types, counters);
- gates.py: one function per quality gate, `(scan, context) -> (findings, repairs)`, and GATES;
- repairs.py: the repair objects, RepairPlan and `apply_repairs`, the one writer;
- run.py: `check_memory` (a loop over GATES) and `reconcile_memory` (passes, cache, summary).

Repairs never delete a file or a fact: sort + dedup of graph and registry, index.md and hub
resync, missing entity pages and registry entries, conflicting facts moved to
supersededObservations with a link to the newer fact, created_at restored, orphan wiki pages
attached to their folder's hub, raw files made read-only. Everything else is a finding for a
person.
"""

from tasks.checks.reconcile.gates import GATES
from tasks.checks.reconcile.repairs import RepairPlan, apply_repairs
from tasks.checks.reconcile.run import MAX_REPAIR_PASSES, CheckResult, check_memory, reconcile_memory

__all__ = ["GATES", "MAX_REPAIR_PASSES", "CheckResult", "RepairPlan", "apply_repairs",
           "check_memory", "reconcile_memory"]

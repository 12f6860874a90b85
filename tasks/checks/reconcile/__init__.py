"""reconcile: validate the memory against every quality gate, repair what is safe, report the rest.

- context.py: what the gates share (parsed context files, pages and types, counters);
- gates.py: one function per quality gate, `(scan, context) -> (findings, repairs)`, and GATES;
- repairs.py: the repair objects, RepairPlan and `apply_repairs`, the one writer;
- full.py: `check_memory` (a loop over GATES) and the scan, check and repair passes;
- verdict.py: the last repair run's verdict, reused while the walk sees the same files;
- run.py: `reconcile_memory` (verdict or full check, summary). It imports full.py only when
  the verdict does not hold, so a no-change reconcile imports no parser and no gate.

Repairs never delete a file or a fact: sort + dedup of graph and registry, index.md and hub
resync, missing entity pages and registry entries, conflicting facts moved to
supersededObservations with a link to the newer fact, created_at restored, orphan wiki pages
attached to their folder's hub, raw files made read-only. Everything else is a finding for a
person.
"""

from tasks.checks.reconcile.run import reconcile_memory

__all__ = ["reconcile_memory"]

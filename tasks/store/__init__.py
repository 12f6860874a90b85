"""The store layer: how a memory root is laid out, read and written, apart from any stage.

Paths (layout), names, the clock, settings and errors; atomic writes, the write journal and the
writer lock (held across a writer's phases: batch.py); the stage report every operation notes on
and finishes once (report.py); JSONC, YAML and frontmatter pages; the graph, registry and manifest files; the
catalog (index.md and hubs), the log, reverts and token counts. Stage code (ingest, distill,
reconcile, proposals, health) builds on this; nothing here imports a stage.
"""

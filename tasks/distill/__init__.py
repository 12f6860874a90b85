"""Distill: ingested sources -> entity pages, graph entities, observations and relations.

    plan         what to read (manifest + state only), reading it: plan_distill, extract_batch
    resolve      names -> registry entries; forgotten topics (pure)
    merge        extractions merged into the graph and registry, supersession (pure)
    candidates   the weaker-guesses inbox merged (pure)
    apply        the single writer (apply_distill) and the whole stage in one call
    writer       the writer as phases a flow runs as tasks (open: lock + plan; finish)

Callers import from the modules (distill_memory from apply, the writer from writer, ...): this
file imports nothing, so reading one module (reconcile reads entity_pages) loads only that one.
"""

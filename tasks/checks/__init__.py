"""What stands on the scan: the scan of a memory root and its facts (scan, facts, graph_facts,
entity_rows), reconcile's gates and repairs (reconcile/), and the freshness audit (freshness)."""

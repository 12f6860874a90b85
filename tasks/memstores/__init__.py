"""Memory stores other teams keep in their repositories: .mem/ JSONL stores
(spec/mem-jsonl.md) and MemoryCustodian docs/memory/ trees (spec/memory-custodian.md).

    mem_jsonl / custodian         pure parsers: bytes/text -> schemas.stores models + findings
    check_mem / check_custodian   the stores' own rules, one StoreFinding per violation
    findings                      StoreFinding -> the health Finding (codes: schemas.health)
    discover                      where stores are under a path; a file's store role
    audit                         find + read + check on disk (CLI `membank check`, reconcile)
    extract / distill_store       distill: a store's raw file -> Extractions; store tombstones

Nothing here writes into a store: membank only reads them.
"""

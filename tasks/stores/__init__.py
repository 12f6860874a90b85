"""Memory stores other teams keep in their repositories: .mem/ JSONL stores
(spec/mem-jsonl.md) and MemoryCustodian docs/memory/ trees (spec/memory-custodian.md).

    mem_jsonl / custodian     pure parsers: bytes/text -> schemas.stores models + findings
    check_mem / check_custodian   the stores' own rules, one StoreFinding per violation
    discover                  where stores are under a path (read-only)
    findings                  StoreFinding -> the health summary's Finding
    extract                   distill: a store's raw file -> an Extraction

Nothing here writes into a store: membank only reads them.
"""

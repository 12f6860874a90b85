"""The names that mark a memory store on disk: a .mem/ JSONL store and a MemoryCustodian
directory's manifest.md. Apart from their parsers so that finding stores (every ingest's input
walk, the search index's page list) imports no store schema."""

from __future__ import annotations

from pathlib import Path

MEM_DIR = ".mem"
MANIFEST = "manifest.md"


def is_mem_store(path: Path) -> bool:
    return (path / "index.jsonl").is_file() or (path / "domains").is_dir()

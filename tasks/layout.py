"""Where things live in a memory root (spec/memory-bank.md, Memory Directory Structure)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

# Folders bootstrap creates, in a stable order.
CORE_FOLDERS = (
    "raw",
    "raw/assets",
    "wiki",
    "wiki/entities",
    "wiki/concepts",
    "wiki/sources",
    "wiki/sources/shards",
    "wiki/synthesis",
    "infrastructure/decisions",
    "sessions",
    "plans",
    "executions",
    "errors",
    "architecture/decisions",
    "agents/handoffs",
    "context",
)

# Wiki folders that carry a hub page (index.md) listing their children: (folder, title, overview).
WIKI_HUBS = (
    ("wiki/entities", "Entities", "One page per canonical entity, with its observations and relations."),
    ("wiki/concepts", "Concepts", "Thematic and conceptual pages that cut across entities."),
    ("wiki/sources", "Sources", "One summary page per ingested source; sharded sources as index pages."),
    ("wiki/synthesis", "Synthesis", "Cross-cutting analyses and accepted dream or proposal artifacts."),
)

# index.md categories, in order: (title, folder prefix).
CATALOG_CATEGORIES = (
    ("Sources", "wiki/sources/"),
    ("Entities", "wiki/entities/"),
    ("Concepts", "wiki/concepts/"),
    ("Synthesis", "wiki/synthesis/"),
    ("Architecture decisions", "architecture/decisions/"),
    ("Infrastructure decisions", "infrastructure/decisions/"),
    ("Plans", "plans/"),
    ("Executions", "executions/"),
    ("Sessions", "sessions/"),
    ("Errors", "errors/"),
    ("Agent handoffs", "agents/handoffs/"),
)
OTHER_CATEGORY = "Other records"


@dataclass(frozen=True)
class MemoryLayout:
    root: Path

    @property
    def raw(self) -> Path:
        return self.root / "raw"

    @property
    def wiki(self) -> Path:
        return self.root / "wiki"

    @property
    def entities(self) -> Path:
        return self.root / "wiki/entities"

    @property
    def sources(self) -> Path:
        return self.root / "wiki/sources"

    @property
    def shards(self) -> Path:
        return self.root / "wiki/sources/shards"

    @property
    def synthesis(self) -> Path:
        return self.root / "wiki/synthesis"

    @property
    def context(self) -> Path:
        return self.root / "context"

    @property
    def graph_file(self) -> Path:
        return self.root / "context/knowledge-graph.index.jsonc"

    @property
    def registry_file(self) -> Path:
        return self.root / "context/entity-registry.jsonc"

    @property
    def raw_manifest_file(self) -> Path:
        return self.root / "context/raw-manifest.jsonc"

    @property
    def distill_state_file(self) -> Path:
        return self.root / "context/distill-state.jsonc"

    @property
    def tombstones_file(self) -> Path:
        """Facts a person asked to forget; distill never brings them back."""
        return self.root / "context/tombstones.jsonc"

    @property
    def candidates_file(self) -> Path:
        """Weaker distill guesses, with evidence, waiting for a person or agent to promote."""
        return self.root / "context/distill-candidates.jsonc"

    @property
    def index_file(self) -> Path:
        return self.root / "index.md"

    @property
    def log_file(self) -> Path:
        return self.root / "log.md"

    @property
    def state_dir(self) -> Path:
        """Pipeline bookkeeping (lock, caches): not memory content."""
        return self.root / ".membank"

    def relative(self, path: Path) -> str:
        """Root-relative posix path, by the names (a symlink inside the root is not followed
        out of it), else by the real paths."""
        try:
            return Path(os.path.abspath(path)).relative_to(os.path.abspath(self.root)).as_posix()
        except ValueError:
            return path.resolve().relative_to(self.root.resolve()).as_posix()


def category_of(relative_path: str) -> str:
    for title, prefix in CATALOG_CATEGORIES:
        if relative_path.startswith(prefix):
            return title
    return OTHER_CATEGORY


def hub_of(relative_path: str) -> str | None:
    """The hub page a page hangs under by folder (wiki/<folder>/index.md), if that folder has one."""
    parent = PurePosixPath(relative_path).parent.as_posix()
    for folder, _title, _overview in WIKI_HUBS:
        if parent == folder:
            return f"{folder}/index.md"
    return None

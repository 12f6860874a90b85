"""Where things live in a memory root (spec/memory-bank.md, Memory Directory Structure).

The one place for memory-root paths: root-relative posix constants (what reports, the scan and
finding paths use) and MemoryLayout, the same paths under a root.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

# Root-relative files and folders. A *_DIR is a folder's path; its *_FOLDER adds the trailing
# slash, the prefix of every path inside it (what a cheap `startswith` checks).
INDEX_FILE = "index.md"
HUB_NAME = INDEX_FILE  # a folder's hub page carries the root catalog's name: <folder>/index.md
LOG_FILE = "log.md"
RAW_DIR = "raw"
RAW_FOLDER = f"{RAW_DIR}/"
WIKI_DIR = "wiki"
WIKI_FOLDER = f"{WIKI_DIR}/"
ENTITIES_DIR = "wiki/entities"
SOURCES_DIR = "wiki/sources"
SOURCES_FOLDER = f"{SOURCES_DIR}/"
SHARDS_NAME = "shards"  # the folder of a sharded source's shard folders
SHARDS_DIR = f"{SOURCES_DIR}/{SHARDS_NAME}"
SHARDS_FOLDER = f"{SHARDS_DIR}/"
CONCEPTS_DIR = "wiki/concepts"
SYNTHESIS_DIR = "wiki/synthesis"
CONTEXT_DIR = "context"
CONTEXT_FOLDER = f"{CONTEXT_DIR}/"
PROJECT_CONTEXT_FILE = "context/project.md"  # optional: what the project is, for retrieve
SESSIONS_DIR = "sessions"
SESSIONS_FOLDER = f"{SESSIONS_DIR}/"
PLANS_DIR = "plans"
PLANS_FOLDER = f"{PLANS_DIR}/"
EXECUTIONS_DIR = "executions"
EXECUTIONS_FOLDER = f"{EXECUTIONS_DIR}/"
ERRORS_DIR = "errors"
ERRORS_FOLDER = f"{ERRORS_DIR}/"
# Historian records (memory-bank contract): valid with the three time keys alone; the page type
# is the folder's.
HISTORIAN_TYPES = {SESSIONS_FOLDER: "session", PLANS_FOLDER: "plan", EXECUTIONS_FOLDER: "execution",
                   ERRORS_FOLDER: "error"}
GRAPH_FILE = "context/knowledge-graph.index.jsonc"
REGISTRY_FILE = "context/entity-registry.jsonc"
MANIFEST_FILE = "context/raw-manifest.jsonc"
DISTILL_STATE_FILE = "context/distill-state.jsonc"
TOMBSTONES_FILE = "context/tombstones.jsonc"
CANDIDATES_FILE = "context/distill-candidates.jsonc"
LEDGER_FILE = "context/adopted-deliverables.jsonc"  # adopted proposals and deliverables
HEALTH_DIR = "context/health"  # health summaries: our own output
ENTITY_FOLDER = f"{ENTITIES_DIR}/"
ENTITY_HUB = f"{ENTITIES_DIR}/{HUB_NAME}"
SOURCES_HUB = f"{SOURCES_DIR}/{HUB_NAME}"
PROPOSALS_DIR = "proposals"  # agents' intake, not memory pages
INBOX_DIR = "proposals/inbox"
APPLIED_DIR = "proposals/applied"
REJECTED_DIR = "proposals/rejected"
# Pipeline bookkeeping (lock, journal, caches): not memory content.
STATE_DIR = ".membank"
RECONCILE_CACHE_FILE = ".membank/reconcile-cache.json"
# Each file's stat, hash and place in that cache, and its baselines (tasks/checks/cache_parts.py).
RECONCILE_ROWS_FILE = ".membank/reconcile-cache-rows.json"
# Every observation ever seen (digest -> text), read only when the graph changed.
OBSERVATION_BASELINE_FILE = ".membank/observation-baseline.json"
# Per word, the raw sources whose text holds it (tasks/distill/mention_words.py).
MENTION_WORDS_FILE = ".membank/mention-words.sqlite3"
# The generation of the memory's content: a new value with each committed batch that wrote
# memory files (tasks/store/journal.py); derived data (the search index) records the one it holds.
GENERATION_FILE = ".membank/generation"

# Folders bootstrap creates, in a stable order.
CORE_FOLDERS = (
    RAW_DIR,
    "raw/assets",
    WIKI_DIR,
    ENTITIES_DIR,
    CONCEPTS_DIR,
    SOURCES_DIR,
    SHARDS_DIR,
    SYNTHESIS_DIR,
    "infrastructure/decisions",
    SESSIONS_DIR,
    PLANS_DIR,
    EXECUTIONS_DIR,
    ERRORS_DIR,
    "architecture/decisions",
    "agents/handoffs",
    CONTEXT_DIR,
)

# Wiki folders that carry a hub page (index.md) listing their children: (folder, title, overview).
WIKI_HUBS = (
    (ENTITIES_DIR, "Entities", "One page per canonical entity, with its observations and relations."),
    (CONCEPTS_DIR, "Concepts", "Thematic and conceptual pages that cut across entities."),
    (SOURCES_DIR, "Sources", "One summary page per ingested source; sharded sources as index pages."),
    (SYNTHESIS_DIR, "Synthesis", "Cross-cutting analyses and accepted dream or proposal artifacts."),
)

# index.md categories, in order: (title, folder prefix).
CATALOG_CATEGORIES = (
    ("Sources", SOURCES_FOLDER),
    ("Entities", ENTITY_FOLDER),
    ("Concepts", f"{CONCEPTS_DIR}/"),
    ("Synthesis", f"{SYNTHESIS_DIR}/"),
    ("Architecture decisions", "architecture/decisions/"),
    ("Infrastructure decisions", "infrastructure/decisions/"),
    ("Plans", PLANS_FOLDER),
    ("Executions", EXECUTIONS_FOLDER),
    ("Sessions", SESSIONS_FOLDER),
    ("Errors", "errors/"),
    ("Agent handoffs", "agents/handoffs/"),
)
OTHER_CATEGORY = "Other records"


@dataclass(frozen=True)
class MemoryLayout:
    root: Path

    @property
    def raw(self) -> Path:
        return self.root / RAW_DIR

    @property
    def wiki(self) -> Path:
        return self.root / WIKI_DIR

    @property
    def entities(self) -> Path:
        return self.root / ENTITIES_DIR

    @property
    def sources(self) -> Path:
        return self.root / SOURCES_DIR

    @property
    def shards(self) -> Path:
        return self.root / SHARDS_DIR

    @property
    def synthesis(self) -> Path:
        return self.root / SYNTHESIS_DIR

    @property
    def context(self) -> Path:
        return self.root / CONTEXT_DIR

    @property
    def graph_file(self) -> Path:
        return self.root / GRAPH_FILE

    @property
    def registry_file(self) -> Path:
        return self.root / REGISTRY_FILE

    @property
    def raw_manifest_file(self) -> Path:
        return self.root / MANIFEST_FILE

    @property
    def distill_state_file(self) -> Path:
        return self.root / DISTILL_STATE_FILE

    @property
    def tombstones_file(self) -> Path:
        """Facts a person asked to forget; distill never brings them back."""
        return self.root / TOMBSTONES_FILE

    @property
    def candidates_file(self) -> Path:
        """Weaker distill guesses, with evidence, waiting for a person or agent to promote."""
        return self.root / CANDIDATES_FILE

    @property
    def index_file(self) -> Path:
        return self.root / INDEX_FILE

    @property
    def log_file(self) -> Path:
        return self.root / LOG_FILE

    @property
    def state_dir(self) -> Path:
        """Pipeline bookkeeping (lock, caches): not memory content."""
        return self.root / STATE_DIR

    def relative(self, path: Path) -> str:
        """Root-relative posix path, by the names (a symlink inside the root is not followed
        out of it), else by the real paths."""
        try:
            return Path(os.path.abspath(path)).relative_to(os.path.abspath(self.root)).as_posix()
        except ValueError:
            return path.resolve().relative_to(self.root.resolve()).as_posix()


def health_dir(root: Path) -> Path:
    """Where the health summaries, their history and the dashboard are written."""
    return root / HEALTH_DIR


def category_of(relative_path: str) -> str:
    for title, prefix in CATALOG_CATEGORIES:
        if relative_path.startswith(prefix):
            return title
    return OTHER_CATEGORY


def hub_path(folder: str) -> str:
    """The hub page of a folder: <folder>/index.md."""
    return f"{folder}/{HUB_NAME}"


# The wiki folders' hub pages, in WIKI_HUBS order.
WIKI_HUB_PAGES = tuple(hub_path(folder) for folder, _title, _overview in WIKI_HUBS)


def hub_of(relative_path: str) -> str | None:
    """The hub page a page hangs under by folder (wiki/<folder>/index.md), if that folder has one."""
    parent = PurePosixPath(relative_path).parent.as_posix()
    for folder, _title, _overview in WIKI_HUBS:
        if parent == folder:
            return hub_path(folder)
    return None

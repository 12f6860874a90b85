"""The cached scan reconcile and the freshness audit stand on.

Every file of the memory root is stat()ed; only files whose (size, mtime_ns, ctime_ns, inode)
differ from the cache are read (a hand edit that sets the mtime back still moves the ctime),
and a read file whose content hash matches the cache keeps its parsed facts. So the cost of a
scan grows with what changed, not with the store. The cache lives in
<root>/.membank/reconcile-cache.json (bookkeeping, not memory content) and is deterministic:
a scan that finds nothing new produces the same cache bytes.

Skipped: .membank/, proposals/ (not memory pages), context/health/ (our own output), hidden
files (atomic-write temp files: listed apart, as a crash's leftovers), MemoryCustodian trees
under docs/ (a store with its own rules: tasks/memstores). raw/ files are hashed, not parsed as
pages.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import stat
import sys
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, cast

import orjson
from pydantic import BaseModel

from schemas.common import _coerce_utc
from schemas.distill_state import DistillState
from schemas.graph import (
    EntityRegistry,
    KnowledgeGraph,
)
from schemas.page import TYPED_LINK_KEYS, HistorianFrontmatter, PageFrontmatter
from schemas.raw_manifest import RawManifest
from tasks.checks.cache_parts import (
    LazyEntry,
    PartFiles,
    files_start,
    save_by_part,
    write_rows,
)
from tasks.checks.context_facts import TRUSTED_FILES, written_context_facts
from tasks.checks.digest_table import BASELINE_OPTIONS, DigestTable
from tasks.checks.entity_rows import page_digest
from tasks.checks.facts import (
    CatalogRow,
    ContextFileFacts,
    DistillStateFacts,
    FileEntry,
    FileFacts,
    GraphFacts,
    GraphTransient,
    ManifestFacts,
    ModelFacts,
    NoFacts,
    PageFacts,
    PageMeta,
    Problem,
    RegistryFacts,
    ScanCache,
    ScanState,
)
from tasks.checks.graph_facts import (
    GraphFactsBuilder,
    graph_facts_and_digests,
    graph_json,
    model_json,
)
from tasks.checks.scan_pool import map_batches, trim_heap
from tasks.checks.walk import FileStat, Walked, walk_root
from tasks.markdown.links import local_link_paths
from tasks.store.atomic import atomic_write_bytes
from tasks.store.catalog import catalog_rows
from tasks.store.catalog_delta import read_steps
from tasks.store.contracts import validate_model
from tasks.store.errors import MembankError
from tasks.store.filememo import file_identity
from tasks.store.graph_store import normalize_registry
from tasks.store.graph_stream import GraphStream
from tasks.store.jsonc import loads_jsonc
from tasks.store.layout import (
    CONTEXT_FOLDER,
    DISTILL_STATE_FILE,
    ENTITY_FOLDER,
    GRAPH_FILE,
    INDEX_FILE,
    LOG_FILE,
    MANIFEST_FILE,
    OBSERVATION_BASELINE_FILE,
    RAW_FOLDER,
    RECONCILE_CACHE_FILE,
    RECONCILE_ROWS_FILE,
    REGISTRY_FILE,
)
from tasks.store.names import historian_type, is_historian_record
from tasks.store.pages import split_page
from tasks.store.written import as_written, record_validated

if TYPE_CHECKING:
    from tasks.checks.graph_delta import DeltaRead

CACHE_VERSION = 11  # bump whenever parse_facts output changes: cached facts are reused

_META_KEYS = (
    "created_at", "updated_at", "utc_datetime_prefix", "type", "title", "description",
    "entity_name", "entity_type",
)


def kind_of(rel: str) -> str:
    if rel.startswith(RAW_FOLDER):
        return "raw"
    if rel.startswith(CONTEXT_FOLDER) and rel.endswith((".jsonc", ".json")):
        return "jsonc"
    if rel.endswith(".md"):
        return "page"
    return "other"


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _problem(code: str, message: str, hint: str) -> Problem:
    return {"code": code, "message": message, "hint": hint}


# Values and links repeat from page to page (times, types, hubs): interned, a batch of pages
# parsed in a worker pickles each once, so the scan holds one copy (tasks/checks/scan_pool.py).
_intern = sys.intern


def _text_value(value: object) -> str | int | float | bool | None:
    value = _coerce_utc(value)
    if isinstance(value, str):
        return _intern(value)
    if isinstance(value, int | float | bool) or value is None:
        return value
    return str(value)


def _link_list(value: object) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [_intern(value)]
    if isinstance(value, list):
        return [_intern(str(v)) for v in value if isinstance(v, str | int | float)]
    return []


def markdown_links(rel: str, body: str) -> list[str]:
    """Local link targets of a page body, resolved to root-relative posix paths (fences skipped).

    A target that leaves the root keeps its leading '../' so the caller reports it.
    """
    return local_link_paths(rel, body)


def parse_page_facts(rel: str, data: bytes,
                     catalog: tuple[list[str], list[CatalogRow]] | None = None) -> PageFacts:
    """What reconcile needs of one page, never raising: errors become a `problem`.
    `catalog`: the links and entries of a catalog page's body, known without parsing it
    (tasks/checks/catalog_delta.py); used only when the page is one (index.md, a hub)."""
    facts: PageFacts = {"problem": None, "meta": {}, "valid": False, "links": []}
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        facts["problem"] = _problem(
            "invalid_utf8", f"page is not valid UTF-8 (byte offset {exc.start})",
            "re-save the page as UTF-8 or restore it from git")
        return facts
    try:
        page = split_page(text, file=rel)
    except MembankError as exc:
        facts["problem"] = _problem("broken_frontmatter", exc.cause,
                                    "frontmatter is a YAML mapping between two '---' lines")
        return facts
    meta = page.meta
    kept: dict[str, object] = {k: _text_value(meta[k]) for k in _META_KEYS if k in meta}
    for key in TYPED_LINK_KEYS:
        links = _link_list(meta.get(key))
        if links:
            kept[key] = links
    if "type" not in kept and historian_type(rel):  # a historian record's folder is its type
        kept["type"] = historian_type(rel)
    facts["meta"] = cast(PageMeta, kept)  # _META_KEYS and TYPED_LINK_KEYS are PageMeta's keys
    if not meta:
        facts["problem"] = _problem("missing_frontmatter", "page has no frontmatter",
                                    "add created_at, updated_at, utc_datetime_prefix, type, "
                                    "description between two '---' lines")
    else:
        try:
            validate_model(HistorianFrontmatter if is_historian_record(rel) else PageFrontmatter,
                           meta, file=rel)
            facts["valid"] = True
        except MembankError as exc:
            facts["problem"] = _problem("invalid_frontmatter", exc.cause,
                                        "fix the named field (see schemas/page.py)")
    page_type = facts["meta"].get("type")
    if rel == INDEX_FILE or page_type == "hub":
        facts["links"], facts["entries"] = catalog or _catalog_facts(rel, page.body)
    else:
        facts["links"] = [_intern(link) for link in markdown_links(rel, page.body)]
    _entity_and_log_facts(facts, rel, page.body)
    return facts


def _entity_and_log_facts(facts: PageFacts, rel: str, body: str) -> None:
    """What an entity page shows of the graph (entity_page_drift) and log.md's body."""
    if facts["meta"].get("type") == "entity" and rel.startswith(ENTITY_FOLDER):
        shown = page_digest(body)
        if shown is not None:
            facts["shown"] = shown
    if rel == LOG_FILE:
        data = body.encode("utf-8")
        facts["log_len"] = len(data)
        facts["log_hash"] = content_hash(data)


def _catalog_facts(rel: str, body: str) -> tuple[list[str], list[CatalogRow]]:
    """The links and entries of a catalog page's body (index.md, a hub)."""
    base = "" if rel == INDEX_FILE else posixpath.dirname(rel)
    normpath = posixpath.normpath
    return ([_intern(link) for link in markdown_links(rel, body)],
            [(normpath(path), title, description) for path, title, description
             in catalog_rows(body, base=base)])


def log_body(data: bytes) -> bytes:
    return split_page(data.decode("utf-8"), file=LOG_FILE).body.encode("utf-8")


def parse_jsonc_facts(rel: str, data: bytes, *, trusted: bool = False
                      ) -> tuple[ModelFacts | ContextFileFacts, GraphTransient]:
    """Facts of a context/ JSONC file (persisted) and transient extras (not persisted).
    `trusted`: the graph is as membank wrote it (tasks/store/written.py), so orjson alone
    reads it."""
    transient: GraphTransient = {}
    models: dict[str, type[BaseModel]] = {
        GRAPH_FILE: KnowledgeGraph, REGISTRY_FILE: EntityRegistry,
        MANIFEST_FILE: RawManifest, DISTILL_STATE_FILE: DistillState,
    }
    model = models.get(rel)
    # Fast path: files we write are plain JSON, parsed and validated in one step (the graph
    # into plain dicts: tasks/checks/graph_facts.py).
    try:
        if model is KnowledgeGraph:
            graph = orjson.loads(data) if trusted else graph_json(data)
            return _graph_json_facts(graph, transient), transient
        if model is not None:
            return _model_facts(model.model_validate_json(data)), transient
    except ValueError:
        pass  # comments, trailing commas or a broken field: the JSONC path says which
    try:
        text = data.decode("utf-8")
        value = loads_jsonc(text, file=rel)
    except UnicodeDecodeError as exc:
        return {"problem": _problem("invalid_utf8", f"not valid UTF-8 (byte offset {exc.start})",
                                    "JSONC files are UTF-8; restore the file from git")}, transient
    except MembankError as exc:
        return {"problem": _problem("invalid_jsonc", exc.cause,
                                    "fix the syntax or restore the file from git")}, transient
    if model is None:
        return {"problem": None}, transient
    try:
        parsed = validate_model(model, value, file=rel)
    except MembankError as exc:
        return {"problem": _problem("invalid_context_file", exc.cause,
                                    "add the required keys with the spec's types "
                                    "(spec/memory-bank.md, JSONC Validation)")}, transient
    if isinstance(parsed, KnowledgeGraph):
        return _graph_json_facts(model_json(parsed), transient), transient
    return _model_facts(parsed), transient


def _graph_json_facts(graph: dict[str, Any], transient: GraphTransient) -> GraphFacts:
    facts, digests = graph_facts_and_digests(graph)
    transient["obs_digests"] = DigestTable.of(digests)
    return facts


def _registry_facts(registry: EntityRegistry) -> RegistryFacts:
    normalized = normalize_registry(registry).model_dump(mode="json")
    return {"problem": None,
            "entries": [(e.canonicalName, e.entityType, e.aliases) for e in registry.entries],
            "normalized": normalized == registry.model_dump(mode="json")}


def _manifest_facts(manifest: RawManifest) -> ManifestFacts:
    return {"problem": None, "assets": [
        {"assetId": a.assetId, "contentHash": a.contentHash, "rawPath": a.rawPath,
         "sourcePage": a.sourcePage, "ingestedAtUtc": a.ingestedAtUtc,
         "supersedesAssetId": a.supersedesAssetId, "supersedesSourcePage": a.supersedesSourcePage}
        for a in manifest.assets
    ], "reverts": [
        {"assetId": r.assetId, "sourcePage": r.sourcePage, "supersedesAssetId": r.supersedesAssetId,
         "supersedesSourcePage": r.supersedesSourcePage, "revertedAtUtc": r.revertedAtUtc}
        for r in manifest.reverts or ()
    ]}


def _distill_state_facts(state: DistillState) -> DistillStateFacts:
    return {"problem": None, "sources": [
        {"assetId": s.assetId, "sourcePage": s.sourcePage, "distilledAtUtc": s.distilledAtUtc,
         "skipped": s.supersededByAssetId is not None}
        for s in state.sources
    ]}


def _model_facts(parsed: BaseModel) -> ModelFacts | ContextFileFacts:
    if isinstance(parsed, EntityRegistry):
        return _registry_facts(parsed)
    if isinstance(parsed, RawManifest):
        return _manifest_facts(parsed)
    if isinstance(parsed, DistillState):
        return _distill_state_facts(parsed)
    return {"problem": None}


def parse_facts(rel: str, data: bytes, *, trusted: bool = False
                ) -> tuple[FileFacts, GraphTransient]:
    kind = kind_of(rel)
    if kind == "page":
        return parse_page_facts(rel, data), {}
    if kind == "jsonc":
        return parse_jsonc_facts(rel, data, trusted=trusted)
    no_facts: NoFacts = {}
    return no_facts, {}


def latest_distill_times(state: DistillStateFacts | None) -> dict[str, str]:
    """When each source page and each raw asset was last distilled (none without a state). A
    version recorded as skipped was never read: its entry's time is when it was skipped."""
    distilled: dict[str, str] = {}
    for source in state["sources"] if state is not None else ():
        if source["skipped"]:
            continue
        for key in (source["sourcePage"], source["assetId"]):
            distilled[key] = max(distilled.get(key, ""), source["distilledAtUtc"])
    return distilled


@dataclass
class Scan:
    """One scan of a memory root: every file's stat and parsed facts."""

    root: Path
    files: dict[str, FileEntry]
    modes: dict[str, int]
    dirs: set[str]
    symlinks: list[str] = field(default_factory=list)
    temp_files: list[str] = field(default_factory=list)  # atomic-write temps a crash left
    changed: set[str] = field(default_factory=set)
    # the files whose stat was not the cache's (read again, or found unreadable); the others
    # kept the cache's entry with its stat
    restat: set[str] = field(default_factory=set)
    removed: set[str] = field(default_factory=set)  # cached files gone (not unreadable)
    unreadable: dict[str, str] = field(default_factory=dict)
    transient: dict[str, GraphTransient] = field(default_factory=dict)
    state: ScanState = field(default_factory=lambda: ScanState())
    bytes_read: int = 0
    # loaded only when the graph changed; a DigestTable when it is the graph's digests as read
    observation_baseline: dict[str, str] | DigestTable | None = None
    walked: Walked | None = None  # the walk this scan was made from
    # catalog page read by delta -> the paths of the rows put in it since the cache
    catalog_puts: dict[str, list[str]] = field(default_factory=dict)
    catalog_links_put: dict[str, set[str]] = field(default_factory=dict)  # their lines' links
    # the cache's files by part `removed` was taken from (page_recheck.vanished_since reuses
    # it); a weak reference: a repair run's scan does not keep its cache's old entries alive
    removed_from: weakref.ref[PartFiles] | None = field(default=None, repr=False, compare=False)
    # of_kind's sorted paths by kind, for the files dict of that identity and size
    _kinds: tuple[int, int, dict[str, list[str]]] | None = field(default=None, repr=False,
                                                                 compare=False)

    def load_observation_baseline(self) -> dict[str, str]:
        """The baseline as a dict of its own (the erased-facts gate updates it in place)."""
        baseline = self.observation_baseline
        if isinstance(baseline, DigestTable):
            baseline = orjson.loads(baseline.blob)
        elif baseline is None:
            try:
                baseline = orjson.loads(self.baseline_bytes())
            except (FileNotFoundError, orjson.JSONDecodeError, OSError):
                baseline = {}
        self.observation_baseline = cast(dict[str, str], baseline)
        return self.observation_baseline

    def baseline_bytes(self) -> bytes:
        """The observation baseline file's bytes as saved (raises OSError when unreadable)."""
        return (self.root / OBSERVATION_BASELINE_FILE).read_bytes()

    def problem(self, rel: str) -> Problem | None:
        """Why a scanned file could not be read (None for a good or an absent file)."""
        entry = self.files.get(rel)
        # raw files have no "problem" key; every other kind has one
        return cast(Problem | None, entry["facts"].get("problem")) if entry else None

    def page(self, rel: str) -> PageFacts:
        """A page's facts (parse_page_facts); an absent page reads as empty and invalid."""
        entry = self.files.get(rel)
        if entry is None:
            return {"problem": None, "meta": {}, "valid": False, "links": []}
        return cast(PageFacts, entry["facts"])  # parse_facts parses every "page" path so

    def _model(self, rel: str) -> FileFacts | None:
        """A context file's facts when it is present and parsed without a problem."""
        entry = self.files.get(rel)
        if entry is None or entry["facts"].get("problem") is not None:
            return None
        return entry["facts"]

    def graph(self) -> GraphFacts | None:
        return cast(GraphFacts | None, self._model(GRAPH_FILE))

    def registry(self) -> RegistryFacts | None:
        return cast(RegistryFacts | None, self._model(REGISTRY_FILE))

    def manifest(self) -> ManifestFacts | None:
        return cast(ManifestFacts | None, self._model(MANIFEST_FILE))

    def distill_state(self) -> DistillStateFacts | None:
        return cast(DistillStateFacts | None, self._model(DISTILL_STATE_FILE))

    def of_kind(self, kind: str) -> list[str]:
        """The files of one kind, sorted (a list of the caller's own). The files are sorted
        and sorted into kinds once per files dict: a check asks four times, of 120,000 files
        at 100,000 pages."""
        files = self.files
        if self._kinds is not None and self._kinds[:2] == (id(files), -1):
            self._kinds = (id(files), len(files), self._kinds[2])  # the scan's, complete now
        if self._kinds is None or self._kinds[:2] != (id(files), len(files)):
            kinds: dict[str, list[str]] = {}
            for rel in sorted(files):
                kinds.setdefault(kind_of(rel), []).append(rel)
            self._kinds = (id(files), len(files), kinds)
        return list(self._kinds[2].get(kind, ()))

    def sorted_kinds(self, kinds: dict[str, list[str]]) -> None:
        """of_kind's lists for the files dict as it will be: `kinds` holds them in path order
        (a file found unreadable is taken out of them when it is)."""
        self._kinds = (id(self.files), -1, kinds)

    def exists(self, rel: str) -> bool:
        return rel in self.files or rel in self.dirs or rel in self.unreadable


def load_cache(root: Path) -> ScanCache:
    try:
        cache = orjson.loads((root / RECONCILE_CACHE_FILE).read_bytes())
    except (FileNotFoundError, orjson.JSONDecodeError, OSError):
        return {}
    if not isinstance(cache, dict) or cache.get("version") != CACHE_VERSION or not _well_formed(cache):
        return {}
    return cast(ScanCache, cache)  # our own file, in the version this code writes


_STATE_TYPES = {"created_at": dict, "erased_observations": dict, "log_baseline": dict,
                "log_rewritten": bool}


def _well_formed(cache: dict[str, Any]) -> bool:
    """The cache's frame as this code writes it (a damaged or hand-made file is ignored: the
    scan reads every file again): the baselines' types, and each file's stat, hash and facts."""
    files = cache.get("files")
    if not isinstance(files, dict) or any(
            key in cache and not isinstance(cache[key], kind) for key, kind in _STATE_TYPES.items()):
        return False
    baseline = cache.get("log_baseline")
    if baseline is not None and not (isinstance(baseline.get("len"), int)
                                     and isinstance(baseline.get("hash"), str)):
        return False
    try:  # 100,000 entries: no call per key
        for entry in files.values():
            if not (type(entry["size"]) is int and type(entry["mtime_ns"]) is int
                    and type(entry["ctime_ns"]) is int and type(entry["ino"]) is int
                    and type(entry["hash"]) is str and type(entry["facts"]) is dict):
                return False
    except (KeyError, TypeError, IndexError):  # not a mapping, or a key missing
        return False
    return True


def scan_memory(root: Path, cache: ScanCache | None = None, walked: Walked | None = None, *,
                digests: bool = True, graph_delta: bool | Literal["every"] = False) -> Scan:
    """stat everything (or take `walked`, a walk just made); read and parse only files that
    changed since `cache`. `digests`: a graph read keeps its observation digests and stale
    summary in `transient` (the erased-facts gate and stale marking read them; a million
    digests at 100,000 pages). `graph_delta`: a graph that distill wrote by entity since the
    cache is read by its changed entities (tasks/checks/graph_delta.py), with an ErasedDelta
    for the erased-facts gate and no stale summary: for a check, whose cache is not saved, when
    the cache and observation baseline are the pair the last repair run saved. "every": that
    read hashes every relation, so its ErasedDelta has every digest the graph has beyond the
    cached one (a repair run's: the observation baseline takes them)."""
    cache = cache or {}
    cached_files = cache.get("files", {})
    walked = walked or walk_root(root)
    stats, dirs, links, temps = walked.stats, walked.dirs, walked.links, list(walked.temps)
    state = cast(ScanState, {k: v for k, v in cache.items() if k not in {"files", "version"}})
    scan = Scan(root=root, files={}, modes={}, dirs=dirs, symlinks=links, temp_files=sorted(temps),
                state=state, walked=walked)
    changed = todo = _unchanged_first(scan, stats, cached_files)
    kept = len(scan.files) - len(todo)
    by_delta = (_graph_by_delta(root, todo, cached_files,
                                None if graph_delta == "every"
                                else state.get("erased_observations", {}))
                if graph_delta and digests else None)
    if by_delta is not None:
        todo = [item for item in todo if item[0] != GRAPH_FILE]
    spliced = _catalogs_by_delta(root, todo, cached_files, stats, scan)
    if spliced:
        todo = [item for item in todo if item[0] not in spliced]
    read = _read_changed(root, todo, digests)
    read.update(spliced)
    if by_delta is not None:  # not hashed: a check's cache is never saved
        read[GRAPH_FILE] = (by_delta.facts, {"erased_delta": by_delta.erased}, "",
                            by_delta.bytes_read)
    for rel, _known in changed:
        old, got = cached_files.get(rel), read.get(rel)
        if isinstance(got, str):
            del scan.files[rel]  # its place kept for it (_unchanged_first)
            scan.unreadable[rel] = got
            scan._kinds = None  # of_kind sorts the files into kinds again
            continue
        assert got is not None  # every file not kept from the cache was read
        facts, transient, digest, size = got
        scan.bytes_read += size
        if facts is None and old is not None:
            facts = old["facts"]  # another write of the same bytes
        else:
            if transient:
                scan.transient[rel] = transient
            scan.changed.add(rel)
        st = stats[rel]
        scan.files[rel] = {"size": st.st_size, "mtime_ns": st.st_mtime_ns,
                           "ctime_ns": st.st_ctime_ns, "ino": st.st_ino, "hash": digest,
                           "facts": cast(FileFacts, facts)}
    # every cached file walked again (kept, or changed with a cached hash): none removed
    if kept + sum(known is not None for _rel, known in changed) != len(cached_files):
        scan.removed = cached_files.keys() - scan.files.keys() - scan.unreadable.keys()
    if isinstance(cached_files, PartFiles):
        scan.removed_from = weakref.ref(cached_files)
    return scan


Read = tuple[FileFacts | None, GraphTransient, str, int] | str


def _unchanged_first(scan: Scan, stats: dict[str, FileStat], cached_files: dict[str, FileEntry]
                     ) -> list[tuple[str, str | None]]:
    """Fill scan.modes and scan.files in path order: a file whose stat is the cached one keeps
    its cache entry, a changed one gets its place (filled or dropped by scan_memory once read,
    so the files dict keeps the path order). The changed files, with their cached hashes
    (their paths: scan.restat).
    One pass over 120,000 files at 100,000 pages: no second sort, no call per file."""
    todo: list[tuple[str, str | None]] = []  # (changed file, its cached hash)
    modes, files = scan.modes, scan.files
    get = cached_files.get
    placeholder = cast(FileEntry, None)
    kinds: dict[str, list[str]] = {}
    by_part = type(cached_files) is PartFiles  # each entry's stat as one tuple (LazyEntry.stat)
    for rel in sorted(stats):
        kind = kind_of(rel)
        if kind != "other":
            kinds.setdefault(kind, []).append(rel)
            st = stats[rel]
            modes[rel] = st[4]
            old = get(rel)
            if old is not None and (cast(LazyEntry, old).stat == st[:4] if by_part else (
                    old["size"] == st[0] and old["mtime_ns"] == st[1]
                    and old.get("ctime_ns") == st[2] and old.get("ino") == st[3])):
                files[rel] = old  # unchanged since the cache
            else:
                files[rel] = placeholder
                todo.append((rel, old["hash"] if old else None))
    scan.sorted_kinds(kinds)
    scan.restat = {rel for rel, _known in todo}
    return todo


def _graph_by_delta(root: Path, todo: list[tuple[str, str | None]],
                    cached_files: dict[str, FileEntry], erased: dict[str, str] | None
                    ) -> DeltaRead | None:
    """The changed graph's facts from its changed entities, when the writes since the cache
    were recorded (else None: it is read whole). `erased`: the cache's erased facts (the
    erased-facts gate asks about each); None: every relation is hashed."""
    cached = cached_files.get(GRAPH_FILE)
    if cached is None or all(rel != GRAPH_FILE for rel, _ in todo):
        return None
    from tasks.checks.graph_delta import read_graph_delta  # a check right after an ingest

    return read_graph_delta(root / GRAPH_FILE, cached, None if erased is None else erased.keys())


def _catalogs_by_delta(root: Path, todo: list[tuple[str, str | None]],
                       cached_files: dict[str, FileEntry], stats: dict[str, FileStat],
                       scan: Scan) -> dict[str, Read]:
    """The changed catalog pages an ingest spliced since the cache, read by the rows it put
    (tasks/checks/catalog_delta.py) instead of parsed whole; the others are left to read.
    Each one read so gets the paths of the rows put in it since the cache and the links of
    their lines in `scan` (catalog_puts, catalog_links_put)."""
    recorded = read_steps(root)
    if not recorded:
        return {}
    from tasks.checks.catalog_delta import read_by_delta

    read: dict[str, Read] = {}
    for rel, known in todo:
        cached = cached_files.get(rel)
        if rel not in recorded or cached is None:
            continue
        st = stats[rel]
        found = read_by_delta(root, rel, cached, recorded[rel],
                              [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino])
        if found is None:
            continue
        data, catalog, scan.catalog_puts[rel], scan.catalog_links_put[rel] = found
        digest = content_hash(data)
        facts = None if digest == known else parse_page_facts(rel, data, catalog)
        read[rel] = (facts, {}, digest, len(data))
    return read


def _read_changed(root: Path, todo: list[tuple[str, str | None]], digests: bool = True
                  ) -> dict[str, Read]:
    """_read_facts of every changed file, in worker processes when there are many
    (tasks/checks/scan_pool.py): the graph in a batch of its own, started first."""
    graph = [item for item in todo if item[0] == GRAPH_FILE]
    pages = [item for item in todo if item[0] != GRAPH_FILE]
    results = map_batches(partial(_read_batch, root, digests), pages, first=graph)
    return dict(zip((rel for rel, _ in graph + pages), results, strict=True))


def _read_batch(root: Path, digests: bool, items: Sequence[tuple[str, str | None]]) -> list[Read]:
    return [_read_facts(root, rel, known, digests) for rel, known in items]


def _read_facts(root: Path, rel: str, known: str | None, digests: bool = True) -> Read:
    """A changed file's facts (None: its hash is `known`, the cached one's, whose facts stay),
    transient extras, content hash and size; or why it could not be read."""
    try:
        streamed = _stream_graph(root / rel, digests) if rel == GRAPH_FILE else None
        data = b"" if streamed is not None else _read_bytes(os.path.join(root, rel))
    except OSError as exc:
        return exc.strerror or type(exc).__name__
    if streamed is not None:
        digest, size = streamed[2], streamed[3]
    else:
        digest, size = content_hash(data), len(data)
    if known == digest:
        return None, {}, digest, size
    if streamed is not None:
        return streamed[0], streamed[1], digest, size
    if rel in TRUSTED_FILES and as_written(root / rel):  # no validation of what membank wrote
        written = written_context_facts(rel, data)
        if written is not None:
            return written, {}, digest, size
    trusted = rel == GRAPH_FILE and as_written(root / rel)
    facts, transient = parse_facts(rel, data, trusted=trusted)
    if not digests:
        transient.pop("obs_digests", None)
    return facts, transient, digest, size


def _read_bytes(path: str) -> bytes:
    with open(path, "rb") as handle:  # no pathlib: 100,000 pages in a full scan
        return handle.read()


def _stream_graph(path: Path, digests: bool = True) -> tuple[GraphFacts, GraphTransient, str, int] | None:
    """The graph's facts read entity by entity (tasks.store.graph_stream), its sha256 and
    size; None when the file is not in the layout membank writes or breaks the schema (then
    it is read whole, and that path names the problem). A file membank did not write as it
    is now (a hand edit, a graph of an older membank) is validated entity by entity; valid,
    normalized and unchanged since, it is then recorded as validated, so the readers after
    the scan (stale marks, the search index, the health view) stream it too: a hand edit of
    a 423 MB graph was read whole by each, 4.6 GB at 100,000 pages."""
    trusted = as_written(path)
    identity = None if trusted else file_identity(path)
    stream, builder = GraphStream(path, validate=not trusted), GraphFactsBuilder(digests=digests)
    try:
        for entity in stream.entities():
            builder.add(entity)
        if stream.frame is None or not isinstance(stream.frame.get("relations"), list):
            return None
        facts = builder.finish(stream.frame)
    except (ValueError, KeyError, TypeError, AttributeError):
        return None  # another layout or shape: the whole-file path says what is wrong
    # as bytes: a million digests cross the worker's pipe as one object (digest_table.py)
    transient: GraphTransient = {"obs_digests": DigestTable.of(builder.digests)} if digests else {}
    if builder.stale is not None:
        transient["stale"] = builder.stale
    if identity is not None and facts["normalized"]:
        record_validated(path, identity, stream.sha256)
    return facts, transient, stream.sha256, stream.size


def cache_of(scan: Scan) -> ScanCache:
    """What the cache file holds of a scan (also the cache a rescan starts from)."""
    cache: ScanCache = {"version": CACHE_VERSION, **scan.state, "files": scan.files}
    return cache


def cache_bytes(scan: Scan) -> bytes:
    return orjson.dumps(cache_of(scan), option=orjson.OPT_SORT_KEYS)


def save_cache(scan: Scan) -> bool:
    """Persist the scan (deterministic bytes; unchanged bytes are not rewritten). The
    observation baseline and digests (a million entries at 100,000 pages) are released once
    the baseline is written, before the cache is serialized: the baseline reads back from its
    file (load_observation_baseline) if asked for again."""
    baseline = scan.observation_baseline
    if baseline is not None:
        atomic_write_bytes(scan.root / OBSERVATION_BASELINE_FILE,
                           baseline.blob if isinstance(baseline, DigestTable)
                           else orjson.dumps(baseline, option=BASELINE_OPTIONS),
                           validate=False)
        scan.observation_baseline = None
        for transient in scan.transient.values():
            transient.pop("obs_digests", None)
    spliced = save_by_part(scan.root, cache_of(scan))  # a cache read by part: by part
    if spliced is not None:
        trim_heap()
        return spliced
    data = cache_bytes(scan)
    wrote = atomic_write_bytes(scan.root / RECONCILE_CACHE_FILE, data, validate=False)
    start, total = files_start(data), len(data)
    del data
    if wrote or not (scan.root / RECONCILE_ROWS_FILE).exists():
        write_rows(scan.root, start, total, cache_of(scan))  # read by part (cache_parts.py)
    trim_heap()  # what they held (and the cache's bytes) back to the system
    return wrote


def is_read_only(mode: int) -> bool:
    return not (mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))

"""The shapes of the facts tasks/checks/scan.py parses and caches, as TypedDicts.

A TypedDict is a plain dict at run time, so the orjson cache (.membank/reconcile-cache.json)
keeps its exact bytes while mypy checks every key the producers write and the consumers
(tasks/checks/reconcile, tasks/checks/freshness) read.

Positional rows (an entity as [name, type, active, superseded], ...) are declared as tuples so
each position keeps its type. The scan builds them as tuples; read back from the cache they are
JSON arrays, so lists. Consumers only unpack or index them, never compare them with ==.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NotRequired, TypedDict

from tasks.checks.digest_table import DigestTable

# A frontmatter value as the scan keeps it: YAML timestamps become canonical UTC text, any
# other non-scalar becomes its str().
MetaValue = str | int | float | bool | None


class Problem(TypedDict):
    """Why a file could not be read as what its path says it is."""

    code: str
    message: str
    hint: str


class PageMeta(TypedDict, total=False):
    """The frontmatter keys reconcile and the freshness audit read (scan._META_KEYS), and the
    typed links (schemas.page.TYPED_LINK_KEYS) that name at least one target."""

    created_at: MetaValue
    updated_at: MetaValue
    utc_datetime_prefix: MetaValue
    type: MetaValue
    title: MetaValue
    description: MetaValue
    entity_name: MetaValue
    entity_type: MetaValue
    derived_from: list[str]
    child_of: list[str]
    supersedes: list[str]
    superseded_by: list[str]


# A catalog line of index.md or a hub: (root-relative path, title, description).
CatalogRow = tuple[str, str, str]


class PageFacts(TypedDict):
    """One markdown page (scan.parse_page_facts). A page that cannot be read keeps an empty
    meta and a `problem`."""

    problem: Problem | None
    meta: PageMeta
    valid: bool  # the frontmatter validates as schemas.page.PageFrontmatter
    links: list[str]  # local markdown link targets, root-relative
    entries: NotRequired[list[CatalogRow]]  # index.md and hubs only
    shown: NotRequired[str]  # entity pages only: digest of the graph rows it shows (entity_rows)
    log_len: NotRequired[int]  # log.md only: byte length and hash of its body
    log_hash: NotRequired[str]


class ContextFileFacts(TypedDict):
    """A context/ JSONC file that has a problem, or that has no model (only its syntax is
    checked)."""

    problem: Problem | None


# An entity of the graph: (entityName, entityType, active observations, superseded ones).
EntityRow = tuple[str, str, int, int]
# (entityName, observation text)
ObservationRow = tuple[str, str]
# (sourceEntityName, relationType, targetEntityName)
RelationRow = tuple[str, str, str]
# (sourcePage, rawAssetId) of an observation
SourceRow = tuple[str, str]


class ConflictFacts(TypedDict):
    """Two or more values of one `key: value` attribute of an entity."""

    entity: str
    attribute: str
    observations: list[str]  # the values, sorted
    sources: dict[str, list[SourceRow]]  # value -> where it was observed


class GraphContentFacts(TypedDict):
    """What distill should never leave in the graph (scan._content_facts)."""

    entities_without_evidence: list[str]
    names_with_markup: list[str]
    unknown_relation_types: list[str]


class GraphFacts(GraphContentFacts):
    """context/knowledge-graph.index.jsonc that parsed and validated."""

    problem: None
    entities: list[EntityRow]
    relations: int
    normalized: bool  # normalize_graph would leave it unchanged
    superseded_unlinked: list[ObservationRow]
    active_and_superseded: list[ObservationRow]
    conflicts: list[ConflictFacts]
    not_atomic: list[ObservationRow]  # over OBSERVATION_MAX_CHARS, or a single word
    dangling_relations: list[RelationRow]
    entity_rows: dict[str, str]  # entity key -> digest of the rows its page should show
    stale_marked: int  # observations marked stale (tasks/checks/reconcile/stale.py)


# A registry entry: (canonicalName, entityType, aliases).
RegistryRow = tuple[str, str, list[str]]


class RegistryFacts(TypedDict):
    """context/entity-registry.jsonc that parsed and validated."""

    problem: None
    entries: list[RegistryRow]
    normalized: bool  # normalize_registry would leave it unchanged


class AssetFacts(TypedDict):
    assetId: str
    contentHash: str
    rawPath: str
    sourcePage: str | None
    ingestedAtUtc: str
    # the version it replaced (tasks/store/versions.py follows a path's history by these)
    supersedesAssetId: str | None
    supersedesSourcePage: str | None


class RevertFacts(TypedDict):
    """A path reverted to an earlier stored asset: that asset is current again under a new
    source page (schemas.raw_manifest.RevertEvent)."""

    assetId: str
    sourcePage: str | None
    supersedesAssetId: str
    supersedesSourcePage: str | None
    revertedAtUtc: str


class ManifestFacts(TypedDict):
    """context/raw-manifest.jsonc that parsed and validated."""

    problem: None
    assets: list[AssetFacts]
    reverts: list[RevertFacts]


class DistilledFacts(TypedDict):
    assetId: str
    sourcePage: str
    distilledAtUtc: str
    skipped: bool  # replaced before any distill read it (supersededByAssetId): never distilled


class DistillStateFacts(TypedDict):
    """context/distill-state.jsonc that parsed and validated."""

    problem: None
    sources: list[DistilledFacts]


class NoFacts(TypedDict):
    """raw/ files: hashed, not parsed."""


ModelFacts = GraphFacts | RegistryFacts | ManifestFacts | DistillStateFacts
FileFacts = PageFacts | ModelFacts | ContextFileFacts | NoFacts


@dataclass(frozen=True)
class ErasedDelta:
    """What the erased-facts gate needs of a graph read by delta (tasks/checks/graph_delta.py):
    digests the changed entities and every relation have now (`present`), and digests the
    changed entities and relations had in the cached graph and no longer have, with the text
    the baseline holds for them (`lost`). `digests`: when every relation was hashed (a repair
    run's read), the present digests with their texts, which the observation baseline takes."""

    present: frozenset[str]
    lost: dict[str, str]
    digests: dict[str, str] | None = None


class GraphTransient(TypedDict, total=False):
    """What a scan keeps of the graph beyond the cache (never persisted)."""

    obs_digests: DigestTable  # observation digest -> "<entity>: <observation>"
    erased_delta: ErasedDelta  # instead of obs_digests, for a graph read by delta
    # what stale marking needs of the graph, whatever the clock (tasks/checks/reconcile/stale.py)
    stale: StaleSummary


# The (sourcePage, rawAssetId) rows of an observation's provenance.
ProvenanceKeys = frozenset[tuple[str, str]]


class StaleSummary(TypedDict):
    """The graph's active observations that have a provenance, grouped by their provenance
    rows: how many, and how many of them are marked stale now; and how many marks in all."""

    groups: dict[ProvenanceKeys, list[int]]  # rows -> [observations, of them marked]
    marked: int


class FileEntry(TypedDict):
    """One file of the cache: its stat, content hash and facts."""

    size: int
    mtime_ns: int
    ctime_ns: int  # moves on every write and chmod; cannot be set back by hand
    ino: int  # a file replaced by rename is another inode
    hash: str
    facts: FileFacts


class LogBaseline(TypedDict):
    len: int
    hash: str


class ScanState(TypedDict, total=False):
    """Baselines a check keeps between runs (stored beside the files in the cache)."""

    created_at: dict[str, str]  # page -> the first created_at seen
    erased_observations: dict[str, str]  # digest -> "<entity>: <observation>"
    log_baseline: LogBaseline
    log_rewritten: bool


class ScanCache(ScanState, total=False):
    """.membank/reconcile-cache.json: the state's keys, the files and the format version."""

    version: int
    files: dict[str, FileEntry]

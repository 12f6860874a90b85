"""The quality gates: one function per gate, each `(scan, context) -> (findings, repairs)`.

Gates are pure but for the baselines they keep in scan.state (created_at, log, erased facts) and
the counters in context.tally. `GATES` is their order, which is the order of the findings in the
health summary. Per-page gates (`PAGE_GATES`) also take the page and its facts and run page by
page, so one page's findings stay together.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import PurePosixPath
from typing import cast

import orjson

from schemas.common import PREFIX_PATTERN
from schemas.graph import SUPERSEDED_RELATIONS_KEY, entity_key
from schemas.health import (
    ENTITY_NAME_MARKUP,
    ENTITY_WITHOUT_EVIDENCE,
    RELATION_TYPE_UNKNOWN,
    Finding,
    Severity,
)
from schemas.page import TYPED_LINK_KEYS
from tasks.checks.digest_table import DigestTable, blob_digests, spliced_baseline
from tasks.checks.facts import (
    AssetFacts,
    ConflictFacts,
    ErasedDelta,
    PageFacts,
    Problem,
    SourceRow,
)
from tasks.checks.graph_facts import RELATION_PREFIX
from tasks.checks.reconcile.catalog_recheck import drift_since, under_topic_hub
from tasks.checks.reconcile.context import GateContext
from tasks.checks.reconcile.drift import check_entity_drift
from tasks.checks.reconcile.entity_recheck import PageTypes, entity_page_key
from tasks.checks.reconcile.repairs import (
    AttachOrphan,
    CreateEntityPage,
    DropActiveSuperseded,
    MakeReadOnly,
    NormalizeGraph,
    NormalizeRegistry,
    RegisterEntity,
    Repair,
    RestoreCreatedAt,
    ResyncHub,
    ResyncIndex,
    Supersede,
)
from tasks.checks.scan import (
    Scan,
    content_hash,
    is_read_only,
    latest_distill_times,
    log_body,
)
from tasks.health.findings import finding
from tasks.store.catalog import CatalogEntry
from tasks.store.errors import MembankError
from tasks.store.layout import (
    ENTITY_HUB,
    GRAPH_FILE,
    INDEX_FILE,
    LOG_FILE,
    MANIFEST_FILE,
    RAW_FOLDER,
    RECONCILE_CACHE_FILE,
    REGISTRY_FILE,
    WIKI_FOLDER,
    WIKI_HUB_PAGES,
    hub_of,
    hub_path,
)
from tasks.store.names import in_shards, is_structural, parse_memory_file_name

GateResult = tuple[Sequence[Finding], Sequence[Repair]]
Gate = Callable[[Scan, GateContext], GateResult]
PASS: GateResult = ((), ())  # nothing found, nothing to repair (the common case, not allocated)
PageGate = Callable[[Scan, GateContext, str, PageFacts], GateResult]  # (..., page, its facts)

PARENT_TYPES = frozenset({"hub", "index", "source-index"})
# Source pages carry the ingested document's own text: its relative links pointed into the
# original repository, so a dead one there is information, not a broken memory. Links into the
# memory's own files (raw/, shard-NNN.md, <UTC prefix>__<slug> names) stay errors.
SOURCE_TYPES = frozenset({"source", "source-index", "source-shard"})
_OWN_NAME_RE = re.compile(rf"^(?:{PREFIX_PATTERN}__.+|shard-\d{{3,}}\.md)$")
_CONTEXT_FILES: tuple[tuple[str, str, Severity], ...] = (
    (GRAPH_FILE, "missing_graph_file", "error"),
    (REGISTRY_FILE, "missing_registry_file", "error"),
    (MANIFEST_FILE, "missing_raw_manifest", "warning"))
_RESTORE_FROM_GIT = ("restore it from git, or run `membank init` to create an empty one if the "
                     "memory is new")


def _memory_own_target(target: str) -> bool:
    return target.startswith(RAW_FOLDER) or bool(_OWN_NAME_RE.match(target.rsplit("/", 1)[-1]))


def typed_link_path(target: str) -> str | None:
    """The root-relative path a typed link names before it is looked up (a `#section` anchor,
    memory_curate's toSection, is not part of the file), or None when it names none."""
    target = target.split("#", 1)[0]
    clean = posixpath.normpath(target.strip().lstrip("./")) if target.strip() else ""
    if not clean or clean.startswith(".."):
        return None
    return clean


def _resolve_typed(scan: Scan, target: str, outside: set[str] | None = None) -> str | None:
    """The file a typed link names (a folder name means its index.md), or None. `outside`:
    where a target found only on disk, beyond the scan, is noted (page_recheck.py)."""
    clean = typed_link_path(target)
    if clean is None:
        return None
    if clean in scan.files or clean in scan.unreadable:
        return clean
    hub = hub_path(clean)
    if hub in scan.files:
        return hub
    if clean in scan.dirs:
        return clean
    if outside is not None:
        outside.add(target)
    return clean if (scan.root / clean).exists() else None


def _resolved(scan: Scan, context: GateContext, target: str) -> str | None:
    """_resolve_typed, once per target in a check (the scan does not change during one)."""
    try:
        return context.resolved_targets[target]
    except KeyError:
        found = context.resolved_targets[target] = _resolve_typed(scan, target,
                                                                  context.outside_targets)
        return found


def _link_exists(scan: Scan, context: GateContext, target: str) -> bool:
    if target in scan.files or target in scan.dirs or target in scan.unreadable:
        return True
    context.outside_targets.add(target)
    return (scan.root / target).exists()


def _problem_finding(rel: str, problem: Problem) -> Finding:
    return finding(problem["code"], "error", rel, problem["message"], problem["hint"])


# --- files and context files ------------------------------------------------------------------


def check_files(scan: Scan, context: GateContext) -> GateResult:
    """What the walk saw: temp files of interrupted writes, symlinks, unreadable files."""
    findings = [finding("orphan_temp_file", "warning", rel,
                        "temp file of an interrupted write (a crash or a full disk)",
                        "any writing command (e.g. `membank reconcile`) removes it")
                for rel in scan.temp_files]
    findings += [finding("symlink_in_memory", "warning", rel,
                         "symlink inside the memory root (never followed)",
                         "replace it with the file itself or a markdown link")
                 for rel in scan.symlinks]
    for rel, reason in sorted(scan.unreadable.items()):
        findings.append(finding("unreadable_file", "error", rel, f"cannot read file: {reason}",
                                "check the file's permissions"))
        context.tally.invalid_files += 1
    return findings, []


def check_context_files(scan: Scan, context: GateContext) -> GateResult:
    findings: list[Finding] = []
    for rel in scan.of_kind("jsonc"):
        problem = scan.problem(rel)
        if problem:
            context.tally.invalid_files += 1
            findings.append(_problem_finding(rel, problem))
    for rel, code, severity in _CONTEXT_FILES:
        if rel not in scan.files and rel not in scan.unreadable:
            findings.append(finding(code, severity, rel, f"{rel} is missing", _RESTORE_FROM_GIT))
    return findings, []


# --- per page -----------------------------------------------------------------------------------


def check_page_contract(scan: Scan, context: GateContext, rel: str, facts: PageFacts) -> GateResult:
    problem = facts["problem"]
    if problem:
        context.tally.invalid_files += 1
        return [_problem_finding(rel, problem)], []
    return PASS


def check_names(scan: Scan, context: GateContext, rel: str, facts: PageFacts) -> GateResult:
    """A page is named <UTC prefix>__<slug>.md and its prefix is its utc_datetime_prefix."""
    if is_structural(rel):
        return PASS
    try:
        parsed = parse_memory_file_name(rel.rpartition("/")[2])  # scan paths: clean, posix
    except MembankError as exc:
        return [finding("misnamed_file", "warning", rel, exc.cause,
                        exc.hint or "rename it <UTC prefix>__<slug>.md")], []
    declared = facts["meta"].get("utc_datetime_prefix")
    if isinstance(declared, str) and declared != parsed.prefix:
        return [finding(
            "prefix_mismatch", "warning", rel,
            f"file name prefix {parsed.prefix} differs from utc_datetime_prefix {declared}",
            "the name carries the page's creation prefix for life; fix the frontmatter or the "
            "name (and every link to it)")], []
    return PASS


def check_created_at(scan: Scan, context: GateContext, rel: str, facts: PageFacts) -> GateResult:
    """created_at never changes: the first one seen is the baseline."""
    created = facts["meta"].get("created_at")
    if not isinstance(created, str):
        return PASS
    original = context.originals.setdefault(rel, created)
    if original == created:
        return PASS
    problem = facts["problem"]
    repairs: list[Repair] = []
    if not problem or problem["code"] == "invalid_frontmatter":
        repairs.append(RestoreCreatedAt(rel, original))
    return [finding("created_at_changed", "error", rel,
                    f"created_at changed from {original} to {created}",
                    "created_at is immutable; reconcile restores the original")], repairs


def check_typed_links(scan: Scan, context: GateContext, rel: str, facts: PageFacts) -> GateResult:
    meta = facts["meta"]
    findings: list[Finding] = []
    for key in TYPED_LINK_KEYS:
        for target in cast("list[str]", meta.get(key, [])):  # PageMeta's typed links are lists
            if _resolved(scan, context, target) is None:
                context.tally.dead_links += 1
                findings.append(finding(
                    "dead_link", "error", rel, f"{key} link {target!r} points at no file",
                    "fix the path (root-relative) or restore the target"))
    return findings, []


def _markdown_link_finding(scan: Scan, context: GateContext, rel: str,
                           target: str) -> Finding | None:
    inherited = context.page_types.get(rel) in SOURCE_TYPES and not _memory_own_target(target)
    if target.startswith(".."):
        if inherited:
            return finding("source_text_link_unresolved", "info", rel,
                           f"link to {target!r} in the ingested text leaves the memory root",
                           "the link came with the source document; nothing in the memory is "
                           "broken")
        context.tally.dead_links += 1
        return finding("link_escapes_root", "error", rel,
                       f"markdown link {target!r} leaves the memory root",
                       "link only to files inside the memory root")
    if _link_exists(scan, context, target):
        return None
    if inherited:
        return finding("source_text_link_unresolved", "info", rel,
                       f"link to {target!r} in the ingested text resolves to no file",
                       "the link came with the source document and pointed into its own "
                       "repository; nothing in the memory is broken")
    context.tally.dead_links += 1
    return finding("dead_link", "error", rel, f"markdown link to {target!r} points at no file",
                   "fix the link (relative to the page's folder) or restore the target")


def check_markdown_links(scan: Scan, context: GateContext, rel: str, facts: PageFacts) -> GateResult:
    """Each link names a file; of a catalog page read by delta, only the links put since the
    verdict's check can fail to (context.links_to_check)."""
    targets = context.links_to_check.get(rel, facts["links"])
    findings = [_markdown_link_finding(scan, context, rel, target) for target in targets]
    return [f for f in findings if f is not None], []


def check_orphans(scan: Scan, context: GateContext, rel: str, facts: PageFacts) -> GateResult:
    """Every page hangs under a hub (records outside wiki/ may hang under index.md)."""
    problem = facts["problem"]
    if rel in (INDEX_FILE, LOG_FILE) or problem and problem["code"] != "invalid_frontmatter":
        return PASS
    meta = facts["meta"]
    parents = [_resolved(scan, context, t) for t in meta.get("child_of", [])]
    attached = any(p is not None and (context.page_types.get(p) in PARENT_TYPES or p == INDEX_FILE)
                   for p in parents)
    if attached or not rel.startswith(WIKI_FOLDER) and rel in context.index_listed:
        return PASS
    context.tally.orphans += 1
    hub = hub_of(rel)
    can_attach = (hub is not None and hub in scan.files and not meta.get("child_of")
                  and facts["valid"])
    repairs: list[Repair] = [AttachOrphan(rel, hub)] if can_attach and hub is not None else []
    return [finding(
        "orphan_page", "warning", rel, "page hangs under no hub (child_of names no hub)",
        f"reconcile attaches it to {hub}" if can_attach else
        "set child_of to the hub it belongs under (e.g. wiki/concepts/index.md)")], repairs


PAGE_GATES: tuple[PageGate, ...] = (check_page_contract, check_names, check_created_at,
                                    check_typed_links, check_markdown_links, check_orphans)


def check_pages(scan: Scan, context: GateContext) -> GateResult:
    """PAGE_GATES page by page: every page, or only context.pages_to_check (page_recheck.py:
    the others' findings are known to be none). Notes in context.noted_pages each page the
    gates found something on, or whose links were looked up beyond the scan."""
    findings: list[Finding] = []
    repairs: list[Repair] = []
    outside = context.outside_targets
    for rel in context.pages if context.pages_to_check is None else context.pages_to_check:
        facts = scan.page(rel)
        found = len(findings)
        looked_outside = len(outside)
        for gate in PAGE_GATES:
            page_findings, page_repairs = gate(scan, context, rel, facts)
            if page_findings:
                findings += page_findings
            if page_repairs:
                repairs += page_repairs
        if len(findings) != found or len(outside) != looked_outside:
            context.noted_pages.add(rel)
    if outside:
        # a target is looked up on disk once per check: every page that names it is noted (of
        # the pages checked: any other names only files the scan holds, page_recheck.py)
        context.noted_pages.update(
            rel for rel in (context.pages if context.pages_to_check is None
                            else context.pages_to_check) if _names_any(scan.page(rel), outside))
    return findings, repairs


def _names_any(facts: PageFacts, targets: set[str]) -> bool:
    if not targets.isdisjoint(facts["links"]):
        return True
    meta = facts["meta"]
    return any(not targets.isdisjoint(cast("list[str]", meta.get(key, ())))
               for key in TYPED_LINK_KEYS if key in meta)


# --- catalogs: index.md and the hubs -------------------------------------------------------------


def _entry_for(rel: str, facts: PageFacts) -> CatalogEntry:
    meta = facts["meta"]
    title = meta.get("title") or PurePosixPath(rel).stem
    description = meta.get("description") or ""
    return CatalogEntry(rel, str(title), str(description) if isinstance(description, str) else "",
                        hub=meta.get("type") == "hub")


def _catalog_drift(scan: Scan, catalog: str, wanted: set[str]) -> tuple[list[str], list[str]]:
    """What a catalog page (index.md or a hub) misses of `wanted`, and what it lists that is
    gone."""
    listed = dict.fromkeys(e[0] for e in scan.page(catalog).get("entries", []))
    missing = sorted(wanted.difference(listed))
    gone = sorted(p for p in listed if not scan.exists(p))
    return missing, gone


def _resynced(scan: Scan, catalog: str, missing: list[str], gone: list[str],
              hubs: PageTypes | None = None) -> list[CatalogEntry]:
    """A catalog's entries resynced: the kept ones in their order, then the missing ones
    (built only for a repair: a catalog of 100,000 lines). `hubs`: page types, to mark the
    kept entries that are topic hubs (index.md)."""
    dropped = set(gone)
    listed = {e[0]: CatalogEntry(e[0], e[1], e[2]) for e in scan.page(catalog).get("entries", [])}
    kept = [entry for path, entry in listed.items() if path not in dropped]
    added = [_entry_for(rel, scan.page(rel)) for rel in missing]
    if hubs is None:
        return kept + added
    return [replace(e, hub=hubs.get(e.path) == "hub") for e in kept + added]


# (missing code, message, stale code, message, hint) of index.md and of a hub
_INDEX_DRIFT = ("index_missing_entry", "index.md does not list {}", "index_stale_entry",
                "index.md lists {}, which does not exist", "reconcile resyncs index.md")
_HUB_DRIFT = ("hub_missing_child", "hub does not list {}", "hub_stale_child",
              "hub lists {}, which does not exist", "reconcile resyncs the hub")


def _drift_findings(catalog: str, missing: list[str], gone: list[str],
                    wording: tuple[str, str, str, str, str]) -> list[Finding]:
    missing_code, missing_message, stale_code, stale_message, hint = wording
    return ([finding(missing_code, "warning", catalog, missing_message.format(rel), hint)
             for rel in missing]
            + [finding(stale_code, "warning", catalog, stale_message.format(rel), hint)
               for rel in gone])


def _known_drift(scan: Scan, context: GateContext, catalog: str
                 ) -> tuple[list[str], list[str]] | None:
    """A catalog's (missing, gone) from the change since the verdict's check, when a check
    from its cache can know them so (catalog_recheck.py); else None."""
    basis = context.catalog_basis
    return drift_since(scan, basis, catalog) if basis is not None else None


def _note_in_step(scan: Scan, context: GateContext, catalog: str, drift: tuple[list[str], ...]
                  ) -> None:
    """A check keeps the catalogs it finds in step for a later check (a check by the change
    knows each catalog's drift as the full one: catalog_recheck.py)."""
    if catalog in scan.files and scan.problem(catalog) is None and not any(drift):
        context.catalogs_in_step.add(catalog)


def _check_index(scan: Scan, context: GateContext) -> GateResult:
    findings: list[Finding] = []
    if INDEX_FILE not in scan.files:
        findings.append(finding("missing_index", "warning", INDEX_FILE, "index.md is missing",
                                "reconcile rebuilds it from the pages"))
    known = _known_drift(scan, context, INDEX_FILE)
    if known is None:
        wanted = {rel for rel in context.pages
                  if rel not in (INDEX_FILE, LOG_FILE) and not in_shards(rel)}
        known = _catalog_drift(scan, INDEX_FILE, wanted)
    missing, gone = known
    _note_in_step(scan, context, INDEX_FILE, known)
    findings += _drift_findings(INDEX_FILE, missing, gone, _INDEX_DRIFT)
    index_readable = INDEX_FILE not in scan.files or not scan.problem(INDEX_FILE)
    if (missing or gone or INDEX_FILE not in scan.files) and index_readable:
        return findings, [ResyncIndex(_resynced(scan, INDEX_FILE, missing, gone,
                                                context.page_types))]
    return findings, []




def _check_hub(scan: Scan, context: GateContext, hub: str) -> GateResult:
    folder = hub.rsplit("/", 1)[0]
    if hub not in scan.files:
        if folder not in scan.dirs:
            return PASS
        children = [_entry_for(rel, scan.page(rel))
                    for rel in context.by_folder.get(folder, []) if rel != hub]
        return [finding("missing_hub", "warning", hub, f"hub page {hub} is missing",
                        "reconcile recreates it with its children")], [ResyncHub(hub, children)]
    problem = scan.problem(hub)
    if problem and problem["code"] != "invalid_frontmatter":
        return PASS
    known = _known_drift(scan, context, hub)
    if known is None:
        files = scan.files
        direct = {rel for rel in context.by_folder.get(folder, [])
                  if rel != hub and not under_topic_hub(files[rel]["facts"].get("meta", {}), hub,
                                                        files, rel)}
        known = _catalog_drift(scan, hub, direct)
    missing, gone = known
    _note_in_step(scan, context, hub, known)
    repairs: list[Repair] = [ResyncHub(hub, _resynced(scan, hub, missing, gone))] if (
        missing or gone) else []
    return _drift_findings(hub, missing, gone, _HUB_DRIFT), repairs


def check_catalog(scan: Scan, context: GateContext) -> GateResult:
    """index.md lists every record and nothing gone; each hub lists its folder's pages."""
    index_findings, index_repairs = _check_index(scan, context)
    findings, repairs = list(index_findings), list(index_repairs)
    for hub in WIKI_HUB_PAGES:
        hub_findings, hub_repairs = _check_hub(scan, context, hub)
        findings += hub_findings
        repairs += hub_repairs
    return findings, repairs


# --- graph, registry, entity pages ---------------------------------------------------------------


def check_erased_facts(scan: Scan, context: GateContext) -> GateResult:
    """An observation that disappeared from the graph (not superseded) is reported until restored."""
    if context.graph is None:
        return PASS
    transient = scan.transient.get(GRAPH_FILE)
    if transient is not None and "erased_delta" in transient:
        _apply_erased_delta(scan, transient["erased_delta"])
    elif transient is not None:
        _update_baseline(scan, transient["obs_digests"])
    return [_erased(text) for text in scan.state.get("erased_observations", {}).values()], []


def _apply_erased_delta(scan: Scan, delta: ErasedDelta) -> None:
    """_update_baseline's erased facts for a graph read by delta (tasks/checks/graph_delta.py):
    the cache's erased facts the graph does not hold again, and the facts the changed entities
    and relations lost. The baseline beyond the cached graph is among the cache's erased facts
    (the pair a repair run saved), and the baseline is not written (a check)."""
    erased = {d: t for d, t in scan.state.get("erased_observations", {}).items()
              if d not in delta.present}
    erased.update(delta.lost)
    scan.state["erased_observations"] = dict(sorted(erased.items()))
    if delta.digests is not None:  # a repair run's: the baseline takes the graph's digests
        _baseline_takes(scan, delta.digests)


def _baseline_takes(scan: Scan, digests: dict[str, str]) -> None:
    """_update_baseline's baseline for a graph read by delta: the saved one holds every digest
    of the cached graph with its text (the last repair run's), so it and the digests of the
    changed entities and of every relation (`digests`) are the baseline and the graph's
    digests; written only when that differs from the saved one. The saved one's bytes are
    spliced (digest_table.spliced_baseline), not decoded, when in membank's form."""
    if scan.observation_baseline is None:
        try:
            saved = scan.baseline_bytes()
        except OSError:
            saved = b""
        spliced = spliced_baseline(saved, digests)
        if spliced is not None:
            scan.observation_baseline = None if spliced is saved else DigestTable(spliced)
            return
    baseline = scan.load_observation_baseline()
    if all(baseline.get(digest) == text for digest, text in digests.items()):
        scan.observation_baseline = None  # the saved file holds it (read back when asked)
        return
    baseline.update(digests)


_SHORT_BASELINE = 64  # bytes: a longer baseline file is not read here to see if it is empty


def _update_baseline(scan: Scan, current: DigestTable) -> None:
    """Erased facts: what the baseline held that the graph no longer does, or was erased
    before and is still missing; the baseline then holds the graph's digests too."""
    erased_before = scan.state.get("erased_observations", {})
    if scan.observation_baseline is None and _baseline_within(scan, current):
        # nothing of the baseline is missing, and it becomes these very digests: their bytes
        # are written as the new baseline (a million entries at 100,000 pages, never decoded)
        scan.state["erased_observations"] = {d: t for d, t in sorted(erased_before.items())
                                             if d not in current}
        scan.observation_baseline = current
        return
    baseline = scan.load_observation_baseline()
    back = _back_in_graph(baseline, current, erased_before)
    if back is not None:
        # nothing the baseline held left the graph: updated with the graph's digests (their
        # texts winning), the baseline is those very digests, whose bytes are written as they
        # are (not decoded beside the baseline, nor the baseline dumped: at 100,000 pages
        # ~400 MB of the peak of a repair run that cannot go by the change)
        scan.state["erased_observations"] = {d: t for d, t in sorted(erased_before.items())
                                             if d not in back}
        scan.observation_baseline = current
        return
    digests = current.mapping()
    erased = {d: t for d, t in erased_before.items() if d not in digests}
    erased.update((d, baseline[d]) for d in baseline.keys() - digests.keys())
    scan.state["erased_observations"] = dict(sorted(erased.items()))
    baseline.update(digests)  # in place: no third dict of a million observations
    scan.observation_baseline = baseline


def _back_in_graph(baseline: dict[str, str], current: DigestTable, erased: dict[str, str]
                   ) -> set[str] | None:
    """The erased facts' digests that are in the graph again, when every digest of `baseline`
    is among the graph's (`current`, read from its bytes); None when one is not (or a key of
    the graph is not in membank's form: then fewer are counted)."""
    found, back = 0, set()
    for digest in blob_digests(current.blob):
        if digest in baseline:
            found += 1
        if digest in erased:
            back.add(digest)
    return back if found == len(baseline) else None


def _baseline_within(scan: Scan, current: DigestTable) -> bool:
    """The saved baseline is empty (or absent, or unreadable: read as empty) or holds exactly
    `current`'s digests, byte for byte."""
    try:
        saved = scan.baseline_bytes()
    except OSError:
        return True
    if saved == current.blob:
        return True
    if len(saved) > _SHORT_BASELINE:
        return False  # not an empty one (the general path reads it)
    try:
        return bool(orjson.loads(saved) == {})
    except orjson.JSONDecodeError:
        return True  # read as empty (Scan.load_observation_baseline)


def _erased(text: str) -> Finding:
    if text.startswith(RELATION_PREFIX):  # a relation deleted by hand (MB37)
        return finding("fact_erased", "error", GRAPH_FILE,
                       f"relation was removed instead of superseded: {text[len(RELATION_PREFIX):]}",
                       "relations no source states any more are superseded, not erased: restore "
                       f"it (or move it to {SUPERSEDED_RELATIONS_KEY})")
    return finding("fact_erased", "error", GRAPH_FILE,
                   f"observation was removed instead of superseded: {text}",
                   "superseded facts are linked, not erased: restore it (or move it to "
                   "supersededObservations with supersededBy)")


def _times_of(sources: list[SourceRow], distilled: dict[str, str],
              ingested: dict[str, str]) -> str | None:
    times = []
    for source_page, asset_id in sources:
        moment = distilled.get(source_page) or distilled.get(asset_id) or ingested.get(asset_id)
        if moment:
            times.append(moment)
    return max(times) if times else None


def _provenance_times(context: GateContext) -> tuple[dict[str, str], dict[str, str]]:
    """When each source page or asset was last distilled, and when each asset was ingested."""
    distilled = latest_distill_times(context.distill)
    assets = context.manifest["assets"] if context.manifest is not None else []
    ingested = {a["assetId"]: a["ingestedAtUtc"] for a in assets}
    return distilled, ingested


def _check_conflict(conflict: ConflictFacts, distilled: dict[str, str],
                    ingested: dict[str, str]) -> GateResult:
    """Two values of one attribute: the newer (by distill or ingest time) supersedes the older."""
    times = {text: _times_of(conflict["sources"].get(text, []), distilled, ingested)
             for text in conflict["observations"]}
    newest = max((t for t in times.values() if t), default=None)
    winners = [text for text, t in times.items() if t == newest]
    head = (f"{conflict['entity']}: {len(conflict['observations'])} values for "
            f"{conflict['attribute']!r}")
    if newest and all(times.values()) and len(winners) == 1:
        repairs: list[Repair] = [
            Supersede(conflict["entity"], text, winners[0],
                      f"conflicting fact: newer {conflict['attribute']}")
            for text in conflict["observations"] if text != winners[0]]
        older = [text for text in conflict["observations"] if text != winners[0]]
        return [finding("conflicting_observations", "warning", GRAPH_FILE,
                        f"{head}: newer {winners[0]!r} against " + ", ".join(map(repr, older)),
                        "reconcile supersedes the older with a link to the newer (by distill "
                        "or ingest time)")], repairs
    return [finding("conflicting_observations", "warning", GRAPH_FILE,
                    f"{head} and no provenance says which is newer: "
                    + " | ".join(conflict["observations"]),
                    "supersede the wrong one by hand (supersededObservations + supersededBy)")], []


def check_graph(scan: Scan, context: GateContext) -> GateResult:
    """The graph is normalized, superseded facts are linked, conflicts are resolved."""
    graph = context.graph
    if graph is None:
        return PASS
    findings: list[Finding] = []
    repairs: list[Repair] = []
    if not graph["normalized"]:
        findings.append(finding("graph_not_normalized", "warning", GRAPH_FILE,
                                "graph is not deduplicated and sorted by the spec's keys",
                                "reconcile sorts and dedups it (first seen wins)"))
        repairs.append(NormalizeGraph())
    findings += [finding("superseded_without_link", "warning", GRAPH_FILE,
                         f"{name}: superseded observation has no supersededBy: {text}",
                         "set supersededBy to the fact or source that replaced it")
                 for name, text in graph["superseded_unlinked"]]
    for name, text in graph["active_and_superseded"]:
        findings.append(finding("observation_active_and_superseded", "warning", GRAPH_FILE,
                                f"{name}: observation is both active and superseded: {text}",
                                "reconcile keeps it only as superseded"))
        repairs.append(DropActiveSuperseded(name, text))
    findings += [finding("observation_not_atomic", "warning", GRAPH_FILE,
                         f"{name}: observation of {len(text):,} characters is not one atomic fact: "
                         f"{text[:80]}" if len(text.split()) > 1 else
                         f"{name}: observation {text!r} is a single word, not an actionable fact",
                         "split it into facts of one statement each, or supersede it")
                 for name, text in graph["not_atomic"]]
    distilled, ingested = _provenance_times(context)
    for conflict in graph["conflicts"]:
        conflict_findings, conflict_repairs = _check_conflict(conflict, distilled, ingested)
        findings += conflict_findings
        repairs += conflict_repairs
    return findings, repairs


_PASSIVE_RE = re.compile(r"^(?:is|are|was|were|be|been|being|gets|got)_\w+_(?:by|from)$")


def check_graph_content(scan: Scan, context: GateContext) -> GateResult:
    """What distill should never leave behind: empty entities, names that start with markup,
    relation verbs outside the vocabulary (a custom snake_case verb is only noted)."""
    graph = context.graph
    if graph is None:
        return PASS
    findings = [finding(ENTITY_WITHOUT_EVIDENCE, "warning", GRAPH_FILE,
                        f"entity {name!r} has no observation and no source",
                        "add what is known about it (a source that states facts), or retire it")
                for name in graph.get("entities_without_evidence", [])]
    findings += [finding(ENTITY_NAME_MARKUP, "warning", GRAPH_FILE,
                         f"entity name {name!r} starts with a list marker or heading punctuation",
                         "rename it without the markup (registry alias keeps the old name "
                         "findable)")
                 for name in graph.get("names_with_markup", [])]
    for relation_type in graph.get("unknown_relation_types", []):
        if _PASSIVE_RE.match(relation_type):  # memory-bank QG: directed, active-voice naming
            findings.append(finding(
                "relation_passive_voice", "warning", GRAPH_FILE,
                f"relation type {relation_type!r} is in the passive voice",
                "name it in the active voice, source acting on target (A uses B, not B is_used_by A)"))
            continue
        deliberate = "_" in relation_type
        findings.append(finding(
            RELATION_TYPE_UNKNOWN, "info" if deliberate else "warning", GRAPH_FILE,
            f"relation type {relation_type!r} is not a verb of the relation vocabulary",
            "use a verb of schemas/relation_vocabulary.py" + (
                "" if deliberate else ", or remove the relation (a prose word is not a verb)")))
    return findings, []


def check_relations(scan: Scan, context: GateContext) -> GateResult:
    if context.graph is None:
        return PASS
    return [finding("relation_dangling_entity", "warning", GRAPH_FILE,
                    f"relation {source} -{relation_type}-> {target} names an entity the graph "
                    "does not have", "add the entity or fix the relation's names")
            for source, relation_type, target in context.graph["dangling_relations"]], []


def _entity_pages(scan: Scan, context: GateContext, pages: list[str]
                  ) -> tuple[list[Finding], dict[str, list[str]]]:
    """Entity pages of `pages` by entity key, and a finding for each that names no entity."""
    findings: list[Finding] = []
    pages_by_entity: dict[str, list[str]] = {}
    for rel in pages:
        if context.page_types.get(rel) != "entity":
            continue
        key = entity_page_key(scan.page(rel)["meta"])
        if key is None:
            findings.append(finding("entity_page_without_name", "warning", rel,
                                    "entity page has no entity_name",
                                    "add entity_name: <canonical name> to its frontmatter"))
            continue
        pages_by_entity.setdefault(key, []).append(rel)
    return findings, pages_by_entity


def check_entity_pages(scan: Scan, context: GateContext) -> GateResult:
    """One entity page per graph entity, and no page for an entity the graph lacks. Right
    after an ingest, of the entity pages and entities that changed (entity_recheck.py)."""
    if context.graph is None:
        return PASS
    recheck = context.entity_recheck
    graph_keys = context.graph_keys
    if recheck is not None:
        graph_keys = {key: graph_keys[key] for key in recheck.keys}
    findings, pages_by_entity = _entity_pages(
        scan, context, context.pages if recheck is None else recheck.pages)
    repairs: list[Repair] = []
    for key in sorted(key for key in graph_keys if key not in pages_by_entity):
        name, entity_type = graph_keys[key]
        findings.append(finding("entity_page_missing", "warning", GRAPH_FILE,
                                f"graph entity {name!r} has no entity page",
                                "reconcile creates it under wiki/entities/"))
        if ENTITY_HUB in scan.files:
            repairs.append(CreateEntityPage(name, entity_type))
    for key in sorted(key for key, rels in pages_by_entity.items()
                      if key not in graph_keys or len(rels) > 1):  # the others find nothing
        rels = pages_by_entity[key]
        if key not in graph_keys:
            findings += [finding("entity_page_not_in_graph", "warning", rel,
                                 "entity page names an entity the graph does not have",
                                 "add the entity to the graph (distill) or retire the page with "
                                 "superseded_by")
                         for rel in rels]
        if len(rels) > 1:
            findings.append(finding("duplicate_entity_page", "warning", rels[1],
                                    f"{len(rels)} entity pages for one entity: " + ", ".join(rels),
                                    "merge them and mark the extra superseded_by the kept one"))
    if not findings:
        context.gates_in_step.add("entity_pages")
    return findings, repairs


def _registry_keys(entries: Sequence[tuple[str, str, Sequence[str]]]
                   ) -> tuple[dict[str, dict[str, None]], set[str]]:
    """Each key the registry knows (a canonical name's or an alias's) with the entities it
    names, and the canonical names' keys: one key per name (150,000 at 100k pages)."""
    names: dict[str, dict[str, None]] = {}
    canonical: set[str] = set()
    for name, _type, aliases in entries:
        key = entity_key(name)
        canonical.add(key)
        names.setdefault(key, {})[name] = None
        for alias in aliases:
            names.setdefault(entity_key(alias), {})[name] = None
    return names, canonical


def _alias_collisions(names: dict[str, dict[str, None]]) -> list[Finding]:
    """An alias (or a canonical name used as an alias) that names two entities: resolution
    would pick one silently (spec/memory-bank.md: "If matched -> use the canonical name")."""
    return [finding("registry_alias_ambiguous", "warning", REGISTRY_FILE,
                    f"alias {key!r} names {len(owners)} entities: {', '.join(sorted(owners))}",
                    "keep the alias on one entity, or merge the entities")
            for key, owners in sorted((k, o) for k, o in names.items() if len(o) > 1)]


def check_registry(scan: Scan, context: GateContext) -> GateResult:
    """The registry is normalized and agrees with the graph's entities."""
    registry = context.registry
    if registry is None:
        return PASS
    findings: list[Finding] = []
    repairs: list[Repair] = []
    if not registry["normalized"]:
        findings.append(finding("registry_not_normalized", "warning", REGISTRY_FILE,
                                "registry is not deduplicated and sorted",
                                "reconcile sorts and dedups it"))
        repairs.append(NormalizeRegistry())
    if context.graph is None:
        return findings, repairs
    known, canonical = _registry_keys(registry["entries"])
    findings += _alias_collisions(known)
    graph_keys = context.graph_keys
    for key in sorted(key for key in graph_keys if key not in known):  # keys: items' order
        name, entity_type = graph_keys[key]
        findings.append(finding("registry_entry_missing", "warning", REGISTRY_FILE,
                                f"graph entity {name!r} is not in the registry",
                                "reconcile registers it"))
        repairs.append(RegisterEntity(name, entity_type))
    findings += [finding("registry_entry_not_in_graph", "warning", REGISTRY_FILE,
                         f"registry entry {key!r} has no graph entity",
                         "add the entity to the graph or remove the entry by hand")
                 for key in sorted(canonical - graph_keys.keys())]
    return findings, repairs


# --- raw store and log -----------------------------------------------------------------------------


def _check_raw_asset(scan: Scan, asset: AssetFacts) -> GateResult:
    rel = asset["rawPath"]
    entry = scan.files.get(rel)
    if entry is None:
        return [finding("raw_missing", "error", rel, "raw asset listed in the manifest is missing",
                        "restore it from git; raw/ is immutable")], []
    findings: list[Finding] = []
    if f"sha256:{entry['hash']}" != asset["contentHash"]:
        findings.append(finding("raw_hash_mismatch", "error", rel,
                                "raw asset changed since ingest (hash differs from the manifest)",
                                "raw/ is immutable: restore the original and ingest the new "
                                "version as a new source"))
    if not is_read_only(scan.modes.get(rel, 0)):
        findings.append(finding("raw_not_read_only", "warning", rel, "raw asset is writable",
                                "reconcile makes it read-only"))
        return findings, [MakeReadOnly(rel)]
    return findings, []


def check_raw_store(scan: Scan, context: GateContext) -> GateResult:
    """Every asset of the manifest is present, unchanged and read-only; raw/ holds no other."""
    if context.manifest is None:
        return PASS
    findings: list[Finding] = []
    repairs: list[Repair] = []
    for asset in context.manifest["assets"]:
        asset_findings, asset_repairs = _check_raw_asset(scan, asset)
        findings += asset_findings
        repairs += asset_repairs
    listed_raw = {asset["rawPath"] for asset in context.manifest["assets"]}
    findings += [finding("raw_not_in_manifest", "warning", rel,
                         "file under raw/ is not in the raw manifest",
                         "ingest it with `membank ingest` or move it out of raw/")
                 for rel in scan.of_kind("raw") if rel not in listed_raw]
    return findings, repairs


def update_log_baseline(scan: Scan) -> bool:
    """Compare log.md with its baseline: an append moves the baseline, an edit is remembered.
    False when the changed log cannot be read (then nothing is judged)."""
    baseline = scan.state.get("log_baseline")
    facts = scan.page(LOG_FILE)
    if LOG_FILE in scan.changed and baseline:
        try:
            body = log_body((scan.root / LOG_FILE).read_bytes())
        except (OSError, MembankError, UnicodeDecodeError):
            return False
        if len(body) < baseline["len"] or content_hash(body[: baseline["len"]]) != baseline["hash"]:
            scan.state["log_rewritten"] = True
        else:
            scan.state["log_rewritten"] = False
            scan.state["log_baseline"] = {"len": facts["log_len"], "hash": facts["log_hash"]}
    elif not baseline:
        scan.state["log_baseline"] = {"len": facts["log_len"], "hash": facts["log_hash"]}
    return True


def check_log(scan: Scan, context: GateContext | None = None) -> GateResult:
    """log.md is append-only: its earlier entries stay a prefix of its body."""
    if LOG_FILE not in scan.files:
        return [finding("missing_log", "warning", LOG_FILE, "log.md is missing",
                        "restore it from git or run `membank init` to start a new one")], []
    if "log_hash" not in scan.page(LOG_FILE):
        return PASS  # unreadable: reported as an invalid file
    if not update_log_baseline(scan) or not scan.state.get("log_rewritten"):
        return PASS
    return [finding(
        "log_rewritten", "error", LOG_FILE,
        "log.md was edited: its earlier entries are not a prefix of the current body",
        "log.md is append-only: restore the removed or edited entries from git (delete "
        f"{RECONCILE_CACHE_FILE} to accept the current log as the new baseline)")], []


# The catalogs membank generates: index.md lists every record (memory-bank: "index.md reflects
# all new artifacts") and each wiki hub every page of its folder, so they grow with the memory
# (83K characters at 700 pages). They are navigation, not distilled pages: no size limit.
_CATALOG_PAGES = frozenset({INDEX_FILE, *WIKI_HUB_PAGES})


def check_page_sizes(scan: Scan, context: GateContext) -> GateResult:
    """A page stays under the page limit (wiki-memory: a distilled page stays under 64K
    characters), hand-written ones included, the generated catalogs not; only a page whose
    bytes exceed it is read."""
    limit = context.page_limit_chars
    findings: list[Finding] = []
    for rel in context.pages:
        if scan.files[rel]["size"] <= limit or rel in _CATALOG_PAGES:
            continue
        try:
            chars = len((scan.root / rel).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            continue  # unreadable: another gate says so
        if chars > limit:
            findings.append(finding("page_too_large", "warning", rel,
                                    f"{chars:,} characters, over the {limit:,} of one page",
                                    "split it into leaves under a hub, or ingest it as a source "
                                    "(sharded)"))
    return findings, []


GATES: tuple[Gate, ...] = (
    check_files, check_context_files, check_pages, check_page_sizes, check_catalog,
    check_erased_facts,
    check_graph, check_graph_content, check_relations, check_entity_pages, check_entity_drift,
    check_registry, check_raw_store, check_log)

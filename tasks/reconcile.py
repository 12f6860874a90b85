"""reconcile: validate the memory against every quality gate, repair what is safe, report the rest.

Checks are a pure function of a Scan (tasks/scan.py): `check_memory(scan, ...)` returns the
findings and a RepairPlan. `apply_repairs` is the one writer. Repairs never delete a file or a
fact: sort + dedup of graph and registry, index.md and hub resync, missing entity pages and
registry entries, conflicting facts moved to supersededObservations with a link to the newer
fact, created_at restored, orphan wiki pages attached to their folder's hub, raw files made
read-only. Everything else is a finding for a person.
"""

from __future__ import annotations

import os
import posixpath
import re
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from schemas.graph import RegistryEntry, SupersededObservation, entity_key
from schemas.health import (
    ENTITY_NAME_MARKUP,
    ENTITY_WITHOUT_EVIDENCE,
    RELATION_TYPE_UNKNOWN,
    Finding,
    HealthCounts,
    HealthSummary,
)
from schemas.report import ArtifactRecord, MemoryOperationReport
from tasks.atomic import atomic_write_text
from tasks.catalog import CatalogEntry, hub_meta, index_meta, render_hub_body, render_index_body
from tasks.errors import MembankError
from tasks.graph_store import (
    load_graph,
    load_registry,
    normalize_graph,
    normalize_registry,
    save_graph,
    save_registry,
)
from tasks.health import build_summary, finding, problems_from
from tasks.layout import WIKI_HUBS, hub_of
from tasks.logbook import record_operation
from tasks.names import PREFIX_PATTERN, is_structural, parse_memory_file_name, slug_from_title
from tasks.operation import Operation
from tasks.pages import new_page_meta, read_page, render_page, write_page
from tasks.scan import (
    CACHE_VERSION,
    DISTILL_STATE_FILE,
    GRAPH_FILE,
    INDEX_FILE,
    LOG_FILE,
    MANIFEST_FILE,
    REGISTRY_FILE,
    Scan,
    content_hash,
    is_read_only,
    load_cache,
    log_body,
    save_cache,
    scan_memory,
)
from tasks.search.refresh import reconcile_search_index
from tasks.stores.audit import audit_configured

PARENT_TYPES = frozenset({"hub", "index", "source-index"})
HUB_PATHS = tuple(f"{folder}/index.md" for folder, _, _ in WIKI_HUBS)
MAX_REPAIR_PASSES = 3
# Source pages carry the ingested document's own text: its relative links pointed into the
# original repository, so a dead one there is information, not a broken memory. Links into the
# memory's own files (raw/, shard-NNN.md, <UTC prefix>__<slug> names) stay errors.
SOURCE_TYPES = frozenset({"source", "source-index", "source-shard"})
_OWN_NAME_RE = re.compile(rf"^(?:{PREFIX_PATTERN}__.+|shard-\d{{3,}}\.md)$")


def _memory_own_target(target: str) -> bool:
    return target.startswith("raw/") or bool(_OWN_NAME_RE.match(target.rsplit("/", 1)[-1]))


@dataclass
class RepairPlan:
    normalize_graph: bool = False
    normalize_registry: bool = False
    drop_active_superseded: list[tuple[str, str]] = field(default_factory=list)
    # (entity, old observation, newer observation, reason)
    supersede: list[tuple[str, str, str, str]] = field(default_factory=list)
    registry_add: list[tuple[str, str]] = field(default_factory=list)
    entity_pages: list[tuple[str, str]] = field(default_factory=list)
    restore_created_at: dict[str, str] = field(default_factory=dict)
    attach_orphans: dict[str, str] = field(default_factory=dict)
    index_entries: list[CatalogEntry] | None = None
    hub_children: dict[str, list[CatalogEntry]] = field(default_factory=dict)
    chmod_read_only: list[str] = field(default_factory=list)

    def empty(self) -> bool:
        return not (self.normalize_graph or self.normalize_registry or self.drop_active_superseded
                    or self.supersede or self.registry_add or self.entity_pages
                    or self.restore_created_at or self.attach_orphans
                    or self.index_entries is not None or self.hub_children
                    or self.chmod_read_only)


@dataclass
class CheckResult:
    findings: list[Finding]
    counts: HealthCounts
    plan: RepairPlan


def _entry_for(rel: str, facts: dict[str, Any]) -> CatalogEntry:
    meta = facts.get("meta", {})
    title = meta.get("title") or PurePosixPath(rel).stem
    description = meta.get("description") or ""
    return CatalogEntry(rel, str(title), str(description) if isinstance(description, str) else "")


def _catalog_drift(scan: Scan, catalog: str, wanted: set[str]
                   ) -> tuple[list[str], list[str], list[CatalogEntry]]:
    """What a catalog page (index.md or a hub) misses of `wanted`, what it lists that is gone,
    and its entries resynced: the kept ones in their order, then the missing ones."""
    listed = {e[0]: CatalogEntry(e[0], e[1], e[2]) for e in scan.facts(catalog).get("entries", [])}
    missing = sorted(wanted - set(listed))
    gone = sorted(p for p in listed if not scan.exists(p))
    resynced = [entry for path, entry in listed.items() if path not in gone]
    return missing, gone, resynced + [_entry_for(rel, scan.facts(rel)) for rel in missing]


def _resolve_typed(scan: Scan, target: str) -> str | None:
    """The file a typed link names (a folder name means its index.md), or None."""
    clean = posixpath.normpath(target.strip().lstrip("./")) if target.strip() else ""
    if not clean or clean.startswith(".."):
        return None
    if clean in scan.files or clean in scan.unreadable:
        return clean
    if f"{clean}/index.md" in scan.files:
        return f"{clean}/index.md"
    if clean in scan.dirs or (scan.root / clean).exists():
        return clean
    return None


def _link_exists(scan: Scan, target: str) -> bool:
    if target in scan.files or target in scan.dirs or target in scan.unreadable:
        return True
    return (scan.root / target).exists()


def _times_of(sources: list[list[str]], distilled: dict[str, str],
              ingested: dict[str, str]) -> str | None:
    times = []
    for source_page, asset_id in sources:
        moment = distilled.get(source_page) or distilled.get(asset_id) or ingested.get(asset_id)
        if moment:
            times.append(moment)
    return max(times) if times else None


def _check_log(scan: Scan, findings: list[Finding]) -> None:
    if LOG_FILE not in scan.files:
        findings.append(finding("missing_log", "warning", LOG_FILE, "log.md is missing",
                                "restore it from git or run `membank init` to start a new one"))
        return
    baseline = scan.state.get("log_baseline")
    facts = scan.facts(LOG_FILE)
    if "log_hash" not in facts:
        return  # unreadable: reported as an invalid file
    if LOG_FILE in scan.changed and baseline:
        try:
            body = log_body((scan.root / LOG_FILE).read_bytes())
        except (OSError, MembankError, UnicodeDecodeError):
            return
        if len(body) < baseline["len"] or content_hash(body[: baseline["len"]]) != baseline["hash"]:
            scan.state["log_rewritten"] = True
        else:
            scan.state["log_rewritten"] = False
            scan.state["log_baseline"] = {"len": facts["log_len"], "hash": facts["log_hash"]}
    elif not baseline:
        scan.state["log_baseline"] = {"len": facts["log_len"], "hash": facts["log_hash"]}
    if scan.state.get("log_rewritten"):
        findings.append(finding(
            "log_rewritten", "error", LOG_FILE,
            "log.md was edited: its earlier entries are not a prefix of the current body",
            "log.md is append-only: restore the removed or edited entries from git (delete "
            ".membank/reconcile-cache.json to accept the current log as the new baseline)"))


def _check_erased_facts(scan: Scan, findings: list[Finding]) -> None:
    transient = scan.transient.get(GRAPH_FILE)
    if transient is not None:
        current: dict[str, str] = transient["obs_digests"]
        baseline = scan.load_observation_baseline()
        erased = {d: t for d, t in scan.state.get("erased_observations", {}).items()
                  if d not in current}
        erased.update({d: t for d, t in baseline.items() if d not in current})
        scan.state["erased_observations"] = dict(sorted(erased.items()))
        scan.observation_baseline = {**baseline, **current}
    for _digest, text in scan.state.get("erased_observations", {}).items():
        findings.append(finding(
            "fact_erased", "error", GRAPH_FILE,
            f"observation was removed instead of superseded: {text}",
            "superseded facts are linked, not erased: restore it (or move it to "
            "supersededObservations with supersededBy)"))


def _check_graph_content(graph: dict[str, Any], findings: list[Finding]) -> None:
    """What distill should never leave behind: empty entities, names that start with markup,
    relation verbs outside the vocabulary (a custom snake_case verb is only noted)."""
    for name in graph.get("entities_without_evidence", []):
        findings.append(finding(
            ENTITY_WITHOUT_EVIDENCE, "warning", GRAPH_FILE,
            f"entity {name!r} has no observation and no source",
            "add what is known about it (a source that states facts), or retire it"))
    for name in graph.get("names_with_markup", []):
        findings.append(finding(
            ENTITY_NAME_MARKUP, "warning", GRAPH_FILE,
            f"entity name {name!r} starts with a list marker or heading punctuation",
            "rename it without the markup (registry alias keeps the old name findable)"))
    for relation_type in graph.get("unknown_relation_types", []):
        deliberate = "_" in relation_type
        findings.append(finding(
            RELATION_TYPE_UNKNOWN, "info" if deliberate else "warning", GRAPH_FILE,
            f"relation type {relation_type!r} is not a verb of the relation vocabulary",
            "use a verb of schemas/relation_vocabulary.py" + (
                "" if deliberate else ", or remove the relation (a prose word is not a verb)")))


def check_memory(scan: Scan, *, repair: bool) -> CheckResult:
    """Every quality gate over one scan. Updates scan.state baselines (created_at, log, facts)."""
    findings: list[Finding] = []
    plan = RepairPlan()
    counts = HealthCounts(orphans=0, dead_links=0, invalid_files=0)
    originals: dict[str, str] = scan.state.setdefault("created_at", {})
    for gone in [rel for rel in originals if rel not in scan.files]:
        del originals[gone]

    for rel in scan.temp_files:
        findings.append(finding("orphan_temp_file", "warning", rel,
                                "temp file of an interrupted write (a crash or a full disk)",
                                "any writing command (e.g. `membank reconcile`) removes it"))
    for rel in scan.symlinks:
        findings.append(finding("symlink_in_memory", "warning", rel,
                                "symlink inside the memory root (never followed)",
                                "replace it with the file itself or a markdown link"))
    for rel, reason in sorted(scan.unreadable.items()):
        findings.append(finding("unreadable_file", "error", rel, f"cannot read file: {reason}",
                                "check the file's permissions"))
        counts.invalid_files += 1

    # --- context files -------------------------------------------------------------------
    context_ok: dict[str, bool] = {}
    for rel in scan.of_kind("jsonc"):
        problem = scan.facts(rel).get("problem")
        context_ok[rel] = problem is None
        if problem:
            counts.invalid_files += 1
            findings.append(finding(problem["code"], "error", rel, problem["message"],
                                    problem["hint"]))
    for rel, code, severity in ((GRAPH_FILE, "missing_graph_file", "error"),
                                (REGISTRY_FILE, "missing_registry_file", "error"),
                                (MANIFEST_FILE, "missing_raw_manifest", "warning")):
        if rel not in scan.files and rel not in scan.unreadable:
            findings.append(finding(code, severity, rel, f"{rel} is missing",
                                    "restore it from git, or run `membank init` to create an "
                                    "empty one if the memory is new"))
    graph = scan.facts(GRAPH_FILE) if context_ok.get(GRAPH_FILE) else None
    registry = scan.facts(REGISTRY_FILE) if context_ok.get(REGISTRY_FILE) else None
    manifest = scan.facts(MANIFEST_FILE) if context_ok.get(MANIFEST_FILE) else None
    distill = scan.facts(DISTILL_STATE_FILE) if context_ok.get(DISTILL_STATE_FILE) else None

    # --- pages ---------------------------------------------------------------------------
    pages = scan.of_kind("page")
    page_types: dict[str, str | None] = {}
    for rel in pages:
        facts = scan.facts(rel)
        page_type = facts.get("meta", {}).get("type")
        page_types[rel] = page_type if isinstance(page_type, str) else None
        counts.pages_by_type[page_types[rel] or "invalid"] = (
            counts.pages_by_type.get(page_types[rel] or "invalid", 0) + 1)
    counts.pages_total = len(pages)
    by_folder: dict[str, list[str]] = {}
    for rel in pages:
        by_folder.setdefault(posixpath.dirname(rel), []).append(rel)
    counts.pages_by_type = dict(sorted(counts.pages_by_type.items()))
    index_listed = {e[0] for e in scan.facts(INDEX_FILE).get("entries", [])}

    for rel in pages:
        facts = scan.facts(rel)
        meta = facts.get("meta", {})
        problem = facts.get("problem")
        if problem:
            counts.invalid_files += 1
            findings.append(finding(problem["code"], "error", rel, problem["message"],
                                    problem["hint"]))
        # names
        name = PurePosixPath(rel).name
        if not _structural(rel):
            try:
                parsed = parse_memory_file_name(name)
            except MembankError as exc:
                findings.append(finding("misnamed_file", "warning", rel, exc.cause,
                                        exc.hint or "rename it <UTC prefix>__<slug>.md"))
            else:
                declared = meta.get("utc_datetime_prefix")
                if isinstance(declared, str) and declared != parsed.prefix:
                    findings.append(finding(
                        "prefix_mismatch", "warning", rel,
                        f"file name prefix {parsed.prefix} differs from utc_datetime_prefix "
                        f"{declared}", "the name carries the page's creation prefix for life; "
                        "fix the frontmatter or the name (and every link to it)"))
        # created_at never changes
        created = meta.get("created_at")
        if isinstance(created, str):
            original = originals.setdefault(rel, created)
            if original != created:
                findings.append(finding(
                    "created_at_changed", "error", rel,
                    f"created_at changed from {original} to {created}",
                    "created_at is immutable; reconcile restores the original"))
                if not problem or problem["code"] == "invalid_frontmatter":
                    plan.restore_created_at[rel] = original
        # typed links
        for key in ("derived_from", "child_of", "supersedes", "superseded_by"):
            for target in meta.get(key, []):
                if _resolve_typed(scan, target) is None:
                    counts.dead_links += 1
                    findings.append(finding(
                        "dead_link", "error", rel, f"{key} link {target!r} points at no file",
                        "fix the path (root-relative) or restore the target"))
        # markdown links between pages
        for target in facts.get("links", []):
            inherited = page_types.get(rel) in SOURCE_TYPES and not _memory_own_target(target)
            if target.startswith("..") and inherited:
                findings.append(finding(
                    "source_text_link_unresolved", "info", rel,
                    f"link to {target!r} in the ingested text leaves the memory root",
                    "the link came with the source document; nothing in the memory is broken"))
            elif target.startswith(".."):
                counts.dead_links += 1
                findings.append(finding("link_escapes_root", "error", rel,
                                        f"markdown link {target!r} leaves the memory root",
                                        "link only to files inside the memory root"))
            elif not _link_exists(scan, target):
                if inherited:
                    findings.append(finding(
                        "source_text_link_unresolved", "info", rel,
                        f"link to {target!r} in the ingested text resolves to no file",
                        "the link came with the source document and pointed into its own "
                        "repository; nothing in the memory is broken"))
                    continue
                counts.dead_links += 1
                findings.append(finding("dead_link", "error", rel,
                                        f"markdown link to {target!r} points at no file",
                                        "fix the link (relative to the page's folder) or "
                                        "restore the target"))
        # no orphan page
        if rel in (INDEX_FILE, LOG_FILE) or problem and problem["code"] != "invalid_frontmatter":
            continue
        parents = [_resolve_typed(scan, t) for t in meta.get("child_of", [])]
        attached = any(p is not None and (page_types.get(p) in PARENT_TYPES or p == INDEX_FILE)
                       for p in parents)
        if not attached and not rel.startswith("wiki/") and rel in index_listed:
            attached = True  # records outside wiki/ hang under the root INDEX
        if not attached:
            counts.orphans += 1
            hub = hub_of(rel)
            can_attach = (hub is not None and hub in scan.files and not meta.get("child_of")
                          and facts.get("valid"))
            findings.append(finding(
                "orphan_page", "warning", rel, "page hangs under no hub (child_of names no hub)",
                f"reconcile attaches it to {hub}" if can_attach else
                "set child_of to the hub it belongs under (e.g. wiki/concepts/index.md)"))
            if can_attach and hub is not None:
                plan.attach_orphans[rel] = hub

    # --- index.md lists every record and nothing gone -------------------------------------
    if INDEX_FILE not in scan.files:
        findings.append(finding("missing_index", "warning", INDEX_FILE, "index.md is missing",
                                "reconcile rebuilds it from the pages"))
    wanted = {rel for rel in pages if rel not in (INDEX_FILE, LOG_FILE) and "/shards/" not in rel}
    missing, gone, resynced = _catalog_drift(scan, INDEX_FILE, wanted)
    for rel in missing:
        findings.append(finding("index_missing_entry", "warning", INDEX_FILE,
                                f"index.md does not list {rel}", "reconcile resyncs index.md"))
    for rel in gone:
        findings.append(finding("index_stale_entry", "warning", INDEX_FILE,
                                f"index.md lists {rel}, which does not exist",
                                "reconcile resyncs index.md"))
    index_readable = INDEX_FILE not in scan.files or not scan.facts(INDEX_FILE).get("problem")
    if (missing or gone or INDEX_FILE not in scan.files) and index_readable:
        plan.index_entries = resynced

    # --- hubs list their children ---------------------------------------------------------
    for hub in HUB_PATHS:
        folder = hub.rsplit("/", 1)[0]
        if hub not in scan.files:
            if folder in scan.dirs:
                findings.append(finding("missing_hub", "warning", hub, f"hub page {hub} is missing",
                                        "reconcile recreates it with its children"))
                plan.hub_children[hub] = [
                    _entry_for(rel, scan.facts(rel)) for rel in by_folder.get(folder, [])
                    if rel != hub]
            continue
        hub_facts = scan.facts(hub)
        if hub_facts.get("problem") and hub_facts["problem"]["code"] != "invalid_frontmatter":
            continue
        direct = {rel for rel in by_folder.get(folder, []) if rel != hub}
        hub_missing, hub_gone, resynced = _catalog_drift(scan, hub, direct)
        for rel in hub_missing:
            findings.append(finding("hub_missing_child", "warning", hub,
                                    f"hub does not list {rel}", "reconcile resyncs the hub"))
        for rel in hub_gone:
            findings.append(finding("hub_stale_child", "warning", hub,
                                    f"hub lists {rel}, which does not exist",
                                    "reconcile resyncs the hub"))
        if hub_missing or hub_gone:
            plan.hub_children[hub] = resynced

    # --- graph, registry, entity pages agree ----------------------------------------------
    distilled: dict[str, str] = {}
    for source in (distill or {}).get("sources", []):
        for key in (source["sourcePage"], source["assetId"]):
            distilled[key] = max(distilled.get(key, ""), source["distilledAtUtc"])
    ingested = {a["assetId"]: a["ingestedAtUtc"] for a in (manifest or {}).get("assets", [])}
    graph_keys: dict[str, tuple[str, str]] = {}
    if graph is not None:
        _check_erased_facts(scan, findings)
        for name, entity_type, active, superseded in graph["entities"]:
            graph_keys.setdefault(entity_key(name), (name, entity_type))
            counts.observations_active += active
            counts.observations_superseded += superseded
        counts.entities = len(graph_keys)
        counts.relations = graph["relations"]
        if not graph["normalized"]:
            findings.append(finding("graph_not_normalized", "warning", GRAPH_FILE,
                                    "graph is not deduplicated and sorted by the spec's keys",
                                    "reconcile sorts and dedups it (first seen wins)"))
            plan.normalize_graph = True
        for name, text in graph["superseded_unlinked"]:
            findings.append(finding("superseded_without_link", "warning", GRAPH_FILE,
                                    f"{name}: superseded observation has no supersededBy: {text}",
                                    "set supersededBy to the fact or source that replaced it"))
        for name, text in graph["active_and_superseded"]:
            findings.append(finding("observation_active_and_superseded", "warning", GRAPH_FILE,
                                    f"{name}: observation is both active and superseded: {text}",
                                    "reconcile keeps it only as superseded"))
            plan.drop_active_superseded.append((name, text))
        for conflict in graph["conflicts"]:
            times = {text: _times_of(conflict["sources"].get(text, []), distilled, ingested)
                     for text in conflict["observations"]}
            newest = max((t for t in times.values() if t), default=None)
            winners = [text for text, t in times.items() if t == newest]
            if newest and all(times.values()) and len(winners) == 1:
                for text in conflict["observations"]:
                    if text != winners[0]:
                        plan.supersede.append((conflict["entity"], text, winners[0],
                                               f"conflicting fact: newer {conflict['attribute']}"))
                findings.append(finding(
                    "conflicting_observations", "warning", GRAPH_FILE,
                    f"{conflict['entity']}: {len(conflict['observations'])} values for "
                    f"{conflict['attribute']!r}", "reconcile supersedes the older with a link "
                    "to the newer (by distill or ingest time)"))
            else:
                findings.append(finding(
                    "conflicting_observations", "warning", GRAPH_FILE,
                    f"{conflict['entity']}: {len(conflict['observations'])} values for "
                    f"{conflict['attribute']!r} and no provenance says which is newer: "
                    + " | ".join(conflict["observations"]),
                    "supersede the wrong one by hand (supersededObservations + supersededBy)"))
        _check_graph_content(graph, findings)
        for source, relation_type, target in graph["dangling_relations"]:
            findings.append(finding("relation_dangling_entity", "warning", GRAPH_FILE,
                                    f"relation {source} -{relation_type}-> {target} names an "
                                    "entity the graph does not have",
                                    "add the entity or fix the relation's names"))
        # entity pages
        pages_by_entity: dict[str, list[str]] = {}
        for rel in pages:
            if page_types.get(rel) != "entity":
                continue
            meta = scan.facts(rel).get("meta", {})
            name = meta.get("entity_name") or meta.get("title")
            if not isinstance(name, str) or not name.strip():
                findings.append(finding("entity_page_without_name", "warning", rel,
                                        "entity page has no entity_name",
                                        "add entity_name: <canonical name> to its frontmatter"))
                continue
            pages_by_entity.setdefault(entity_key(name), []).append(rel)
        for key, (name, entity_type) in sorted(graph_keys.items()):
            if key not in pages_by_entity:
                findings.append(finding("entity_page_missing", "warning", GRAPH_FILE,
                                        f"graph entity {name!r} has no entity page",
                                        "reconcile creates it under wiki/entities/"))
                if "wiki/entities/index.md" in scan.files:
                    plan.entity_pages.append((name, entity_type))
        for key, rels in sorted(pages_by_entity.items()):
            if key not in graph_keys:
                for rel in rels:
                    findings.append(finding("entity_page_not_in_graph", "warning", rel,
                                            "entity page names an entity the graph does not have",
                                            "add the entity to the graph (distill) or retire the "
                                            "page with superseded_by"))
            if len(rels) > 1:
                findings.append(finding("duplicate_entity_page", "warning", rels[1],
                                        f"{len(rels)} entity pages for one entity: "
                                        + ", ".join(rels),
                                        "merge them and mark the extra superseded_by the kept one"))
    if registry is not None:
        if not registry["normalized"]:
            findings.append(finding("registry_not_normalized", "warning", REGISTRY_FILE,
                                    "registry is not deduplicated and sorted",
                                    "reconcile sorts and dedups it"))
            plan.normalize_registry = True
        known: set[str] = set()
        canonical: set[str] = set()
        for name, _type, aliases in registry["entries"]:
            canonical.add(entity_key(name))
            known.add(entity_key(name))
            known.update(entity_key(a) for a in aliases)
        if graph is not None:
            for key, (name, entity_type) in sorted(graph_keys.items()):
                if key not in known:
                    findings.append(finding("registry_entry_missing", "warning", REGISTRY_FILE,
                                            f"graph entity {name!r} is not in the registry",
                                            "reconcile registers it"))
                    plan.registry_add.append((name, entity_type))
            for key in sorted(canonical - set(graph_keys)):
                findings.append(finding("registry_entry_not_in_graph", "warning", REGISTRY_FILE,
                                        f"registry entry {key!r} has no graph entity",
                                        "add the entity to the graph or remove the entry by hand"))

    # --- raw store against its manifest ---------------------------------------------------
    if manifest is not None:
        listed_raw: set[str] = set()
        for asset in manifest["assets"]:
            rel = asset["rawPath"]
            listed_raw.add(rel)
            entry = scan.files.get(rel)
            if entry is None:
                findings.append(finding("raw_missing", "error", rel,
                                        "raw asset listed in the manifest is missing",
                                        "restore it from git; raw/ is immutable"))
                continue
            if f"sha256:{entry['hash']}" != asset["contentHash"]:
                findings.append(finding("raw_hash_mismatch", "error", rel,
                                        "raw asset changed since ingest (hash differs from the "
                                        "manifest)", "raw/ is immutable: restore the original "
                                        "and ingest the new version as a new source"))
            if not is_read_only(scan.modes.get(rel, 0)):
                findings.append(finding("raw_not_read_only", "warning", rel,
                                        "raw asset is writable", "reconcile makes it read-only"))
                plan.chmod_read_only.append(rel)
        for rel in scan.of_kind("raw"):
            if rel not in listed_raw:
                findings.append(finding("raw_not_in_manifest", "warning", rel,
                                        "file under raw/ is not in the raw manifest",
                                        "ingest it with `membank ingest` or move it out of raw/"))

    _check_log(scan, findings)
    if not repair:
        plan = RepairPlan()
    return CheckResult(findings=findings, counts=counts, plan=plan)


# --- the one writer ---------------------------------------------------------------------------


def _entity_page_text(name: str, entity_type: str, observations: list[str]) -> str:
    lines = [f"# {name}", "", f"Entity of type {entity_type}, from the knowledge graph.", "",
             "## Observations", ""]
    lines += [f"- {o}" for o in observations] or ["_None yet._"]
    return "\n".join(lines) + "\n"


def apply_repairs(operation: Operation, scan: Scan, plan: RepairPlan,
                  repaired: list[Finding]) -> None:
    """Apply a plan; every write goes through atomic_write_* / write_page / save_*."""
    root, layout = operation.root, operation.layout
    now, report = operation.now_iso, operation.report

    def done(path: str, why: str, action: str = "updated") -> None:
        report.artifacts.append(ArtifactRecord(path=path, why=why, action=action))  # type: ignore[arg-type]
        repaired.append(finding(f"repaired_{why.split(':')[0].replace(' ', '_')}", "info", path,
                                why))

    graph_changed = (plan.normalize_graph or plan.drop_active_superseded or plan.supersede
                     or plan.registry_add or plan.entity_pages)
    graph = load_graph(layout.graph_file) if graph_changed else None
    edits = plan.normalize_graph or plan.drop_active_superseded or plan.supersede
    if graph is not None and edits:
        by_key = {entity_key(e.entityName): e for e in graph.entities}
        for name, text in plan.drop_active_superseded:
            entity = by_key[entity_key(name)]
            entity.observations = [o for o in entity.observations if o.strip() != text.strip()]
        for name, old, new, why in plan.supersede:
            entity = by_key[entity_key(name)]
            entity.observations = [o for o in entity.observations if o.strip() != old]
            entity.supersededObservations.append(SupersededObservation(
                observation=old, supersededAtUtc=now, supersededBy=new, reason=why))
            report.graph_delta.superseded_records_count += 1
        graph = normalize_graph(graph)
        if save_graph(layout.graph_file, graph, now_iso=now):
            done(GRAPH_FILE, "graph normalized: sorted, deduplicated, conflicts superseded",
                 "superseded" if plan.supersede else "updated")
    if plan.normalize_registry or plan.registry_add:
        registry = load_registry(layout.registry_file)
        for name, entity_type in plan.registry_add:
            registry.entries.append(RegistryEntry(canonicalName=name, entityType=entity_type))
        if save_registry(layout.registry_file, normalize_registry(registry), now_iso=now):
            done(REGISTRY_FILE, "registry normalized: sorted, deduplicated, entities registered")
    if plan.entity_pages and graph is not None:
        by_key = {entity_key(e.entityName): e for e in graph.entities}
        existing_slugs = {PurePosixPath(rel).name.split("__", 1)[-1]
                          for rel in scan.files if rel.startswith("wiki/entities/")}
        for name, entity_type in plan.entity_pages:
            try:
                slug = slug_from_title(name)
            except MembankError:
                continue
            if f"{slug}.md" in existing_slugs:
                continue  # a page with this slug exists under another name: a person decides
            existing_slugs.add(f"{slug}.md")
            rel = f"wiki/entities/{operation.prefix}__{slug}.md"
            meta = new_page_meta(now, prefix=operation.prefix, type="entity", title=name,
                                 description=f"Entity {name} ({entity_type}) of the graph.",
                                 child_of=["wiki/entities/index.md"], entity_name=name,
                                 entity_type=entity_type, aliases=[])
            observations = by_key[entity_key(name)].observations
            write_page(root / rel, meta, _entity_page_text(name, entity_type, observations),
                       now_iso=now)
            done(rel, "entity page created: for a graph entity without one", "created")
    for rel, original in sorted(plan.restore_created_at.items()):
        page = read_page(root / rel)
        atomic_write_text(root / rel, render_page({**page.meta, "created_at": original}, page.body))
        done(rel, "created_at restored: created_at is immutable")
    for rel, hub in sorted(plan.attach_orphans.items()):
        page = read_page(root / rel)
        write_page(root / rel, {**page.meta, "child_of": [hub]}, page.body, now_iso=now)
        done(rel, f"orphan attached: child_of {hub}")
    for rel in plan.chmod_read_only:
        path = root / rel
        os.chmod(path, stat.S_IMODE(path.stat().st_mode) & ~0o222)
        done(rel, "raw made read-only: raw/ is immutable")
    for hub, children in sorted(plan.hub_children.items()):
        folder = hub.rsplit("/", 1)[0]
        defaults = next((t, o) for f, t, o in WIKI_HUBS if f == folder)
        facts = scan.facts(hub).get("meta", {})
        title = str(facts.get("title") or defaults[0])
        overview = str(facts.get("description") or defaults[1])
        existed = hub in scan.files
        write = write_page(root / hub, hub_meta(title, overview),
                           render_hub_body(title, overview, children, folder), now_iso=now)
        if write.changed:
            done(hub, "hub resynced: lists exactly the pages of its folder",
                 "updated" if existed else "created")
    if plan.index_entries is not None:
        existed = INDEX_FILE in scan.files
        write = write_page(layout.index_file, index_meta(), render_index_body(plan.index_entries),
                           now_iso=now)
        if write.changed:
            done(INDEX_FILE, "index resynced: lists every record and nothing gone",
                 "updated" if existed else "created")


def _rescan(scan: Scan) -> Scan:
    cache = {"version": CACHE_VERSION, **scan.state, "files": scan.files}
    fresh = scan_memory(scan.root, cache)
    fresh.observation_baseline = scan.observation_baseline
    return fresh


def _relative(root: Path, where: object) -> str | None:
    if where is None:
        return None
    try:
        return Path(str(where)).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(where)


def _structural(rel: str) -> bool:
    """tasks.names.is_structural on plain strings (it is called once per page)."""
    name = rel.rsplit("/", 1)[-1]
    if name in ("index.md", "log.md") or rel.startswith(("context/", ".membank/")):
        return True
    return "/shards/" in f"/{rel}" and name.startswith("shard-") and is_structural(rel)


def reconcile_memory(operation: Operation, *, check: bool) -> tuple[MemoryOperationReport,
                                                                     HealthSummary]:
    """Check (and unless `check`, repair) the memory; return the report and health summary."""
    started = time.perf_counter()
    root, report, settings = operation.root, operation.report, operation.settings
    durations: dict[str, float] = {}
    scan = scan_memory(root, load_cache(root))
    durations["scan"] = time.perf_counter() - started
    files_read = len(scan.changed)
    bytes_read = scan.bytes_read
    t0 = time.perf_counter()
    result = check_memory(scan, repair=not check)
    repaired: list[Finding] = []
    passes = 0
    failed: list[Finding] = []
    while not check and not result.plan.empty() and passes < MAX_REPAIR_PASSES and not failed:
        passes += 1
        try:
            apply_repairs(operation, scan, result.plan, repaired)
        except (MembankError, OSError) as exc:
            cause = exc.cause if isinstance(exc, MembankError) else str(exc)
            where = getattr(exc, "file", None) or getattr(exc, "filename", None)
            failed.append(finding("repair_failed", "error", _relative(root, where),
                                  f"a repair could not be applied: {cause}",
                                  "fix the file by hand; this run stopped repairing"))
        scan = _rescan(scan)
        files_read += len(scan.changed)
        bytes_read += scan.bytes_read
        result = check_memory(scan, repair=True)
    result.findings.extend(failed)
    durations["check_and_repair"] = time.perf_counter() - t0
    t0 = time.perf_counter()  # memory stores (.mem, MemoryCustodian): read-only, their own rules
    result.findings.extend(audit_configured(settings, root, operation.now_iso))
    durations["stores"] = time.perf_counter() - t0

    report.problems = problems_from(result.findings)
    report.memory_health.index_synced = not any(
        f.code in {"index_missing_entry", "index_stale_entry", "missing_index"}
        for f in result.findings)
    report.memory_health.consistency_warnings = [p.one_line() for p in report.problems[:20]]
    if report.problems:
        report.status = "partial"
    if not check:
        if record_operation(operation.layout, report):
            report.artifacts.append(ArtifactRecord(path=LOG_FILE, why="operation timeline",
                                                   action="updated"))
            scan = _rescan(scan)
            _check_log(scan, [])
        save_cache(scan)
        report.figures["search_index"] = reconcile_search_index(operation)
    report.figures.update({"pages": result.counts.pages_total, "files_read": files_read,
                           "mb_read": round(bytes_read / 1e6, 3), "repairs": len(repaired)})
    durations["total"] = time.perf_counter() - started
    summary = build_summary(
        kind="reconcile", mode="check" if check else "repair", project=settings.project,
        root=root, now_iso=operation.now_iso, findings=result.findings, counts=result.counts,
        repaired=repaired, durations=durations, limit=settings.health_max_findings_per_code)
    return report, summary

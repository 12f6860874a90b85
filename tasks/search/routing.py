"""MemoryCustodian routing for retrieve (spec/memory-custodian.md, Hard Gate 2-5, Core Workflow
3-6): the custodian files a task loads are chosen by the ingested tree's manifest.md alone, from
the task category, the touched paths and explicit areas; never by ranking the task's words.

    Always load            -> MC-ROUTE-ALWAYS
    Load by task <heading> -> MC-ROUTE-TASK when the heading names the category, else
                              MC-SKIP-TASK-MISMATCH
    optional rules         -> MC-ROUTE-TASK (`activation: task:<category>`), MC-SKIP-TASK-MISMATCH
    optional areas         -> MC-ROUTE-PATH (a path matches a glob), MC-ROUTE-EXPLICIT-AREA,
                              MC-SKIP-SCOPE-MISSING (no paths nor areas), MC-SKIP-NO-PATH-MATCH
    profiles, other        -> MC-SKIP-NOT-REQUESTED
    routed but not stored  -> MC-MISSING-REQUIRED / MC-MISSING-OPTIONAL
    left out by the budget -> MC-OMIT-BUDGET

Statuses: COMPLETE; INCOMPLETE (path-routed areas and neither paths nor an area for a
substantial task, a required file missing, an explicit area not declared); AMBIGUOUS (several
custodian trees in the root, or a category two task headings name); INVALID (no manifest.md,
an unknown category, a path that is not repo-relative). `blocked`: two active entries own one
Scope + Subject + Facet. Pure over the raw copies the ingest stored (raw/ is immutable).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from schemas.raw_manifest import RawAsset
from schemas.search import CustodianRouting, RoutedEntry, RoutedFile, RoutingRequest
from schemas.stores import McEntry, McManifest, McModule
from tasks.memstores.check_custodian import check_entries
from tasks.memstores.custodian import parse_entries, parse_manifest, parse_tree
from tasks.memstores.discover import CUSTODIAN_PREFIX, IngestedStore, ingested_stores
from tasks.memstores.store_names import MANIFEST
from tasks.store.errors import MembankError
from tasks.store.globs import glob_matches
from tasks.store.graph_store import load_manifest
from tasks.store.layout import MemoryLayout

TASK_ALIASES = {
    "general": "general", "default": "general", "continuation": "general",
    "planning": "planning", "architecture": "planning", "refactoring": "planning",
    "implementation": "implementation", "execution": "implementation",
    "debugging": "implementation", "review": "implementation",
    "artifact": "artifact", "output": "artifact", "user-facing artifact": "artifact",
    "preferences": "preferences", "preference": "preferences",
    "history": "history", "recap": "history", "change history": "history",
    "project recap": "history",
    "maintenance": "maintenance", "memory maintenance": "maintenance", "compact": "maintenance",
    "forget": "maintenance",
}
CANONICAL_TASKS = ("general", "planning", "implementation", "artifact", "preferences", "history",
                   "maintenance")
ACTIVATIONS = ("task", "path", "explicit-only", "task-or-explicit", "path-or-explicit")
SUBSTANTIAL_TASKS = frozenset({"planning", "implementation", "artifact", "history"})
_WINDOWS_DRIVE = re.compile(r"^[A-Za-z]:")


def routing_request(category: str | None = None, paths: Iterable[str] | None = None,
                    areas: Iterable[str] | None = None, *, strict: bool = False,
                    explain: bool = False) -> RoutingRequest | None:
    """The routing inputs of a retrieve, or None when none is given (ranked search alone)."""
    paths, areas = list(paths or ()), list(areas or ())
    if category is None and not paths and not areas and not strict and not explain:
        return None
    return RoutingRequest(category=category, paths=paths, areas=areas, strict=strict,
                          explain=explain)


class RoutingInputError(ValueError):
    """A routing input or manifest the router cannot use: the packet's status is INVALID."""


class _Ambiguous(RoutingInputError):
    """Two readings of the inputs are possible: the packet's status is AMBIGUOUS."""


def canonical_task(category: str | None) -> str:
    value = " ".join((category or "").lower().split())
    if value not in TASK_ALIASES:
        raise RoutingInputError(f"task category {category!r} is not one of "
                                f"{', '.join(CANONICAL_TASKS)}" if category else
                                "no task category (--category): choose one of "
                                + ", ".join(CANONICAL_TASKS))
    return TASK_ALIASES[value]


def normalize_path(value: str) -> str:
    """A repo-relative POSIX path (`./a/b` -> `a/b`); absolute, `..` or empty paths are invalid."""
    raw = value.strip().replace("\\", "/").removeprefix("./")
    parts = raw.split("/")
    if not raw or raw.startswith("/") or _WINDOWS_DRIVE.match(raw) or any(
            p in ("", ".", "..") for p in parts):
        raise RoutingInputError(f"--path {value!r} is not a repo-relative path")
    return PurePosixPath(raw).as_posix()


def heading_tasks(heading: str) -> set[str]:
    """The canonical tasks a `Load by task` heading names (`Planning / architecture`)."""
    parts = [" ".join(p.lower().split()) for p in re.split(r"[/,]", heading)]
    return {TASK_ALIASES[p] for p in parts if p in TASK_ALIASES}


@dataclass
class Plan:
    """Files in routing order, by tree-relative path."""

    files: dict[str, RoutedFile] = field(default_factory=dict)
    task: str | None = None
    store: str | None = None
    incomplete: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def route(self, target: str, reason: str, *, required: bool, detail: str | None = None) -> None:
        item = self.files.setdefault(target, RoutedFile(file=target, disposition="loaded"))
        if item.disposition == "skipped":  # routed by another rule: the skip no longer holds
            item.disposition, item.reasons = "loaded", []
        item.required = item.required or required
        item.reasons = list(dict.fromkeys([*item.reasons, reason]))
        if detail:
            item.details = list(dict.fromkeys([*item.details, detail]))

    def skip(self, target: str, reason: str) -> None:
        item = self.files.setdefault(target, RoutedFile(file=target, disposition="skipped"))
        if item.disposition == "skipped" and reason not in item.reasons:
            item.reasons.append(reason)


def _task_routes(plan: Plan, manifest: McManifest, task: str) -> None:
    headings = sorted({r.task for r in manifest.routes
                       if r.task and task in heading_tasks(r.task)})
    if len(headings) > 1:
        raise _Ambiguous(f"category {task!r} is named by several Load by task headings: "
                         + "; ".join(headings))
    for route in manifest.routes:
        if route.section == "Always load":
            plan.route(route.target, "MC-ROUTE-ALWAYS", required=route.required)
        elif route.section == "Load by task" and route.task in headings:
            plan.route(route.target, "MC-ROUTE-TASK", required=route.required,
                       detail=f"task:{task}")
    for route in manifest.routes:
        if route.section == "Load by task" and route.task not in headings:
            plan.skip(route.target, "MC-SKIP-TASK-MISMATCH")


def _module_route(plan: Plan, module: McModule, task: str, request: RoutingRequest,
                  paths: list[str]) -> None:
    stem = PurePosixPath(module.target).stem
    activation = module.activation or "explicit-only"
    matches = [f"{p} <- {g}" for p in paths for g in module.paths if glob_matches(g, p)]
    if module.kind == "rules" and "task" in activation and task in module.tasks:
        plan.route(module.target, "MC-ROUTE-TASK", required=False, detail=f"task:{task}")
    elif module.kind == "areas" and "path" in activation and matches:
        for match in matches:
            plan.route(module.target, "MC-ROUTE-PATH", required=False, detail=match)
    elif (module.kind == "areas" and stem in request.areas
          and activation in ("explicit-only", "path-or-explicit")):
        plan.route(module.target, "MC-ROUTE-EXPLICIT-AREA", required=False, detail=f"area:{stem}")
    elif module.kind == "rules" and "task" in activation:
        plan.skip(module.target, "MC-SKIP-TASK-MISMATCH")
    elif module.kind == "areas" and "path" in activation:
        plan.skip(module.target, "MC-SKIP-NO-PATH-MATCH" if paths or request.areas
                  else "MC-SKIP-SCOPE-MISSING")
    else:
        plan.skip(module.target, "MC-SKIP-NOT-REQUESTED")


def plan_routes(manifest: McManifest, request: RoutingRequest) -> tuple[str, Plan]:
    """The canonical task and every file's route or skip (no file is read here)."""
    task = canonical_task(request.category)
    paths = sorted({normalize_path(p) for p in request.paths})
    if not manifest.routes:
        raise RoutingInputError("manifest.md declares no routes (Always load, Load by task, "
                                "Optional module index): routes are not inferred")
    for module in manifest.modules:
        if module.activation and module.activation not in ACTIVATIONS:
            raise RoutingInputError(f"manifest.md line {module.line}: {module.target} has "
                                    f"activation {module.activation!r}, not one of "
                                    + ", ".join(ACTIVATIONS))
    plan = Plan()
    _task_routes(plan, manifest, task)
    for module in manifest.modules:
        _module_route(plan, module, task, request, paths)
    declared = {PurePosixPath(m.target).stem for m in manifest.modules if m.kind == "areas"}
    for area in sorted(set(request.areas) - declared):
        plan.files[f"areas/{area}.md"] = RoutedFile(
            file=f"areas/{area}.md", disposition="missing-optional", details=[f"area:{area}"],
            reasons=["MC-ROUTE-EXPLICIT-AREA", "MC-MISSING-OPTIONAL"])
        plan.incomplete.append("explicit-area-undeclared")
        plan.warnings.append(f"area {area!r} is not an enabled area of the manifest")
    path_routed = [m for m in manifest.modules if m.kind == "areas" and "path" in m.activation]
    if task in SUBSTANTIAL_TASKS and path_routed and not paths and not request.areas:
        plan.incomplete.append("area-path-scope")
        plan.warnings.append("path-routed areas (" + ", ".join(m.target for m in path_routed)
                             + ") were not evaluated: pass --path or --area")
    return task, plan


def _read_raw(layout: MemoryLayout, asset: RawAsset) -> str | None:
    try:
        return (layout.root / asset.rawPath).read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _entry_text(entry: McEntry) -> str:
    text, reason = entry.statement, entry.sections.get("Reason")
    if reason and reason != text:
        text += f" Reason: {reason}"
    return " ".join(text.split())


def _load(layout: MemoryLayout, store: IngestedStore, plan: Plan) -> dict[str, str]:
    """Read the routed files that are stored; mark the others missing. Their texts by path."""
    texts: dict[str, str] = {}
    for item in plan.files.values():
        if item.disposition != "loaded":
            continue
        asset = store.files.get(item.file)
        text = _read_raw(layout, asset) if asset is not None else None
        if text is None:
            item.disposition = "missing-required" if item.required else "missing-optional"
            item.reasons.append("MC-MISSING-REQUIRED" if item.required else "MC-MISSING-OPTIONAL")
            continue
        if asset is not None:
            item.source_page, item.raw_path = asset.sourcePage, asset.rawPath
        texts[item.file] = text
        entries, _ = parse_entries(item.file, text)
        item.entries = [RoutedEntry(entry_id=e.entry_id, kind=e.kind, title=e.title,
                                    text=_entry_text(e))
                        for e in entries if e.status == "active"]
        if not entries:
            item.excerpt = " ".join(text.split())
    if any(i.disposition == "missing-required" for i in plan.files.values()):
        plan.incomplete.append("required-file-missing")
    return texts


def _conflicts(store: IngestedStore, texts: dict[str, str], manifest_text: str) -> list[str]:
    """Exact structural conflicts among the loaded entries (check custodian's owner rule)."""
    tree = parse_tree(Path(store.name), {MANIFEST: manifest_text, **texts})
    return [f"{f.file}:{f.line}: {f.message}" for f in check_entries(tree)
            if f.code == "mc_owner_conflict"]


def _result(request: RoutingRequest, status: str, plan: Plan,
            blocked: Sequence[str] = ()) -> CustodianRouting:
    warnings = [*plan.warnings, *(f"blocked: {c}" for c in blocked)]
    return CustodianRouting.model_validate({
        "request": request, "canonical_task": plan.task, "store": plan.store, "status": status,
        "blocked": bool(blocked), "approved": status == "COMPLETE" and not blocked,
        "files": list(plan.files.values()), "incomplete": list(dict.fromkeys(plan.incomplete)),
        "warnings": warnings})


def _invalid(request: RoutingRequest, cause: str, status: str = "INVALID",
             store: str | None = None) -> CustodianRouting:
    bad = RoutedFile(file=MANIFEST, disposition="invalid",
                     reasons=["MC-ROUTE-AMBIGUOUS" if status == "AMBIGUOUS" else "MC-ROUTE-INVALID"],
                     details=[cause])
    return CustodianRouting(request=request, store=store, status=status,  # type: ignore[arg-type]
                            approved=False, files=[bad], warnings=[cause])


def route_custodian(layout: MemoryLayout, assets: Iterable[RawAsset],
                    request: RoutingRequest) -> CustodianRouting:
    """The routing of the root's custodian tree for `request` (INVALID / AMBIGUOUS results
    carry their cause; nothing raises for a routing problem)."""
    stores = ingested_stores(assets, CUSTODIAN_PREFIX)
    if len(stores) > 1:
        return _invalid(request, "several MemoryCustodian trees are ingested in this root ("
                        + ", ".join(s.name for s in stores) + "): the manifest to route by is "
                        "ambiguous", "AMBIGUOUS")
    if not stores:
        result = _result(request, "COMPLETE", Plan())
        result.warnings.append("no MemoryCustodian memory is ingested in this root: nothing to route")
        return result
    store = stores[0]
    manifest_asset = store.files.get(MANIFEST)
    manifest_text = _read_raw(layout, manifest_asset) if manifest_asset else None
    if manifest_text is None:
        return _invalid(request, "the memory directory has no manifest.md: an incomplete or "
                        "corrupted setup; routes are not inferred", store=store.name)
    try:
        task, plan = plan_routes(parse_manifest(manifest_text), request)
    except _Ambiguous as exc:
        return _invalid(request, str(exc), "AMBIGUOUS", store.name)
    except RoutingInputError as exc:
        return _invalid(request, str(exc), store=store.name)
    texts = _load(layout, store, plan)
    plan.task, plan.store = task, store.name
    return _result(request, "INCOMPLETE" if plan.incomplete else "COMPLETE", plan,
                   _conflicts(store, texts, manifest_text))


def custodian_pages(assets: Iterable[RawAsset]) -> frozenset[str]:
    """Source pages of every custodian file: left out of ranked search when routing decides."""
    return frozenset(a.sourcePage for a in assets
                     if a.sourcePage and (a.storeRole or "").startswith(CUSTODIAN_PREFIX))


def raw_assets(layout: MemoryLayout) -> list[RawAsset]:
    if not layout.raw_manifest_file.is_file():
        return []
    try:
        return list(load_manifest(layout.raw_manifest_file).assets)
    except MembankError:
        return []

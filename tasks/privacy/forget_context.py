"""What `membank forget` changes in context/ (graph, registry, candidates, ledger, distill
state, manifest) and in proposals, log.md, health reports and caches (reads only)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from schemas.graph import RELATION_ORIGINS_KEY
from tasks.privacy.forget_plan import (
    ForgetPlan,
    PageChange,
    Target,
    links_to,
    source_pages_of,
    text_of,
)
from tasks.store.errors import ContractError
from tasks.store.jsonc import read_jsonc_file
from tasks.store.layout import (
    CANDIDATES_FILE,
    DISTILL_STATE_FILE,
    ENTITY_FOLDER,
    GRAPH_FILE,
    HEALTH_DIR,
    LEDGER_FILE,
    LOG_FILE,
    MANIFEST_FILE,
    PROPOSALS_DIR,
    REGISTRY_FILE,
    STATE_DIR,
    MemoryLayout,
)
from tasks.store.names import is_hub_page
from tasks.store.pages import split_page
from tasks.store.versions import REINSTATED_KEY

# --------------------------------------------------------------------------------------------
# Graph, registry and the other context files (JSON data; written by apply_plan)


def _entity_pages_removed(plan: ForgetPlan, texts: dict[str, str]) -> set[str]:
    """Names (casefolded) of the entities whose pages are deleted."""
    names = set()
    for change in plan.pages:
        if change.delete and change.path.startswith(ENTITY_FOLDER) and not is_hub_page(change.path):
            try:
                meta = split_page(texts.get(change.path, ""), file=change.path).meta
            except ContractError:
                continue
            name = meta.get("entity_name") or meta.get("title")
            if isinstance(name, str):
                names.add(name.strip().casefold())
    return names


def _clip(text: object, limit: int = 100) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _from_assets(item: Any, assets: frozenset[str]) -> bool:
    return bool(assets) and any(a in json.dumps(item, default=str) for a in assets)


def plan_graph(data: dict[str, Any], plan: ForgetPlan, assets: frozenset[str],
               removed: set[str]) -> list[str]:
    """Edit the graph data in place; return what was removed, in words."""
    target = plan.target
    before = _with_evidence(data)
    kept_entities, what = [], []
    for entity in data.get("entities", []):
        name = str(entity.get("entityName", ""))
        if target.matches(name) or name.strip().casefold() in removed:
            removed.add(name.strip().casefold())
            what.append(f"entity {name}")
            continue
        what += _forget_observations(entity, plan, assets)
        kept_entities.append(entity)
    data["entities"] = kept_entities
    what += _plan_relations(data, plan, assets, removed)
    return what + _drop_emptied(data, plan, assets, removed, before)


def _forget_observations(entity: dict[str, Any], plan: ForgetPlan, assets: frozenset[str]) -> list[str]:
    """Remove an entity's observations that name the target or came from a forgotten source
    (hard and purge: from its superseded history too); return what went, in words."""
    target, name, what = plan.target, str(entity.get("entityName", "")), []
    gone_obs = {o for o in entity.get("observations", []) if target.matches(o)}
    for prov in entity.get("observationProvenance", []):
        if prov.get("rawAssetId") in assets or target.matches(str(prov.get("observation", ""))):
            gone_obs.add(prov.get("observation"))
    if gone_obs:
        entity["observations"] = [o for o in entity.get("observations", []) if o not in gone_obs]
        entity["observationProvenance"] = [p for p in entity.get("observationProvenance", [])
                                           if p.get("observation") not in gone_obs]
        what += [f"observation of {name}: {_clip(o)}" for o in sorted(gone_obs, key=str)]
    if plan.mode != "soft" and entity.get("supersededObservations"):
        before = entity["supersededObservations"]
        entity["supersededObservations"] = [
            s for s in before if not (target.matches(json.dumps(s)) or _from_assets(s, assets))]
        what += [f"superseded observation of {name}: {_clip(s.get('observation'))}"
                 for s in before if s not in entity["supersededObservations"]]
    if plan.mode != "soft" and entity.get(REINSTATED_KEY):  # superseded once, active again: history
        entity[REINSTATED_KEY] = [s for s in entity[REINSTATED_KEY]
                                  if not (target.matches(json.dumps(s)) or _from_assets(s, assets))]
    return what


def _with_evidence(data: dict[str, Any]) -> set[str]:
    """Entities (casefolded names) with evidence, as reconcile counts it (its
    entity_without_evidence check): an observation, a provenance, a superseded observation, or
    a relation from or to them that a source states."""
    stating = {str(r.get(end, "")).strip().casefold()
               for r in data.get("relations", []) if r.get(RELATION_ORIGINS_KEY)
               for end in ("sourceEntityName", "targetEntityName")}
    return {str(e.get("entityName", "")).strip().casefold() for e in data.get("entities", [])
            if _has_evidence(e)} | stating


def _drop_emptied(data: dict[str, Any], plan: ForgetPlan, assets: frozenset[str],
                  removed: set[str], before: set[str]) -> list[str]:
    """Entities that had evidence before the forget and have none left go, with their page,
    registry entry and relations (which can empty another: until none is left)."""
    what: list[str] = []
    while True:
        left = _with_evidence(data)
        emptied = [str(e.get("entityName", "")) for e in data.get("entities", [])
                   if (key := str(e.get("entityName", "")).strip().casefold()) in before
                   and key not in left]
        if not emptied:
            return what
        for name in emptied:
            # Everything known about it was forgotten: an empty entity would only say that it
            # existed (reconcile's entity_without_evidence).
            removed.add(name.strip().casefold())
            plan.emptied_entities.add(name)
            what.append(f"entity {name} (nothing known about it is left)")
        data["entities"] = [e for e in data.get("entities", [])
                            if str(e.get("entityName", "")).strip().casefold() not in removed]
        what += _plan_relations(data, plan, assets, removed)


def _has_evidence(entity: dict[str, Any]) -> bool:
    return bool(entity.get("observations") or entity.get("observationProvenance")
                or entity.get("supersededObservations"))


def _plan_emptied_entity_pages(layout: MemoryLayout, plan: ForgetPlan) -> None:
    """The pages of entities the graph lost entirely are deleted too (found by the registry's
    entityPage, or by the page's entity_name)."""
    wanted = {name.strip().casefold() for name in plan.emptied_entities}
    if not wanted:
        return
    pages: dict[str, str] = {}
    registry = layout.registry_file
    if registry.exists():
        for entry in read_jsonc_file(registry).get("entries", []):
            name, page = str(entry.get("canonicalName", "")).strip().casefold(), entry.get("entityPage")
            if name in wanted and isinstance(page, str):
                pages[name] = page
    for rel in sorted(set(pages.values())):
        if not (layout.root / rel).is_file():
            continue
        why = "entity with nothing known about it left once the topic is forgotten"
        existing = next((c for c in plan.pages if c.path == rel), None)
        if existing is None:
            plan.pages.append(PageChange(rel, True, why))
        elif not existing.delete:
            existing.delete, existing.text, existing.why = True, None, why


def _relation_text(relation: dict[str, Any]) -> str:
    """What a relation says (its ends, its type, a superseded one's reason); its provenance
    holds only paths and ids, which name no topic."""
    return "\n".join(str(relation.get(k, "")) for k in (
        "sourceEntityName", "relationType", "targetEntityName", "reason", "supersededBy"))


def _relation_gone(relation: dict[str, Any], target: Target, assets: frozenset[str],
                   removed: set[str]) -> bool:
    ends = {str(relation.get(k, "")).strip().casefold() for k in ("sourceEntityName", "targetEntityName")}
    if ends & removed or target.matches(_relation_text(relation)):
        return True
    origins = relation.get(RELATION_ORIGINS_KEY)
    if isinstance(origins, list) and origins and assets:
        return all(isinstance(o, dict) and o.get("rawAssetId") in assets for o in origins)
    return False


def _plan_relations(data: dict[str, Any], plan: ForgetPlan, assets: frozenset[str],
                    removed: set[str]) -> list[str]:
    what = []
    before = data.get("relations", [])
    data["relations"] = [r for r in before if not _relation_gone(r, plan.target, assets, removed)]
    for relation in data["relations"]:  # a source still states it: the forgotten ones do not
        origins = relation.get(RELATION_ORIGINS_KEY)
        if isinstance(origins, list) and assets and any(_from_assets(o, assets) for o in origins):
            relation[RELATION_ORIGINS_KEY] = [o for o in origins if not _from_assets(o, assets)]
            what.append(f"source(s) of relation {relation.get('sourceEntityName')} "
                        f"-{relation.get('relationType')}-> {relation.get('targetEntityName')}")
    what += [f"relation {r.get('sourceEntityName')} -{r.get('relationType')}-> "
             f"{r.get('targetEntityName')}" for r in before if r not in data["relations"]]
    if plan.mode != "soft":
        for key, value in list(data.items()):
            if key.startswith("superseded") and isinstance(value, list):
                kept = [r for r in value if not (_relation_gone(r, plan.target, assets, removed)
                                                 or _from_assets(r, assets))]
                if len(kept) != len(value):
                    data[key] = kept
                    what.append(f"{len(value) - len(kept)} entr(ies) of {key}")
    return what


def plan_registry(data: dict[str, Any], target: Target, removed: set[str]) -> list[str]:
    what, kept = [], []
    for entry in data.get("entries", []):
        name = str(entry.get("canonicalName", ""))
        if name.strip().casefold() in removed or target.matches(name):
            removed.add(name.strip().casefold())
            what.append(f"entry {name}")
            continue
        aliases = entry.get("aliases", [])
        keep = [a for a in aliases if not target.matches(a)]
        if len(keep) != len(aliases):
            entry["aliases"] = keep
            what += [f"alias {a} of {name}" for a in aliases if a not in keep]
        kept.append(entry)
    data["entries"] = kept
    return what


def _filter_list(data: dict[str, Any], key: str, drop: Callable[[Any], bool], label: str) -> list[str]:
    before = data.get(key)
    if not isinstance(before, list):
        return []
    data[key] = [item for item in before if not drop(item)]
    gone = len(before) - len(data[key])
    return [f"{gone} {label}"] if gone else []


def plan_context(layout: MemoryLayout, plan: ForgetPlan, texts: dict[str, str]) -> None:
    """Graph, registry, candidates, adoption ledger, distill state and the manifest."""
    target = plan.target
    assets = frozenset(target.asset_ids | {a.assetId for a in plan.purge})
    deleted = plan.deleted_pages
    links = links_to(deleted | {p for p in source_pages_of(plan.purge)})
    removed = _entity_pages_removed(plan, texts)

    def drop(item: Any) -> bool:
        text = json.dumps(item, default=str, ensure_ascii=False)
        return target.matches(text) or _from_assets(item, assets) or links(text)

    purged = frozenset(a.assetId for a in plan.purge)

    def drop_state(item: Any) -> bool:  # distill skips tombstoned assets: keep their state
        return target.matches(json.dumps(item, ensure_ascii=False)) or _from_assets(item, purged)

    edits: list[tuple[str, Callable[[dict[str, Any]], list[str]]]] = [
        (REGISTRY_FILE, lambda d: plan_registry(d, target, removed)),
        (GRAPH_FILE, lambda d: plan_graph(d, plan, assets, removed)),
        (REGISTRY_FILE, lambda d: plan_registry(d, target, removed)),
        (CANDIDATES_FILE, lambda d: _filter_list(d, "candidates", drop, "candidate(s)")
         + _filter_list(d, "pendingCandidates", drop, "pending candidate(s)")),
        (LEDGER_FILE, lambda d: _filter_list(d, "adoptions", drop, "adoption(s)")),
        (DISTILL_STATE_FILE, lambda d: _filter_list(d, "sources", drop_state, "distilled source(s)")),
    ]
    for rel, edit in edits:  # the registry twice: entities the graph removed lose their entry
        path = layout.root / rel
        if rel in plan.json_changes:
            data, what = plan.json_changes[rel]
        elif path.exists():
            data, what = read_jsonc_file(path), []
        else:
            continue
        what = what + edit(data)
        if what:
            plan.json_changes[rel] = (data, what)
    plan.removed_entities = removed
    _plan_emptied_entity_pages(layout, plan)
    _plan_manifest(layout, plan, links)


def _plan_manifest(layout: MemoryLayout, plan: ForgetPlan, links: Callable[[str], bool]) -> None:
    path = layout.raw_manifest_file
    if not path.exists():
        return
    data = read_jsonc_file(path)
    purged = {a.assetId for a in plan.purge}
    what = []
    for asset in data.get("assets", []):
        if asset.get("assetId") not in purged and asset.get("sourcePage") and links(asset["sourcePage"]):
            asset.pop("sourcePage")
            what.append(f"source page of {asset['rawPath']} (removed)")
    for event in data.get("reverts", []):
        if event.get("assetId") not in purged and event.get("sourcePage") and links(event["sourcePage"]):
            event.pop("sourcePage")
            what.append(f"source page of a revert to {event['assetId'][:12]} (removed)")
    if purged:
        data["assets"] = [a for a in data.get("assets", []) if a.get("assetId") not in purged]
        if data.get("reverts"):
            data["reverts"] = [e for e in data["reverts"] if e.get("assetId") not in purged]
        what.append(f"{len(purged)} asset(s) moved to purgedAssets")
    if what:
        plan.json_changes[MANIFEST_FILE] = (data, what)


# --------------------------------------------------------------------------------------------
# Proposals, log, health and caches


def plan_files(layout: MemoryLayout, plan: ForgetPlan) -> None:
    target = plan.target
    links = links_to(plan.deleted_pages | source_pages_of(plan.purge))

    def carries(text: str) -> bool:
        return target.matches(text) or links(text) or any(a in text for a in target.asset_ids)

    for folder, why in ((PROPOSALS_DIR, "a proposal that names it"),
                        (HEALTH_DIR, "a health report that names it"),
                        (STATE_DIR, "a derived cache that names it (rebuilt by the next run)")):
        base = layout.root / folder
        if not base.is_dir():
            continue
        for path in sorted(p for p in base.rglob("*") if p.is_file() and not p.is_symlink()
                           and not p.name.endswith(".lock") and not _journal(layout, p)):
            rel = layout.relative(path)
            text = text_of(path)
            if text is None:  # binary, e.g. a search index database: look at its bytes
                if folder == STATE_DIR and _bytes_carry(path, target):
                    plan.deleted_files[rel] = why
                continue
            if not carries(text) and not target.matches(rel):
                continue
            if rel.endswith("history.jsonl"):
                kept = "".join(line for line in text.splitlines(keepends=True) if not carries(line))
                plan.text_changes[rel] = (kept, "history lines that name it")
            else:
                plan.deleted_files[rel] = why
                reason = path.with_name(path.name + ".reason.json")
                if reason.exists():
                    plan.deleted_files[layout.relative(reason)] = "the reason file of a proposal removed"
    log = layout.log_file
    if log.exists():
        text = log.read_text(encoding="utf-8")
        lines = text.split("\n")
        new = [("- forgotten: an entry removed by membank forget" if line.startswith("- ")
                else "## (an entry removed by membank forget)") if carries(line) else line
               for line in lines]
        if new != lines:
            count = sum(a != b for a, b in zip(lines, new, strict=True))
            plan.text_changes[LOG_FILE] = ("\n".join(new), f"{count} timeline line(s) that name it")


def _journal(layout: MemoryLayout, path: Path) -> bool:
    """A file of the write journal (forget's own open batch keeps what it removes there)."""
    parts = path.relative_to(layout.root).parts
    return len(parts) > 1 and parts[0] == STATE_DIR and parts[1].startswith("journal")


def _bytes_carry(path: Path, target: Target) -> bool:
    """Does a binary file hold a topic (UTF-8, any ASCII case) or a forgotten asset id?"""
    try:
        data = path.read_bytes().lower()
    except OSError:
        return False
    needles = [t.casefold().encode("utf-8") for t in target.topics] + [
        a.encode("ascii") for a in target.asset_ids]
    return any(n in data for n in needles)

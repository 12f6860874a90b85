"""`membank retrieve TASK`: the retrieval packet of spec/memory-bank.md's retrieve mode.

Read in order: index.md -> context/project.md -> latest session -> relevant plans/executions ->
knowledge graph (through the search index, which holds every observation and relation, so a
large graph is not parsed per call). The packet holds the relevant entities and relations, top
observations (current before superseded), prior decisions with their status, known failure
preventions, and the paths read, within a token budget counted with tiktoken on the packet's
own markdown. Deterministic for the same memory, task and clock.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schemas.raw_manifest import RawAsset
from schemas.report import ArtifactRecord
from schemas.search import (
    ContextExcerpt,
    CustodianRouting,
    FailurePrevention,
    MemPriming,
    PacketEntity,
    PacketFact,
    PriorDecision,
    RetrievalPacket,
    RetrievalReport,
    RoutingRequest,
    SearchHit,
)
from tasks.memstores.custodian import ARCHIVE_DIR
from tasks.search.mem_priming import (
    git_changed_paths,
    mem_raw_paths,
    mem_stores,
    prime_store,
    primed_pages,
    task_paths,
)
from tasks.search.query import QueryError, SearchOptions, entity_pages, query_terms, run_query
from tasks.search.routing import custodian_pages, raw_assets, route_custodian
from tasks.search.sync import read_index
from tasks.store.catalog import count_entries
from tasks.store.errors import MembankError
from tasks.store.filememo import while_unchanged
from tasks.store.layout import (
    CONTEXT_FOLDER,
    ERRORS_FOLDER,
    EXECUTIONS_FOLDER,
    HUB_NAME,
    INDEX_FILE,
    PLANS_FOLDER,
    PROJECT_CONTEXT_FILE,
    RAW_FOLDER,
    SESSIONS_DIR,
    SESSIONS_FOLDER,
    MemoryLayout,
)
from tasks.store.pages import read_page
from tasks.store.report import StageFigures, StageReport
from tasks.store.tokens import tokenizer

ARCHIVE_FOLDER = f"{ARCHIVE_DIR}/"  # a store file's role is `custodian:<rel>` or `mem:<rel>`

if TYPE_CHECKING:
    from tiktoken import Encoding

DEFAULT_BUDGET_TOKENS = 4000
MIN_BUDGET_TOKENS = 200
ENTITY_LIMIT = 8
FACTS_PER_ENTITY = 12
CONTEXT_SHARE = {"project": 0.25, "session": 0.15, "plans": 0.15}
FAILURE_RE = re.compile(r"\b(fail\w*|error\w*|avoid\w*|prevent\w*|never|must not|do not|don't|"
                        r"incident\w*|outage\w*|roll ?back\w*|regression\w*|lesson\w*|pitfall\w*)\b",
                        re.IGNORECASE)
_FIELD_RE = re.compile(r"^(Status|Date|Decision)\s*:\s*(.+)$", re.IGNORECASE)
# In an error record (errors/), the lines that say how to avoid it again.
_PREVENTION_RE = re.compile(r"^\W*(?:prevention|fix|resolution|mitigation|avoid|lesson)\w*\W*:\s*(.+)$",
                            re.IGNORECASE | re.MULTILINE)
ERROR_RECORDS = 3
# Historian folders agents also write by hand (memory-bank contract): read as they are.
HAND_WRITTEN = (PLANS_FOLDER.rstrip("/"), EXECUTIONS_FOLDER.rstrip("/"), ERRORS_FOLDER.rstrip("/"))


@dataclass
class Budget:
    """Lines of the packet's markdown, each admitted only while the token total stays in budget."""

    encoding: Encoding
    total: int
    used: int = 0
    section: str = "head"
    lines: dict[str, list[str]] = field(default_factory=dict)
    truncated: bool = False

    def cost(self, line: str) -> int:
        return len(self.encoding.encode_ordinary(line + "\n"))

    def add(self, line: str) -> bool:
        cost = self.cost(line)
        if self.used + cost > self.total:
            self.truncated = True
            return False
        self.used += cost
        self.lines.setdefault(self.section, []).append(line)
        return True

    def open(self, section: str, heading: str) -> bool:
        """Start a section with its heading line (False: no room even for the heading)."""
        self.section = section
        return self.add(heading)

    def markdown(self, order: tuple[str, ...]) -> str:
        return "\n".join(line for name in order for line in self.lines.get(name, ())) + "\n"

    def clip(self, text: str, limit: int) -> str:
        """`text` cut to at most `limit` tokens (on a token boundary), '…' marking the cut."""
        tokens = self.encoding.encode_ordinary(text)
        if len(tokens) <= limit:
            return text
        self.truncated = True
        return self.encoding.decode(tokens[: max(limit - 1, 0)]).rstrip() + "…"


def _fold_whitespace(text: str) -> str:
    return " ".join(text.split())


def _excerpt(layout: MemoryLayout, rel: str, budget: Budget, cap: int) -> ContextExcerpt | None:
    try:
        page = read_page(layout.root / rel)
    except MembankError:
        return None
    title = _fold_whitespace(str(page.meta.get("title") or Path(rel).stem.split("__", 1)[-1]))
    head = f"- {rel}: {title}"
    room = cap - budget.cost(head) - 2
    if room <= 0 or not budget.add(head):
        return None
    text = _fold_whitespace(" ".join(filter(None, [str(page.meta.get("description") or ""), page.body])))
    excerpt = budget.clip(text, min(room, budget.total - budget.used - 2))
    if excerpt and not budget.add(f"  {excerpt}"):
        excerpt = ""
    return ContextExcerpt(path=rel, title=title, excerpt=excerpt)


def _count_records(path: Path) -> int:
    try:
        return count_entries(read_page(path).body)
    except MembankError:
        return 0


def _index_records(layout: MemoryLayout) -> int:
    """index.md's entries, counted once per version of the file (it lists every record)."""
    try:
        return while_unchanged(layout.index_file, "records", _count_records)
    except OSError:
        return 0


def _latest_session(layout: MemoryLayout) -> str | None:
    folder = layout.root / SESSIONS_DIR
    names = sorted(p.name for p in folder.glob("*.md") if not p.name.startswith(".")) \
        if folder.is_dir() else []
    names = [n for n in names if n != HUB_NAME]
    return f"{SESSIONS_FOLDER}{names[-1]}" if names else None


def _ranked_entities(conn: sqlite3.Connection, hits: list[SearchHit]) -> list[tuple[str, float]]:
    """Entity keys by their best hit: an observation of them or their page."""
    pages = entity_pages(conn)
    best: dict[str, float] = {}
    for hit in hits:
        key = hit.title.strip().lower() if hit.kind == "observation" else pages.get(hit.path)
        if key and hit.score > best.get(key, -1.0):
            best[key] = hit.score
    return sorted(best.items(), key=lambda item: (-item[1], item[0]))[:ENTITY_LIMIT]


def archive_pages(assets: list[RawAsset]) -> frozenset[str]:
    """Source pages of memory stores' archive/ files (custodian and .mem): history that the
    contracts never load for priming unless asked (memory-custodian.md, mem-jsonl.md §4)."""
    return frozenset(asset.sourcePage for asset in assets if asset.sourcePage and asset.storeRole
                     and asset.storeRole.partition(":")[2].startswith(ARCHIVE_FOLDER))


def _raw_assets(layout: MemoryLayout) -> list[RawAsset]:
    """The raw manifest's assets, read once per version of the file (a warm server's retrieves;
    callers do not change the list)."""
    try:
        return while_unchanged(layout.raw_manifest_file, "raw assets",
                               lambda _path: raw_assets(layout))
    except OSError:  # no manifest
        return raw_assets(layout)


def _entity(conn: sqlite3.Connection, key: str, score: float,
            archived: frozenset[str] = frozenset()) -> PacketEntity | None:
    row = conn.execute("SELECT name, type, page FROM entities WHERE key = ?", (key,)).fetchone()
    if row is None:
        return None
    rows = conn.execute("SELECT text, superseded, superseded_by, source_page FROM units "
                        "WHERE entity = ? ORDER BY superseded, text", (key,)).fetchall()
    facts = [PacketFact(text=t, superseded=bool(s), superseded_by=by, source_page=src)
             for t, s, by, src in rows if src not in archived]
    if rows and not facts:  # all its facts come from pages left out (archive, routed custodian)
        return None
    relations = [f"{a} {t} {b}" + (" (superseded)" if s else "") for a, t, b, s in conn.execute(
        "SELECT source, type, target, superseded FROM relations WHERE source = ? OR target = ? "
        "ORDER BY superseded, source, type, target", (key, key))]
    return PacketEntity(name=row[0], entity_type=row[1], page=row[2], score=score,
                        observations=facts, relations=relations)


def _decision(entity: PacketEntity) -> PriorDecision:
    fields: dict[str, str] = {}
    superseded_by = None
    for fact in entity.observations:
        match = _FIELD_RE.match(fact.text)
        if match and not fact.superseded:
            fields.setdefault(match.group(1).lower(), _fold_whitespace(match.group(2)))
        if fact.superseded and fact.superseded_by and superseded_by is None:
            superseded_by = fact.superseded_by
    for relation in entity.relations:
        name = entity.name.lower()
        if relation.startswith(f"{name} superseded_by ") or " supersedes " + name in relation:
            superseded_by = superseded_by or relation
    return PriorDecision(name=entity.name, status=fields.get("status"), date=fields.get("date"),
                         decision=fields.get("decision"), page=entity.page,
                         superseded_by=superseded_by)


SECTION_ORDER = ("head", "routing", "mem", "project", "session", "plans", "entities", "decisions", "failures")


def _context(layout: MemoryLayout, budget: Budget, packet: RetrievalPacket,
             plans: list[SearchHit]) -> None:
    """The context files, in the spec's reading order, each within its share of the budget
    (`plans`: the plans and executions the task's words find)."""
    project = layout.root / PROJECT_CONTEXT_FILE
    if project.is_file() and budget.open("project", "### Project context"):
        packet.paths_read.append(PROJECT_CONTEXT_FILE)
        packet.project_context = _excerpt(layout, PROJECT_CONTEXT_FILE, budget,
                                          int(budget.total * CONTEXT_SHARE["project"]))
    session = _latest_session(layout)
    if session and budget.open("session", "### Latest session"):
        packet.paths_read.append(session)
        packet.latest_session = _excerpt(layout, session, budget,
                                         int(budget.total * CONTEXT_SHARE["session"]))
    if plans and budget.open("plans", "### Relevant plans and executions"):
        share = int(budget.total * CONTEXT_SHARE["plans"]) // len(plans)
        for hit in plans:
            excerpt = _excerpt(layout, hit.path, budget, share)
            if excerpt is not None:
                packet.paths_read.append(hit.path)
                packet.plans_and_executions.append(excerpt)


def _facts(budget: Budget, packet: RetrievalPacket, entities: list[PacketEntity],
           from_errors: list[FailurePrevention]) -> None:
    """Decisions and failure preventions first (small, most useful), then entity facts."""
    _decisions(budget, packet, entities)
    _preventions(budget, packet, entities, from_errors)
    _entity_facts(budget, packet, [e for e in entities if e.entity_type.lower() != "decision"])


def _decisions(budget: Budget, packet: RetrievalPacket, entities: list[PacketEntity]) -> None:
    decisions = [_decision(e) for e in entities if e.entity_type.lower() == "decision"]
    if decisions and budget.open("decisions", "### Prior decisions"):
        for d in decisions:
            line = (f"- {d.name}: {d.status or 'status unknown'}" + (f" ({d.date})" if d.date else "")
                    + (f"; {d.decision}" if d.decision else "")
                    + (f"; superseded by: {d.superseded_by}" if d.superseded_by else ""))
            if budget.add(line):
                packet.decisions.append(d)


def error_preventions(layout: MemoryLayout, errors: list[SearchHit]) -> list[FailurePrevention]:
    """What the task's error records (errors/) say to do: their Prevention / Fix / Mitigation
    lines, or the record's first sentence when it has none."""
    found: list[FailurePrevention] = []
    for hit in errors:
        try:
            page = read_page(layout.root / hit.path)
        except MembankError:
            continue
        lines = [_fold_whitespace(m.group(1)) for m in _PREVENTION_RE.finditer(page.body)]
        title = _fold_whitespace(str(page.meta.get("title") or hit.title))
        for line in lines or [_fold_whitespace(str(page.meta.get("description") or title))]:
            found.append(FailurePrevention(text=f"{title}: {line}", source=hit.path))
    return found


def _preventions(budget: Budget, packet: RetrievalPacket, entities: list[PacketEntity],
                 from_errors: list[FailurePrevention]) -> None:
    preventions = from_errors + [FailurePrevention(text=f.text, source=e.page or e.name)
                                 for e in entities for f in e.observations
                                 if not f.superseded and FAILURE_RE.search(f.text)]
    if preventions and budget.open("failures", "### Known failure preventions"):
        for item in preventions:
            if budget.add(f"- {item.text} ({item.source})"):
                packet.failure_preventions.append(item)


def _entity_facts(budget: Budget, packet: RetrievalPacket, others: list[PacketEntity]) -> None:
    """The other entities' facts and relations (decisions have their own section)."""
    if others and budget.open("entities", "### Relevant entities, relations and observations"):
        for entity in others:
            if not budget.add(f"#### {entity.name} ({entity.entity_type})"
                              + (f" {entity.page}" if entity.page else "")):
                break
            kept = entity.model_copy(update={"observations": [], "relations": []})
            for fact in entity.observations[:FACTS_PER_ENTITY]:
                label = f"[superseded by: {fact.superseded_by or 'none named'}] " if fact.superseded else ""
                if budget.add(f"- {label}{fact.text}"):
                    kept.observations.append(fact)
            for relation in entity.relations:
                if budget.add(f"- relation: {relation}"):
                    kept.relations.append(relation)
            packet.entities.append(kept)
            if entity.page and entity.page not in packet.paths_read:
                packet.paths_read.append(entity.page)


def _routed_file_lines(budget: Budget, routing: CustodianRouting, explain: bool) -> None:
    for item in routing.files:
        why = f" ({', '.join(item.reasons)}{': ' if item.details else ''}{'; '.join(item.details)})"
        if item.disposition != "loaded":
            if explain:
                budget.add(f"- {item.disposition}: {item.file}{why}")
            continue
        if not budget.add(f"#### {item.file}" + (why if explain else "")):
            item.reasons.append("MC-OMIT-BUDGET")
            item.entries, item.excerpt = [], None
            continue
        shown = [e for e in item.entries
                 if budget.add(f"- [{e.entry_id}] {e.title}: {budget.clip(e.text, 120)}")]
        omitted = len(shown) < len(item.entries)
        if item.excerpt and not budget.add(f"  {budget.clip(item.excerpt, budget.total // 8)}"):
            item.excerpt, omitted = None, True
        if omitted:
            item.reasons.append("MC-OMIT-BUDGET")
        item.entries = shown


def _routing(budget: Budget, routing: CustodianRouting) -> None:
    """The custodian files the manifest routed (never ranked), and which sections are ranked."""
    budget.open("routing", "### MemoryCustodian memory (routed by its manifest, not ranked)")
    verdict = "approved" if routing.approved else "not approved for substantial work"
    budget.add(f"- routing: {routing.status}" + (", blocked by a structural conflict"
                                                 if routing.blocked else "")
               + f"; task {routing.canonical_task or 'none'}; {verdict}")
    for warning in routing.warnings:
        budget.add(f"- warning: {warning}")
    _routed_file_lines(budget, routing, routing.request.explain)
    budget.add("- ranked search: the sections below (custodian files left out of them)")


def _mem_priming(budget: Budget, packet: RetrievalPacket, primings: list[MemPriming]) -> None:
    """What the .mem priming loaded, each store's one summary line first."""
    if not primings or not budget.open("mem", "### .mem memory (primed: index, _universal, "
                                               "domains by the task's paths)"):
        return
    for priming in primings:
        budget.add(f"- {priming.summary} (store {priming.store}; index.jsonl "
                   f"{priming.index_lines} lines; {len(priming.paths)} working-set paths)")
        for warning in priming.warnings:
            budget.add(f"- warning: {warning}")
        shown = [r for r in priming.records if budget.add(
            f"- [{r.id}] ({r.type}, {r.domain}) {r.title}: {budget.clip(r.text, 120)}")]
        priming.records = shown
        packet.mem_priming.append(priming)


def _prime(layout: MemoryLayout, budget: Budget, packet: RetrievalPacket, assets: list[RawAsset],
           working_set: tuple[list[str], Path | None]) -> frozenset[str]:
    """The .mem priming of every ingested store (the task's paths, and the changed files of the
    git work tree when one is given); the source pages it read, which ranked search leaves out."""
    paths, work_tree = working_set
    stores = mem_stores(assets)
    changed = git_changed_paths(work_tree) if stores and work_tree is not None else []
    usable, path_warnings = task_paths([*paths, *changed])
    primings = [prime_store(layout, store, usable) for store in stores]
    for priming in primings:
        priming.warnings += path_warnings
    _mem_priming(budget, packet, primings)
    return primed_pages(assets, packet.mem_priming)


def build_packet(  # noqa: PLR0913 (keyword-only options of one read, as the CLI passes them)
        layout: MemoryLayout, task: str, *, budget_tokens: int, encoding_name: str,
        semantic: bool = False, include_archive: bool = False,
        routing: RoutingRequest | None = None,
        work_tree: Path | None = None) -> tuple[RetrievalPacket, str]:
    """The packet and its markdown (the text the budget was counted on)."""
    terms = query_terms(task)
    if not terms:
        raise QueryError("the task is empty" if not task.strip() else "the task has no words",
                         hint="describe the task in words")
    if budget_tokens < MIN_BUDGET_TOKENS:
        raise QueryError(f"--budget-tokens must be at least {MIN_BUDGET_TOKENS}, not {budget_tokens}")
    budget = Budget(tokenizer(encoding_name), budget_tokens)
    has_index = layout.index_file.is_file()
    packet = RetrievalPacket(task=task, budget_tokens=budget_tokens, tokens_used=0,
                             truncated=False, index_records=_index_records(layout),
                             index_missing=not has_index, paths_read=[INDEX_FILE] if has_index else [])
    budget.add("## Retrieval Packet")
    budget.add(f"- task: {_fold_whitespace(budget.clip(task, budget_tokens // 8))}")
    budget.add(f"- index.md: {packet.index_records} records" if has_index
               else "- index.md: missing (not read; run membank reconcile to rebuild it)")
    assets = _raw_assets(layout)  # (the .mem priming reads them without routing too)
    archived = frozenset() if include_archive else archive_pages(assets)
    if routing is not None and (routing.category or routing.areas or routing.strict
                                or routing.explain or custodian_pages(assets)):
        # custodian files come from the manifest's routes only (--path alone in a root with
        # no custodian tree is the .mem priming's working set)
        packet.routing = route_custodian(layout, assets, routing)
        _routing(budget, packet.routing)
        archived |= custodian_pages(assets)
    archived |= _prime(layout, budget, packet, assets,
                       (routing.paths if routing else [], work_tree))

    def read(conn: sqlite3.Connection
             ) -> tuple[list[SearchHit], list[PacketEntity], list[SearchHit]]:
        """Only reads (run again as a whole if the index had to be rebuilt)."""
        # (the widest first: the other two then take their matches from its ranking)
        hits = run_query(conn, layout, terms, SearchOptions(limit=40, include_superseded=True,
                                                            semantic=semantic))
        plans = run_query(conn, layout, terms, SearchOptions(
            limit=3, folders=(PLANS_FOLDER, EXECUTIONS_FOLDER), semantic=semantic))
        errors = run_query(conn, layout, terms, SearchOptions(
            limit=ERROR_RECORDS, folders=(ERRORS_FOLDER,), semantic=semantic))
        return plans, [e for key, score in _ranked_entities(conn, hits)
                       if (e := _entity(conn, key, score, archived)) is not None], errors

    (plans, entities, errors), packet.warnings = read_index(
        layout, read, semantic=semantic, folders=HAND_WRITTEN)
    _context(layout, budget, packet, plans)
    packet.paths_read.append(layout.relative(layout.graph_file))
    packet.paths_read.extend(hit.path for hit in errors)
    if packet.routing is not None:
        packet.paths_read.extend(f.raw_path for f in packet.routing.files
                                 if f.disposition == "loaded" and f.raw_path)
    packet.paths_read.extend(mem_raw_paths(assets, packet.mem_priming))
    _facts(budget, packet, entities, error_preventions(layout, errors))
    packet.tokens_used, packet.truncated = budget.used, budget.truncated
    return packet, budget.markdown(SECTION_ORDER)


def retrieve(  # noqa: PLR0913 (keyword-only options of one read, as the CLI passes them)
        operation: Any, task: str, *, budget_tokens: int = DEFAULT_BUDGET_TOKENS,
        include_archive: bool = False, routing: RoutingRequest | None = None,
        work_tree: Path | None = None) -> RetrievalReport:
    """The Memory Operation report of mode retrieve, with the packet and the paths it read
    (memory stores' archive/ records only with `include_archive`; custodian files by the
    manifest's routes when `routing` is given; .mem domain files by the routing's paths and
    the changed files of the git work tree `work_tree`)."""
    packet, markdown = build_packet(operation.layout, task, budget_tokens=budget_tokens,
                                    encoding_name=operation.settings.tokenizer_encoding,
                                    semantic=operation.settings.search_semantic,
                                    include_archive=include_archive, routing=routing,
                                    work_tree=work_tree)
    report = RetrievalReport(**operation.report.model_dump(exclude={"figures"}), packet=packet,
                             packet_markdown=markdown)
    stage = StageReport(report)
    stage.note_artifacts(ArtifactRecord(path=p, why=_why(p), action="read")
                         for p in packet.paths_read)
    stage.note_figures(RetrievalFigures(
        tokens_used=packet.tokens_used, budget_tokens=budget_tokens,
        entities=len(packet.entities), decisions=len(packet.decisions),
        failure_preventions=len(packet.failure_preventions)))
    stage.note_warnings(packet.warnings)
    if packet.truncated:
        stage.note_warnings([f"packet truncated to the budget of {budget_tokens} tokens"])
    if packet.routing is not None:
        _routing_verdict(stage, packet.routing)
    if packet.index_missing:  # the spec's first read could not be made: say so
        report.memory_health.index_synced = False
        stage.note_shortfall(
            "index.md is missing: the packet was built without the catalog (run membank reconcile)")
    stage.finish()
    return report


class RetrievalFigures(StageFigures):
    """The packet's size and contents; the routing verdict's words when routing was asked."""

    tokens_used: int
    budget_tokens: int
    entities: int
    decisions: int
    failure_preventions: int
    routing_status: str | None = None
    routing_approved: str | None = None  # yes or no


def _routing_verdict(stage: StageReport, routing: CustodianRouting) -> None:
    """Routing's status in the report: strict routing refuses a packet that is not approved
    (INCOMPLETE: partial; INVALID, AMBIGUOUS or blocked: failed); without it, only INVALID,
    AMBIGUOUS and blocked make the report partial."""
    figures = RetrievalFigures.read(stage.report)
    figures.routing_status = routing.status
    figures.routing_approved = "yes" if routing.approved else "no"
    stage.note_figures(figures)
    hard = routing.status in ("INVALID", "AMBIGUOUS") or routing.blocked
    if routing.request.strict and not routing.approved:
        refusal = (f"strict routing: context pack not approved for substantial work "
                   f"({routing.status}" + (", blocked" if routing.blocked else "") + ")")
        if hard:
            stage.note_failure()
            stage.note_warnings([refusal])
        else:
            stage.note_shortfall(refusal)
    elif hard:
        stage.note_shortfall()  # the routing's own warnings follow
    stage.note_warnings(f"custodian routing: {w}" for w in routing.warnings)


def _why(path: str) -> str:
    if path == INDEX_FILE:
        return "catalog of records (read first)"
    if path == PROJECT_CONTEXT_FILE:
        return "project context"
    if path.startswith(SESSIONS_FOLDER):
        return "latest session"
    if path.startswith((PLANS_FOLDER, EXECUTIONS_FOLDER)):
        return "relevant plan or execution"
    if path.startswith(ERRORS_FOLDER):
        return "error record: known failure prevention"
    if path.startswith(RAW_FOLDER):
        return ".mem file primed (index, _universal, domain by path)" if path.endswith(
            ".jsonl") else "MemoryCustodian file routed by its manifest"
    if path.startswith(CONTEXT_FOLDER):
        return "knowledge graph: entities, observations, relations"
    return "entity page of a relevant entity"

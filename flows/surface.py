"""The agent tool surface of spec/wiki-memory-pkf.md as plain methods over one memory root: what
the MCP server's tools and the Python API (`membank.Memory`) both call. Each method runs the same
stage code as the CLI command of its name; reads hold the root's shared lock (they wait for a
writer's batch to end), memory_write goes through the proposal gate under the writer lock and
the journal. Nothing here imports the MCP SDK or Prefect."""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar, cast

import orjson

from schemas.health import HealthKind, HealthSummary
from schemas.report import MemoryOperationReport
from schemas.search import RetrievalReport, RoutingRequest, ShownPage
from schemas.tools import BrowseAnswer, LoadedPage, SearchAnswer, ShowAnswer, WriteAnswer
from tasks.store.errors import InputError, MembankError, RootError
from tasks.store.layout import MemoryLayout
from tasks.store.settings import MembankSettings, load_settings

# Lazy for start-up: a tool imports its stage when first called (the MCP server starts in
# 1.2 s CPU; with every tool's stage imported, 2.0 s).

T = TypeVar("T")
MAX_CONTENT_CHARS = 1_000_000
WRITE_SOURCE = "memory_write over MCP"


class Surface:
    """One memory root, with the settings read once (a warm server keeps them)."""

    def __init__(self, root: str | os.PathLike[str] | None = None, *,
                 allow_ingest: Sequence[str | os.PathLike[str]] = (),
                 settings: MembankSettings | None = None) -> None:
        self.settings = settings or load_settings(str(root) if root is not None else None)
        self.allow_ingest = tuple(Path(p).resolve() for p in allow_ingest)

    @property
    def layout(self) -> MemoryLayout:
        root = self.settings.resolved_root()
        if not root.is_dir():
            raise RootError("memory root does not exist", file=root,
                            hint="run `membank init` or pass --root")
        return MemoryLayout(root)

    @contextmanager
    def _reading(self) -> Iterator[MemoryLayout]:
        from tasks.store.operation import reading_operation

        layout = self.layout
        with reading_operation(self.settings, "retrieve"):
            yield layout

    def read(self, action: Callable[[MemoryLayout], T]) -> T:
        """`action(layout)` under the root's shared lock."""
        with self._reading() as layout:
            return action(layout)

    # ------------------------------------------------------------------ reads

    def browse(self, query: str | None = None) -> BrowseAnswer:
        """No query: the root structure surface; a query: what `membank browse` returns."""
        from tasks.search.browse import browse
        from tasks.search.structure import root_structure
        from tasks.search.surface import check_query

        if query is None or not query.strip():
            return BrowseAnswer(root=self.read(root_structure))
        check_query(query, "query")
        semantic = self.settings.search_semantic
        return BrowseAnswer(query=query,
                            topic=self.read(lambda lay: browse(lay, query, semantic=semantic)))

    def search(self, query: str, queries: Sequence[str] = (), *, limit: int = 10,  # noqa: PLR0913 (memory_search's fields)
               page_types: Sequence[str] = (), since: str | None = None,
               before: str | None = None) -> SearchAnswer:
        from tasks.search.surface import batch_search

        semantic = self.settings.search_semantic
        return self.read(lambda lay: batch_search(lay, query, queries, limit=limit,
                                                   page_types=page_types, semantic=semantic,
                                                   since=since, before=before))

    def load(self, path: str | None = None, *, uri: str | None = None,
             section: str | None = None) -> LoadedPage:
        from tasks.search.surface import load_page

        return self.read(lambda lay: load_page(lay, path, uri, section))

    def show(self, entity: str) -> ShowAnswer:
        from tasks.search.show import show

        shown = self.read(lambda lay: show(lay, entity))
        if isinstance(shown, ShownPage):
            return ShowAnswer(page=shown)
        return ShowAnswer(entity=shown)

    def retrieve(self, task: str, *, budget_tokens: int = 4000, project: str | None = None,
                 routing: RoutingRequest | None = None) -> RetrievalReport:
        from tasks.search.retrieve import retrieve
        from tasks.store.operation import reading_operation

        settings = self.settings.model_copy(update={"project": project}) if project else self.settings
        self.layout  # noqa: B018 (a missing root is one clear error, before the lock)
        with reading_operation(settings, "retrieve") as operation:
            return retrieve(operation, task, budget_tokens=budget_tokens, routing=routing)

    def health(self, kind: str | None = None) -> HealthSummary:
        from tasks.health.files import load_latest

        if kind not in {None, "reconcile", "freshness", "privacy"}:
            raise InputError(f"kind must be reconcile, freshness or privacy, not {kind!r}")
        return load_latest(self.settings.resolved_root(), cast("HealthKind | None", kind))

    def forget_plan(self, topic: str) -> MemoryOperationReport:
        """The plan `membank forget TOPIC` prints (nothing changes; applying is a human's step)."""
        from tasks.privacy.forget import ForgetRequest, forget_operation
        from tasks.store.operation import reading_operation

        self.layout  # noqa: B018
        with reading_operation(self.settings, "forget") as operation:
            report: MemoryOperationReport = forget_operation(
                operation, ForgetRequest(topic=topic), apply=False)
        return report

    # ------------------------------------------------------------------ writes

    def write(self, fields: dict[str, Any], *, source: str = WRITE_SOURCE) -> WriteAnswer:
        """memory_write: the fields as a proposal through the gate (`membank propose`)."""
        from tasks.proposals.apply import process_in_chunks

        content = fields.get("content")
        if isinstance(content, str) and len(content) > MAX_CONTENT_CHARS:
            raise InputError(f"content is {len(content):,} characters, over the "
                             f"{MAX_CONTENT_CHARS:,} a write takes",
                             hint="write the durable conclusions, or ingest the source to shard it")
        self.layout  # noqa: B018
        data = {k: v for k, v in fields.items() if v is not None}
        if "memory" not in data and not _content_declares_memory(content):
            data["memory"] = {"memoryRole": "knowledge", "source": source}
        raw = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
        name = f"memory-write-{hashlib.sha256(raw).hexdigest()[:12]}.json"
        with tempfile.TemporaryDirectory(prefix="membank-write-") as folder:
            file = Path(folder) / name
            file.write_bytes(raw)
            report = process_in_chunks(self.settings, [file])
        return write_answer(self.layout, report)

    def curate(self, op: str, **params: Any) -> MemoryOperationReport:
        """memory_curate: supersede, merge, link, unlink or reparent (tasks/proposals/curate.py), never
        deleting."""
        from dataclasses import fields

        from tasks.proposals.curate import CurateRequest, curate

        self.layout  # noqa: B018
        known = {f.name for f in fields(CurateRequest)} - {"op", "extra"}
        given = {k: v for k, v in params.items() if v not in (None, [], "")}
        request = CurateRequest(op=op, **{k: v for k, v in given.items() if k in known},
                                extra={k: v for k, v in given.items() if k not in known})
        return curate(self.settings, request)

    def ingest(self, paths: Sequence[str]) -> MemoryOperationReport:
        """`membank ingest` of paths under the folders the server was started with."""
        from flows.ingest import ingest_flow

        if not self.allow_ingest:
            raise InputError("memory_ingest is off on this server",
                             hint="start it with `membank mcp --allow-ingest DIR`")
        if not paths:
            raise InputError("no paths to ingest", hint="pass files or folders")
        for path in paths:
            resolved = Path(path).resolve()
            if not any(resolved.is_relative_to(folder) for folder in self.allow_ingest):
                raise InputError(f"{path!r} is not under a folder this server may ingest",
                                 hint="allowed: " + ", ".join(str(f) for f in self.allow_ingest))
        report: MemoryOperationReport = ingest_flow(
            paths=[str(Path(p).resolve()) for p in paths], root=str(self.settings.resolved_root()))
        return report


def _content_declares_memory(content: object) -> bool:
    from tasks.markdown.frontmatter import opens_front_matter
    from tasks.proposals.pkf import opens_pkf_header, split_pkf_header
    from tasks.store.pages import split_page

    if not isinstance(content, str):
        return False
    try:
        if opens_pkf_header(content):
            return "memory" in split_pkf_header(content, file="content")[0]
        return opens_front_matter(content) and "memory" in split_page(content,
                                                                      file="content").meta
    except MembankError:
        return False


def _reason(layout: MemoryLayout, stored: str) -> dict[str, Any]:
    try:
        reason = orjson.loads((layout.root / f"{stored}.reason.json").read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return {}
    return reason if isinstance(reason, dict) else {}


def write_answer(layout: MemoryLayout, report: MemoryOperationReport) -> WriteAnswer:
    """The gate's verdict on one proposal, read from its report."""
    for artifact in report.artifacts:
        if artifact.action == "dedupe_hit":
            problem = report.problems[0] if report.problems else None
            return WriteAnswer(ok=True, action="dedupe_hit", message=artifact.why,
                               hint=problem.hint if problem else None)
        if artifact.action == "rejected" or artifact.why.startswith("rejected:"):
            reason = _reason(layout, artifact.path)
            problem = next((p for p in report.problems if p.file == artifact.path), None)
            return WriteAnswer(ok=False, code=reason.get("code") or (problem.code if problem else None),
                               field=reason.get("field"),
                               message=reason.get("message") or (problem.message if problem else None),
                               hint=reason.get("hint") or (problem.hint if problem else None))
        if artifact.action in {"created", "updated", "unchanged"} and artifact.path.endswith(".md"):
            page = layout.root / artifact.path
            revision = "sha256:" + hashlib.sha256(page.read_bytes()).hexdigest()
            return WriteAnswer(ok=True, path=artifact.path, revision=revision,
                               action=artifact.action, placement=artifact.why)
    problem = report.problems[0] if report.problems else None
    return WriteAnswer(ok=False, code=problem.code if problem else "not_written",
                       message=problem.message if problem else "the proposal was not applied",
                       hint=problem.hint if problem else None)

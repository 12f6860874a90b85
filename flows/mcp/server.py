"""The MCP server: the tools of flows/mcp/catalog.py over flows/surface.py, on the official SDK.

A warm process: the settings, the search index's page vectors and the embedding model stay
loaded between calls, and so do answers that hold until a file changes (rows per search term,
entity pages and hub rows per index state, the parsed graph and registry, index.md's
frontmatter), each keyed by its file's state on disk; each call opens the index afresh, so a
CLI ingest beside the server is seen by its next search. Bad input is a tool error of one
line (the CLI's message and hint), never a traceback, and the server stays up. Writes are one
at a time (the writer lock is re-entrant within a process, so the server serialises its own
writers first).
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field, ValidationError

from flows.mcp.catalog import TOOLS
from flows.surface import Surface
from schemas.health import HealthSummary
from schemas.report import MemoryOperationReport
from schemas.search import RetrievalReport
from schemas.tools import BrowseAnswer, LoadedPage, SearchAnswer, ShowAnswer, WriteAnswer
from tasks.store.errors import MembankError, from_os_error

# Lazy for start-up: a tool imports its stage when first called (the server starts in 1.2 s
# CPU; with every tool's stage imported, 2.0 s).

T = TypeVar("T")

READ = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                       open_world_hint=False)
# A write supersedes, never deletes; a replay of the same proposal is a dedupe hit.
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                        open_world_hint=False)

WRITE_FLOW = """Writing memory is browse -> decide placement -> write -> verify. Never write blind.
1. Author the page body in full: a '---' front matter with a one-sentence description and a type
   (user|feedback|project|reference|concept|synthesis|decision|note), then '## ' sections.
2. memory_browse with your topic as the query.
3. Decide: a page on the topic exists (nearest) -> extend it: memory_write with its path and
   op rewrite-section (section = its anchor) or append-section (a new anchor); it fits a hub
   (hubs) -> memory_write a new leaf with parentHubPath = that hub and relation child-of;
   nothing fits -> write a hub page first (type hub), then the leaf under it. Never an orphan.
4. memory_write once: {"ok": true} means the revision is written; do not write it again.
5. Verify with memory_load on the returned path. On a rejection, fix the named field."""


def one_line(exc: BaseException) -> str:
    """The CLI's one line for an error (flows/cli_common.one_line_errors), for a tool result."""
    from tasks.store.contracts import describe_validation_error

    if isinstance(exc, MembankError):
        return exc.one_line()
    if isinstance(exc, ValidationError):
        return f"invalid arguments: {describe_validation_error(exc)}"
    if isinstance(exc, OSError) and (typed := from_os_error(exc)) is not None:
        return typed.one_line()
    if isinstance(exc, sqlite3.Error):
        return f"search index: {exc} (hint: run `membank search --rebuild`)"
    return (f"internal error: {type(exc).__name__}: {exc} (a bug: run the same call with the "
            "membank CLI and MEMBANK_DEBUG=1 for the traceback, and report it)")


def guarded(action: Callable[[], T]) -> T:
    try:
        return action()
    except ToolError:
        raise
    except Exception as exc:
        raise ToolError(one_line(exc)) from None


class MembankServer(MCPServer[Any]):
    """MCPServer that refuses unknown parameters and says argument errors in one line."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        tool = self._tool_manager.get_tool(name)
        if tool is None:
            raise ToolError(f"unknown tool {name!r}; tools: {', '.join(TOOLS)}")
        known = set(tool.parameters.get("properties", {}))
        unknown = sorted(set(arguments) - known)
        if unknown:
            raise ToolError(f"{name}: unknown parameter {unknown[0]!r}; parameters: "
                            f"{', '.join(sorted(known)) or 'none'}")
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                raise ToolError(f"{name}: {one_line(exc.__cause__)}") from None
            text = str(exc).removeprefix(f"Error executing tool {name}: ")
            raise ToolError(f"{name}: {text}") from None


Text = Annotated[str, Field(max_length=20_000)]


def _workspace(surface: Surface, *ids: str | None) -> None:
    name = surface.settings.resolved_root().name
    for value in ids:
        if value is not None and value not in {name, str(surface.settings.resolved_root())}:
            raise ToolError(f"this server serves one memory root ({name!r}); workspace {value!r} "
                            "is not it")


def _read_tools(server: MembankServer, surface: Surface) -> None:
    @server.tool(description=TOOLS["memory_browse"], annotations=READ)
    def memory_browse(query: Text | None = None) -> BrowseAnswer:
        return guarded(lambda: surface.browse(query))

    @server.tool(description=TOOLS["memory_search"], annotations=READ)
    def memory_search(query: Text, queries: list[Text] | None = None,  # noqa: PLR0913 (the tool's fields)
                      limit: Annotated[int, Field(ge=1, le=200)] = 10,
                      sourceWorkspaceId: str | None = None,
                      pageType: list[str] | None = None, since: str | None = None,
                      before: str | None = None) -> SearchAnswer:
        _workspace(surface, sourceWorkspaceId)
        return guarded(lambda: surface.search(query, queries or (), limit=limit,
                                              page_types=pageType or (), since=since,
                                              before=before))

    @server.tool(description=TOOLS["memory_load"], annotations=READ)
    def memory_load(uri: str | None = None, workspaceId: str | None = None,
                    sourceWorkspaceId: str | None = None, path: str | None = None,
                    section: str | None = None) -> LoadedPage:
        _workspace(surface, workspaceId, sourceWorkspaceId)
        return guarded(lambda: surface.load(path, uri=uri, section=section))

    @server.tool(description=TOOLS["memory_retrieve"], annotations=READ)
    def memory_retrieve(task: Text, budget_tokens: Annotated[int, Field(ge=1, le=1_000_000)] = 4000,  # noqa: PLR0913
                        project: str | None = None, category: str | None = None,
                        paths: list[str] | None = None, areas: list[str] | None = None,
                        strict_routing: bool = False, explain: bool = False) -> RetrievalReport:
        from tasks.search.routing import routing_request

        routing = routing_request(category, paths, areas, strict=strict_routing, explain=explain)
        return guarded(lambda: surface.retrieve(task, budget_tokens=budget_tokens, project=project,
                                                routing=routing))

    @server.tool(description=TOOLS["memory_show"], annotations=READ)
    def memory_show(entity: Text) -> ShowAnswer:
        return guarded(lambda: surface.show(entity))

    @server.tool(description=TOOLS["memory_health"], annotations=READ)
    def memory_health(kind: str | None = None) -> HealthSummary:
        return guarded(lambda: surface.health(kind))

    @server.tool(description=TOOLS["memory_forget_plan"], annotations=READ)
    def memory_forget_plan(topic: Text) -> MemoryOperationReport:
        return guarded(lambda: surface.forget_plan(topic))


def client_source(ctx: Context[Any, Any] | None) -> str:
    """`memory: {source}` of a page written without one: the call and the client's name."""
    try:
        params = ctx.session.client_params if ctx is not None else None
        name = params.client_info.name if params is not None else None
    except (AttributeError, ValueError):
        name = None
    return f"memory_write over MCP by {name}" if name else "memory_write over MCP"


def _write_tools(server: MembankServer, surface: Surface) -> None:
    writing = threading.Lock()

    def one_writer(action: Callable[[], T]) -> T:
        with writing:
            return guarded(action)

    @server.tool(description=TOOLS["memory_write"], annotations=WRITE)
    def memory_write(path: str, content: str, title: str | None = None,  # noqa: PLR0913 (the spec's fields)
                     parentHubPath: str | None = None, relation: str | None = None,
                     op: str | None = None, section: str | None = None,
                     visibility: str | None = None, ctx: Context[Any, Any] | None = None) -> WriteAnswer:
        fields = {"path": path, "content": content, "title": title, "parentHubPath": parentHubPath,
                  "relation": relation, "op": op, "section": section, "visibility": visibility}
        return one_writer(lambda: surface.write(fields, source=client_source(ctx)))

    @server.tool(description=TOOLS["memory_curate"], annotations=WRITE)
    def memory_curate(  # noqa: PLR0913 (the spec's parameters, exactly)
            op: str, pageId: str | None = None, childPaths: list[str] | None = None,
            reason: str | None = None, kind: str | None = None, limit: int | None = None,
            section: str | None = None, targetSection: str | None = None,
            sourcePageId: str | None = None, sourceSection: str | None = None,
            mergedContent: str | None = None, supersededByPageId: str | None = None,
            supersededBySection: str | None = None, linkId: str | None = None,
            toPageId: str | None = None, toPath: str | None = None,
            toSection: str | None = None) -> MemoryOperationReport:
        params = {"pageId": pageId, "childPaths": childPaths, "reason": reason, "kind": kind,
                  "limit": limit, "section": section, "targetSection": targetSection,
                  "sourcePageId": sourcePageId, "sourceSection": sourceSection,
                  "mergedContent": mergedContent, "supersededByPageId": supersededByPageId,
                  "supersededBySection": supersededBySection, "linkId": linkId,
                  "toPageId": toPageId, "toPath": toPath, "toSection": toSection}
        return one_writer(lambda: surface.curate(op, **params))

    @server.tool(description=TOOLS["memory_ingest"], annotations=WRITE)
    def memory_ingest(paths: list[str]) -> MemoryOperationReport:
        return one_writer(lambda: surface.ingest(paths))


def _resources(server: MembankServer, surface: Surface) -> None:
    from mcp.server.mcpserver.exceptions import ResourceError

    @server.resource("memory://map", name="Memory Map", mime_type="text/markdown",
                     description="The stable digest: INDEX-TOC plus one line per hub.")
    def memory_map() -> str:
        from tasks.search.structure import memory_map as digest

        try:
            return surface.read(digest)
        except Exception as exc:
            raise ResourceError(one_line(exc)) from None

    @server.resource("memory://page/{+path}", name="page", mime_type="text/markdown",
                     description="One memory page: its file as stored.")
    def memory_page(path: str) -> str:
        try:
            loaded = surface.load(path)
        except Exception as exc:
            raise ResourceError(one_line(exc)) from None
        return (surface.layout.root / loaded.path).read_text(encoding="utf-8")

    @server.prompt(name="memory_write_flow", description="The browse-first write flow.")
    def memory_write_flow() -> str:
        return WRITE_FLOW


def build_server(surface: Surface) -> MembankServer:
    from tasks.search.term_stats import keep_term_statistics
    from tasks.store.journal import sweep_after_others_only

    # A warm writer: its writes walk the root for a killed writer's temp files only when
    # another process held the writer lock since its own last write (tasks/store/journal.py).
    sweep_after_others_only(surface.settings.resolved_root())
    # A warm reader: BM25 of one-token phrases from statistics kept across index states
    # (tasks/search/term_stats.py; a one-shot process lets FTS5 score them).
    keep_term_statistics()
    server = MembankServer("membank", instructions=WRITE_FLOW, log_level="WARNING",
                           version=_version())
    _read_tools(server, surface)
    _write_tools(server, surface)
    _resources(server, surface)
    return server


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("membank")
    except PackageNotFoundError:
        return "0"


# glibc's mallopt parameter M_MMAP_THRESHOLD, and the value a warm server pins it at (glibc's
# own starting value).
_M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 128 * 1024


def pin_mmap_threshold() -> bool:
    """Keep a long-running server's large temporaries out of its heaps (True when pinned).

    glibc serves a block of MMAP_THRESHOLD bytes or more with a mapping of its own, returned
    to the system when freed, but raises the threshold to the size of each such block freed
    (up to 32 MiB). A warm server frees many (the unit-vector matrix after a write, ranked
    match arrays, SQLite's buffers): soon they all come from the worker threads' heaps and
    stay there, fragmented. bench_mcp's server grew 13-19 % in RSS between its 100th and
    1,000th call; with the threshold pinned (glibc then stops moving it), -1 %, at the same
    CPU per call (benchmarks/bench_mcp_results.md). Left alone when the user set
    MALLOC_MMAP_THRESHOLD_ or the C library is not glibc."""
    import ctypes
    import platform

    if os.environ.get("MALLOC_MMAP_THRESHOLD_") is not None or platform.libc_ver()[0] != "glibc":
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD))


def check_bind(host: str) -> str | None:
    """The bearer token a non-loopback bind needs (MEMBANK_MCP_TOKEN), or None on loopback."""
    if host in {"127.0.0.1", "localhost", "::1"}:
        return os.environ.get("MEMBANK_MCP_TOKEN") or None
    token = os.environ.get("MEMBANK_MCP_TOKEN")
    if not token:
        raise MembankError(f"refusing to serve MCP on {host}: beyond this machine it needs a bearer "
                         "token", hint="set MEMBANK_MCP_TOKEN (clients send Authorization: "
                         "Bearer <token>), or bind 127.0.0.1")
    return token

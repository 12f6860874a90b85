"""membank's Python API, for agents that embed it instead of shelling out.

    from membank import Memory

    memory = Memory(".memories")
    memory.ingest(["notes/"])                 # -> MemoryOperationReport
    memory.propose(["proposal.md"])
    report = memory.reconcile(check=True)
    report.exit_code()                        # 0 healthy, 1 found problems
    memory.search("retry budget", ["upload retries"])   # -> SearchAnswer (resultsByQuery)
    memory.browse()                           # -> BrowseAnswer (the root structure)
    memory.write(path=..., content=..., parentHubPath="wiki/synthesis")  # -> WriteAnswer

Each method runs the same flow as the command of the same name and returns the same report
model. Like the CLI, it runs in this process unless an orchestrator is configured (a Prefect
API URL, or MEMBANK_ORCHESTRATION=prefect), in which case it is a tracked Prefect flow run.
Errors are raised as tasks.store.errors.MembankError subclasses (file, cause, hint).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from flows.engine.prefect_env import apply_prefect_defaults
from schemas.health import HealthKind, HealthSummary
from schemas.report import MemoryOperationReport
from tasks.store.errors import MembankError

# Lazy for start-up: each method imports its flow when called (`import membank` costs 0.22 s
# CPU; with every method's flow imported, 1.1 s).

if TYPE_CHECKING:
    from flows.surface import Surface
    from schemas.search import RetrievalReport
    from schemas.tools import BrowseAnswer, LoadedPage, SearchAnswer, WriteAnswer

__all__ = ["Memory", "MembankError", "MemoryOperationReport"]

apply_prefect_defaults()


class Memory:
    """One memory root (default ./.memories or MEMBANK_ROOT)."""

    def __init__(self, root: str | os.PathLike[str] | None = None) -> None:
        self.root = str(root) if root is not None else None
        self._surface: Surface | None = None

    @property
    def surface(self) -> Surface:
        """The agent tool surface (what `membank mcp` serves), kept warm between calls."""
        if self._surface is None:
            from flows.surface import Surface

            self._surface = Surface(self.root)
        return self._surface

    def search(self, query: str, queries: Sequence[str] = (), *, limit: int = 10,
               page_types: Sequence[str] = ()) -> SearchAnswer:
        """memory_search: hits per phrasing (resultsByQuery); a miss carries navigation."""
        return self.surface.search(query, queries, limit=limit, page_types=page_types)

    def browse(self, query: str | None = None) -> BrowseAnswer:
        """memory_browse: the root structure, or the pages and hubs nearest `query`."""
        return self.surface.browse(query)

    def load(self, path: str | None = None, *, uri: str | None = None,
             section: str | None = None) -> LoadedPage:
        """memory_load: a page or one section, its frontmatter and its links out and in."""
        return self.surface.load(path, uri=uri, section=section)

    def write(self, **fields: Any) -> WriteAnswer:
        """memory_write(path, content, title, parentHubPath, relation, op, section, visibility):
        through the proposal gate; ok with path and revision, or the gate's code and hint."""
        return self.surface.write(fields, source="memory_write through the Python API")

    def curate(self, op: str, **params: Any) -> MemoryOperationReport:
        """memory_curate(op, pageId, section, supersededByPageId, sourcePageId, kind, toPath...):
        supersede, merge, link or unlink, one journaled batch, never deleting a fact."""
        return self.surface.curate(op, **params)

    def retrieve(self, task: str, *, budget_tokens: int = 4000,  # noqa: PLR0913
                 project: str | None = None, category: str | None = None,
                 paths: Sequence[str] = (), areas: Sequence[str] = (),
                 strict_routing: bool = False, explain: bool = False) -> RetrievalReport:
        """The retrieval packet (as `membank retrieve`); `category`, `paths`, `areas`,
        `strict_routing`, `explain` route MemoryCustodian files by their manifest."""
        from tasks.search.routing import routing_request

        routing = routing_request(category, paths, areas, strict=strict_routing, explain=explain)
        return self.surface.retrieve(task, budget_tokens=budget_tokens, project=project,
                                     routing=routing)

    def init(self) -> MemoryOperationReport:
        from flows.bootstrap import bootstrap_flow

        return bootstrap_flow(root=self.root)

    def ingest(self, paths: Sequence[str | os.PathLike[str]], *, distill: bool = True
               ) -> MemoryOperationReport:
        from flows.ingest import ingest_flow

        return ingest_flow(paths=[str(p) for p in paths], root=self.root, distill=distill)

    def distill(self, *, reread_all: bool = False) -> MemoryOperationReport:
        from flows.distill import distill_flow

        return distill_flow(root=self.root, reread_all=reread_all)

    def run(self, paths: Sequence[str | os.PathLike[str]] = ()) -> MemoryOperationReport:
        from flows.run import run_flow

        return run_flow(paths=[str(p) for p in paths], root=self.root)

    def propose(self, files: Sequence[str | os.PathLike[str]] = ()) -> MemoryOperationReport:
        """Gate the given proposal files, or everything in <root>/proposals/inbox/."""
        from flows.proposals import proposals_flow

        return proposals_flow(files=[str(f) for f in files], root=self.root)

    def reconcile(self, *, check: bool = False) -> MemoryOperationReport:
        from flows.reconcile import reconcile_flow

        return reconcile_flow(root=self.root, check=check)

    def audit_freshness(self) -> MemoryOperationReport:
        from flows.freshness import freshness_flow

        return freshness_flow(root=self.root)

    def health(self, kind: str | None = None) -> HealthSummary:
        """The latest health summary (of `reconcile` or `freshness`, default the latest)."""
        from tasks.health.files import load_latest
        from tasks.store.settings import load_settings

        if kind not in {None, "reconcile", "freshness"}:
            raise MembankError(f"kind must be reconcile or freshness, not {kind!r}")
        return load_latest(load_settings(self.root).resolved_root(), cast("HealthKind | None", kind))

    def __repr__(self) -> str:
        return f"Memory({str(Path(self.root)) if self.root else None!r})"


if __name__ == "__main__":  # `python -m membank ...` is the command line, as `membank ...` is
    from flows.cli.app import main

    main()

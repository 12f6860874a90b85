"""`membank dashboard [--open]`: redraw context/health/dashboard.html from history.jsonl, and the
knowledge view context/health/graph.html from the knowledge graph.

Read-only apart from the two pages; never imports Prefect.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import orjson
import typer

from flows.cli.common import JsonOption, RootOption, fail, root_arg, stdout
from tasks.store.errors import MembankError, RootError

# Lazy for start-up: each command imports its flow and stages when it runs (`membank --help`
# costs 0.34 s CPU; with every command's modules imported, 3.4 s).


def build_dashboard(root: str | None) -> tuple[Path, Path]:
    """Regenerate the knowledge view, then the dashboard at the settings' clock; return their paths."""
    from tasks.health.dashboard.build import write_dashboard
    from tasks.health.dashboard.graph_view import write_graph_view
    from tasks.store.layout import health_dir
    from tasks.store.operation import writing_operation
    from tasks.store.settings import load_settings

    settings = load_settings(root)
    memory = settings.resolved_root()
    history = health_dir(memory) / "history.jsonl"
    if not history.is_file():
        raise RootError("no health history yet", file=history,
                        hint="run `membank reconcile` or `membank audit freshness` first")
    with writing_operation(settings, "audit") as operation:  # a write like any other
        graph_view = write_graph_view(memory, force=True)
        return write_dashboard(memory, now_iso=operation.now_iso), graph_view


def dashboard(
    root: RootOption = None,
    open_page: Annotated[bool, typer.Option("--open", help="Open the page in a web browser.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Redraw the ops dashboard (context/health/dashboard.html) from the health history and the
    knowledge view (context/health/graph.html) from the knowledge graph."""
    try:
        page, graph_view = build_dashboard(root_arg(root))
    except MembankError as exc:
        fail(exc.one_line(), exc.exit_code)
    if as_json:
        sys.stdout.write(orjson.dumps({"dashboard": str(page), "graph": str(graph_view)}).decode() + "\n")
    else:
        stdout.print(f"dashboard: {page}\ngraph: {graph_view}", markup=False, highlight=False)
    if open_page and not _open_in_browser(page):
        fail(f"no web browser to open {page.as_uri()}; open the file by hand", 2)


def _open_in_browser(page: Path) -> bool:
    import webbrowser

    return webbrowser.open(page.as_uri())

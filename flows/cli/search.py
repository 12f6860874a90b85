"""Read-side commands: search, browse, show, retrieve. Plain functions over tasks.search: they
never import Prefect (an agent calls them often; start-up is part of their cost)."""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer
from pydantic import BaseModel

from flows.cli.common import RootOption, fail, one_line_errors
from tasks.store.errors import RootError

# Lazy for start-up: each command imports its flow and stages when it runs (`membank --help`
# costs 0.34 s CPU; with every command's modules imported, 3.4 s).

if TYPE_CHECKING:
    from schemas.search import RetrievalReport, ShownEntity
    from tasks.store.layout import MemoryLayout


T = TypeVar("T")

JsonOption = Annotated[bool, typer.Option("--json", help="Print the answer as JSON on stdout.")]


def _index_error(exc: Exception) -> str | None:
    if isinstance(exc, sqlite3.Error):
        return f"search index: {exc} (hint: run `membank search --rebuild`)"
    return None


def answer(action: Callable[[], T]) -> T:
    """Run a read-side action; every failure becomes one line on stderr with its exit code."""
    return one_line_errors(action, _index_error)


def _semantic() -> bool:
    from tasks.store.settings import load_settings

    return load_settings().search_semantic


def _lock_timeout() -> float:
    from tasks.store.settings import load_settings

    return load_settings().lock_timeout_seconds


def _layout(root: Path | None) -> MemoryLayout:
    from tasks.store.layout import MemoryLayout
    from tasks.store.settings import load_settings

    resolved = load_settings(str(root) if root is not None else None).resolved_root()
    if not resolved.is_dir():
        raise RootError("memory root does not exist", file=resolved,
                        hint="run `membank init` or pass --root")
    return MemoryLayout(resolved)


def _warn(warnings: list[str]) -> None:
    for warning in warnings:
        sys.stderr.write(f"membank: warning: {warning}\n")


def _print_json(model: BaseModel) -> None:
    sys.stdout.write(model.model_dump_json(indent=2) + "\n")


def search_command(  # noqa: PLR0913 (a typer command: its parameters are its CLI options)
    query: Annotated[str | None, typer.Argument(help="Words to search for.")] = None,
    types: Annotated[list[str] | None, typer.Option(
        "--type", help="Only these page types (entity, source, concept, synthesis, decision, "
        "observation, hub...); repeat or comma-separate.")] = None,
    hub: Annotated[str | None, typer.Option("--hub", help="Only pages under this hub "
                                            "(its page or folder, e.g. wiki/synthesis).")] = None,
    limit: Annotated[int, typer.Option("--limit", help="Hits to return (1-200).")] = 10,
    include_superseded: Annotated[bool, typer.Option(
        "--include-superseded", help="Also return superseded facts and pages (labelled).")] = False,
    rebuild: Annotated[bool, typer.Option("--rebuild", help="Rebuild the index from the pages "
                                          "and the graph first (QUERY then optional).")] = False,
    after: Annotated[str | None, typer.Option(
        "--after", help="Only documents dated on or after this day, month or year (2025-04-02, "
        "2025-04, 2025): the date they state, not when they were stored.")] = None,
    before: Annotated[str | None, typer.Option(
        "--before", help="Only documents dated on or before this day, month or year.")] = None,
    root: RootOption = None,
    as_json: JsonOption = False,
) -> None:
    """Ranked full-text search (BM25) over pages, sections and graph observations."""
    from tasks.search.dates import date_bound
    from tasks.search.query import SearchOptions, search
    from tasks.search.sync import rebuild_index

    layout = answer(lambda: _layout(root))
    semantic = answer(_semantic)
    if rebuild:  # under the writer lock: never beside a writer's batch
        wait = answer(_lock_timeout)
        built = answer(lambda: rebuild_index(layout, semantic=semantic, wait=wait))
        sys.stderr.write(f"search index rebuilt: {built.pages_indexed} pages, "
                         f"{built.entities_indexed} entities\n")
        for problem in built.problems:
            sys.stderr.write(f"membank: skipped {problem}\n")
        if query is None:
            raise typer.Exit(0)
    if query is None:
        fail("missing QUERY (or pass --rebuild)", 2)
    wanted = tuple(t for value in types or () for t in value.split(",") if t.strip())
    options = SearchOptions(
        types=wanted, hub=hub, limit=limit, include_superseded=include_superseded,
        semantic=semantic,
        after=answer(lambda: date_bound(after, "--after", end=False)) if after else None,
        before=answer(lambda: date_bound(before, "--before", end=True)) if before else None)
    result = answer(lambda: search(layout, query, options))
    _warn(result.warnings)
    if as_json:
        _print_json(result)
        return
    if not result.hits:
        sys.stdout.write(f"no match for: {' '.join(result.terms)}\n")
    for n, hit in enumerate(result.hits, 1):
        where = f"{hit.path}#{hit.anchor}" if hit.anchor else hit.path
        label = " [superseded]" if hit.superseded else ""
        kind = "observation of " if hit.kind == "observation" else ""
        sys.stdout.write(f"{n}. {kind}{hit.title} ({hit.entity_type or hit.page_type}){label} "
                         f"score {hit.score}\n   {where}\n   {' '.join(hit.snippet.split())}\n")


def _entity_text(shown: ShownEntity) -> str:
    lines = [f"# {shown.name} ({shown.entity_type})"]
    if shown.aliases:
        lines.append(f"aliases: {', '.join(shown.aliases)}")
    if shown.page:
        lines.append(f"page: {shown.page}")
    if shown.store_entry:
        lines.append(f"store entry: {shown.store_entry.get('observation')}")
    lines += ["", "## Observations"]
    lines += [f"- {o['observation']}" + (f" ({o['sourcePage']}, raw lines {o.get('lineStart')}-"
                                         f"{o.get('lineEnd')})" if o.get("sourcePage") else "")
              for o in shown.observations] or ["- none"]
    lines += ["", "## Relations"]
    lines += [f"- {r['sourceEntityName']} {r['relationType']} {r['targetEntityName']}"
              for r in [*shown.relations_out, *shown.relations_in]] or ["- none"]
    lines += ["", "## Superseded facts"]
    lines += [f"- {s['observation']} (superseded {s.get('supersededAtUtc')}, by: "
              f"{s.get('supersededBy') or 'none named'}; {s.get('reason')})"
              for s in shown.superseded] or ["- none"]
    lines += [f"- relation {r.get('sourceEntityName')} {r.get('relationType')} "
              f"{r.get('targetEntityName')} (superseded: {r.get('reason')})"
              for r in shown.superseded_relations]
    return "\n".join(lines) + "\n"


def show_command(
    target: Annotated[str, typer.Argument(help="A page path (root-relative, optionally "
                                          "#anchor for one section) or an entity name or alias.")],
    root: RootOption = None,
    as_json: JsonOption = False,
) -> None:
    """Load one page (frontmatter + body) or one entity (facts, provenance, relations)."""
    from tasks.search.show import show
    from tasks.store.pages import dump_frontmatter

    layout = answer(lambda: _layout(root))
    shown = answer(lambda: show(layout, target))
    if as_json:
        _print_json(shown)
    elif shown.kind == "page":
        sys.stdout.write(f"{shown.path}\n---\n{dump_frontmatter(shown.frontmatter)}---\n\n"
                         f"{shown.body.rstrip()}\n")
    else:
        sys.stdout.write(_entity_text(shown))


def browse_command(
    topic: Annotated[str, typer.Argument(help="The topic you are about to write about.")],
    root: RootOption = None,
    as_json: JsonOption = False,
) -> None:
    """Before writing: the nearest pages (with section anchors) and the hubs that fit, ranked."""
    from tasks.search.browse import browse

    layout = answer(lambda: _layout(root))
    result = answer(lambda: browse(layout, topic, semantic=answer(_semantic)))
    _warn(result.warnings)
    if as_json:
        _print_json(result)
        return
    sys.stdout.write("nearest pages:\n" if result.nearest else "nearest pages: none\n")
    for n, page in enumerate(result.nearest, 1):
        sys.stdout.write(f"{n}. {page.title} ({page.page_type}) score {page.score}\n   {page.path}"
                         f"\n   sections: {', '.join('#' + a for a in page.anchors) or 'none'}\n")
    sys.stdout.write("hubs that fit:\n" if result.hubs else "hubs that fit: none\n")
    for hub in result.hubs:
        sys.stdout.write(f"- {hub.path} ({hub.title}): {hub.matching_pages} matching page(s), "
                         f"score {hub.score}\n")


def retrieve_command(  # noqa: PLR0913 (a typer command: its parameters are its CLI options)
    task: Annotated[str, typer.Argument(help="The task the packet is for, in words.")],
    project: Annotated[str | None, typer.Option("--project", help="Project slug for the report "
                                                "(default MEMBANK_PROJECT).")] = None,
    budget_tokens: Annotated[int, typer.Option("--budget-tokens", help="Token budget of the "
                                               "packet (tiktoken, MEMBANK_TOKENIZER_ENCODING).")] = 4000,
    root: RootOption = None,
    as_json: JsonOption = False,
    as_md: Annotated[bool, typer.Option("--md", help="Print the report and packet as markdown "
                                        "(the default).")] = False,
    include_archive: Annotated[bool, typer.Option(
        "--include-archive", help="Also prime from memory stores' archive/ records (custodian "
        "and .mem), which the contracts leave out unless asked.")] = False,
    category: Annotated[str | None, typer.Option(
        "--category", help="Canonical task category for MemoryCustodian routing: general, "
        "planning, implementation, artifact, preferences, history, maintenance.")] = None,
    paths: Annotated[list[str] | None, typer.Option(
        "--path", help="A touched or planned repo-relative path (repeat): routes the manifest's "
        "path-routed areas.")] = None,
    areas: Annotated[list[str] | None, typer.Option(
        "--area", help="An explicit area (areas/NAME.md) when paths are not known yet (repeat).")
    ] = None,
    strict_routing: Annotated[bool, typer.Option(
        "--strict-routing", help="Fail unless routing is COMPLETE and unblocked (not approved "
        "for substantial work otherwise).")] = False,
    explain: Annotated[bool, typer.Option(
        "--explain", help="List every custodian file loaded or skipped with its reason codes.")
    ] = False,
    work_tree: Annotated[Path, typer.Option(
        "--work-tree", help="A git work tree whose changed files join --path for .mem priming "
        "(default: the current directory).")] = Path(),
    git_status: Annotated[bool, typer.Option(
        "--git-status/--no-git-status", help="Match .mem domain files by the work tree's git "
        "status too (default on).")] = True,
) -> None:
    """The retrieval packet (memory-bank retrieve mode) as a Memory Operation report. With
    --category, --path, --area, --strict-routing or --explain, MemoryCustodian files are chosen
    by the ingested manifest's routes only; ranked search answers for the other sources."""
    from tasks.search.retrieve import retrieve
    from tasks.search.routing import routing_request
    from tasks.store.operation import begin_operation
    from tasks.store.settings import load_settings

    if as_json and as_md:
        fail("--json and --md exclude each other", 2)
    routing = routing_request(category, paths, areas, strict=strict_routing, explain=explain)

    def run() -> RetrievalReport:
        settings = load_settings(str(root) if root is not None else None, project=project)
        _layout(root)
        return retrieve(begin_operation(settings, "retrieve"), task, budget_tokens=budget_tokens,
                        include_archive=include_archive, routing=routing,
                        work_tree=work_tree if git_status else None)

    report = answer(run)
    sys.stdout.write(report.model_dump_json(indent=2) + "\n" if as_json else report.to_markdown())
    raise typer.Exit(report.exit_code())


def register_read_commands(app: typer.Typer) -> None:
    app.command("search")(search_command)
    app.command("show")(show_command)
    app.command("browse")(browse_command)
    app.command("retrieve")(retrieve_command)

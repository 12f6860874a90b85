"""`membank mcp`: serve the agent tool surface over stdio (default) or streamable HTTP."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from flows.cli.common import RootOption, fail, one_line_errors, root_arg
from flows.mcp.catalog import TOOLS

# Lazy for start-up: each command imports its flow and stages when it runs (`membank --help`
# costs 0.34 s CPU; with every command's modules imported, 3.4 s).

HELP = ("Serve the agent tool surface (spec/wiki-memory-pkf.md) over MCP: stdio by default, or "
        "streamable HTTP on 127.0.0.1 (another host needs MEMBANK_MCP_TOKEN, sent by clients as "
        "a bearer token).\n\nTools:\n\n" + "\n\n".join(f"{name}: {line}" for name, line in TOOLS.items())
        + "\n\nResources: memory://map (the Memory Map), memory://page/{path}. "
        "Prompt: memory_write_flow.")


def mcp_command(  # noqa: PLR0913 (a typer command: its parameters are its CLI options)
    root: RootOption = None,
    transport: Annotated[str, typer.Option("--transport", help="stdio or http.")] = "stdio",
    host: Annotated[str, typer.Option("--host", help="HTTP bind address.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="HTTP port.")] = 8765,
    allow_ingest: Annotated[list[Path] | None, typer.Option(
        "--allow-ingest", help="A folder memory_ingest may read (repeat); none: ingest is off.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the tools (name, description, "
                                          "input and output schemas, annotations) as JSON and exit "
                                          "without serving.")] = False,
) -> None:
    if transport not in {"stdio", "http"}:
        fail(f"--transport must be stdio or http, not {transport!r}", 2)
    from flows.mcp.server import build_server, check_bind, pin_mmap_threshold
    from flows.surface import Surface
    from tasks.store.operation import check_root

    def prepare() -> tuple[Surface, str | None]:
        surface = Surface(root_arg(root), allow_ingest=allow_ingest or ())
        check_root(surface.settings.resolved_root())
        surface.layout  # noqa: B018 (a missing root is refused before serving)
        return surface, check_bind(host) if transport == "http" else None

    surface, token = one_line_errors(prepare)
    server = build_server(surface)
    if as_json:
        _print_tools(server)
        return
    pin_mmap_threshold()  # (a warm server's RSS stays flat: see its docstring)
    if transport == "stdio":
        server.run("stdio")
        return
    from flows.mcp.http import serve_http

    serve_http(server, host=host, port=port, token=token)


def _print_tools(server: Any) -> None:
    import asyncio
    import sys

    tools = asyncio.run(server.list_tools())
    listed = [tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in tools]
    sys.stdout.write(json.dumps({"tools": listed}, indent=2) + "\n")


mcp_command.__doc__ = HELP

"""The `membank` command line: one command per flow, the same --root and --json everywhere.
Every command is registered here, in the order `membank --help` lists them.

Exit codes: 0 success, 1 ran and found problems, 2 could not run. Errors are one line.
"""

from __future__ import annotations

import os

# Quiet when healthy: Prefect's INFO chatter is for `membank serve`, not for one-shot commands.
os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")

import typer

from flows.cli import privacy, stages
from flows.cli.custodian import custodian_app
from flows.cli.dashboard import dashboard
from flows.cli.search import register_read_commands
from flows.cli.stores import check_app
from flows.mcp.cli import HELP as MCP_HELP
from flows.mcp.cli import mcp_command

# Lazy for start-up: each command imports its flow and stages when it runs (`membank --help`
# costs 0.34 s CPU; with every command's modules imported, 3.4 s). The command modules imported
# above import nothing heavy at module level.

app = typer.Typer(
    name="membank",
    help="Keep an agent team's file memory healthy: ingest, distill, reconcile, audit.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
audit_app = typer.Typer(help="Read-only audits that emit a health summary.", no_args_is_help=True)
audit_app.command("freshness")(stages.audit_freshness)
audit_app.command("privacy")(privacy.audit_privacy)

app.command()(stages.init)
app.command()(stages.ingest)
app.command()(stages.distill)
app.command()(stages.run)
app.command()(stages.reconcile)
app.add_typer(audit_app, name="audit")
app.command("forget")(privacy.forget)
app.command()(stages.health)
app.command()(stages.propose)
app.command()(stages.serve)
app.add_typer(check_app, name="check")
app.add_typer(custodian_app, name="custodian")
app.command()(dashboard)
register_read_commands(app)
app.command("mcp", help=MCP_HELP)(mcp_command)


def main() -> None:
    """The console script: the command, then the end of the process without the interpreter's
    teardown when nothing needs it (flows/cli/process_exit.py: ~0.25 s of CPU a command)."""
    from flows.cli.process_exit import finish

    try:
        app()
    except SystemExit as exc:
        finish(exc)
        raise


if __name__ == "__main__":
    main()

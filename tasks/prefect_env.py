"""Prefect defaults that must be in the environment before prefect is imported.

Prefect's first ephemeral-server start on a new machine can exceed its 20 s default, and its
analytics must be off so the first run works offline. Users can still override each one.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

PREFECT_DEFAULTS = {
    "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "180",
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "DO_NOT_TRACK": "1",
    "PREFECT_UI_ENABLED": "false",
}


def apply_prefect_defaults() -> None:
    for key, value in PREFECT_DEFAULTS.items():
        os.environ.setdefault(key, value)


@contextmanager
def one_shot_run_settings() -> Iterator[None]:
    """Prefect settings for flows run once from the command line on an ephemeral server.

    Flow-run heartbeats let a server mark runs whose process died as crashed. An ephemeral
    server dies with the process, so nobody would read them, and every flow and subflow would
    wait up to a second at its end for the heartbeat thread's sleep to finish. With a real
    server (PREFECT_API_URL set, as under `membank serve`) heartbeats stay on.
    """
    from prefect.settings import PREFECT_API_URL, PREFECT_FLOWS_HEARTBEAT_FREQUENCY, temporary_settings

    if PREFECT_API_URL.value():
        yield
        return
    with temporary_settings(updates={PREFECT_FLOWS_HEARTBEAT_FREQUENCY: None}):
        yield

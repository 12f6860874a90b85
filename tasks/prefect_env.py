"""Prefect defaults that must be in the environment before prefect is imported.

Prefect's first ephemeral-server start on a new machine can exceed its 20 s default, and its
analytics must be off so the first run works offline. Users can still override each one.
"""

from __future__ import annotations

import os

PREFECT_DEFAULTS = {
    "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "180",
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "DO_NOT_TRACK": "1",
    "PREFECT_UI_ENABLED": "false",
}


def apply_prefect_defaults() -> None:
    for key, value in PREFECT_DEFAULTS.items():
        os.environ.setdefault(key, value)

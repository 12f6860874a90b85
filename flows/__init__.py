"""Prefect flows that compose membank's tasks, and the `membank` CLI."""

from flows.engine.prefect_env import apply_prefect_defaults

apply_prefect_defaults()

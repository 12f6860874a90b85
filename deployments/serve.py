"""Serve every membank deployment from one process (`membank serve`).

Uses the Prefect server at PREFECT_API_URL when set; otherwise starts the local one
(`prefect server start`, UI on http://127.0.0.1:4200) as a child process and stops it on exit.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson
from prefect import Flow, serve
from prefect.client.schemas.objects import ConcurrencyLimitConfig, ConcurrencyLimitStrategy
from prefect.deployments.runner import RunnerDeployment
from prefect.settings import PREFECT_API_URL, temporary_settings
from prefect.types.entrypoint import EntrypointType

from deployments.specs import DeploymentSpec, deployment_specs
from flows.engine.prefect_env import local_prefect_server, prefect_server_healthy
from tasks.health.dashboard.build import DASHBOARD_FILE
from tasks.store.errors import MembankError
from tasks.store.layout import health_dir
from tasks.store.settings import MembankSettings

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOCAL_HOST, LOCAL_PORT = "127.0.0.1", 4200


def load_spec_flow(spec: DeploymentSpec) -> Flow[..., Any]:
    """Import the flow of `flows/deployed.py:name` as module flows.deployed, so it is loaded
    once."""
    path, _, name = spec.entrypoint.partition(":")
    module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
    flow = getattr(module, name)
    if not isinstance(flow, Flow):
        raise MembankError(f"{spec.entrypoint} is not a Prefect flow", file=path)
    return flow


def runner_deployment(spec: DeploymentSpec, settings: MembankSettings) -> RunnerDeployment:
    flow = load_spec_flow(spec)
    limit = (
        ConcurrencyLimitConfig(limit=settings.writer_concurrency_limit,
                               collision_strategy=ConcurrencyLimitStrategy.ENQUEUE)
        if spec.writes_memory else None
    )
    deployment = flow.to_deployment(
        name=spec.name,
        cron=spec.cron,
        parameters=spec.parameters,
        description=spec.description,
        tags=list(spec.tags),
        concurrency_limit=limit,
        entrypoint_type=EntrypointType.MODULE_PATH,
    )
    assert isinstance(deployment, RunnerDeployment)  # called outside an event loop: not a coroutine
    # Prefect would name the function's own module; the runnable Flow object lives in
    # flows.deployed (the function's module holds the in-process StageFlow).
    path, _, name = spec.entrypoint.partition(":")
    deployment.entrypoint = f"{path.removesuffix('.py').replace('/', '.')}.{name}"
    return deployment


def runner_deployments(settings: MembankSettings) -> list[RunnerDeployment]:
    return [runner_deployment(spec, settings) for spec in deployment_specs(settings)]


@contextmanager
def prefect_api(timeout_seconds: float = 180) -> Iterator[str]:
    """The API URL to serve against: PREFECT_API_URL, a local server already running on
    127.0.0.1:4200, or one started here (with the UI) and stopped on exit."""
    configured = os.environ.get("PREFECT_API_URL")
    if configured:
        yield configured
        return
    api_url = f"http://{LOCAL_HOST}:{LOCAL_PORT}/api"
    if prefect_server_healthy(api_url):  # a local server is already running
        yield api_url
        return
    with local_prefect_server(LOCAL_PORT, ui=True, timeout_seconds=timeout_seconds) as started:
        yield started


def dashboard_path(settings: MembankSettings) -> Path:
    """Where the health flows draw the ops dashboard for this root."""
    return health_dir(settings.resolved_root()) / DASHBOARD_FILE


def serve_all(settings: MembankSettings, *, as_json: bool = False) -> None:
    """Block, serving every deployment with its schedule, until interrupted."""
    dashboard = dashboard_path(settings)
    with prefect_api() as api_url, temporary_settings(updates={PREFECT_API_URL: api_url}):
        deployments = runner_deployments(settings)
        if as_json:
            listing = {"api_url": api_url, "dashboard": str(dashboard), "deployments": [
                {"name": f"{d.flow_name}/{d.name}", "cron": spec.cron, "parameters": spec.parameters}
                for d, spec in zip(deployments, deployment_specs(settings), strict=True)]}
            print(orjson.dumps(listing).decode(), flush=True)
        else:
            print(f"membank: serving {len(deployments)} deployments against {api_url}", flush=True)
            print(f"membank: dashboard {dashboard} (redrawn by every health summary)", flush=True)
        serve(*deployments, print_starting_message=not as_json)

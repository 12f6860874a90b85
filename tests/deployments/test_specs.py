"""The deployments file is valid, current, and every entrypoint imports with its parameters."""

from __future__ import annotations

import inspect

import pytest
import yaml
from cronsim import CronSim
from prefect.cli.deploy._models import PrefectYamlModel

from deployments.render import PREFECT_YAML, render_prefect_yaml
from deployments.serve import load_spec_flow
from deployments.specs import deployment_specs
from tasks.store.settings import load_settings

SPECS = deployment_specs(load_settings())


def test_prefect_yaml_is_current() -> None:
    assert PREFECT_YAML.read_text() == render_prefect_yaml(load_settings()), (
        "deployments/prefect.yaml is stale: run `python -m deployments.render`"
    )


def test_prefect_yaml_is_what_prefect_deploy_accepts() -> None:
    model = PrefectYamlModel.model_validate(yaml.safe_load(PREFECT_YAML.read_text()))
    assert [d.name for d in model.deployments] == [s.name for s in SPECS]
    for deployment in model.deployments:
        assert deployment.entrypoint and deployment.work_pool and deployment.work_pool.name


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_entrypoint_imports_and_parameters_fit(spec) -> None:
    flow = load_spec_flow(spec)
    accepted = inspect.signature(flow.fn).parameters
    assert set(spec.parameters) <= set(accepted), spec.parameters
    if spec.cron:
        CronSim(spec.cron, __import__("datetime").datetime(2026, 1, 1))


def test_schedules_come_from_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMBANK_NIGHTLY_RECONCILE_CRON", "30 1 * * *")
    monkeypatch.setenv("MEMBANK_ROOT", "/srv/memory")
    specs = {s.name: s for s in deployment_specs(load_settings())}
    assert specs["nightly-reconcile"].cron == "30 1 * * *"
    assert specs["freshness-audit"].cron == "0 */6 * * *"
    assert all(s.parameters["root"] == "/srv/memory" for s in specs.values())
    assert "cron: 30 1 * * *" in render_prefect_yaml(load_settings())


def test_health_alert_automation_is_valid() -> None:
    from pathlib import Path

    from prefect.events.schemas.automations import AutomationCore

    data = yaml.safe_load((Path(PREFECT_YAML).parent / "automation-health-alert.yaml").read_text())
    automation = AutomationCore.model_validate(data)
    assert automation.trigger.expect == {"membank.health.failing"}

"""deployments/grafana/membank.json: valid JSON, every query names metrics membank emits, and
every emitted metric is on a panel (the .prom files of a real reconcile and freshness audit)."""

from __future__ import annotations

import json
import re

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tasks.checks.freshness import freshness_audit
from tasks.checks.reconcile import reconcile_memory
from tasks.health.files import write_health
from tasks.store.operation import begin_operation
from tasks.store.settings import load_settings
from tests.conftest import REPO_ROOT
from tests.memory_builder import NOW, build_healthy_memory

BOARD = REPO_ROOT / "deployments/grafana/membank.json"
METRIC = re.compile(r"\bmembank_[a-z_]+\b")
SELECTOR = re.compile(r"\b(membank_[a-z_]+)\{([^}]*)\}")
QUESTIONS = ("Is it healthy?", "Since when?", "What is failing?", "What is stale?", "Is it getting slower?")


@pytest.fixture(scope="module")
def emitted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, set[str]]:
    """Metric name -> label names, from the .prom files a real run writes."""
    root = tmp_path_factory.mktemp("grafana") / ".memories"
    build_healthy_memory(root)
    settings = load_settings(root, fixed_clock=NOW)
    _, reconcile = reconcile_memory(begin_operation(settings, "reconcile"), check=True)
    _, freshness = freshness_audit(begin_operation(settings, "audit"))
    write_health(root, reconcile)
    write_health(root, freshness)
    metrics: dict[str, set[str]] = {}
    for prom in sorted((root / "context/health").glob("membank-*.prom")):
        for family in text_string_to_metric_families(prom.read_text()):
            labels = metrics.setdefault(family.name, set())
            for sample in family.samples:
                metrics.setdefault(sample.name, set()).update(sample.labels)
                labels.update(sample.labels)
    assert {"membank_health_status", "membank_stale_pages", "membank_dead_links"} <= set(metrics)
    return metrics


def board() -> dict:
    return json.loads(BOARD.read_text())


def expressions() -> list[tuple[str, str]]:
    return [(panel["title"], target["expr"]) for panel in board()["panels"] for target in panel["targets"]]


def test_board_is_a_grafana_dashboard_with_a_panel_per_on_call_question() -> None:
    data = board()
    assert data["uid"] and data["title"] and data["schemaVersion"] >= 36
    titles = [panel["title"] for panel in data["panels"]]
    for question in QUESTIONS:
        assert any(title.startswith(question) for title in titles), question
    assert len({panel["id"] for panel in data["panels"]}) == len(data["panels"])
    for panel in data["panels"]:
        assert panel["datasource"]["uid"] == "${datasource}" and panel["targets"]
        assert set(panel["gridPos"]) == {"x", "y", "w", "h"} and panel["gridPos"]["x"] + panel["gridPos"]["w"] <= 24
    variables = {v["name"] for v in data["templating"]["list"]}
    assert variables == {"datasource", "flow"}


def test_every_query_names_only_metrics_and_labels_membank_emits(emitted: dict[str, set[str]]) -> None:
    for title, expr in expressions():
        names = set(METRIC.findall(expr))
        assert names, f"{title}: {expr} names no membank metric"
        assert names <= set(emitted), f"{title}: {sorted(names - set(emitted))} is not emitted"
        assert expr.count("(") == expr.count(")") and expr.count("{") == expr.count("}"), expr
        for metric, matchers in SELECTOR.findall(expr):
            used = {m.split("=")[0].rstrip("!~").strip() for m in matchers.split(",") if m.strip()}
            assert used <= emitted[metric], f"{title}: {metric} has no label {sorted(used - emitted[metric])}"


def test_every_emitted_metric_is_on_a_panel(emitted: dict[str, set[str]]) -> None:
    used = {name for _, expr in expressions() for name in METRIC.findall(expr)}
    missing = sorted(set(emitted) - used)
    assert missing == [], f"metrics on no panel: {missing}"


def test_board_file_is_plain_json() -> None:
    text = BOARD.read_text()
    assert text.endswith("\n") and json.dumps(json.loads(text), indent=2) + "\n" == text

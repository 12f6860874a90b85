"""The graph's observation digests as the scan hands them on: JSON bytes first, a dict when read.

A full scan at 100,000 pages reads a million observation digests in a forked worker
(tasks/checks/scan_pool.py); pickling them back as a dict took about 1.5 s, and this process
then held them as a dict (a few hundred MB) only to write them into the observation baseline,
sorted. `DigestTable` carries them as the bytes the baseline file holds (orjson, keys sorted):
they cross the pipe as one bytes object, and when the baseline is empty or already holds these
digests (check_erased_facts) the bytes are written as they are, never decoded.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

import orjson

# How the observation baseline file is written (tasks/checks/scan.py save_cache).
BASELINE_OPTIONS = orjson.OPT_SORT_KEYS


class DigestTable(Mapping[str, str]):
    """digest -> "<entity>: <observation>", held as `blob` (the sorted JSON the observation
    baseline writes) and decoded into a dict the first time it is read as a mapping."""

    __slots__ = ("_blob", "_mapping")

    def __init__(self, blob: bytes) -> None:
        self._blob = blob
        self._mapping: dict[str, str] | None = None

    @classmethod
    def of(cls, digests: Mapping[str, str]) -> DigestTable:
        return cls(orjson.dumps(digests, option=BASELINE_OPTIONS))

    @property
    def blob(self) -> bytes:
        """The digests as the baseline file writes them (orjson, keys sorted)."""
        return self._blob

    def mapping(self) -> dict[str, str]:
        if self._mapping is None:
            self._mapping = orjson.loads(self._blob)
        return self._mapping

    def __getitem__(self, digest: str) -> str:
        return self.mapping()[digest]

    def __iter__(self) -> Iterator[str]:
        return iter(self.mapping())

    def __len__(self) -> int:
        return len(self.mapping())

    def __contains__(self, digest: object) -> bool:
        return digest in self.mapping()

    def __reduce__(self) -> tuple[type[DigestTable], tuple[bytes]]:
        return DigestTable, (self._blob,)  # the bytes alone cross a process boundary

    def __repr__(self) -> str:
        return f"DigestTable({len(self._blob)} bytes)"


# A key in membank's form (lower-case hex) where one starts in JSON that orjson wrote: at the
# object's start or after a value's closing quote and a comma. Inside a string every quote is
# escaped (a backslash before it), so no text holds `","` before a digest's `":"`.
_DIGEST_KEY = re.compile(rb'(?:\{|",)"([0-9a-f]+)":"')


def blob_digests(blob: bytes) -> Iterator[str]:
    """The digests of `blob` (a DigestTable's: orjson, keys sorted) read from its bytes, one at
    a time, without decoding the table (a million entries at 100,000 pages: ~200 MB as a dict).
    A key in another form is not given: a caller that must see every key counts them."""
    for match in _DIGEST_KEY.finditer(blob):
        yield match.group(1).decode()


_HEX = frozenset("0123456789abcdef")
_FIND_WINDOW = 1 << 18  # bytes searched ahead for a digest before it is bisected for


def _key_at(blob: bytes, pos: int) -> int:
    """Where the first key starting at or after `pos` starts (len(blob): none). In JSON that
    orjson wrote, `","` is only ever between two entries: inside a string every quote is
    escaped (a backslash before it), and these two quotes follow a quote's neighbours."""
    if pos <= 2:
        return 2 if len(blob) > 2 else len(blob)
    found = blob.find(b'","', pos - 3)
    return found + 3 if found >= 0 else len(blob)


def _first_not_below(blob: bytes, key: bytes, lo: int) -> int:
    """The start of the first key at or after `lo` that is not below `key` (len(blob): none)."""
    hi = len(blob)
    while lo < hi:
        mid = (lo + hi) // 2
        start = _key_at(blob, mid)
        if start >= len(blob) or blob[start:blob.find(b'":"', start)] >= key:
            hi = mid
        else:
            lo = start + 1
    return _key_at(blob, lo)


def _value_end(blob: bytes, start: int) -> int:
    """Where the value of the key at `start` ends (just past its closing quote)."""
    following = blob.find(b'","', start)
    return following + 1 if following >= 0 else len(blob) - 1


def spliced_baseline(blob: bytes, digests: Mapping[str, str]) -> bytes | None:
    """The observation baseline `blob` (orjson, keys sorted: as save_cache writes it) updated
    with `digests`, as its bytes: what orjson would write for the decoded baseline updated
    in place, without decoding a million entries (at 100,000 pages: ~0.6 s and ~490 MB of
    the peak of a repair run by the change). `blob` itself when it holds every digest with
    its text already; None when `blob` or a digest is not in membank's form (a baseline
    that is not a non-empty object, a digest that is not lower-case hex): decode it then."""
    if len(blob) < 7 or blob[:2] != b'{"' or blob[-2:] != b'"}':
        return None
    edits: list[tuple[int, int, bytes]] = []  # (from, to, bytes put there), in order
    lo = 0
    for digest in sorted(digests):
        if not digest or not _HEX.issuperset(digest):
            return None
        key, text = digest.encode(), orjson.dumps(digests[digest])
        found = blob.find(b'"' + key + b'":"', lo, lo + _FIND_WINDOW)
        if found == 1 or (found > 1 and blob[found - 2:found] == b'",'):
            start = found + 1  # a key's opening quote: at the start, or after a value's end
        else:  # not within the window ahead: bisected for
            start = _first_not_below(blob, key, lo)
        if start < len(blob) and blob[start:blob.find(b'":"', start)] == key:
            value, end = blob.find(b'":"', start) + 2, _value_end(blob, start)
            if blob[value:end] != text:
                edits.append((value, end, text))
            lo = end
        elif start < len(blob):  # a new entry before the key at `start`
            edits.append((start - 1, start - 1, b'"' + key + b'":' + text + b","))
            lo = start - 1
        else:  # after the last entry
            edits.append((len(blob) - 1, len(blob) - 1, b',"' + key + b'":' + text))
            lo = len(blob) - 1
    if not edits:
        return blob
    # views of `blob`, not slices: the kept runs are copied once, into the joined bytes (a
    # copy of each first was 100 MB more at the peak of a repair run at 100,000 pages)
    view = memoryview(blob)
    parts: list[bytes | memoryview] = []
    at = 0
    for begin, end, put in edits:
        parts += [view[at:begin], put]
        at = end
    parts.append(view[at:])
    return b"".join(parts)

"""The graph's observation digests as the scan hands them on: JSON bytes first, a dict when read.

A full scan at 100,000 pages reads a million observation digests in a forked worker
(tasks/checks/scan_pool.py); pickling them back as a dict took about 1.5 s, and this process
then held them as a dict (a few hundred MB) only to write them into the observation baseline,
sorted. `DigestTable` carries them as the bytes the baseline file holds (orjson, keys sorted):
they cross the pipe as one bytes object, and when the baseline is empty or already holds these
digests (check_erased_facts) the bytes are written as they are, never decoded.
"""

from __future__ import annotations

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

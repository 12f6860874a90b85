"""The graph file membank wrote, read one entity at a time (never the whole document at once).

At 100,000 pages the graph is 423-718 MB; parsed whole into Python objects it takes 3 GB. A file
membank wrote (orjson, two-space indent: tasks.store.graph_store) has a fixed layout: the
`graphGeneratedAtUtc` line, then `"entities": [`, each entity an object opened by a line
`    {` and closed by a line `    }` (a line break inside a JSON string is always escaped, so a
line at that indent is never inside one), then the rest of the document. `GraphStream` reads
the file in chunks, yields each entity parsed by orjson, and parses the rest of the document
(relations, extra keys) at the end as `frame` (with `entities` empty). It hashes the bytes it
reads (sha256), so the caller need not hold them; a caller that never reads the hash (the
search index's build) passes `hashed=False` (423 MB hashed for nothing: ~0.6 s of CPU).

A file recorded as membank wrote it (tasks.store.written) was validated on the way in and is
read with orjson alone. Any other file in the same layout (a hand edit, a graph written by an
older membank) is read with `validate=True`: each entity, then the frame, is validated by the
schema's plain-dict mirrors (schemas.graph), which is the whole-document validation done a
piece at a time, so memory stays bounded by one entity. Any other layout, or data that breaks
the schema, raises ValueError (pydantic's ValidationError is one) before or while yielding;
the caller then reads the file whole, as before, and that path names the field.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import IO, Any

import orjson

from schemas.graph import GRAPH_ENTITY_DATA, KNOWLEDGE_GRAPH_DATA

CHUNK = 1 << 22
_HEAD_RE = re.compile(rb'\{\n  "graphGeneratedAtUtc": "[^"\\\n]*",\n  "entities": ')
_HEAD_MAX = 4096  # the head is read whole before it is matched
_OPEN = b"[\n"
_NEXT = b"\n    },\n    {\n"  # one entity's close, the next one's open
_LAST = b"\n    }\n  ]"  # the last entity's close, the list's close
_CLOSE_AT = 6  # len(b"\n    }"): where an entity's bytes end in _NEXT and _LAST


class GraphStream:
    """One pass over a graph file: `entities()` yields them (or `entity_spans()` their bytes
    and offsets); then `frame`, `sha256`, and where the entities' bytes begin and end."""

    def __init__(self, path: Path, *, validate: bool = False, hashed: bool = True) -> None:
        self.path = path
        self.validate = validate
        self.hashed = hashed
        self.frame: dict[str, Any] | None = None
        self.sha256 = ""
        self.size = 0
        self.head_end = 0  # the first entity's offset (after the list's open)
        self.tail_start = 0  # where the last entity's bytes end
        self._buf_at = 0  # the file offset of the buffer's first byte

    def _read(self, handle: IO[bytes], hasher: Any) -> bytes:
        data = handle.read(CHUNK)
        if self.hashed:
            hasher.update(data)
        self.size += len(data)
        return data

    def entities(self) -> Iterator[dict[str, Any]]:
        for _start, data in self.entity_spans():
            yield self._entity(data)

    def entity_spans(self) -> Iterator[tuple[int, bytes]]:
        """Each entity's file offset and bytes (as they sit: indented, no separator), unparsed."""
        hasher = hashlib.sha256()
        with self.path.open("rb") as handle:
            buf = self._read(handle, hasher)
            while len(buf) < _HEAD_MAX and (more := self._read(handle, hasher)):
                buf += more  # the head whole, however small the chunks
            head = _HEAD_RE.match(buf)
            if head is None:
                raise ValueError("not the layout membank writes")
            prefix, pos = buf[: head.end()], head.end()
            if buf.startswith(b"[]", pos):
                rest = buf[pos + 2 :]
            else:
                if not buf.startswith(_OPEN, pos):
                    raise ValueError("not the layout membank writes")
                self.head_end = pos + len(_OPEN)
                buf, tail_at = yield from self._spans(handle, hasher, buf, self.head_end)
                rest = buf[tail_at:]
            while more := self._read(handle, hasher):
                rest += more
        self.sha256 = hasher.hexdigest() if self.hashed else ""
        document = prefix + b"[]" + rest
        frame = (dict(KNOWLEDGE_GRAPH_DATA.validate_json(document)) if self.validate
                 else orjson.loads(document))
        if not isinstance(frame, dict):
            raise ValueError("not a JSON object")
        self.frame = frame

    def _spans(self, handle: IO[bytes], hasher: Any, buf: bytes, pos: int
               ) -> Generator[tuple[int, bytes], None, tuple[bytes, int]]:
        """Yield each entity's offset and bytes from `pos` on; return the buffer and where its
        rest starts."""
        while True:
            at_next = buf.find(_NEXT, pos)
            # the list's close only before the next entity (the relations' list has both too)
            at_last = buf.find(_LAST, pos, len(buf) if at_next < 0 else at_next + len(_LAST))
            if at_last >= 0 and (at_next < 0 or at_last < at_next):
                yield self._buf_at + pos, buf[pos : at_last + _CLOSE_AT]
                self.tail_start = self._buf_at + at_last + _CLOSE_AT
                return buf, at_last + len(_LAST)
            if at_next >= 0:
                yield self._buf_at + pos, buf[pos : at_next + _CLOSE_AT]
                pos = at_next + len(_NEXT) - len(b"    {\n")
                continue
            more = self._read(handle, hasher)
            if not more:
                raise ValueError("the entities' list is never closed")
            self._buf_at += pos
            buf, pos = buf[pos:] + more, 0

    def _entity(self, data: bytes) -> dict[str, Any]:
        entity = dict(GRAPH_ENTITY_DATA.validate_json(data)) if self.validate else orjson.loads(data)
        if not isinstance(entity, dict):
            raise ValueError("an entity is not a JSON object")
        return entity

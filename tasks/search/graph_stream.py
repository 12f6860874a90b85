"""The knowledge graph's entities one at a time, for a full index build: the whole file parsed
at once holds 1.3 GB of dicts at 100,000 pages (a 423 MB file), more than the build's memory
budget.

Only a graph file exactly as membank wrote it (tasks/store/written.py) is streamed: orjson's
indented output, where a JSON string never holds a raw newline, so the lines that open the
entities' list, separate two entities and close the list occur nowhere else. Each entity's bytes
are parsed alone; the frame (the stamp, relations and any other keys) is parsed once the list
is closed. A file without that opening (no entity) is parsed whole; a file not recorded as membank wrote it
is read as before (tasks/store/graph_store.py's load_graph_data validates it).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from tasks.store.errors import MembankError

_BLOCK = 1 << 23  # bytes read at a time (8 MB)
_OPEN = b'\n  "entities": [\n    {\n'
_BETWEEN = b"\n    },\n    {\n"
_CLOSE = b"\n    }\n  ]"


class GraphStream:
    """Iterate for the entities (plain dicts, in file order); `frame` then holds the rest of
    the document (its `entities` empty). A file not in the expected shape raises MembankError
    (it was recorded as membank wrote it, so it changed under the read)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.frame: dict[str, Any] = {}

    def __iter__(self) -> Iterator[dict[str, Any]]:
        with self.path.open("rb") as handle:
            buffer = handle.read(_BLOCK)
            at = buffer.find(_OPEN)
            if at < 0:  # (no entity, or another layout: parsed whole)
                whole = self._document(buffer + handle.read())
                yield from whole.get("entities") or ()
                self.frame = {**whole, "entities": []}
                return
            head, position = buffer[:at], at + len(_OPEN)
            close = buffer.find(_CLOSE, position)  # (the relations' objects follow it)
            while True:
                end = buffer.find(_BETWEEN, position)
                if close >= 0 and (end < 0 or close < end):
                    yield self._entity(buffer[position:close])
                    self._set_frame(head, buffer[close + len(_CLOSE):] + handle.read())
                    return
                if end < 0:  # (the next separator may straddle two blocks)
                    block = handle.read(_BLOCK)
                    if not block:
                        raise self._error("the entities' list is never closed")
                    buffer, position = buffer[position:] + block, 0
                    close = buffer.find(_CLOSE)
                    continue
                yield self._entity(buffer[position:end])
                position = end + len(_BETWEEN)

    def _entity(self, inner: bytes) -> dict[str, Any]:
        try:
            value = orjson.loads(b"{\n" + inner + b"\n}")
        except orjson.JSONDecodeError as exc:
            raise self._error(f"an entity is not JSON ({exc})") from exc
        if not isinstance(value, dict):
            raise self._error("an entity is not an object")
        return value

    def _set_frame(self, head: bytes, tail: bytes) -> None:
        self.frame = self._document(head + b'\n  "entities": []' + tail)

    def _document(self, data: bytes) -> dict[str, Any]:
        try:
            value = orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            raise self._error(f"not JSON ({exc})") from exc
        if not isinstance(value, dict):
            raise self._error("not an object")
        return value

    def _error(self, cause: str) -> MembankError:
        return MembankError(f"the knowledge graph changed while it was read: {cause}",
                            file=self.path, hint="rerun the command")

"""The knowledge graph's entities one at a time, for a full index build: the whole file parsed
at once holds 1.3 GB of dicts at 100,000 pages (a 423 MB file), more than the build's memory
budget.

Only a graph file exactly as membank wrote it (tasks/store/written.py) is streamed, by
tasks.store.graph_stream; a file not recorded so is read as before (tasks/store/graph_store.py's
load_graph_data validates it). Here a stream that does not read as membank writes is an error
naming the file: it was recorded as membank wrote it, so it changed under the read.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tasks.store import graph_stream
from tasks.store.errors import MembankError


class GraphStream:
    """Iterate for the entities (plain dicts, in file order); `frame` then holds the rest of
    the document (its `entities` empty)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.frame: dict[str, Any] = {}

    def __iter__(self) -> Iterator[dict[str, Any]]:
        stream = graph_stream.GraphStream(self.path, hashed=False)  # (nothing reads its sha256)
        try:
            yield from stream.entities()
        except ValueError as exc:  # (orjson's decode errors are ValueErrors too)
            raise MembankError(f"the knowledge graph changed while it was read: {exc}",
                               file=self.path, hint="rerun the command") from exc
        self.frame = stream.frame or {}

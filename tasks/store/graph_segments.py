"""The knowledge graph file entity by entity: where each entity's bytes sit, so a run that changes
a few entities rewrites the file from the unchanged byte ranges (copied in the kernel) and the
changed entities' new bytes, without reading, parsing or serializing the rest (the graph is
423 MB at 100,000 pages).

The file stays the one JSON document of spec/memory-bank.md, byte for byte what a full write of
the same data gives: orjson's indented output of the document is its frame's head, each
entity's own indented output shifted four spaces right, joined by ",\\n", then the frame's tail
(relations and extra keys). So an entity's bytes depend on that entity alone
(tests/tasks/store/test_graph_segments.py holds the equality).

`.membank/graph-segments.json` records, for the graph file as distill last wrote it (its
identity, as tasks/store/written.py records it), each entity's byte span (in the file's order:
sorted by entity key), its count of observations and the raw assets its provenance names. It
is bookkeeping, never the source of truth: it is used only while the graph file keeps that
identity and is recorded as membank wrote it, or is a copy or restore of those very bytes
(written.earlier_identities: the copy is trusted by its sha256, and the identity it had is
kept); any other write (reconcile's repairs, a hand edit, a rolled-back batch) gives the file
another identity, and the next distill reads and writes the whole file, which records the
spans again.
"""

from __future__ import annotations

import os
import re
import threading
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from schemas.graph import SUPERSEDED_RELATIONS_KEY, entity_key
from tasks.store.atomic import Part, atomic_write_bytes, atomic_write_chunks, atomic_write_parts
from tasks.store.file_versions import file_signature, graph_signature
from tasks.store.filememo import file_identity
from tasks.store.graph_delta import _middles, note_graph_write
from tasks.store.graph_store import normalize_graph_data
from tasks.store.graph_stream import GraphStream
from tasks.store.layout import STATE_DIR
from tasks.store.written import as_written, earlier_identities, record_written

SEGMENTS_FILE = f"{STATE_DIR}/graph-segments.json"
VERSION = 2
STAMP_KEY = "graphGeneratedAtUtc"
_STAMP_RE = re.compile(rb'"graphGeneratedAtUtc": "([^"\\]*)"')
_EMPTY = b'"entities": []'
_OPEN = b'"entities": [\n'
_CLOSE = b"\n  ]"
_SEPARATOR = b",\n"


def entity_bytes(entity: Mapping[str, Any]) -> bytes:
    """One entity as it sits in the graph file (indented to its depth, no separator)."""
    return b"    " + orjson.dumps(entity, option=orjson.OPT_INDENT_2).replace(b"\n", b"\n    ")


def frame_bytes(stamp: str, rest: Mapping[str, Any]) -> tuple[bytes, bytes]:
    """The document around its entities: the head (up to the entities' list, open) and the
    tail (from its close on). `rest`: the document's keys after `entities`, in order."""
    encoded = orjson.dumps({STAMP_KEY: stamp, "entities": [], **rest},
                           option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE)
    head, tail = encoded.split(_EMPTY, 1)
    return head + _OPEN, _CLOSE + tail


def _normalized_entity(entity: Mapping[str, Any]) -> Mapping[str, Any]:
    """`entity` as a whole graph's normalization writes it (normalize_graph_data)."""
    normal: Mapping[str, Any]
    (normal,) = normalize_graph_data({"graphGeneratedAtUtc": "", "entities": [entity],
                                      "relations": []})["entities"]
    return normal


def _assets_of(entity: Mapping[str, Any]) -> list[str]:
    return sorted({str(p.get("rawAssetId")) for p in entity.get("observationProvenance") or ()})


@dataclass
class Spans:
    """Each entity's bytes in a graph file, in file order (sorted by entity key), as columns:
    its key, start and end offsets, count of observations and the raw assets its provenance
    names. Columns, not a row object per entity: a rewrite shifts 100,000 of them."""

    keys: list[str] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    assets: list[list[str]] = field(default_factory=list)

    def add(self, key: str, start: int, length: int, entity: Mapping[str, Any]) -> None:
        self.keys.append(key)
        self.starts.append(start)
        self.ends.append(start + length)
        self.counts.append(len(entity.get("observations") or ()))
        self.assets.append(_assets_of(entity))

    def extend(self, old: Spans, first: int, stop: int, shift: int) -> None:
        """Old entities [first, stop) moved by `shift` bytes."""
        self.keys += old.keys[first:stop]
        self.starts += [start + shift for start in old.starts[first:stop]]
        self.ends += [end + shift for end in old.ends[first:stop]]
        self.counts += old.counts[first:stop]
        self.assets += old.assets[first:stop]

    def columns(self) -> dict[str, list[Any]]:
        return {"keys": self.keys, "starts": self.starts, "ends": self.ends,
                "counts": self.counts, "assets": self.assets}


@dataclass
class GraphSegments:
    """The graph file as distill last wrote it, entity by entity (see the module doc)."""

    graph_file: Path
    head_end: int  # where the first entity starts
    tail_start: int  # where the last entity ends
    spans: Spans
    index: dict[str, int] = field(default_factory=dict)  # entity key -> its row in spans
    frame_changed: bool = True  # set by save_graph_changes: whether relations or extras changed
    # set by save_graph_changes: the parts of the relation lists it changed (relation_middles)
    relation_parts: dict[str, list[list[Any]]] | None = None
    _by_asset: dict[str, list[str]] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.index = {key: row for row, key in enumerate(self.spans.keys)}

    @classmethod
    def load(cls, graph_file: Path) -> GraphSegments | None:
        """The spans of `graph_file` when they were recorded for this very file; else None."""
        handed = _handed_over(graph_file)
        if handed is not None:
            return handed
        try:
            data = orjson.loads((graph_file.parent.parent / SEGMENTS_FILE).read_bytes())
            if (data.get("version") != VERSION or not as_written(graph_file)
                    or data.get("identity") not in [file_identity(graph_file),
                                                    *earlier_identities(graph_file)]):
                return None
            spans = Spans(*(list(data[name]) for name in ("keys", "starts", "ends", "counts", "assets")))
            if len({len(column) for column in spans.columns().values()}) != 1 or not spans.keys:
                return None
            return cls(graph_file, int(data["headEnd"]), int(data["tailStart"]), spans)
        except (OSError, orjson.JSONDecodeError, AttributeError, KeyError, TypeError, ValueError):
            return None

    @classmethod
    def scan(cls, graph_file: Path) -> GraphSegments | None:
        """The spans of a graph file membank wrote (tasks/store/written.py) whose spans were not
        recorded (a repair run's or a generator's write, a copy), found in one pass that holds
        one entity at a time, when every entity sits as a distill write would put it: keys
        strictly increasing, each entity normalized (normalize_graph_data leaves it as it is)
        and its bytes `entity_bytes` of it. Then a distill merges by entity, as after its own
        write, and writes what a whole read and write would (untouched entities keep their
        bytes either way). None otherwise (the caller reads the file whole)."""
        if not as_written(graph_file):
            return None
        stream = GraphStream(graph_file, hashed=False)
        spans, last = Spans(), ""
        try:
            for start, data in stream.entity_spans():
                entity = orjson.loads(data)
                key = entity_key(entity["entityName"])
                if key <= last or entity_bytes(_normalized_entity(entity)) != data:
                    return None
                spans.add(key, start, len(data), entity)
                last = key
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None
        if not spans.keys:
            return None
        return cls(graph_file, stream.head_end, stream.tail_start, spans)

    def read(self, start: int, end: int | None = None) -> bytes:
        with self.graph_file.open("rb") as handle:
            if end is None:
                end = os.fstat(handle.fileno()).st_size
            return os.pread(handle.fileno(), end - start, start)

    def entity(self, key: str) -> dict[str, Any]:
        row = self.index[key]
        value = orjson.loads(self.read(self.spans.starts[row], self.spans.ends[row]))
        if not isinstance(value, dict):
            raise ValueError(f"{self.graph_file}: entity {key!r} is not an object")
        return value

    def frame(self) -> dict[str, Any]:
        """The document without its entities: the stamp, relations and extra keys."""
        value = orjson.loads(self.read(0, self.head_end) + self.read(self.tail_start))
        if not isinstance(value, dict):
            raise ValueError(f"{self.graph_file}: not an object")
        return value

    def with_asset(self, asset_id: str) -> list[str]:
        """Keys of the entities whose provenance names raw asset `asset_id`."""
        if self._by_asset is None:
            self._by_asset = {}
            for key, assets in zip(self.spans.keys, self.spans.assets, strict=True):
                for asset in assets:
                    self._by_asset.setdefault(asset, []).append(key)
        return list(self._by_asset.get(asset_id, ()))

    def observations(self, without: AbstractSet[str] = frozenset()) -> int:
        """Observations of every entity but those of `without`."""
        counts = self.spans.counts
        return sum(counts) - sum(counts[self.index[key]] for key in without if key in self.index)


@dataclass
class _Assembly:
    """A graph file being put together: its parts (new bytes, ranges of the old file) and
    where each entity lands."""

    parts: list[Part] = field(default_factory=list)
    spans: Spans = field(default_factory=Spans)
    size: int = 0
    head_end: int = 0

    def add(self, part: Part) -> None:
        self.parts.append(part)
        self.size += len(part) if isinstance(part, bytes) else part[1]

    def separate(self) -> None:
        if self.spans.keys:
            self.add(_SEPARATOR)

    def new(self, key: str, encoded: bytes, entity: Mapping[str, Any]) -> None:
        self.separate()
        self.spans.add(key, self.size, len(encoded), entity)
        self.add(encoded)

    def old(self, old: GraphSegments, first: int, stop: int) -> None:
        """Old entities [first, stop), one range of the old file (their separators included)."""
        if first >= stop:
            return
        self.separate()
        start, end = old.spans.starts[first], old.spans.ends[stop - 1]
        self.spans.extend(old.spans, first, stop, self.size - start)
        self.add((start, end - start))


def _record(graph_file: Path, assembly: _Assembly) -> None:
    _record_spans(graph_file, assembly.head_end, assembly.spans)


def _record_spans(graph_file: Path, head_end: int, spans: Spans | None) -> None:
    """Record the file as membank wrote it and (`spans` not None) where its entities sit."""
    record_written(graph_file)
    record = graph_file.parent.parent / SEGMENTS_FILE
    if spans is None or not record.parent.is_dir():
        return
    identity = file_identity(graph_file)
    atomic_write_bytes(record, orjson.dumps({
        "version": VERSION, "identity": identity, "headEnd": head_end,
        "tailStart": spans.ends[-1], **spans.columns()}), validate=False)
    with _HANDED_GUARD:
        _HANDED[str(graph_file)] = (identity, head_end, spans)


# The spans this process just recorded, by graph file: the next GraphSegments.load of that file
# in the process (the search index update after distill's write) takes them instead of parsing
# the record again (5 MB at 100,000 pages), while the file keeps the identity they were
# recorded for, once (a later load reads the record, as any other process does).
_HANDED: dict[str, tuple[list[int] | None, int, Spans]] = {}
_HANDED_GUARD = threading.Lock()


def _handed_over(graph_file: Path) -> GraphSegments | None:
    with _HANDED_GUARD:
        handed = _HANDED.pop(str(graph_file), None)
    if handed is None:
        return None
    identity, head_end, spans = handed
    if (identity is None or not spans.keys or identity != file_identity(graph_file)
            or not as_written(graph_file) or not (graph_file.parent.parent / SEGMENTS_FILE).is_file()):
        return None
    return GraphSegments(graph_file, head_end, spans.ends[-1], spans)


@dataclass
class _Stream:
    """A graph file written entity by entity: the bytes go out as they come, only the spans
    stay (None once the entities turn out not sorted by key: nothing to record then)."""

    spans: Spans | None = field(default_factory=Spans)
    size: int = 0
    head_end: int = 0

    def chunks(self, stamp: str, entities: Iterable[Mapping[str, Any]],
               rest: Callable[[], Mapping[str, Any]]) -> Iterator[bytes]:
        head = frame_bytes(stamp, {})[0]
        self.size = self.head_end = len(head)
        yield head
        last: str | None = None
        for entity in entities:
            key, encoded = entity_key(entity["entityName"]), entity_bytes(entity)
            if last is not None:
                yield _SEPARATOR
                self.size += len(_SEPARATOR)
            if self.spans is not None and (last is None or last < key):
                self.spans.add(key, self.size, len(encoded), entity)
            else:
                self.spans = None
            last, self.size = key, self.size + len(encoded)
            yield encoded
        if last is None:
            raise ValueError("a graph without entities is not written by entity")
        yield frame_bytes(stamp, rest())[1]


def save_graph_stream(graph_file: Path, entities: Iterable[Mapping[str, Any]],
                      rest: Callable[[], Mapping[str, Any]], *, now_iso: str) -> None:
    """Write a graph entity by entity, never holding it whole: `entities` in the shape
    save_graph writes (graph_store.entity_as_saved), at least one, in file order; `rest()`,
    called once they are all written, the document's keys after them (relations, extra keys,
    as graph_store.rest_as_saved). The stamp is `now_iso`: the caller writes only a graph that
    changed. The bytes are save_graph's for the same data; the file is recorded as membank
    wrote it, and its spans too when its entities are sorted by key. An error raised by
    `entities` or `rest` leaves the file as it was."""
    stream = _Stream()
    atomic_write_chunks(graph_file, stream.chunks(now_iso, entities, rest))
    _record_spans(graph_file, stream.head_end, stream.spans)


def _old_stamp(graph_file: Path) -> str | None:
    try:
        with graph_file.open("rb") as handle:
            found = _STAMP_RE.search(handle.read(4096))
    except FileNotFoundError:
        return None
    return found.group(1).decode("utf-8") if found else None


def _rest(data: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key not in (STAMP_KEY, "entities")}


def save_graph_segments(graph_file: Path, data: Mapping[str, Any], *, now_iso: str) -> bool | None:
    """Write a whole normalized graph (normalize_graph_data's output) as graph_store's
    save_graph_data does (the stamp refreshed only when something else changed) and record its
    spans. None when it cannot be written by entity (no entity, or the old file's stamp is not
    where membank puts it): the caller writes it whole."""
    old = _old_stamp(graph_file)
    entities: Sequence[Mapping[str, Any]] = data["entities"]
    if not entities or (old is None and graph_file.exists()):
        return None
    rendered = [(entity_key(e["entityName"]), entity_bytes(e), e) for e in entities]
    assembly = _assemble(old or now_iso, _rest(data), rendered)
    if old is not None and _same_as_file(graph_file, assembly):
        _record(graph_file, assembly)
        return False
    assembly = _assemble(now_iso, _rest(data), rendered)
    atomic_write_parts(graph_file, assembly.parts)
    _record(graph_file, assembly)
    return True


def _assemble(stamp: str, rest: Mapping[str, Any],
              rendered: Iterable[tuple[str, bytes, Mapping[str, Any]]]) -> _Assembly:
    head, tail = frame_bytes(stamp, rest)
    assembly = _Assembly()
    assembly.add(head)
    assembly.head_end = len(head)
    for key, encoded, entity in rendered:
        assembly.new(key, encoded, entity)
    assembly.add(tail)
    return assembly


def _same_as_file(graph_file: Path, assembly: _Assembly) -> bool:
    """Whether the assembled bytes (new parts only: ranges come from the file) are the file's."""
    with graph_file.open("rb") as handle:
        if os.fstat(handle.fileno()).st_size != assembly.size:
            return False
        position = 0
        for part in assembly.parts:
            if isinstance(part, tuple):
                if part[0] != position:
                    return False
                position += part[1]
                continue
            if os.pread(handle.fileno(), len(part), position) != part:
                return False
            position += len(part)
    return True


def save_graph_changes(segments: GraphSegments, changed: Mapping[str, Mapping[str, Any]],
                       rest: Mapping[str, Any], *, now_iso: str) -> bool:
    """Write the graph of `segments` with the entities `changed` (entity key -> normalized
    entity: replaced or added) and the document's `rest` (relations, extra keys: normalized),
    copying every other entity's bytes from the file; record the new spans. False (nothing
    written) when the file already holds exactly that."""
    graph_file = segments.graph_file
    old = _old_stamp(graph_file) or now_iso
    rendered = {key: (entity_bytes(entity), entity) for key, entity in changed.items()}
    assembly = _assemble_changes(segments, old, rest, rendered)
    tail = assembly.parts[-1]
    segments.frame_changed = not isinstance(tail, bytes) or tail != segments.read(segments.tail_start)
    segments.relation_parts = None  # (an earlier write's, on segments handed over in process)
    if _same_as_file(graph_file, assembly):
        _record(graph_file, assembly)
        return False
    assembly = _assemble_changes(segments, now_iso, rest, rendered)
    before = file_identity(graph_file)
    replaced = {key: None if (row := segments.index.get(key)) is None
                else segments.read(segments.spans.starts[row], segments.spans.ends[row])
                for key in rendered}
    old_frame = segments.frame() if segments.frame_changed else None
    segments.relation_parts = None if old_frame is None else relation_middles(old_frame, rest)
    atomic_write_parts(graph_file, assembly.parts)
    _record(graph_file, assembly)
    note_graph_write(graph_file, before, replaced, old_frame, rest)  # for reconcile's check
    return True


def _assemble_changes(segments: GraphSegments, stamp: str, rest: Mapping[str, Any],
                      rendered: Mapping[str, tuple[bytes, Mapping[str, Any]]]) -> _Assembly:
    """The file: the old entities between changed ones copied as whole ranges, in key order."""
    head, tail = frame_bytes(stamp, rest)
    assembly = _Assembly()
    assembly.add(head)
    assembly.head_end = len(head)
    keys, row = segments.spans.keys, 0
    for key in sorted(rendered):
        at = bisect_left(keys, key)
        assembly.old(segments, row, at)
        row = at + 1 if at < len(keys) and keys[at] == key else at
        encoded, entity = rendered[key]
        assembly.new(key, encoded, entity)
    assembly.old(segments, row, len(keys))
    assembly.add(tail)
    return assembly


# --------------------------------------------------------------------------- what a write changed

CHANGES_FILE = f"{STATE_DIR}/graph-changes.json"
RELATION_LISTS = ("relations", SUPERSEDED_RELATIONS_KEY)  # the frame's two relation lists
# A write's changed parts of the relation lists are recorded up to this many relations (a
# decision note adds one or two); past it the search index compares every relation row.
MAX_RECORDED_RELATIONS = 2_000


def relation_middles(old_frame: Mapping[str, Any], new_frame: Mapping[str, Any]
                     ) -> dict[str, list[list[Any]]] | None:
    """For each relation list, [its old part, its new part] between the longest head and tail
    the two frames' lists share (the relations are kept sorted, so one added relation is a new
    part of one); None past MAX_RECORDED_RELATIONS or when a list is not a list."""
    parts: dict[str, list[list[Any]]] = {}
    for name in RELATION_LISTS:
        old, new = old_frame.get(name) or [], new_frame.get(name) or []
        if not isinstance(old, list) or not isinstance(new, list):
            return None
        parts[name] = list(_middles(old, new))
    if sum(len(part) for pair in parts.values() for part in pair) > MAX_RECORDED_RELATIONS:
        return None
    return parts


@dataclass(frozen=True)
class GraphChanges:
    """What the last graph write changed since a given graph and registry (changes_since)."""

    segments: GraphSegments  # the graph file by entity, to read the changed ones
    keys: list[str]  # entities whose facts or registry entry may have changed
    frame_changed: bool  # relations or extra keys changed
    # relation_middles' parts when the write recorded them (the relations outside them are as
    # they were); None: not recorded, every relation is to be read from the frame
    relations: dict[str, list[list[Any]]] | None = None


def record_changes(segments: GraphSegments, registry_file: Path, previous: str,
                   changed: Iterable[str]) -> None:
    """After a distill that wrote the graph by entity (`segments`, as save_graph_changes left
    it): the entities whose facts or registry entry may differ from the graph and registry of
    signature `previous`, so the search index re-reads those alone (changes_since). Valid
    while both files keep their new versions."""
    graph_file = segments.graph_file
    record = graph_file.parent.parent / CHANGES_FILE
    if not record.parent.is_dir() or previous == graph_signature(graph_file, registry_file):
        return  # neither file was written: the index has nothing to catch up on (and a rerun
        # that changes nothing leaves the state folder as it was)
    relations = segments.relation_parts if segments.frame_changed else None
    atomic_write_bytes(record, orjson.dumps({
        "identity": file_identity(graph_file), "registry": file_signature(registry_file),
        "previous": previous, "changed": sorted(set(changed)),
        "frameChanged": segments.frame_changed,
        **({} if relations is None else {"relations": relations})}), validate=False)


def changes_since(graph_file: Path, registry_file: Path, signature: str | None
                  ) -> GraphChanges | None:
    """The entities that may have changed since the graph and registry had `signature`, when
    the last write recorded exactly that step (record_changes); None otherwise (the caller
    reads every entity)."""
    try:
        data = orjson.loads((graph_file.parent.parent / CHANGES_FILE).read_bytes())
        if (signature is None or data.get("previous") != signature
                or data.get("identity") != file_identity(graph_file)
                or data.get("registry") != file_signature(registry_file)):
            return None
        changed = [str(key) for key in data["changed"]]
        frame_changed = data["frameChanged"] is not False
        relations = _recorded_relations(data.get("relations"))
    except (OSError, orjson.JSONDecodeError, AttributeError, KeyError, TypeError):
        return None
    segments = GraphSegments.load(graph_file)
    return None if segments is None else GraphChanges(segments, changed, frame_changed, relations)


def _recorded_relations(data: object) -> dict[str, list[list[Any]]] | None:
    """relation_middles' parts as record_changes wrote them; None when absent or of another
    shape."""
    if not isinstance(data, dict) or set(data) != set(RELATION_LISTS):
        return None
    for pair in data.values():
        if (not isinstance(pair, list) or len(pair) != 2
                or not all(isinstance(part, list) for part in pair)):
            return None
    return data

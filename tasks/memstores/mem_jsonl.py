""".mem JSONL stores (spec/mem-jsonl.md): parse index.jsonl, domains/*.jsonl, archive/*.jsonl.

`parse_lines` is pure (bytes in, located records and findings out); `read_mem_store` reads a
store's files once, never writes. A bad line is a finding with its file and line, never an
exception: a line that is not JSON is `mem_invalid_json`; a record spread over several lines
(pretty-printed) is read whole, reported as `mem_pretty_printed` and still used for the other
checks, so one mistake is one finding.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from pydantic import ValidationError

from schemas.stores import MemIndexEntry, MemRecord, StoreFinding
from tasks.memstores.findings import store_finding
from tasks.memstores.store_names import is_mem_store

ID_IN_LINE = re.compile(rb'"id"\s*:\s*"([^"\\]{1,80})"')  # names a broken line's record
MAX_PRETTY_LINES = 200  # how far a pretty-printed record is followed before giving up


@dataclass(slots=True)
class MemRecordAt:
    """A parsed line and where it was read: `line_end` > `line` only for a record that was
    (wrongly) pretty-printed. A plain dataclass: 50,000 of them are built per audit."""

    file: str
    line: int
    line_end: int
    place: str  # index, domains or archive
    record: MemRecord | None = None
    index: MemIndexEntry | None = None
    size_bytes: int = 0


@dataclass
class MemStore:
    """Every line of a store, in file order; `files` maps store-relative path -> bytes."""

    root: Path
    index: list[MemRecordAt] = field(default_factory=list)
    domains: list[MemRecordAt] = field(default_factory=list)
    archive: list[MemRecordAt] = field(default_factory=list)
    findings: list[StoreFinding] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)
    # .gitattributes files over the store, outermost first: (the store's path seen from the
    # file's folder, e.g. ".mem/" or "", the file's text).
    attributes: list[tuple[str, str]] = field(default_factory=list)
    # Lines the last commit had and the working tree no longer has, by store-relative file
    # (None: not in a git work tree, so append-only cannot be checked).
    removed: dict[str, list[bytes]] | None = None


def _describe(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors()[:3]:
        where = ".".join(str(p) for p in error["loc"]) or "record"
        parts.append(f"{where}: {error['msg']}")
    return "; ".join(parts)


def _load(text: bytes) -> Any:
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return None


def _pretty_end(lines: list[bytes], start: int) -> tuple[int, Any] | None:
    """A record starting at `lines[start]` and closed some lines later: (end index, value)."""
    if not lines[start].lstrip().startswith(b"{") or lines[start].rstrip().endswith(b"}"):
        return None
    chunk = [lines[start]]
    for end in range(start + 1, min(len(lines), start + MAX_PRETTY_LINES)):
        chunk.append(lines[end])
        if lines[end].rstrip().endswith(b"}"):
            value = _load(b"\n".join(chunk))
            if isinstance(value, dict):
                return end, value
    return None


def _located(rel: str, place: str, lines: tuple[int, int], value: Any,
             size: int) -> MemRecordAt | StoreFinding:
    """The record read on `lines` (first, last; 1-based) of `rel`, or why it is not one."""
    line, line_end = lines
    if not isinstance(value, dict):
        return store_finding("mem_invalid_record", rel, line,
                             f"a JSON {type(value).__name__}, not a record object")
    try:
        if place == "index":
            return MemRecordAt(rel, line, line_end, place, index=MemIndexEntry.model_validate(value),
                               size_bytes=size)
        return MemRecordAt(rel, line, line_end, place, record=MemRecord.model_validate(value),
                           size_bytes=size)
    except ValidationError as exc:
        ident = value.get("id")
        label = f"record {ident!r}" if isinstance(ident, str) else "record"
        return store_finding("mem_invalid_record", rel, line, f"{label}: {_describe(exc)}")


def parse_lines(rel: str, data: bytes, place: str) -> tuple[list[MemRecordAt], list[StoreFinding]]:
    """Every record of one JSONL file, with its line; bad lines become findings."""
    records: list[MemRecordAt] = []
    findings: list[StoreFinding] = []
    lines = data.split(b"\n")
    number = 0
    while number < len(lines):
        raw = lines[number]
        if not raw.strip():
            number += 1
            continue
        value = _load(raw)
        end = number
        if value is None:
            pretty = _pretty_end(lines, number)
            if pretty is None:
                ident = ID_IN_LINE.search(raw)
                named = f"record {ident.group(1).decode('utf-8', 'replace')!r}: " if ident else ""
                findings.append(store_finding("mem_invalid_json", rel, number + 1,
                                              f"{named}not valid JSON: " + _snippet(raw)))
                number += 1
                continue
            end, value = pretty
            findings.append(store_finding(
                "mem_pretty_printed", rel, number + 1,
                f"record {value.get('id')!r} is pretty-printed over lines {number + 1}-{end + 1}"))
        item = _located(rel, place, (number + 1, end + 1), value, len(raw))
        if isinstance(item, MemRecordAt):
            records.append(item)
        else:
            findings.append(item)
        number = end + 1
    return records, findings


def _snippet(raw: bytes, limit: int = 60) -> str:
    text = raw.decode("utf-8", "replace").strip()
    return repr(text if len(text) <= limit else text[:limit] + "...")


@contextmanager
def paused_gc() -> Iterator[None]:
    """No cyclic GC while parsing: records hold no cycles, and with 100,000 live objects the
    collector's repeated passes cost four times the parse itself (measured: 5.5 s -> 1.3 s)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def read_mem_store(root: Path) -> MemStore:
    """Read index.jsonl, domains/*.jsonl and archive/*.jsonl (sorted); findings for what is
    missing or malformed. Reads only."""
    with paused_gc():
        return _read_mem_store(root)


def _read_mem_store(root: Path) -> MemStore:
    store = MemStore(root=root)
    if not is_mem_store(root):
        store.findings.append(store_finding(
            "mem_store_missing", ".", None,
            f"{root} holds neither index.jsonl nor domains/: not a .mem store"))
        return store
    targets: list[tuple[str, str]] = []
    if (root / "index.jsonl").is_file():
        targets.append(("index.jsonl", "index"))
    else:
        store.findings.append(store_finding("mem_store_missing", "index.jsonl", None,
                                            "index.jsonl is missing: no record is visible"))
    for place in ("domains", "archive"):
        folder = root / place
        if folder.is_dir():
            targets.extend((f"{place}/{p.name}", place) for p in sorted(folder.glob("*.jsonl")))
    for folder, seen_as in ((root.parent, f"{root.name}/"), (root, "")):
        try:
            text = (folder / ".gitattributes").read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        store.attributes.append((seen_as, text))
    store.removed = removed_lines(root)
    for rel, place in targets:
        try:
            data = (root / rel).read_bytes()
        except OSError as exc:
            store.findings.append(store_finding("mem_invalid_json", rel, None,
                                                f"cannot read: {exc.strerror}"))
            continue
        store.files[rel] = data
        records, findings = parse_lines(rel, data, place)
        getattr(store, place).extend(records)
        store.findings.extend(findings)
    return store


def removed_lines(root: Path) -> dict[str, list[bytes]] | None:
    """The lines of the store's .jsonl files that the last commit had and the working tree no
    longer has (`git diff HEAD`), by store-relative file; None outside a git work tree."""
    import subprocess

    try:
        done = subprocess.run(  # fixed argv, no shell
            ["git", "-C", str(root), "diff", "HEAD", "--no-color", "--no-ext-diff",
             "--unified=0", "--relative", "--", "."],
            capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    removed: dict[str, list[bytes]] = {}
    current: str | None = None
    for line in done.stdout.split(b"\n"):
        if line.startswith(b"--- "):
            name = line[4:].decode("utf-8", "replace")
            current = name[2:] if name.startswith("a/") else None
        elif line.startswith(b"-") and current and current.endswith(".jsonl") and line[1:].strip():
            removed.setdefault(current, []).append(line[1:])
    return removed

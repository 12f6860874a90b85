"""Ingest: sources in, immutable raw copies, source pages (sharded when large) out.

Three steps, split so the parallel part is pure and one writer applies:

    collect_inputs(paths)            paths, folders and globs -> SourceInput list + problems
    prepare_batch(inputs, settings)  read each file once, check it, hash, plan pages, count
                                     tokens (runs as one Prefect task per batch)
    apply_ingest(operation, ...)     the single writer: dedupe, name, write raw + pages,
                                     supersede older versions, manifest, hub, index, log

A bad input becomes one `Problem` naming the file and the cause; the rest of the batch goes on.
"""

from __future__ import annotations

import errno
import glob
import hashlib
import os
import re
import stat
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from pathlib import Path, PurePosixPath
from typing import Any

import orjson
import yaml

from schemas.raw_manifest import RawAsset, RawManifest, RevertEvent
from schemas.report import ArtifactRecord, MemoryOperationReport, Problem
from tasks.atomic import StagedWrites, check_real_folder
from tasks.catalog import CatalogEntry, update_hub, update_index
from tasks.errors import InputError, MembankError
from tasks.graph_store import empty_manifest, load_manifest, save_manifest
from tasks.html_source import html_to_markdown
from tasks.layout import MemoryLayout
from tasks.logbook import record_operation
from tasks.markdown.fences import FenceTracker
from tasks.names import SLUG_MAX_LENGTH, is_ambiguous, slug_from_title
from tasks.operation import Operation
from tasks.pages import dump_frontmatter, read_page, render_page, write_page
from tasks.privacy.gate import accepted_record, check_text, forgotten_asset_ids, load_baseline
from tasks.safe_yaml import as_written, load_yaml, load_yaml_with_layout
from tasks.search.refresh import refresh_search_index
from tasks.settings import MembankSettings
from tasks.shard import (
    Heading,
    Shard,
    frontmatter_lines,
    headings_of,
    line_index,
    markdown_blocks,
    shard_plan,
)
from tasks.stores.discover import StoreRoles
from tasks.stores.mem_jsonl import MEM_DIR, is_mem_store
from tasks.tokens import count_tokens
from tasks.versions import SUPERSEDES_PAGE_KEY, current_of_reverted, reinstated

SOURCES_HUB = "wiki/sources/index.md"
MARKDOWN = "text/markdown"
PLAIN_TEXT = "text/plain"
JSON = "application/json"
JSON_LINES = "application/jsonl"  # JSON Lines, e.g. chat transcripts: one record per line
HTML = "text/html"  # pages show it converted to markdown (tasks.html_source); raw/ keeps the bytes
MARKDOWN_TEXT = frozenset({MARKDOWN, HTML})  # media types whose page text is markdown
MEDIA_TYPES = {
    ".md": MARKDOWN,
    ".markdown": MARKDOWN,
    ".mdown": MARKDOWN,
    ".txt": PLAIN_TEXT,
    ".text": PLAIN_TEXT,
    ".log": PLAIN_TEXT,
    ".json": JSON,
    ".jsonl": JSON_LINES,
    ".ndjson": JSON_LINES,
    ".html": HTML,
    ".htm": HTML,
}
_FENCE_LANG = {PLAIN_TEXT: "text", JSON: "json", JSON_LINES: "jsonl"}
_MESSAGE_KEYS = ("content", "text", "message", "body")
_BACKTICKS_RE = re.compile(r"`+")
_BASE_SLUG_MAX = SLUG_MAX_LENGTH - 6  # room for a "-NNNNN" uniqueness suffix
_GLOB_CHARS = re.compile(r"[*?\[]")
# An ATX heading or a fence opener, anchored on a literal newline rather than ^ (see scan_headings).
# The title is the rest of the line, its closing #s stripped in Python (a lazy title before
# "[ \t#]*$" would retry every split of a long run of blanks: quadratic in the line length).
_NL_ATX_OR_FENCE_RE = re.compile(
    r"\n {0,3}(?:(?P<hashes>#{1,6})(?:[ \t](?P<title>[^\n]*)|[ \t#]*+)$|(?P<fence>`{3,}|~{3,}))",
    re.MULTILINE)
_SENTENCE_RE = re.compile(r"^(.+?[.!?])(?=\s|$)")
# No "[" in link text or target and no "<" in a tag: a scan never runs past the next opener,
# so a line of 1,000,000 "[" or "<" costs linear time, not quadratic.
_LINK_RE = re.compile(r"!?\[([^\[\]]*)\]\([^)\[]*\)")
_MARKUP_RE = re.compile(r"[*_`]+|<[^<>]+>")
_INLINE_MAX = 4_000  # titles, outlines and descriptions are clipped far shorter
_NAME_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z__(?P<slug>[a-z0-9][a-z0-9-]*)\.[a-z0-9]+$")
_DESCRIPTION_MAX = 240
_TITLE_MAX = 120
_TOC_HEADINGS_MAX = 12
# Threads creating the writer's staged files while it renders the next source (see StagedWrites).
_STAGE_IO_THREADS = 4
_FENCE_KEY_ROOM = 64  # key names and quoting of reopened_fence/closed_fence (values: planner)


# --------------------------------------------------------------------------------------------
# Inputs


@dataclass(frozen=True)
class SourceInput:
    """One file to ingest: where it is, what it is called in reports, and its size on disk."""

    path: str  # absolute path (symlinks not resolved): the original path recorded in the manifest
    display: str  # as the user would recognize it
    size: int
    store_role: str | None = None  # a memory store's file (tasks/stores): `mem:<rel>`, `custodian:<rel>`


def _problem(file: str | Path, code: str, message: str, hint: str | None = None) -> Problem:
    return Problem(file=str(file), code=code, message=message, hint=hint)


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except (ValueError, RuntimeError, OSError):  # RuntimeError: a symlink loop (Python 3.11)
        return False
    return True


def _symlink_loop(path: Path) -> bool:
    """True when following `path` never ends (Path.resolve raises RuntimeError on 3.11,
    OSError ELOOP on later versions)."""
    try:
        path.resolve(strict=True)
    except RuntimeError:
        return True
    except OSError as exc:
        return exc.errno == errno.ELOOP
    return False


def _loop_problem(display: str, path: Path) -> Problem:
    return _problem(display, "symlink_loop",
                    f"symlink loop: {path} -> {os.readlink(path)} never reaches a file; not stored",
                    "remove or fix the symlink")


def _check_file(path: Path, base: Path, display: str) -> SourceInput | Problem:
    if path.is_symlink() and _symlink_loop(path):
        return _loop_problem(display, path)
    if path.is_symlink() and not _inside(path, base):
        return _problem(display, "symlink_outside",
                        f"symlink points outside {base}: {os.readlink(path)}",
                        "copy the file into the folder you ingest, or ingest its real path")
    try:
        info = path.stat()
    except FileNotFoundError:
        return _problem(display, "not_found", "path does not exist (dangling symlink?)")
    except OSError as exc:
        return _problem(display, "unreadable", f"cannot read file: {exc.strerror}")
    if not stat.S_ISREG(info.st_mode):
        return _problem(display, "not_a_file", "not a regular file")
    return SourceInput(os.path.abspath(path), display, info.st_size)


def _walk(folder: Path, display: str) -> list[SourceInput | Problem]:
    """Files under a folder, recursively, sorted by relative path; hidden names are skipped."""
    found = sorted(_walk_unsorted(folder, display),
                   key=lambda item: item.display if isinstance(item, SourceInput) else str(item.file))
    return found


def _walk_unsorted(folder: Path, display: str) -> Iterable[SourceInput | Problem]:
    unlistable: list[OSError] = []  # os.walk reports a folder it cannot list here, then goes on
    for current, dirnames, filenames in os.walk(folder, onerror=unlistable.append, followlinks=False):
        here = Path(current)
        kept = []
        for name in sorted(dirnames):
            sub = here / name
            if name.startswith(".") and not (name == MEM_DIR and is_mem_store(sub)):
                continue  # hidden, except a .mem/ store (spec/mem-jsonl.md)
            if sub.is_symlink():
                shown = os.path.join(display, os.path.relpath(sub, folder))
                if _symlink_loop(sub):
                    yield _loop_problem(shown, sub)
                elif not _inside(sub, folder):
                    yield _problem(os.path.join(display, os.path.relpath(sub, folder)), "symlink_outside",
                                   f"symlinked folder points outside {folder}: {os.readlink(sub)}",
                                   "ingest the real folder instead")
                continue
            kept.append(name)
        dirnames[:] = kept
        for name in sorted(filenames):
            if name.startswith("."):
                continue
            shown = os.path.join(display, os.path.relpath(here / name, folder))
            yield _check_file(here / name, folder, shown)
    for exc in unlistable:
        where = Path(exc.filename) if exc.filename else folder
        yield _problem(os.path.join(display, os.path.relpath(where, folder)), "unlistable_folder",
                       f"cannot list folder: {exc.strerror}; nothing under it was stored",
                       "give the user running membank read and execute permission on it")


def collect_inputs(paths: Sequence[str | Path]) -> tuple[list[SourceInput], list[Problem]]:
    """Expand files, folders (recursively, sorted) and globs; every miss becomes a Problem."""
    inputs: list[SourceInput] = []
    problems: list[Problem] = []
    seen: set[str] = set()

    def add(found: Iterable[SourceInput | Problem]) -> None:
        for item in found:
            if isinstance(item, Problem):
                problems.append(item)
            elif item.path not in seen:
                seen.add(item.path)
                inputs.append(item)

    for raw in paths:
        text = str(raw)
        path = Path(text).expanduser()
        if not path.exists() and not path.is_symlink() and _GLOB_CHARS.search(text):
            matches = sorted(glob.glob(str(path), recursive=True))
            if not matches:
                problems.append(_problem(text, "not_found", "no file matches this pattern"))
            for match in matches:
                match_path = Path(match)
                add(_walk(match_path, match) if match_path.is_dir() else
                    [_check_file(match_path, match_path.parent, match)])
        elif path.is_dir() and not path.is_symlink():
            add(_walk(path, text.rstrip("/") or text))
        elif path.exists() or path.is_symlink():
            add([_check_file(path, path.absolute().parent, text)])
        else:
            problems.append(_problem(text, "not_found", "path does not exist"))
    roles = StoreRoles()
    inputs = [replace(item, store_role=role) if (role := roles.role(item.path)) else item
              for item in inputs]
    return inputs, problems


def plan_batches(inputs: Sequence[SourceInput], batches: int) -> list[list[SourceInput]]:
    """Contiguous batches of about equal bytes (order kept, so the writer sees input order)."""
    if not inputs:
        return []
    count = max(1, min(batches, len(inputs)))
    total = sum(max(i.size, 1) for i in inputs)
    target = total / count
    result: list[list[SourceInput]] = [[]]
    filled = 0
    for item in inputs:
        if result[-1] and filled >= target * len(result) and len(result) < count:
            result.append([])
        result[-1].append(item)
        filled += max(item.size, 1)
    return result


# --------------------------------------------------------------------------------------------
# Preparation (pure apart from reading the file once)


@dataclass
class PreparedSource:
    """Everything about one accepted source that does not depend on names in the store."""

    input: SourceInput
    data: bytes
    text: str
    media_type: str
    ext: str
    base_slug: str
    title: str
    description: str
    headings: list[Heading]
    shards: list[Shard] | None  # None: the content fits on the source page
    token_count: int = 0
    warnings: list[Problem] = field(default_factory=list)  # accepted, but a person should know
    blocked: list[Problem] = field(default_factory=list)  # privacy gate: not stored, one per finding
    accepted_secrets: list[dict[str, object]] = field(default_factory=list)  # --allow-secrets record

    @cached_property
    def asset_id(self) -> str:
        """sha256 of the bytes, computed by the writer (forked preparers never hash; see
        flows.runners.forked_workers)."""
        return hashlib.sha256(self.data).hexdigest()

    @property
    def content_hash(self) -> str:
        return f"sha256:{self.asset_id}"


def scan_headings(text: str) -> list[Heading]:
    """ATX headings outside fenced code, in one regex pass (outline of small sources).

    The text is scanned with a leading newline so the pattern starts with a literal "\n" (the
    regex engine then jumps from newline to newline instead of trying every position).
    """
    headings: list[Heading] = []
    fence: str | None = None
    shifted = "\n" + text
    line = 0  # newlines in `shifted` before the current match's line start = its 1-based line
    last = 0
    for match in _NL_ATX_OR_FENCE_RE.finditer(shifted):
        start = match.start() + 1  # the line starts after the matched newline
        line += shifted.count("\n", last, start)
        last = start
        marker = match.group("fence")
        if marker:
            if fence is None:
                fence = marker
            elif marker[0] == fence[0] and len(marker) >= len(fence):
                end = shifted.find("\n", match.end())
                if not shifted[match.end() : end if end >= 0 else len(shifted)].strip():
                    fence = None
        elif fence is None and match.group("hashes"):
            title = (match.group("title") or "").strip(" \t").rstrip(" \t#").strip()
            if title:
                headings.append(Heading(len(match.group("hashes")), title, line))
    return headings


def _clean_inline(text: str) -> str:
    text = _LINK_RE.sub(r"\1", text[:_INLINE_MAX])
    return " ".join(_MARKUP_RE.sub("", text).split())


def _clip(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:") + "…"


def first_sentence(text: str, *, markdown: bool) -> str | None:
    """The first sentence of the first prose paragraph (headings, code, tables, html skipped)."""
    paragraph: list[str] = []
    fences = FenceTracker()
    for line in text.splitlines()[:400]:
        stripped = line.strip()
        if markdown and fences.feed(line):
            if paragraph:
                break
            continue
        if not stripped:
            if paragraph:
                break
            continue
        if markdown and (stripped.startswith(("#", "|", "<", "![", "[![", "---", "===", "***", ">"))
                         or re.match(r"^\[[^\]]+\]:", stripped)):
            if paragraph:
                break
            continue
        paragraph.append(stripped.lstrip("-*+ ") if markdown else stripped)
    if not paragraph:
        return None
    prose = _clean_inline(" ".join(paragraph)) if markdown else " ".join(" ".join(paragraph).split())
    if not prose:
        return None
    match = _SENTENCE_RE.match(prose)
    sentence = match.group(1) if match else prose
    return _clip(sentence, _DESCRIPTION_MAX)


def _meta_text(meta: dict[str, Any], *keys: str) -> str | None:
    for key in keys:
        value = meta.get(key)
        if isinstance(value, str) and value.strip():
            return " ".join(value.split())
    return None


def base_slug_for(path: str, title: str) -> str | None:
    """Slug from the file name; the folder name or the title when the file name is ambiguous."""
    source = PurePosixPath(Path(path).as_posix())
    candidates = [source.stem, f"{source.parent.name}-{source.stem}", title]
    for candidate in candidates:
        try:
            slug = slug_from_title(candidate)
        except MembankError:
            continue
        slug = slug[:_BASE_SLUG_MAX].rstrip("-")
        if slug and not is_ambiguous(slug):
            return slug
    return None


def decode_source(data: bytes, display: str, *, max_bytes: int) -> str | Problem:
    if len(data) > max_bytes:
        return _problem(display, "too_large", f"file is {len(data)} bytes, over the limit of {max_bytes}",
                        "raise MEMBANK_MAX_SOURCE_BYTES or split the file")
    if not data.strip():
        return _problem(display, "empty", "file is empty" if not data else "file holds only whitespace",
                        "nothing to ingest; remove it or give it content")
    nul = data.find(b"\x00")
    if nul >= 0:
        return _problem(display, "binary", f"binary file (NUL byte at offset {nul}); not stored",
                        "ingest text sources only: markdown or plain text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _problem(display, "invalid_utf8", f"invalid UTF-8 at byte offset {exc.start}; not stored",
                        "convert the file to UTF-8 (e.g. iconv -t utf-8)")


_FRONTMATTER_SCAN_CHARS = 20_000
# Keys whose value is text: a plain scalar YAML would type (1.10, yes, 2026-03-24) stays as written.
_TEXT_KEYS = ("title", "name", "description", "summary")


def _opens_frontmatter(text: str) -> bool:
    first = text.split("\n", 1)[0].rstrip("\r").rstrip(" \t")
    return first == "---" and "\n" in text


def source_frontmatter(text: str, display: str,
                       warnings: list[Problem] | None = None) -> dict[str, Any] | Problem:
    """The YAML mapping at the top of a markdown source ({} when there is none). Front matter
    that is never closed and keys written twice are added to `warnings`, naming the line."""
    if not text.startswith("---"):  # frontmatter_lines would say 0
        return {}
    index = (line_index(text[:_FRONTMATTER_SCAN_CHARS]) if len(text) > _FRONTMATTER_SCAN_CHARS
             else line_index(text))
    lines = frontmatter_lines(text, index)
    if not lines:
        if warnings is not None and _opens_frontmatter(text):
            within = (f" within its first {_FRONTMATTER_SCAN_CHARS:,} characters"
                      if len(text) > _FRONTMATTER_SCAN_CHARS else "")
            warnings.append(_problem(
                display, "unterminated_frontmatter",
                f"line 1 opens YAML front matter that no '---' line closes{within}; ingested as "
                "text without metadata", "close the front matter with a '---' line"))
        return {}
    raw = text[index.offset(1) : index.offset(lines - 1)]
    try:
        meta, layout = load_yaml_with_layout(raw)  # aliases rejected: no alias bomb
    except yaml.YAMLError as exc:
        detail = " ".join(str(exc).split())[:160]
        return _problem(display, "malformed_frontmatter",
                        f"malformed YAML frontmatter ({detail}); ingested without its metadata, "
                        "the frontmatter kept as text",
                        "fix the YAML between the '---' lines; a fixed file is ingested as a new version")
    if meta is None:
        return {}
    if not isinstance(meta, dict):
        return _problem(display, "malformed_frontmatter",
                        f"frontmatter is a {type(meta).__name__}, not a mapping; ingested without its "
                        "metadata, the frontmatter kept as text",
                        "write `key: value` lines between the '---' lines")
    for duplicate in layout.duplicates if warnings is not None else []:
        warnings.append(_problem(
            display, "duplicate_frontmatter_key",
            f"front matter key {duplicate.key!r} at line {duplicate.line + 2} repeats line "
            f"{duplicate.first_line + 2}; the last value is kept",
            "write each key once"))
    return {key: as_written(value, layout, key) if key in _TEXT_KEYS else value
            for key, value in meta.items()}


def worst_case_names(ext: str, base_slug: str | None = None) -> SourceNames:
    """The longest names the writer can give a source (with `base_slug`: the longest it can
    make of that slug, which gets at most a "-NNNNN" suffix): budgets are computed on these."""
    prefix = "0000-00-00T00-00-00Z"
    slug = "x" * SLUG_MAX_LENGTH if base_slug is None else f"{base_slug}-99999"
    return SourceNames(prefix=prefix, slug=slug, ext=ext)


def prepare_source(item: SourceInput, data: bytes, settings: MembankSettings) -> PreparedSource | Problem:
    """Check and plan one source whose bytes were just read."""
    display = item.display
    ext = Path(item.path).suffix.lower()
    media_type = MEDIA_TYPES[ext]
    decoded = decode_source(data, display, max_bytes=settings.max_source_bytes)
    if isinstance(decoded, Problem):
        return decoded
    text = decoded
    markdown = media_type in MARKDOWN_TEXT
    meta: dict[str, Any] = {}
    warnings: list[Problem] = []
    if media_type == HTML:
        converted = html_to_markdown(text)
        if not converted.markdown.strip():
            return _problem(display, "empty", "HTML holds no text once tags, scripts and styles are "
                            "removed; not stored", "nothing to ingest; remove it or give it content")
        text = converted.markdown
        meta = {key: value for key, value in (("title", converted.title),
                                              ("description", converted.description)) if value}
    elif media_type == MARKDOWN:
        found = source_frontmatter(text, display, warnings)
        if isinstance(found, Problem):
            warnings.append(found)  # ingested all the same, as text without its metadata
        else:
            meta = found
    elif media_type in (JSON, JSON_LINES):
        checked = check_json(text, display, lines=media_type == JSON_LINES)
        if isinstance(checked, Problem) and item.store_role:
            warnings.append(checked)  # a store keeps its good lines; `membank check mem` says which
            checked = {}
        if isinstance(checked, Problem):
            return checked
        meta = checked
    name = Path(item.path).name
    shards: list[Shard] | None = None
    if len(text) > settings.page_limit_chars:  # sharded for sure; its headings come from the blocks
        headings: list[Heading] = []
        large = True
    else:
        headings = scan_headings(text) if markdown else []
        overhead = (_single_page_overhead(ext, media_type) + len("\n".join(_outline(headings)))
                    + 4 * len(item.path) + 8  # the path appears twice, perhaps quoted
                    + (0 if markdown else 2 * len(content_fence(text)) + 16))
        large = overhead + len(text) > settings.page_limit_chars
    if large:
        index = line_index(text)
        blocks = markdown_blocks(text, index) if markdown else None
        headings = headings_of(blocks) if blocks else []
        budget = settings.page_limit_chars - _shard_overhead(name, ext)
        shards = shard_plan(text, budget, markdown=markdown, blocks=blocks, index=index)
    title = _meta_text(meta, "title", "name") if meta else None
    if title is None and headings:
        top = min(h.level for h in headings)
        title = _clean_inline(next(h.text for h in headings if h.level == top))
    title = _clip(title or name, _TITLE_MAX)
    description = _meta_text(meta, "description", "summary") if meta else None
    if description:
        description = _clip(description, _DESCRIPTION_MAX)
    else:
        if media_type in (JSON, JSON_LINES):
            kind = "JSON Lines" if media_type == JSON_LINES else "JSON"
            description = f"{kind} source {name} with {meta.get('_records', 0)} record(s)."
        else:
            prose = _strip_frontmatter(text) if media_type == MARKDOWN else text[:50_000]
            description = first_sentence(prose, markdown=markdown)
    if not description:
        kind = "HTML" if media_type == HTML else "Markdown" if markdown else "Plain-text"
        description = f"{kind} source {name} with no prose sentence."
    base_slug = base_slug_for(item.path, title)
    if base_slug is None:
        return _problem(display, "ambiguous_name", f"no meaningful name for {name!r}",
                        "rename the file with an intention-revealing name")
    prepared = PreparedSource(item, data, text, media_type, ext, base_slug, title, description, headings,
                              shards, warnings=warnings)
    if shards is not None and len(shards) * _toc_line_max(ext, base_slug) + 2_000 > settings.page_limit_chars:
        return _problem(display, "too_many_shards",
                        f"source needs {len(shards)} shards, more than one index page can list",
                        "split the source into several files or lower MEMBANK_MAX_SOURCE_BYTES")
    return prepared


def check_json(text: str, display: str, *, lines: bool) -> dict[str, Any] | Problem:
    """Parse JSON (or JSON Lines) once with orjson; return title/description hints from it."""
    records: list[Any] = []
    try:
        if not lines:
            records = [orjson.loads(text)]
        else:
            for number, line in enumerate(text.split("\n"), start=1):
                if line.strip():
                    try:
                        records.append(orjson.loads(line))
                    except orjson.JSONDecodeError as exc:
                        raise ValueError(f"line {number}: {exc}") from exc
    except (orjson.JSONDecodeError, ValueError) as exc:
        return _problem(display, "malformed_json", f"invalid JSON ({exc}); not stored",
                        "fix the JSON, or rename the file to .txt to ingest it as plain text")
    hints: dict[str, Any] = {"_records": len(records)}
    first = records[0] if records else None
    if isinstance(first, dict):
        hints.update({k: first[k] for k in ("title", "name", "description", "summary") if k in first})
        for key in _MESSAGE_KEYS:
            if "description" not in hints and isinstance(first.get(key), str):
                sentence = first_sentence(first[key], markdown=False)
                if sentence:
                    hints["description"] = sentence
    return hints


def content_fence(text: str) -> str:
    """A backtick fence longer than any backtick run in `text`."""
    longest = max((len(m.group()) for m in _BACKTICKS_RE.finditer(text)), default=0)
    return "`" * max(3, longest + 1)


def _strip_frontmatter(text: str) -> str:
    if not text.startswith("---"):  # no frontmatter (frontmatter_lines would say 0)
        return text[:50_000]
    index = line_index(text[:20_000])
    return text[index.offset(frontmatter_lines(text, index)) :][:50_000]


def prepare_batch(inputs: Sequence[SourceInput], settings: MembankSettings,
                  token_threads: int | None = None) -> list[PreparedSource | Problem]:
    """Read each file once, check and plan it, then count tokens for the whole batch at once
    (on `token_threads` threads, task_workers by default)."""
    results: list[PreparedSource | Problem] = []
    accepted = load_baseline(settings.resolved_root())
    for item in inputs:
        ext = Path(item.path).suffix.lower()
        if ext not in MEDIA_TYPES:
            results.append(_problem(item.display, "unsupported_format",
                                    f"unsupported file type {ext or '(no extension)'!r}; not stored",
                                    f"ingest {', '.join(sorted(MEDIA_TYPES))} files"))
            continue
        if item.size > settings.max_source_bytes:
            limit = settings.max_source_bytes
            results.append(_problem(item.display, "too_large",
                                    f"file is {item.size} bytes, over the limit of {limit}",
                                    "raise MEMBANK_MAX_SOURCE_BYTES or split the file"))
            continue
        try:
            with open(item.path, "rb") as handle:
                data = handle.read(settings.max_source_bytes + 1)
        except FileNotFoundError:
            results.append(_problem(item.display, "not_found", "file disappeared before it was read"))
            continue
        except OSError as exc:
            results.append(_problem(item.display, "unreadable", f"cannot read file: {exc.strerror}",
                                    "check the file's permissions"))
            continue
        try:
            results.append(privacy_gate(prepare_source(item, data, settings), settings, accepted))
        except Exception as exc:  # a bug must not sink the rest of the batch; say which file
            results.append(_problem(item.display, "prepare_failed",
                                    f"could not prepare this source: {type(exc).__name__}: {exc}",
                                    "a bug in membank; please report it with the file"))
    accepted = [r for r in results if isinstance(r, PreparedSource)]
    counts = count_tokens([r.text for r in accepted], settings.tokenizer_encoding,
                          token_threads or settings.task_workers)
    for prepared, count in zip(accepted, counts, strict=True):
        prepared.token_count = count
    return results


@dataclass
class StoredSource:
    """A source whose exact bytes the raw store already holds: a dedupe hit, recognised by its
    hash before any parsing or token counting (all that a no-change re-ingest should cost)."""

    input: SourceInput
    asset_id: str
    warnings: list[Problem] = field(default_factory=list)
    blocked: list[Problem] = field(default_factory=list)  # never: stored bytes passed the gate


def find_stored_sources(inputs: Sequence[SourceInput], stored_asset_ids: Collection[str],
                        settings: MembankSettings) -> dict[int, StoredSource]:
    """The inputs (by position) whose bytes are already stored. Reads nothing when the store is
    empty; a file that cannot be read or decoded here is left to preparation, which reports it.
    Markdown keeps the warning preparation would give (front matter it cannot use)."""
    found: dict[int, StoredSource] = {}
    if not stored_asset_ids:
        return found
    for position, item in enumerate(inputs):
        ext = Path(item.path).suffix.lower()
        if ext not in MEDIA_TYPES or item.size > settings.max_source_bytes:
            continue
        try:
            with open(item.path, "rb") as handle:
                data = handle.read(settings.max_source_bytes + 1)
        except OSError:
            continue
        asset_id = hashlib.sha256(data).hexdigest()
        if asset_id not in stored_asset_ids:
            continue
        warnings: list[Problem] = []
        if MEDIA_TYPES[ext] == MARKDOWN:
            text = decode_source(data, item.display, max_bytes=settings.max_source_bytes)
            if isinstance(text, Problem):
                continue
            meta = source_frontmatter(text, item.display)
            if isinstance(meta, Problem):
                warnings.append(meta)
        found[position] = StoredSource(item, asset_id, warnings)
    return found


def in_input_order(count: int, stored: Mapping[int, StoredSource],
                   prepared: Iterable[PreparedSource | Problem]
                   ) -> Iterator[PreparedSource | StoredSource | Problem]:
    """The stored sources at their positions among the prepared results of the others (one
    result per input, in input order), so the writer applies all in input order."""
    rest = iter(prepared)
    for position in range(count):
        yield stored[position] if position in stored else next(rest)


def privacy_gate(result: PreparedSource | Problem, settings: MembankSettings,
                 accepted: frozenset[tuple[str, str]]) -> PreparedSource | Problem:
    """Scan the text raw/ would keep (HTML as its own markup) for secrets and personal data."""
    if isinstance(result, Problem):
        return result
    text = result.data.decode("utf-8") if result.media_type == HTML else result.text
    verdict = check_text(result.input.display, result.input.path, text, settings, accepted)
    result.blocked = verdict.blocked
    result.warnings.extend(verdict.warnings)
    result.accepted_secrets = accepted_record(verdict.accepted_secrets)
    return result


# --------------------------------------------------------------------------------------------
# Names and rendering (pure)


@dataclass(frozen=True)
class SourceNames:
    prefix: str
    slug: str
    ext: str
    raw: str | None = None  # a revert's pages derive from the raw copy stored before

    @property
    def stem(self) -> str:
        return f"{self.prefix}__{self.slug}"

    @property
    def raw_path(self) -> str:
        return self.raw or f"raw/{self.stem}{self.ext}"

    @property
    def page_path(self) -> str:
        return f"wiki/sources/{self.stem}.md"

    @property
    def shard_folder(self) -> str:
        return f"wiki/sources/shards/{self.stem}"

    def shard_path(self, number: int) -> str:
        return f"{self.shard_folder}/shard-{number:03d}.md"


def _common_meta(prepared: PreparedSource, names: SourceNames, now_iso: str) -> dict[str, Any]:
    return {
        "created_at": now_iso,
        "updated_at": now_iso,
        "utc_datetime_prefix": names.prefix,
        "title": prepared.title,
        "description": prepared.description,
        "derived_from": [names.raw_path],
        "child_of": [SOURCES_HUB],
        "memory": {"memoryRole": "knowledge", "source": f"ingested from {prepared.input.path}"},
        "content_hash": prepared.content_hash,
        "raw_asset_id": prepared.asset_id,
        "size_chars": len(prepared.text),
        "token_count": prepared.token_count,
        "source_path": prepared.input.path,
        "media_type": prepared.media_type,
    }


def _source_header(prepared: PreparedSource, names: SourceNames, extra: str = "") -> list[str]:
    raw_name = PurePosixPath(names.raw_path).name
    return [
        f"# {prepared.title}",
        "",
        f"Source: [{raw_name}](../../{names.raw_path}) ({prepared.media_type}"
        f"{' shown as markdown' if prepared.media_type == HTML else ''}, "
        f"{len(prepared.text):,} characters, {prepared.token_count:,} tokens){extra}.",
        "",
        f"> {prepared.description}",
    ]


def _outline(headings: list[Heading]) -> list[str]:
    if not headings:
        return ["_No headings._"]
    top = min(h.level for h in headings)
    return [f"{'  ' * (h.level - top)}- {_clip(_clean_inline(h.text), 100)} (line {h.line})"
            for h in headings]


def render_source_page(prepared: PreparedSource, names: SourceNames, now_iso: str,
                       supersedes: list[str] | None = None, extra: dict[str, Any] | None = None) -> str:
    meta = {**_common_meta(prepared, names, now_iso), "type": "source", "supersedes": supersedes or [],
            **(extra or {})}
    content = prepared.text
    if prepared.media_type not in MARKDOWN_TEXT:  # shown verbatim; the raw copy has the exact bytes
        fence = content_fence(content)
        lang = _FENCE_LANG.get(prepared.media_type, "text")
        content = f"{fence}{lang}\n{content.rstrip(chr(10))}\n{fence}"
    lines = [*_source_header(prepared, names), "", "## Outline", "", *_outline(prepared.headings),
             "", "## Content", "", content]
    return render_page(meta, "\n".join(lines))


def _toc_line(number: int, shard: Shard, names: SourceNames) -> str:
    link = PurePosixPath(names.shard_path(number)).relative_to("wiki/sources").as_posix()
    return f"- [Shard {number:03d}]({link}): lines {shard.line_start}-{shard.line_end}"


def _toc_line_max(ext: str, base_slug: str) -> int:
    """The longest table-of-contents line of a shard of this source (no headings under it)."""
    names = worst_case_names(ext, base_slug)
    return len(_toc_line(999, Shard(0, 0, 999_999_999, 999_999_999), names)) + 4


def render_index_page(prepared: PreparedSource, names: SourceNames, now_iso: str, limit: int,
                      supersedes: list[str] | None = None, extra: dict[str, Any] | None = None) -> str:
    shards = prepared.shards or []
    meta = {**_common_meta(prepared, names, now_iso), "type": "source-index",
            "supersedes": supersedes or [], "shard_count": len(shards), **(extra or {})}
    header = _source_header(prepared, names, f", split into {len(shards)} shards")
    note = ("The source is larger than one page, so its content is in the shards below; "
            "each lists the headings it covers.")
    for per_shard in (_TOC_HEADINGS_MAX, 6, 3, 1, 0):
        toc: list[str] = []
        for number, shard in enumerate(shards):
            toc.append(_toc_line(number, shard, names))
            top = min((h.level for h in shard.headings), default=1)
            for heading in shard.headings[:per_shard]:
                toc.append(f"  {'  ' * (heading.level - top)}- {_clip(_clean_inline(heading.text), 90)}")
            if per_shard and len(shard.headings) > per_shard:
                toc.append(f"  - … and {len(shard.headings) - per_shard} more headings")
        body = "\n".join([*header, "", note, "", "## Shards", "", *toc])
        text = render_page(meta, body)
        if len(text) <= limit:
            return text
    raise InputError(f"the index page of {len(shards)} shards does not fit in {limit} characters",
                     file=prepared.input.display, hint="split the source into several files")


def shard_meta(prepared: PreparedSource, names: SourceNames, number: int, shard: Shard,
               now_iso: str) -> dict[str, Any]:
    count = len(prepared.shards or [])
    meta: dict[str, Any] = {
        "created_at": now_iso,
        "updated_at": now_iso,
        "utc_datetime_prefix": names.prefix,
        "type": "source-shard",
        "title": f"{prepared.title} (shard {number:03d} of {count})",
        "description": f"Shard {number} of {count} of {names.raw_path}, source lines "
                       f"{shard.line_start}-{shard.line_end}.",
        "derived_from": [names.raw_path],
        "child_of": [names.page_path],
        "shard_index": number,
        "shard_count": count,
        "line_start": shard.line_start,
        "line_end": shard.line_end,
        "size_chars": shard.end - shard.start,
        "content_hash": prepared.content_hash,
    }
    if shard.split_block:
        meta["split_block"] = shard.split_block
    if shard.reopened_fence:
        meta["reopened_fence"] = shard.reopened_fence
    if shard.closed_fence:
        meta["closed_fence"] = shard.closed_fence
    return meta


def render_shard_page(meta: dict[str, Any], body: str) -> str:
    """Frontmatter, one blank line, then the shard body byte for byte (no trimming)."""
    return f"---\n{dump_frontmatter(meta)}---\n\n{body}"


def shard_body_from_page(page_text: str) -> str:
    """The exact shard body of a shard page, with any reopened/closed fence lines removed."""
    end = page_text.index("\n---\n\n", 3)
    meta = load_yaml(page_text[4 : end + 1])
    body = page_text[end + 6 :]
    reopened, closed = meta.get("reopened_fence", ""), meta.get("closed_fence", "")
    if reopened:
        assert body.startswith(reopened)
        body = body[len(reopened) :]
    if closed:
        assert body.endswith(closed)
        body = body[: len(body) - len(closed)]
    return str(body)


@lru_cache(maxsize=16)
def _single_page_overhead(ext: str, media_type: str) -> int:
    """Characters a source page adds around its content and outline, with worst-case names."""
    names = worst_case_names(ext)
    probe = PreparedSource(SourceInput("", "x", 0), b"", "", media_type, ext,
                           "", "x" * _TITLE_MAX, "x" * _DESCRIPTION_MAX, [], None, token_count=10**10)
    page = render_source_page(probe, names, "2026-01-01T00:00:00Z", supersedes=[names.page_path])
    # + superseded_by added later, + room for titles and descriptions YAML must escape
    return len(page) + len("superseded_by:\n- \n") + len(names.page_path) + 512


def _shard_overhead(name: str, ext: str) -> int:
    names = worst_case_names(ext)
    probe = PreparedSource(SourceInput("", name, 0), b"", "", MARKDOWN, ext, "",
                           "x" * _TITLE_MAX, "x" * _DESCRIPTION_MAX, [], [], token_count=10**10)
    shard = Shard(0, 10**9, 10**9, 10**9, split_block="paragraph")
    meta = shard_meta(probe, names, 999, shard, "2026-01-01T00:00:00Z")
    # + room for YAML escapes in title and description, and for the fence keys when present
    return len(render_shard_page(meta, "")) + 512 + 2 * _FENCE_KEY_ROOM


# --------------------------------------------------------------------------------------------
# The single writer


@dataclass
class _Store:
    manifest: RawManifest
    by_id: dict[str, RawAsset] = field(default_factory=dict)
    latest_by_path: dict[str, RawAsset] = field(default_factory=dict)
    raw_slugs: set[str] = field(default_factory=set)
    page_slugs: set[str] = field(default_factory=set)
    forgotten: frozenset[str] = frozenset()  # asset ids `membank forget` removed: never stored again
    # (original path, asset id) -> the latest source page of that version: a revert links it
    version_page: dict[tuple[str, str], str] = field(default_factory=dict)


def _slugs_in(folder: Path) -> set[str]:
    if not folder.is_dir():
        return set()
    slugs = set()
    for entry in os.scandir(folder):
        match = _NAME_RE.match(entry.name)
        if match:
            slugs.add(match.group("slug"))
    return slugs


def _open_store(operation: Operation) -> _Store:
    layout = operation.layout
    manifest = (load_manifest(layout.raw_manifest_file) if layout.raw_manifest_file.exists()
                else empty_manifest(operation.now_iso))
    store = _Store(manifest, raw_slugs=_slugs_in(layout.raw), page_slugs=_slugs_in(layout.sources),
                   forgotten=forgotten_asset_ids(layout, manifest))
    for asset in manifest.assets:
        _remember(store, asset)
    for event in manifest.reverts or []:
        if event.sourcePage:
            store.version_page[(event.originalPath, event.assetId)] = event.sourcePage
    store.latest_by_path.update(current_of_reverted(manifest))
    return store


def stored_asset_ids(layout: MemoryLayout) -> frozenset[str]:
    """Hashes of every source the raw store holds (empty for a new root)."""
    if not layout.raw_manifest_file.exists():
        return frozenset()
    return frozenset(asset.assetId for asset in load_manifest(layout.raw_manifest_file).assets)


def _remember(store: _Store, asset: RawAsset) -> None:
    store.by_id.setdefault(asset.assetId, asset)
    store.latest_by_path[asset.originalPath] = asset
    if asset.sourcePage:
        store.version_page[(asset.originalPath, asset.assetId)] = asset.sourcePage


def _unique_slug(store: _Store, base: str) -> str:
    slug, number = base, 1
    while slug in store.raw_slugs or slug in store.page_slugs:
        number += 1
        slug = f"{base}-{number}"
    return slug


def _store_source(operation: Operation, store: _Store, prepared: PreparedSource,
                  staged: StagedWrites) -> tuple[RawAsset, list[ArtifactRecord], list[CatalogEntry]]:
    """Stage the raw copy and the pages of one new source (committed later, all at once)."""
    layout, now = operation.layout, operation.now_iso
    slug = _unique_slug(store, prepared.base_slug)
    names = SourceNames(operation.prefix, slug, prepared.ext)
    previous = store.latest_by_path.get(prepared.input.path)
    supersedes = [previous.sourcePage] if previous is not None and previous.sourcePage else []
    staged.stage(layout.root / names.raw_path, prepared.data, validate=False, mode=0o444)
    artifacts = [ArtifactRecord(path=names.raw_path, action="created",
                                why=f"immutable copy of {prepared.input.display}")]
    more, entries = _stage_pages(operation, prepared, names, supersedes, staged)
    artifacts.extend(more)
    after_revert = (previous is not None and previous.sourcePage
                    and previous.sourcePage != store.by_id[previous.assetId].sourcePage)
    asset = RawAsset(
        assetId=prepared.asset_id,
        contentHash=prepared.content_hash,
        sizeBytes=len(prepared.data),
        mediaType=prepared.media_type,
        originalPath=prepared.input.path,
        rawPath=names.raw_path,
        ingestedAtUtc=now,
        sourcePage=names.page_path,
        supersedesAssetId=previous.assetId if previous is not None else None,
        **({SUPERSEDES_PAGE_KEY: previous.sourcePage} if after_revert and previous else {}),
        **({"storeRole": prepared.input.store_role} if prepared.input.store_role else {}),
        **({"secretsAllowed": prepared.accepted_secrets} if prepared.accepted_secrets else {}),
    )
    store.raw_slugs.add(slug)
    store.page_slugs.add(slug)
    return asset, artifacts, entries


def _stage_pages(operation: Operation, prepared: PreparedSource, names: SourceNames,
                 supersedes: list[str], staged: StagedWrites, extra: dict[str, Any] | None = None
                 ) -> tuple[list[ArtifactRecord], list[CatalogEntry]]:
    """Stage the source page of one version (with its shard pages when it is sharded)."""
    layout, now, limit = operation.layout, operation.now_iso, operation.settings.page_limit_chars
    artifacts: list[ArtifactRecord] = []
    entries = [CatalogEntry(names.page_path, prepared.title, prepared.description)]
    if prepared.shards is None:
        more = {"extra": extra} if extra else {}  # (only a revert's page has extra keys)
        page_text = render_source_page(prepared, names, now, supersedes, **more)
        kind = "source page"
    else:
        count = len(prepared.shards)
        for number, shard in enumerate(prepared.shards):
            shard_rel = names.shard_path(number)
            text = render_shard_page(shard_meta(prepared, names, number, shard, now),
                                     shard.body(prepared.text))
            if len(text) > limit:
                raise InputError(f"shard {number} would be {len(text)} characters, over {limit}",
                                 file=prepared.input.display, hint="a bug in the shard planner")
            staged.stage(layout.root / shard_rel, text.encode("utf-8"))
            why = f"shard {number} of {count}, lines {shard.line_start}-{shard.line_end}"
            if shard.split_block:
                why += f"; an oversized {shard.split_block} block split at line boundaries"
                if shard.reopened_fence or shard.closed_fence:
                    why += " (code fence closed and reopened)"
            artifacts.append(ArtifactRecord(path=shard_rel, action="created", why=why))
            entries.append(CatalogEntry(shard_rel, f"{prepared.title} (shard {number:03d} of {count})",
                                        f"Shard {number} of {count} of {names.page_path}."))
        page_text = render_index_page(prepared, names, now, limit, supersedes,
                                      **({"extra": extra} if extra else {}))
        kind = f"source index page over {count} shards"
    if len(page_text) > limit:
        raise InputError(f"source page would be {len(page_text)} characters, over {limit}",
                         file=prepared.input.display, hint="a bug in the page size estimate")
    staged.stage(layout.root / names.page_path, page_text.encode("utf-8"))
    artifacts.append(ArtifactRecord(path=names.page_path, action="created",
                                    why=f"{kind} for {prepared.input.display}"))
    return artifacts, entries


def _store_revert(operation: Operation, store: _Store, prepared: PreparedSource, staged: StagedWrites,
                  known: RawAsset, latest: RawAsset
                  ) -> tuple[RevertEvent, list[ArtifactRecord], list[CatalogEntry]]:
    """Stage a new source page for bytes this path had before, over the raw copy stored then
    (raw/ keeps one copy per content); the revert event makes that version current again."""
    path = prepared.input.path
    earlier = store.version_page.get((path, known.assetId)) or known.sourcePage
    slug = _unique_slug(store, prepared.base_slug)
    names = SourceNames(operation.prefix, slug, prepared.ext, raw=known.rawPath)
    supersedes = [latest.sourcePage] if latest.sourcePage else []
    extra = {"reinstates": [earlier]} if earlier else None
    artifacts, entries = _stage_pages(operation, prepared, names, supersedes, staged, extra)
    store.page_slugs.add(slug)
    event = RevertEvent(assetId=known.assetId, originalPath=path, sourcePage=names.page_path,
                        supersedesAssetId=latest.assetId, supersedesSourcePage=latest.sourcePage,
                        revertedAtUtc=operation.now_iso)
    return event, artifacts, entries


def _mark_superseded(operation: Operation, old_page: str, new_page: str) -> ArtifactRecord | None:
    """Add `superseded_by` to an older version's source page (which is never deleted)."""
    old_file = operation.layout.root / old_page
    if not old_file.exists():
        return None
    old = read_page(old_file)
    links = [str(x) for x in old.meta.get("superseded_by") or []]
    if new_page in links:
        return None
    write_page(old_file, {**old.meta, "superseded_by": [*links, new_page]}, old.body,
               now_iso=operation.now_iso)
    return ArtifactRecord(path=old_page, action="superseded", why=f"superseded by {new_page} (new version)")


def apply_ingest(
    operation: Operation,
    results: Iterable[PreparedSource | StoredSource | Problem],
    problems: Iterable[Problem] = (),
) -> MemoryOperationReport:
    """The single writer: store every prepared source, then the manifest, hub, index and log.

    `results` may be lazy (batches still being prepared): they are applied in input order as
    they arrive, and nothing becomes visible before every new file is staged and synced.
    """
    report, layout, now = operation.report, operation.layout, operation.now_iso
    for folder in (layout.raw, layout.sources, layout.shards, layout.context):
        check_real_folder(folder)  # a symlinked store folder stops the run, not each source
    report.problems.extend(problems)
    store = _open_store(operation)
    entries: list[CatalogEntry] = []
    staged = StagedWrites(io_threads=_STAGE_IO_THREADS)
    superseding: list[tuple[str, str]] = []
    counts = {"files_seen": len(report.problems), "files_ingested": 0, "dedupe_hits": 0,
              "rejected": len(report.problems), "shards_written": 0, "bytes_ingested": 0}
    try:
        for result in results:
            _apply_one(operation, store, staged, result, counts, entries, superseding)
        staged.commit()
    except BaseException:
        staged.discard()  # nothing half-written: staged files never got their final names
        raise
    finally:
        staged.close()
    for old_page, new_page in superseding:
        record = _mark_superseded(operation, old_page, new_page)
        if record is not None:
            report.artifacts.append(record)
            report.graph_delta.superseded_records_count += 1
    if entries:
        if save_manifest(layout.raw_manifest_file, store.manifest, now_iso=now):
            report.artifacts.append(ArtifactRecord(path="context/raw-manifest.jsonc", action="updated",
                                                   why="raw store manifest"))
        hub_entries = [e for e in entries if "/shards/" not in e.path]
        if update_hub(layout, SOURCES_HUB, hub_entries, now_iso=now).changed:
            report.artifacts.append(ArtifactRecord(path=SOURCES_HUB, action="updated", why="sources hub"))
        if update_index(layout, entries, now_iso=now).changed:
            report.artifacts.append(
                ArtifactRecord(path="index.md", action="updated", why="catalog of records"))
    report.figures.update(counts)
    if report.problems:
        report.status = ("partial" if counts["files_ingested"] or counts["dedupe_hits"]
                         or counts.get("versions_reinstated") else "failed")
    if record_operation(layout, report):
        report.artifacts.append(ArtifactRecord(path="log.md", action="updated", why="operation timeline"))
    refresh_search_index(operation)
    return report


def _apply_one(operation: Operation, store: _Store, staged: StagedWrites,
               result: PreparedSource | StoredSource | Problem, counts: dict[str, int],
               entries: list[CatalogEntry], superseding: list[tuple[str, str]]) -> None:
    report = operation.report
    counts["files_seen"] += 1
    if isinstance(result, Problem):
        report.problems.append(result)
        counts["rejected"] += 1
        return
    if result.blocked:  # the privacy gate: nothing of this source is stored
        report.problems.extend(result.blocked)
        counts["rejected"] += 1
        return
    if result.asset_id in store.forgotten:
        report.problems.append(_problem(result.input.display, "forgotten_source",
                                        "these bytes were forgotten (membank forget); not stored again",
                                        "ingest it again only after removing what was forgotten"))
        counts["rejected"] += 1
        return
    report.problems.extend(result.warnings)
    known = store.by_id.get(result.asset_id)
    if known is None and isinstance(result, StoredSource):  # stored when the run began: not now?
        result = prepare_batch([result.input], operation.settings)[0]
        if isinstance(result, Problem):
            report.problems.append(result)
            counts["rejected"] += 1
            return
        known = store.by_id.get(result.asset_id)
    if known is not None:
        latest = store.latest_by_path.get(result.input.path)
        if latest is not None and latest.assetId != result.asset_id and (
                (result.input.path, result.asset_id) in store.version_page):
            _apply_revert(operation, store, staged, result, known, latest, counts, entries, superseding)
            return
        if latest is not None and latest.assetId != result.asset_id:  # another path's bytes
            report.problems.append(_problem(
                result.input.display, "version_stored_from_other_path",
                f"these bytes were ingested from {known.originalPath} ({known.rawPath}), so "
                f"{latest.sourcePage or latest.rawPath} stays this path's current version",
                "ingest a file once, under one path; a revert to this path's own earlier bytes "
                "makes that version current again"))
        counts["dedupe_hits"] += 1
        report.artifacts.append(ArtifactRecord(
            path=known.rawPath, action="dedupe_hit",
            why=f"{result.input.display}: identical bytes already stored (source page {known.sourcePage})"))
        return
    previous = store.latest_by_path.get(result.input.path)  # a revert's page, when it was one
    mark = staged.mark()
    try:
        asset, artifacts, new_entries = _store_source(operation, store, result, staged)
    except (MembankError, OSError) as exc:
        staged.discard(mark)  # nothing of this source is left behind
        message = exc.one_line() if isinstance(exc, MembankError) else f"write failed: {exc}"
        report.problems.append(_problem(result.input.display, "write_failed", message))
        counts["rejected"] += 1
        return
    if previous is not None and previous.sourcePage and asset.sourcePage:
        superseding.append((previous.sourcePage, asset.sourcePage))
    store.manifest.assets.append(asset)
    _remember(store, asset)
    report.artifacts.extend(artifacts)
    entries.extend(new_entries)
    counts["files_ingested"] += 1
    counts["bytes_ingested"] += len(result.data)
    counts["shards_written"] += len(result.shards or [])


def _apply_revert(operation: Operation, store: _Store, staged: StagedWrites,
                  result: PreparedSource | StoredSource, known: RawAsset, latest: RawAsset,
                  counts: dict[str, int], entries: list[CatalogEntry],
                  superseding: list[tuple[str, str]]) -> None:
    """The path's bytes are those of an earlier version: make that version current again."""
    report = operation.report
    if isinstance(result, StoredSource):  # recognised by its hash alone: the page needs the text
        prepared = prepare_batch([result.input], operation.settings)[0]
        if isinstance(prepared, Problem) or prepared.blocked or prepared.asset_id != result.asset_id:
            counts["files_seen"] -= 1  # changed since hashed, or refused now: as any source
            _apply_one(operation, store, staged, prepared, counts, entries, superseding)
            return
        result = prepared
    mark = staged.mark()
    try:
        event, artifacts, new_entries = _store_revert(operation, store, result, staged, known, latest)
    except (MembankError, OSError) as exc:
        staged.discard(mark)
        message = exc.one_line() if isinstance(exc, MembankError) else f"write failed: {exc}"
        report.problems.append(_problem(result.input.display, "write_failed", message))
        counts["rejected"] += 1
        return
    store.manifest.reverts = [*(store.manifest.reverts or []), event]
    store.latest_by_path[event.originalPath] = reinstated(known, event)
    if event.sourcePage:
        store.version_page[(event.originalPath, event.assetId)] = event.sourcePage
        if latest.sourcePage:
            superseding.append((latest.sourcePage, event.sourcePage))
    report.artifacts.extend(artifacts)
    report.artifacts.append(ArtifactRecord(
        path=known.rawPath, action="unchanged",
        why=f"{result.input.display} reverted to these bytes: version current again as {event.sourcePage}"))
    entries.extend(new_entries)
    counts["versions_reinstated"] = counts.get("versions_reinstated", 0) + 1

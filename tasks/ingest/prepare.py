"""Ingest preparation: read each file once, check it, plan its pages and count tokens (pure apart
from reading the file; runs as one Prefect task per batch). Also the dedupe pre-check
(find_stored_sources) and the privacy gate hook."""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Sequence
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Any

import orjson
import yaml

from schemas.report import Problem
from tasks.ingest.inputs import SourceInput, make_problem
from tasks.ingest.media import HTML, JSON, JSON_LINES, MARKDOWN, MARKDOWN_TEXT, MEDIA_TYPES
from tasks.ingest.model import PreparedSource, StoredSource
from tasks.ingest.shard import (
    Shard,
    frontmatter_lines,
    headings_of,
    line_index,
    markdown_blocks,
    shard_plan,
)
from tasks.ingest.source_pages import (
    outline_lines,
    render_shard_page,
    render_source_page,
    shard_meta,
    toc_line_max,
    worst_case_names,
)
from tasks.markdown.blocks import Heading
from tasks.markdown.frontmatter import find_front_matter, opens_front_matter
from tasks.markdown.html import html_to_markdown
from tasks.markdown.outline import (
    DESCRIPTION_MAX,
    clean_inline,
    clip,
    content_fence,
    first_sentence,
    may_hold_setext_heading,
    scan_headings,
    without_bom,
)
from tasks.privacy.gate import accepted_record, check_text, load_baseline
from tasks.store.errors import MembankError
from tasks.store.names import SLUG_MAX_LENGTH, is_ambiguous, slug_from_title
from tasks.store.safe_yaml import as_written, load_yaml_quoting_plain_values
from tasks.store.settings import MembankSettings
from tasks.store.tokens import count_tokens

_MESSAGE_KEYS = ("content", "text", "message", "body")
_BASE_SLUG_MAX = SLUG_MAX_LENGTH - 6  # room for a "-NNNNN" uniqueness suffix
_TITLE_MAX = 120
_FENCE_KEY_ROOM = 64  # key names and quoting of reopened_fence/closed_fence (values: planner)


# --------------------------------------------------------------------------------------------
# Preparation (pure apart from reading the file once)


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
        return make_problem(display, "too_large", f"file is {len(data)} bytes, over the limit of {max_bytes}",
                            "raise MEMBANK_MAX_SOURCE_BYTES or split the file")
    if not data.strip():
        return make_problem(display, "empty", "file is empty" if not data else "file holds only whitespace",
                            "nothing to ingest; remove it or give it content")
    nul = data.find(b"\x00")
    if nul >= 0:
        return make_problem(display, "binary", f"binary file (NUL byte at offset {nul}); not stored",
                            "ingest text sources only: markdown or plain text")
    try:
        return without_bom(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        return make_problem(display, "invalid_utf8", f"invalid UTF-8 at byte offset {exc.start}; not stored",
                            "convert the file to UTF-8 (e.g. iconv -t utf-8)")


_FRONTMATTER_SCAN_CHARS = 20_000
# Keys whose value is text: a plain scalar YAML would type (1.10, yes, 2026-03-24) stays as written.
_TEXT_KEYS = ("title", "name", "description", "summary")


def source_frontmatter(text: str, display: str,
                       warnings: list[Problem] | None = None) -> dict[str, Any] | Problem:
    """The YAML mapping at the top of a markdown source ({} when there is none). Front matter
    that is never closed, keys written twice and plain values strict YAML cannot read (read as
    text: tasks.store.safe_yaml.load_yaml_quoting_plain_values) are added to `warnings`,
    naming the line."""
    if not text.startswith("---"):  # frontmatter_lines would say 0
        return {}
    index = (line_index(text[:_FRONTMATTER_SCAN_CHARS]) if len(text) > _FRONTMATTER_SCAN_CHARS
             else line_index(text))
    lines = frontmatter_lines(text, index)
    if not lines:
        if warnings is not None and opens_front_matter(text):
            within = (f" within its first {_FRONTMATTER_SCAN_CHARS:,} characters"
                      if len(text) > _FRONTMATTER_SCAN_CHARS else "")
            warnings.append(make_problem(
                display, "unterminated_frontmatter",
                f"line 1 opens YAML front matter that no '---' line closes{within}; ingested as "
                "text without metadata", "close the front matter with a '---' line"))
        return {}
    raw = text[index.offset(1) : index.offset(lines - 1)]
    try:  # aliases rejected (no alias bomb); `title: ADR004: Module ...` read as text, warned
        meta, layout, quoted = load_yaml_quoting_plain_values(raw)
    except yaml.YAMLError as exc:
        detail = " ".join(str(exc).split())[:160]
        return make_problem(display, "malformed_frontmatter",
                            f"malformed YAML frontmatter ({detail}); ingested without its metadata, "
                            "the frontmatter kept as text",
                            "fix the YAML between the '---' lines; a fixed file is ingested as a new version")
    if meta is None:
        return {}
    if not isinstance(meta, dict):
        return make_problem(display, "malformed_frontmatter",
                            f"frontmatter is a {type(meta).__name__}, not a mapping; ingested without its "
                            "metadata, the frontmatter kept as text",
                            "write `key: value` lines between the '---' lines")
    if warnings is not None:
        warnings.extend(make_problem(
            display, "unquoted_frontmatter_value",
            f"front matter line {value.line + 2} ({value.key}: {value.value}) is not valid YAML (a ': ' or "
            f"a character YAML reserves in an unquoted value); its value is read as the text {value.value!r}",
            f"quote the value: {value.fix()}") for value in quoted)
        warnings.extend(make_problem(
            display, "duplicate_frontmatter_key",
            f"front matter key {duplicate.key!r} at line {duplicate.line + 2} repeats line "
            f"{duplicate.first_line + 2}; the last value is kept",
            "write each key once") for duplicate in layout.duplicates)
    return {key: as_written(value, layout, key) if key in _TEXT_KEYS else value
            for key, value in meta.items()}


def prepare_source(item: SourceInput, data: bytes, settings: MembankSettings) -> PreparedSource | Problem:
    """Check and plan one source whose bytes were just read."""
    display = item.display
    ext = Path(item.path).suffix.lower()
    media_type = MEDIA_TYPES[ext]
    decoded = decode_source(data, display, max_bytes=settings.max_source_bytes)
    if isinstance(decoded, Problem):
        return decoded
    warnings: list[Problem] = []
    read = _page_text_and_meta(item, decoded, media_type, warnings)
    if isinstance(read, Problem):
        return read
    text, meta = read
    name = Path(item.path).name
    headings, shards = _plan_pages(item, text, media_type, ext, settings)
    title, description = _title_and_description(meta, headings, text, media_type, name)
    base_slug = base_slug_for(item.path, title)
    if base_slug is None:
        return make_problem(display, "ambiguous_name", f"no meaningful name for {name!r}",
                            "rename the file with an intention-revealing name")
    prepared = PreparedSource(item, data, text, media_type, ext, base_slug, title, description, headings,
                              shards, warnings=warnings)
    if shards is not None and len(shards) * toc_line_max(ext, base_slug) + 2_000 > settings.page_limit_chars:
        return make_problem(display, "too_many_shards",
                            f"source needs {len(shards)} shards, more than one index page can list",
                            "split the source into several files or lower MEMBANK_MAX_SOURCE_BYTES")
    return prepared


def _page_text_and_meta(item: SourceInput, text: str, media_type: str, warnings: list[Problem]
                        ) -> tuple[str, dict[str, Any]] | Problem:
    """The text a page shows (HTML converted to markdown) and the title/description hints of
    its metadata; a problem that is only a warning goes to `warnings`."""
    display = item.display
    meta: dict[str, Any] = {}
    if media_type == HTML:
        converted = html_to_markdown(text)
        if not converted.markdown.strip():
            return make_problem(display, "empty", "HTML holds no text once tags, scripts and styles are "
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
    return text, meta


def _plan_pages(item: SourceInput, text: str, media_type: str, ext: str, settings: MembankSettings
                ) -> tuple[list[Heading], list[Shard] | None]:
    """The outline headings and, when the source does not fit on one page, its shard plan."""
    markdown = media_type in MARKDOWN_TEXT
    shards: list[Shard] | None = None
    if len(text) > settings.page_limit_chars:  # sharded for sure; its headings come from the blocks
        headings: list[Heading] = []
        large = True
    else:
        headings = _outline_headings(text) if markdown else []
        overhead = (_single_page_overhead(ext, media_type) + len("\n".join(outline_lines(headings)))
                    + 4 * len(item.path) + 8  # the path appears twice, perhaps quoted
                    + (0 if markdown else 2 * len(content_fence(text)) + 16))
        large = overhead + len(text) > settings.page_limit_chars
    if large:
        index = line_index(text)
        blocks = markdown_blocks(text, index) if markdown else None
        headings = headings_of(blocks) if blocks else []
        budget = settings.page_limit_chars - _shard_overhead(Path(item.path).name, ext)
        shards = shard_plan(text, budget, markdown=markdown, blocks=blocks, index=index)
    return headings, shards


def _outline_headings(text: str) -> list[Heading]:
    """The outline of a source that fits one page: the ATX scan (the measured fast path), or the
    block model's headings when a setext underline may be there (the scan cannot see those)."""
    headings = scan_headings(text)
    if may_hold_setext_heading(text):
        block = find_front_matter(text)
        if may_hold_setext_heading(text, block.body_start if block else 0):
            return headings_of(markdown_blocks(text))
    return headings


def _title_and_description(meta: dict[str, Any], headings: list[Heading], text: str,
                           media_type: str, name: str) -> tuple[str, str]:
    """Title and description from the metadata, else the top heading and the first sentence,
    else words about the file."""
    markdown = media_type in MARKDOWN_TEXT
    title = _meta_text(meta, "title", "name") if meta else None
    if title is None and headings:
        top = min(h.level for h in headings)
        title = clean_inline(next(h.text for h in headings if h.level == top))
    title = clip(title or name, _TITLE_MAX)
    description = _meta_text(meta, "description", "summary") if meta else None
    if description:
        description = clip(description, DESCRIPTION_MAX)
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
    return title, description


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
        return make_problem(display, "malformed_json", f"invalid JSON ({exc}); not stored",
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
    baseline = load_baseline(settings.resolved_root())  # findings a person accepted already
    for item in inputs:
        ext = Path(item.path).suffix.lower()
        if ext not in MEDIA_TYPES:
            results.append(make_problem(item.display, "unsupported_format",
                                        f"unsupported file type {ext or '(no extension)'!r}; not stored",
                                        f"ingest {', '.join(sorted(MEDIA_TYPES))} files"))
            continue
        if item.size > settings.max_source_bytes:
            limit = settings.max_source_bytes
            results.append(make_problem(item.display, "too_large",
                                        f"file is {item.size} bytes, over the limit of {limit}",
                                        "raise MEMBANK_MAX_SOURCE_BYTES or split the file"))
            continue
        try:
            with open(item.path, "rb") as handle:
                data = handle.read(settings.max_source_bytes + 1)
        except FileNotFoundError:
            results.append(make_problem(item.display, "not_found", "file disappeared before it was read"))
            continue
        except OSError as exc:
            results.append(make_problem(item.display, "unreadable", f"cannot read file: {exc.strerror}",
                                        "check the file's permissions"))
            continue
        try:
            results.append(privacy_gate(prepare_source(item, data, settings), settings, baseline))
        except Exception as exc:  # a bug must not sink the rest of the batch; say which file
            results.append(make_problem(item.display, "prepare_failed",
                                        f"could not prepare this source: {type(exc).__name__}: {exc}",
                                        "a bug in membank; please report it with the file"))
    accepted = [r for r in results if isinstance(r, PreparedSource)]
    counts = count_tokens([r.text for r in accepted], settings.tokenizer_encoding,
                          token_threads or settings.task_workers)
    for prepared, count in zip(accepted, counts, strict=True):
        prepared.token_count = count
    return results


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


@lru_cache(maxsize=16)
def _single_page_overhead(ext: str, media_type: str) -> int:
    """Characters a source page adds around its content and outline, with worst-case names."""
    names = worst_case_names(ext)
    probe = PreparedSource(SourceInput("", "x", 0), b"", "", media_type, ext,
                           "", "x" * _TITLE_MAX, "x" * DESCRIPTION_MAX, [], None, token_count=10**10)
    page = render_source_page(probe, names, "2026-01-01T00:00:00Z", supersedes=[names.page_path])
    # + superseded_by added later, + room for titles and descriptions YAML must escape
    return len(page) + len("superseded_by:\n- \n") + len(names.page_path) + 512


def _shard_overhead(name: str, ext: str) -> int:
    names = worst_case_names(ext)
    probe = PreparedSource(SourceInput("", name, 0), b"", "", MARKDOWN, ext, "",
                           "x" * _TITLE_MAX, "x" * DESCRIPTION_MAX, [], [], token_count=10**10)
    shard = Shard(0, 10**9, 10**9, 10**9, split_block="paragraph")
    meta = shard_meta(probe, names, 999, shard, "2026-01-01T00:00:00Z")
    # + room for YAML escapes in title and description, and for the fence keys when present
    return len(render_shard_page(meta, "")) + 512 + 2 * _FENCE_KEY_ROOM

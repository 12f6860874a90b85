"""Names and rendering of source, index and shard pages (pure)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from tasks.ingest.media import HTML, JSON, JSON_LINES, MARKDOWN_TEXT, PLAIN_TEXT
from tasks.ingest.model import PreparedSource
from tasks.ingest.shard import Shard
from tasks.markdown.blocks import Heading
from tasks.markdown.frontmatter import find_front_matter
from tasks.markdown.outline import clean_inline, clip, content_fence
from tasks.store.errors import ContractError, InputError
from tasks.store.layout import RAW_FOLDER, SHARDS_FOLDER, SOURCES_DIR, SOURCES_FOLDER, SOURCES_HUB
from tasks.store.names import SLUG_MAX_LENGTH
from tasks.store.pages import dump_frontmatter, render_page
from tasks.store.safe_yaml import load_yaml

_FENCE_LANG = {PLAIN_TEXT: "text", JSON: "json", JSON_LINES: "jsonl"}
_TOC_HEADINGS_MAX = 12


def worst_case_names(ext: str, base_slug: str | None = None) -> SourceNames:
    """The longest names the writer can give a source (with `base_slug`: the longest it can
    make of that slug, which gets at most a "-NNNNN" suffix): budgets are computed on these."""
    prefix = "0000-00-00T00-00-00Z"
    slug = "x" * SLUG_MAX_LENGTH if base_slug is None else f"{base_slug}-99999"
    return SourceNames(prefix=prefix, slug=slug, ext=ext)


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
        return self.raw or f"{RAW_FOLDER}{self.stem}{self.ext}"

    @property
    def page_path(self) -> str:
        return f"{SOURCES_FOLDER}{self.stem}.md"

    @property
    def shard_folder(self) -> str:
        return f"{SHARDS_FOLDER}{self.stem}"

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
        "memory": {"memoryRole": "knowledge",
                   "source": f"ingested from {prepared.input.source_path}"},
        "content_hash": prepared.content_hash,
        "raw_asset_id": prepared.asset_id,
        "size_chars": len(prepared.text),
        "token_count": prepared.token_count,
        "source_path": prepared.input.source_path,
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


def outline_lines(headings: list[Heading]) -> list[str]:
    if not headings:
        return ["_No headings._"]
    top = min(h.level for h in headings)
    return [f"{'  ' * (h.level - top)}- {clip(clean_inline(h.text), 100)} (line {h.line})"
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
    lines = [*_source_header(prepared, names), "", "## Outline", "", *outline_lines(prepared.headings),
             "", "## Content", "", content]
    return render_page(meta, "\n".join(lines))


def _toc_line(number: int, shard: Shard, names: SourceNames) -> str:
    link = PurePosixPath(names.shard_path(number)).relative_to(SOURCES_DIR).as_posix()
    return f"- [Shard {number:03d}]({link}): lines {shard.line_start}-{shard.line_end}"


def toc_line_max(ext: str, base_slug: str) -> int:
    """The longest table-of-contents line of a shard of this source (no headings under it)."""
    names = worst_case_names(ext, base_slug)
    return len(_toc_line(999, Shard(0, 0, 999_999_999, 999_999_999), names)) + 4


# render_source_page's inputs plus the page limit the table of contents is cut to
def render_index_page(prepared: PreparedSource, names: SourceNames, now_iso: str, limit: int,  # noqa: PLR0913
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
                toc.append(f"  {'  ' * (heading.level - top)}- {clip(clean_inline(heading.text), 90)}")
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
    block = find_front_matter(page_text)
    if block is None or not page_text.startswith("\n", block.body_start):
        raise ContractError("shard page has no front matter followed by a blank line",
                            hint="the shard page was edited by hand; re-ingest its source")
    meta = load_yaml(block.yaml(page_text))
    body = page_text[block.body_start + 1 :]
    reopened, closed = meta.get("reopened_fence", ""), meta.get("closed_fence", "")
    if reopened:
        if not body.startswith(reopened):
            raise ContractError("shard page does not start with its reopened_fence line",
                                hint="the shard page was edited by hand; re-ingest its source")
        body = body[len(reopened) :]
    if closed:
        if not body.endswith(closed):
            raise ContractError("shard page does not end with its closed_fence line",
                                hint="the shard page was edited by hand; re-ingest its source")
        body = body[: len(body) - len(closed)]
    return str(body)

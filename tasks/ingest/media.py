"""The media types ingest accepts, by file extension."""

from __future__ import annotations

MARKDOWN = "text/markdown"
PLAIN_TEXT = "text/plain"
JSON = "application/json"
JSON_LINES = "application/jsonl"  # JSON Lines, e.g. chat transcripts: one record per line
HTML = "text/html"  # pages show it converted to markdown (tasks.markdown.html); raw/ keeps the bytes
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

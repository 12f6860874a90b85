"""Ingest: sources in, immutable raw copies, source pages (sharded when large) out.

Three steps, split so the parallel part is pure and one writer applies:

    collect_inputs(paths)            paths, folders and globs -> SourceInput list + problems
    prepare_batch(inputs, settings)  read each file once, check it, hash, plan pages, count
                                     tokens (runs as one Prefect task per batch)
    apply_ingest(operation, ...)     the single writer: dedupe, name, write raw + pages,
                                     supersede older versions, manifest, hub, index, log
                                     (writer.IngestWriter: the same in phases, under the lock,
                                     one batch at a time; write_ingest: all phases at once)

A bad input becomes one `Problem` naming the file and the cause; the rest of the batch goes on.

Modules: inputs (filesystem discovery, batches), media (accepted types), model (what the steps
hand each other), prepare (read, check, plan), source_pages (names and page rendering), apply
(the writer). The names below are the package's interface for flows and tests: ingest's own
names only (outline helpers are tasks.markdown.outline's, token counts tasks.store.tokens').
"""

from tasks.ingest.apply import (
    WriterStep,
    apply_ingest,
    in_input_order,
    plan_writer_steps,
    stored_asset_ids,
)
from tasks.ingest.inputs import SourceInput, collect_inputs, plan_batches
from tasks.ingest.media import HTML, JSON, JSON_LINES, MARKDOWN, MARKDOWN_TEXT, MEDIA_TYPES, PLAIN_TEXT
from tasks.ingest.model import PreparedSource, StoredSource
from tasks.ingest.prepare import (
    base_slug_for,
    check_json,
    decode_source,
    find_stored_sources,
    prepare_batch,
    prepare_source,
    privacy_gate,
    source_frontmatter,
)
from tasks.ingest.source_pages import (
    SourceNames,
    render_index_page,
    render_shard_page,
    render_source_page,
    shard_body_from_page,
    shard_meta,
    worst_case_names,
)
from tasks.ingest.writer import IngestWriter, write_ingest

__all__ = [
    "HTML", "JSON", "JSON_LINES", "MARKDOWN", "MARKDOWN_TEXT", "MEDIA_TYPES", "PLAIN_TEXT",
    "IngestWriter", "PreparedSource", "SourceInput", "SourceNames", "StoredSource",
    "apply_ingest",
    "base_slug_for", "check_json", "collect_inputs",
    "decode_source", "find_stored_sources", "in_input_order", "plan_batches",
    "prepare_batch", "prepare_source", "privacy_gate", "render_index_page", "render_shard_page",
    "render_source_page", "shard_body_from_page", "shard_meta",
    "WriterStep", "plan_writer_steps", "source_frontmatter", "stored_asset_ids",
    "worst_case_names", "write_ingest",
]

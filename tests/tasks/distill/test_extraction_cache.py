"""The extraction cache answers only for the same bytes, ref and extractor, and never trusts a
damaged entry (tasks/distill/extraction_cache.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tasks.distill import extraction_cache
from tasks.distill.extraction_cache import (
    ExtractionCache,
    encoded_entry,
    extractor_fingerprint,
)
from tasks.distill.plan import DistillSource, extract_each
from tasks.extract import SourceRef

TEXT = """# Decision: use Kafka for events

## Status

Accepted.

## Decision

We use [[Kafka]] for the event bus; it depends_on [[ZooKeeper]].
"""


def _item(root: Path, name: str, text: str = TEXT, role: str | None = None) -> DistillSource:
    raw = root / "raw" / f"{name}.md"
    raw.parent.mkdir(parents=True, exist_ok=True)
    raw.write_text(text)
    ref = SourceRef(name.ljust(64, "0"), f"wiki/sources/{name}.md", f"raw/{name}.md",
                    f"docs/{name}.md")
    return DistillSource(ref, raw, role)


def _fill(cache: ExtractionCache, items: list[DistillSource]) -> list:
    """Look up, extract what is missing and store it, as the distill flow does."""
    lookup = cache.lookup(items)
    fresh = iter(extract_each(lookup.missing(items)))
    entries, outcomes = [], []
    for item, cached, key in zip(items, lookup.cached, lookup.keys, strict=True):
        if cached is None:
            got = next(fresh)
            entry = encoded_entry(item, key, got)
            if entry is not None:
                entries.append(entry)
        else:
            got = cached
        outcomes.append(got)
    cache.store(entries)
    return outcomes


def _cache(root: Path) -> ExtractionCache:
    return ExtractionCache(root / extraction_cache.CACHE_FILE)


def test_a_kept_extraction_is_the_fresh_one(tmp_path: Path) -> None:
    items = [_item(tmp_path, "a"), _item(tmp_path, "b", TEXT.replace("Kafka", "Pulsar"))]
    cache = _cache(tmp_path)
    first = _fill(cache, items)
    assert (cache.hits, cache.stored) == (0, 2)
    cache.close()
    again = _cache(tmp_path)
    second = _fill(again, items)
    assert (again.hits, again.stored) == (2, 0)
    assert repr(second) == repr(first) == repr([extract_each([i])[0] for i in items])
    assert first[0][0].extraction.relations  # (a text with facts)


def test_a_changed_source_is_extracted_again(tmp_path: Path) -> None:
    item = _item(tmp_path, "a")
    _fill(_cache(tmp_path), [item])
    item.raw_file.write_text(TEXT.replace("Kafka", "RabbitMQ"))  # same path, same asset id
    cache = _cache(tmp_path)
    outcomes = _fill(cache, [item])
    assert (cache.hits, cache.stored) == (0, 1)
    assert "RabbitMQ" in repr(outcomes) and "Kafka" not in repr(outcomes)


def test_a_changed_ref_is_extracted_again(tmp_path: Path) -> None:
    item = _item(tmp_path, "a")
    _fill(_cache(tmp_path), [item])
    moved = DistillSource(SourceRef(item.ref.asset_id, "wiki/sources/other.md",
                                    item.ref.raw_path, item.ref.original_path), item.raw_file)
    cache = _cache(tmp_path)
    assert _fill(cache, [moved])[0][0].extraction.source.source_page == "wiki/sources/other.md"
    assert cache.hits == 0


def test_a_changed_extractor_is_extracted_again(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    item = _item(tmp_path, "a")
    _fill(_cache(tmp_path), [item])
    monkeypatch.setattr(extraction_cache, "extractor_fingerprint", lambda: b"another extractor")
    cache = _cache(tmp_path)
    _fill(cache, [item])
    assert (cache.hits, cache.stored) == (0, 1)


def test_the_fingerprint_covers_the_extractor_code() -> None:
    fingerprint = extractor_fingerprint()
    assert len(fingerprint) == 32 and fingerprint == extractor_fingerprint()
    code = {p.relative_to(extraction_cache._PROJECT).as_posix()
            for folder in extraction_cache._CODE_DIRS
            for p in (extraction_cache._PROJECT / folder).rglob("*.py")}
    assert {"tasks/extract/facts.py", "tasks/markdown/blocks.py", "tasks/distill/plan.py",
            "tasks/distill/extraction_codec.py", "schemas/graph.py"} <= code


@pytest.mark.parametrize("damage", ["body", "key", "check", "shape"])
def test_a_damaged_entry_is_extracted_again_and_replaced(tmp_path: Path, damage: str) -> None:
    item = _item(tmp_path, "a")
    expected = repr(_fill(_cache(tmp_path), [item]))
    path = tmp_path / extraction_cache.CACHE_FILE
    with sqlite3.connect(path) as conn:
        key, body, check = conn.execute(
            "SELECT key, body, check_digest FROM extraction").fetchone()
        changed = {"body": (key, body.replace(b"Kafka", b"Kafkb"), check),
                   "key": (bytes(32), body, check),
                   "check": (key, body, bytes(16)),
                   "shape": (key, b"[1]", extraction_cache._check(key, b"[1]"))}[damage]
        conn.execute("UPDATE extraction SET key = ?, body = ?, check_digest = ?", changed)
    cache = _cache(tmp_path)
    assert repr(_fill(cache, [item])) == expected
    assert (cache.hits, cache.stored) == (0, 1)
    cache.close()
    healed = _cache(tmp_path)
    assert repr(_fill(healed, [item])) == expected and healed.hits == 1


def test_a_file_that_is_not_a_database_is_started_again(tmp_path: Path) -> None:
    item = _item(tmp_path, "a")
    path = tmp_path / extraction_cache.CACHE_FILE
    path.parent.mkdir(parents=True)
    path.write_bytes(b"this is not SQLite" * 100)
    cache = _cache(tmp_path)
    _fill(cache, [item])
    assert (cache.hits, cache.stored) == (0, 1)
    cache.close()
    again = _cache(tmp_path)
    _fill(again, [item])
    assert again.hits == 1


def test_store_files_and_unreadable_sources_are_not_kept(tmp_path: Path) -> None:
    store = _item(tmp_path, "s", "# notes\n", role="custodian")
    missing = DistillSource(SourceRef("m" * 64, "wiki/sources/m.md", "raw/m.md"),
                            tmp_path / "raw/m.md")
    cache = _cache(tmp_path)
    lookup = cache.lookup([store, missing])
    assert lookup.cached == [None, None] and lookup.keys == [None, None]
    problem = extract_each([missing])[0]
    assert encoded_entry(missing, b"k" * 32, problem) is None  # (a problem, not an extraction)


def test_the_store_may_run_in_another_thread_than_the_lookup(tmp_path: Path) -> None:
    """(under Prefect the writer task, which stores, may run in a thread of its own)"""
    import threading

    item = _item(tmp_path, "a")
    cache = _cache(tmp_path)
    lookup = cache.lookup([item])
    entry = encoded_entry(item, lookup.keys[0], extract_each([item])[0])
    assert entry is not None
    worker = threading.Thread(target=cache.store, args=([entry],))
    worker.start()
    worker.join()
    assert cache.stored == 1
    cache.close()
    again = _cache(tmp_path)
    again.lookup([item])
    assert again.hits == 1

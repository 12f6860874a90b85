"""What distill writes for memory stores besides observations: the provenance key of a
store's typed fields, and store tombstones merged into context/tombstones.jsonc."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from schemas.distill_inbox import Tombstone, TombstoneList
from tasks.extract import Extraction
from tasks.store.atomic import atomic_write_text
from tasks.store.graph_store import load_tombstones
from tasks.store.jsonc import dumps_json
from tasks.store.operation import Operation

# Observation provenance / superseded observations: the source record's typed fields
# (record or Entry ID, type, domain, scope, Subject ID, facet, evidence, ...).
STORE_RECORD_KEY = "storeRecord"


def merge_store_tombstones(operation: Operation, extractions: Sequence[Extraction]) -> TombstoneList:
    """Add the stores' do-not-use and tombstone topics not forgotten yet (first seen wins,
    existing order kept, new ones sorted by topic); write the file only when it changes."""
    layout = operation.layout
    current = load_tombstones(layout.tombstones_file)
    known = {t.topic.strip().lower() for t in current.tombstones}
    new: dict[str, Tombstone] = {}
    for extraction in extractions:
        for item in extraction.tombstones:
            key = item["topic"].strip().lower()
            if not key or key in known or key in new:
                continue
            new[key] = Tombstone.model_validate({  # extra keys (allowed): where it came from
                "topic": item["topic"], "reason": item["reason"],
                "tombstonedAtUtc": operation.now_iso, "sourceEntryId": item.get("sourceEntryId"),
                "sourcePage": extraction.source.source_page})
    if not new:
        return current
    merged = TombstoneList(tombstones=[*current.tombstones, *(new[k] for k in sorted(new))])
    atomic_write_text(layout.tombstones_file,
                      dumps_json(merged.model_dump(mode="json", exclude_none=True)))
    operation.stage.note_artifact(
        layout.relative(layout.tombstones_file),
        f"{len(new)} forgotten topic(s) from memory stores (do-not-use, tombstones)")
    return merged


def replacements_in_graph(entities: Iterable[dict[str, Any]]) -> dict[str, str]:
    """old record/Entry ID -> the ID that supersedes it, from the typed fields of observations
    already in the graph (a replacement distilled in an earlier run than its archived record)."""
    found: dict[str, str] = {}
    for entity in entities:
        for provenance in entity.get("observationProvenance") or ():
            typed = provenance.get(STORE_RECORD_KEY)
            if not isinstance(typed, dict):
                continue
            new = typed.get("recordId") or typed.get("entryId")
            olds = typed.get("supersedes")
            for old in [olds] if isinstance(olds, str) else olds or ():
                if isinstance(old, str) and isinstance(new, str):
                    found.setdefault(old, new)
    return found

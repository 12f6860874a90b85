"""The scan's facts of a context file membank wrote as it is, read from its plain JSON.

The registry, the raw manifest and the distill state are validated on the way in (their
writers dump validated models: tasks/store/graph_store.py) and recorded as written
(tasks/store/written.py). Right after an ingest a check read all three again through pydantic
(7, 10 and 5 MB at 100,000 pages: about 0.8 s cpu) to take a few fields of each row. A file
that is still the bytes membank wrote is read with orjson and its facts taken from the dicts:
the same facts as scan._model_facts gives of the validated model (the models drop None
values on the way out, so an absent optional key reads as None). A file a person edited,
copied in from elsewhere or broke is validated as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

from schemas.common import name_key
from tasks.checks.facts import DistillStateFacts, ManifestFacts, RegistryFacts
from tasks.store.graph_store import normal_aliases
from tasks.store.layout import DISTILL_STATE_FILE, MANIFEST_FILE, REGISTRY_FILE

TRUSTED_FILES = frozenset({REGISTRY_FILE, MANIFEST_FILE, DISTILL_STATE_FILE})


def registry_facts(data: dict[str, Any]) -> RegistryFacts:
    entries = data["entries"]
    rows = [(e["canonicalName"], e["entityType"], e.get("aliases", [])) for e in entries]
    # normalize_registry leaves it as it is: keys strictly increasing (sorted, no duplicate
    # to merge) and every entry's aliases already trimmed, deduplicated and sorted
    previous: str | None = None
    normalized = True
    for name, _type, aliases in rows:
        key = name_key(name)
        if (previous is not None and key <= previous) or not normal_aliases(aliases, key):
            normalized = False
            break
        previous = key
    return {"problem": None, "entries": rows, "normalized": normalized}


def manifest_facts(data: dict[str, Any]) -> ManifestFacts:
    return {"problem": None, "assets": [
        {"assetId": a["assetId"], "contentHash": a["contentHash"], "rawPath": a["rawPath"],
         "sourcePage": a.get("sourcePage"), "ingestedAtUtc": a["ingestedAtUtc"],
         "supersedesAssetId": a.get("supersedesAssetId"),
         "supersedesSourcePage": a.get("supersedesSourcePage")}
        for a in data["assets"]
    ], "reverts": [
        {"assetId": r["assetId"], "sourcePage": r.get("sourcePage"),
         "supersedesAssetId": r["supersedesAssetId"],
         "supersedesSourcePage": r.get("supersedesSourcePage"), "revertedAtUtc": r["revertedAtUtc"]}
        for r in data.get("reverts") or ()
    ]}


def distill_state_facts(data: dict[str, Any]) -> DistillStateFacts:
    return {"problem": None, "sources": [
        {"assetId": s["assetId"], "sourcePage": s["sourcePage"],
         "distilledAtUtc": s["distilledAtUtc"], "skipped": s.get("supersededByAssetId") is not None}
        for s in data.get("sources", ())
    ]}


WrittenFacts = RegistryFacts | ManifestFacts | DistillStateFacts
_FACTS: dict[str, Callable[[dict[str, Any]], WrittenFacts]] = {
    REGISTRY_FILE: registry_facts, MANIFEST_FILE: manifest_facts,
    DISTILL_STATE_FILE: distill_state_facts}


def written_context_facts(rel: str, data: bytes) -> WrittenFacts | None:
    """The facts of `rel` (one of TRUSTED_FILES) from bytes membank wrote; None when they are
    not of the shape its writer gives (then the caller validates them)."""
    try:
        parsed = orjson.loads(data)
        return _FACTS[rel](parsed) if isinstance(parsed, dict) else None
    except (ValueError, KeyError, TypeError, AttributeError):
        return None

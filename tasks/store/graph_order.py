"""Is a graph in the order membank writes it (normalize_graph's), checked without copying.

Every sorted list of the graph is strictly increasing: entities by name key, each entity's
observations, provenance and superseded observations, the relations by their key. A reader may
trust a file in this order as membank's own layout (tasks.store.written: record_validated);
reconcile's facts (tasks.checks.graph_facts) and bootstrap's check of a copied graph read it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from schemas.common import name_key


def increasing(keys: Iterable[Any]) -> bool:
    previous: Any = None
    for n, key in enumerate(keys):
        if n and not previous < key:
            return False
        previous = key
    return True


def relation_key(relation: dict[str, Any]) -> str:
    return "|".join(name_key(relation[part])
                    for part in ("sourceEntityName", "relationType", "targetEntityName"))


def entity_in_order(entity: dict[str, Any]) -> bool:
    """graph_is_normalized's checks within one entity."""
    observations = entity.get("observations") or ()
    return (not any(o != o.strip() for o in observations) and increasing(observations)
            and increasing((p["observation"], p["sourcePage"], p["lineStart"], p["lineEnd"])
                            for p in entity.get("observationProvenance") or ())
            and increasing((s["observation"], s.get("supersededBy") or "")
                            for s in entity.get("supersededObservations") or ()))


def graph_is_normalized(graph: dict[str, Any]) -> bool:
    """True when normalize_graph would return the graph unchanged (same dedup keys and order),
    checked without copying 100,000 observations: every sorted list is strictly increasing."""
    entities = graph["entities"]
    return (increasing(name_key(e["entityName"]) for e in entities)
            and all(entity_in_order(entity) for entity in entities)
            and increasing(relation_key(r) for r in graph["relations"]))

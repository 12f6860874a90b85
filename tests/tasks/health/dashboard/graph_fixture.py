"""A memory with a knowledge graph worth looking at, for the knowledge view's tests.

The healthy fixture memory (tests/memory_builder.py: a raw file, its source page, entity pages,
hubs, registry, manifest), plus: a topic hub with a page under it, a sharded source (index page
and shard), and a graph of `extra` generated entities of five types whose observations come
from those pages, with superseded facts and relations, and a hostile name that tries to close
the page's script element.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tasks.store.graph_store import save_graph_data
from tasks.store.layout import MemoryLayout
from tests.memory_builder import (
    EARLIER,
    PREFIX,
    SOURCE,
    asset_id,
    build_healthy_memory,
    graph_model,
    page_meta,
    write,
)

TOPIC_HUB = f"wiki/synthesis/{PREFIX}__storage-hub.md"
TOPIC_PAGE = f"wiki/synthesis/{PREFIX}__storage-notes.md"
SHARD_INDEX = f"wiki/sources/{PREFIX}__big-manual.md"
SHARD = f"wiki/sources/shards/{PREFIX}__big-manual/shard-000.md"
TYPES = ("component", "decision", "person", "team", "service")
HOSTILE = "</script><script>alert(1)</script><!--"


def _evidence(text: str, page: str, line: int) -> dict[str, Any]:
    return {"observation": text, "sourcePage": page, "rawAssetId": asset_id(), "lineStart": line,
            "lineEnd": line + 1}


def _generated(extra: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    entities, relations = [], []
    pages = (SOURCE, TOPIC_PAGE, SHARD)
    for i in range(extra):
        name = f"part-{i:05d}"
        texts = [f"{name} handles case {j}" for j in range(3)]
        page = pages[i % 3]
        entities.append({"entityName": name, "entityType": TYPES[i % len(TYPES)], "observations": texts,
                         "observationProvenance": [_evidence(t, page, 3 + j) for j, t in enumerate(texts)]})
        # a hub-and-spoke shape: every tenth part is a hub the next nine depend on
        hub = i - i % 10
        if hub != i:
            relations.append({"sourceEntityName": name, "targetEntityName": f"part-{hub:05d}",
                              "relationType": "depends_on"})
        elif i:
            relations.append({"sourceEntityName": name, "targetEntityName": f"part-{i - 10:05d}",
                              "relationType": "follows"})
    return entities, relations


def build_graph_memory(root: Path, extra: int = 300) -> MemoryLayout:
    layout = build_healthy_memory(root)
    write(root, TOPIC_HUB, page_meta("hub", "Storage", "wiki/synthesis/index.md"), "# Storage\n")
    write(root, TOPIC_PAGE, page_meta("synthesis", "Storage notes", TOPIC_HUB), "# Storage notes\n")
    write(root, SHARD_INDEX, page_meta("source-index", "Big manual", "wiki/sources"), "# Big manual\n")
    write(root, SHARD, page_meta("source-shard", "Big manual, part 1", SHARD_INDEX), "# Part 1\n")
    data = graph_model().model_dump(mode="json")
    orchestrator = data["entities"][0]
    orchestrator["supersededObservations"] = [{
        "observation": "status: draft", "supersededAtUtc": EARLIER, "supersededBy": "status: active",
        "reason": "a newer status", "sourcePage": SOURCE, "rawAssetId": asset_id(), "lineStart": 2,
        "lineEnd": 2}]
    entities, relations = _generated(extra)
    entities.append({"entityName": "Retired cache", "entityType": "component", "observations": [],
                     "supersededObservations": [{"observation": "Caches plans", "supersededAtUtc": EARLIER,
                                                 "supersededBy": None, "reason": "removed"}]})
    entities.append({"entityName": HOSTILE, "entityType": "component", "observations": [HOSTILE],
                     "observationProvenance": [_evidence(HOSTILE, SOURCE, 1)]})
    relations.append({"sourceEntityName": "orchestrator", "targetEntityName": "part-00000",
                      "relationType": "uses"})
    data["entities"] = sorted(data["entities"] + entities, key=lambda e: e["entityName"].lower())
    data["relations"] = relations + data["relations"]
    data["supersededRelations"] = [{"sourceEntityName": "Retired cache", "targetEntityName": "planner",
                                    "relationType": "serves", "supersededAtUtc": EARLIER,
                                    "reason": "no source states it any more"}]
    save_graph_data(layout.graph_file, data, now_iso=EARLIER)
    return layout

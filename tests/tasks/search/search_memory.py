"""A small memory for read-side tests: the healthy fixture memory plus a synthesis page with
sections, a sharded source, a superseded page and a superseded observation."""

from __future__ import annotations

from pathlib import Path

from schemas.graph import SupersededObservation
from tasks.store.graph_store import load_graph, save_graph
from tasks.store.layout import MemoryLayout
from tests.memory_builder import EARLIER, PREFIX, build_healthy_memory, page_meta, write

SYNTHESIS = f"wiki/synthesis/{PREFIX}__upload-retry-budget.md"
SHARD_INDEX = f"wiki/sources/{PREFIX}__operations-handbook.md"
SHARD = f"wiki/sources/shards/{PREFIX}__operations-handbook/shard-001.md"
OLD_SOURCE = f"wiki/sources/{PREFIX}__old-design-notes.md"


def build_search_memory(root: Path) -> MemoryLayout:
    layout = build_healthy_memory(root)
    write(root, SYNTHESIS, page_meta("synthesis", "Upload retry budget", "wiki/synthesis/index.md"),
          "# Upload retry budget\n\nHow many times an upload is retried.\n\n"
          "## Evidence\n\nForty failed uploads; none recovered after the third retry.\n\n"
          "## Budget {#retry-budget}\n\nRetry three times, then give up.\n\n"
          "### Backoff\n\nExponential jitter between attempts.\n")
    write(root, SHARD_INDEX, page_meta("source-index", "Operations handbook",
                                       "wiki/sources/index.md"),
          "# Operations handbook\n\nA sharded source.\n")
    write(root, SHARD, page_meta("source-shard", "Operations handbook, part 1", SHARD_INDEX),
          "## Pager rotation\n\nThe zebrafish on-call rotation changes every Monday.\n")
    write(root, OLD_SOURCE, page_meta("source", "Old design notes", "wiki/sources/index.md",
                                      superseded_by=[f"wiki/sources/{PREFIX}__design-notes.md"]),
          "# Old design notes\n\nThe orchestrator once used a quokka scheduler.\n")
    graph = load_graph(layout.graph_file)
    graph.entities[0].supersededObservations.append(SupersededObservation(
        observation="Runs on the legacy quokka cluster", supersededAtUtc=EARLIER,
        supersededBy="Coordinates thinker, planner and executor", reason="replaced"))
    save_graph(layout.graph_file, graph, now_iso=EARLIER)
    return layout

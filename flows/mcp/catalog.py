"""The tools `membank mcp` serves, one line each: for `membank mcp --help` and the server's
descriptions (no import of the MCP SDK here: the CLI reads it at start-up)."""

from __future__ import annotations

TOOLS: dict[str, str] = {
    "memory_browse": "No query: the root structure (index, hubs, hubsByRecent, nearest); with a "
    "query: the nearest pages with their sections and the hubs that fit (before you write).",
    "memory_search": "Ranked hits for query plus up to 8 more phrasings (queries[]), grouped in "
    "resultsByQuery; a miss returns navigation start points instead. since / before (a day, "
    "month or year such as 2025-04) keep hits dated in or after / in or before it.",
    "memory_load": "A page (path or memory://page/ uri) or one #section: frontmatter, body, "
    "sections, links out and in.",
    "memory_write": "Write through the proposal gate: a new leaf under parentHubPath, or "
    "op rewrite-section|append-section of an existing page; ok with path and revision, or the "
    "gate's rejection code and hint.",
    "memory_curate": "Maintain the page graph without deleting a fact: op supersede (pageId "
    "[section] by supersededByPageId), merge (sourcePageId into pageId, older text kept under "
    "Superseded), link / unlink (a typed link kind from pageId to toPath, or to its section "
    "toSection), reparent (move childPaths under the hub pageId in their folder; hubs and "
    "index.md follow); limit caps the pages one call writes.",
    "memory_retrieve": "The retrieval packet for a task, within budget_tokens (membank retrieve); "
    "category, paths, areas, strict_routing, explain route MemoryCustodian files by their manifest.",
    "memory_show": "One entity: facts with provenance, relations both ways, superseded facts.",
    "memory_health": "The latest health summary (kind reconcile, freshness or privacy).",
    "memory_ingest": "Ingest files or folders (only under the server's --allow-ingest folders).",
    "memory_forget_plan": "The plan of forgetting a topic (nothing changes; applying is a "
    "human's `membank forget --apply`).",
}

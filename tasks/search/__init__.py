"""The read side: a derived full-text index (SQLite FTS5) and the search, browse, show and
retrieve answers built on it. Nothing here imports Prefect: read-only commands call it directly."""

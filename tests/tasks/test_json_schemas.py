"""The JSON Schemas committed under schemas/json/ are the pydantic contracts' own
(tasks/json_schemas.py writes them; a stale one fails here)."""

from __future__ import annotations

from pathlib import Path

import orjson

from tasks.json_schemas import expected_schemas, stale_schemas, write_schemas


def test_committed_json_schemas_are_current() -> None:
    assert stale_schemas() == [], "run: python -m tasks.json_schemas"


def test_stale_schema_is_detected(tmp_path: Path) -> None:
    write_schemas(tmp_path)
    assert stale_schemas(tmp_path) == []
    (tmp_path / "health-summary.schema.json").write_text("{}\n")
    assert stale_schemas(tmp_path) == ["health-summary.schema.json"]
    schema = orjson.loads(expected_schemas()["health-summary.schema.json"])
    assert {"schema_version", "status", "status_rule", "counts", "findings",
            "durations_seconds", "generated_at"} <= set(schema["properties"])

"""Generate the JSON Schemas of the health summary and the operation report into schemas/json/.

    python -m tasks.json_schemas          # rewrite the files
    python -m tasks.json_schemas --check  # exit 1 when a file is stale

tests/tasks/test_json_schemas.py (test_committed_json_schemas_are_current) fails when a committed
schema no longer matches its model.
"""

from __future__ import annotations

import sys
from pathlib import Path

from pydantic import BaseModel

from schemas.health import HealthSummary
from schemas.report import MemoryOperationReport
from tasks.store.atomic import atomic_write_text
from tasks.store.jsonc import dumps_json

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas" / "json"
SCHEMA_MODELS: dict[str, type[BaseModel]] = {
    "health-summary.schema.json": HealthSummary,
    "memory-operation-report.schema.json": MemoryOperationReport,
}


def schema_text(model: type[BaseModel]) -> str:
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema",
              **model.model_json_schema(mode="serialization")}
    return dumps_json(schema)


def expected_schemas() -> dict[str, str]:
    return {name: schema_text(model) for name, model in SCHEMA_MODELS.items()}


def stale_schemas(folder: Path = SCHEMA_DIR) -> list[str]:
    stale = []
    for name, text in expected_schemas().items():
        path = folder / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(name)
    return stale


def write_schemas(folder: Path = SCHEMA_DIR) -> list[str]:
    folder.mkdir(parents=True, exist_ok=True)
    return [name for name, text in expected_schemas().items()
            if atomic_write_text(folder / name, text)]


if __name__ == "__main__":
    if "--check" in sys.argv[1:]:
        stale = stale_schemas()
        print("stale: " + ", ".join(stale) if stale else "up to date")
        sys.exit(1 if stale else 0)
    print("written: " + (", ".join(write_schemas()) or "nothing (up to date)"))

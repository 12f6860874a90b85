"""The adoption ledger, context/adopted-deliverables.jsonc: every adoption keyed by proposal hash
and by deliverable, so a replayed proposal is a dedupe hit."""

from __future__ import annotations

from schemas.proposal import AdoptionLedger
from tasks.store.atomic import atomic_write_text
from tasks.store.contracts import validate_model
from tasks.store.errors import MembankError
from tasks.store.jsonc import dumps_json, read_jsonc_file
from tasks.store.layout import (
    LEDGER_FILE,
    MemoryLayout,
)

# --------------------------------------------------------------------------- the ledger


def empty_ledger(now_iso: str) -> AdoptionLedger:
    return AdoptionLedger(ledgerGeneratedAtUtc=now_iso, adoptions=[])


def load_ledger(layout: MemoryLayout, now_iso: str) -> AdoptionLedger:
    path = layout.root / LEDGER_FILE
    if not path.exists():
        return empty_ledger(now_iso)
    return validate_model(AdoptionLedger, read_jsonc_file(path), file=path)


def save_ledger(layout: MemoryLayout, ledger: AdoptionLedger, *, now_iso: str) -> bool:
    """Write the ledger, refreshing its stamp only when an adoption was added."""
    path = layout.root / LEDGER_FILE
    data = ledger.model_dump(mode="json", exclude_none=True)
    try:
        old = read_jsonc_file(path)
    except MembankError:
        old = None
    if isinstance(old, dict) and old.get("adoptions") == data["adoptions"]:
        return False
    return atomic_write_text(path, dumps_json({**data, "ledgerGeneratedAtUtc": now_iso}))

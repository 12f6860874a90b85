"""Paths of the store fixtures (tests/fixtures/stores/) and helpers shared by the store tests."""

from __future__ import annotations

import hashlib
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "stores"
MEM_GOOD = FIXTURES / "mem" / ".mem"
MEM_BROKEN = FIXTURES / "mem-broken" / ".mem"
CUSTODIAN_GOOD = FIXTURES / "custodian" / "docs" / "memory"
CUSTODIAN_BROKEN = FIXTURES / "custodian-broken" / "docs" / "memory"
CUSTODIAN_NO_MANIFEST = FIXTURES / "custodian-no-manifest" / "docs" / "memory"


def tree_digest(root: Path) -> dict[str, tuple[str, int]]:
    """Every file under root: sha256 and mtime, to prove a check wrote nothing."""
    return {
        str(p.relative_to(root)): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
        for p in sorted(root.rglob("*")) if p.is_file()
    }

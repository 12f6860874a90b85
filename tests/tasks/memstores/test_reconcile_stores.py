"""The nightly reconcile audits memory stores: the root's own and MEMBANK_STORE_PATHS."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

from schemas.health import STORE_FINDING_CODES
from tasks.checks.reconcile import reconcile_memory
from tasks.store.operation import begin_operation
from tasks.store.settings import load_settings
from tests.tasks.memstores.pipeline import NOW
from tests.tasks.memstores.store_fixtures import FIXTURES, MEM_BROKEN, tree_digest
from tests.tasks.memstores.test_check_custodian import MERGE_CODES
from tests.tasks.memstores.test_distill_stores import ingest_and_distill


def _store_codes(root: Path, **settings: object) -> Counter[str]:
    operation = begin_operation(load_settings(root, fixed_clock=NOW, **settings), "reconcile")
    _, summary = reconcile_memory(operation, check=True)
    return Counter(f.code for f in summary.findings if f.code.startswith(("mem_", "mc_")))


def test_configured_store_paths_join_the_health_summary(tmp_path: Path) -> None:
    root = tmp_path / ".memories"
    ingest_and_distill(root, [FIXTURES / "mem"])
    assert _store_codes(root) == Counter()
    before = tree_digest(FIXTURES)
    codes = _store_codes(root, store_paths=[FIXTURES / "mem-broken", FIXTURES / "custodian-broken",
                                            tmp_path / "gone"])
    assert tree_digest(FIXTURES) == before
    assert codes["mem_title_mismatch"] == 1 and codes["mc_owner_conflict"] == 1
    assert codes["mem_store_missing"] == 1  # the configured path that does not exist
    rules = sum(1 for code in STORE_FINDING_CODES if code not in (
        "mem_store_missing", "mc_manifest_missing", "mem_line_rewritten",
        "mem_secret_detected", *MERGE_CODES))  # J11 needs git, J15 a secret (test_mem_jsonl.py)
    assert sum(codes.values()) == rules + 1  # each broken rule once, nothing else


def test_a_store_inside_the_root_is_audited(tmp_path: Path) -> None:
    root = tmp_path / ".memories"
    ingest_and_distill(root, [FIXTURES / "mem"])
    shutil.copytree(MEM_BROKEN, root / ".mem")
    assert sum(_store_codes(root).values()) == sum(
        1 for code in STORE_FINDING_CODES if code.startswith("mem_")) - 3  # - rewritten, secret


def test_a_custodian_tree_in_the_root_is_a_store_not_pages(tmp_path: Path) -> None:
    root = tmp_path / ".memories"
    ingest_and_distill(root, [FIXTURES / "mem"])
    shutil.copytree(FIXTURES / "custodian-broken" / "docs", root / "docs")
    operation = begin_operation(load_settings(root, fixed_clock=NOW), "reconcile")
    _, summary = reconcile_memory(operation, check=True)
    codes = {f.code for f in summary.findings}
    assert codes == {code for code in STORE_FINDING_CODES  # AGENTS.md stayed in the repo
                     if code.startswith("mc_") and code not in ("mc_manifest_missing",
                                                                "mc_agent_file_too_long",
                                                                *MERGE_CODES)}

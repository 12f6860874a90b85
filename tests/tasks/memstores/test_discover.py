"""Where stores are: .mem/ folders (hidden, yet found) and MemoryCustodian trees."""

from __future__ import annotations

import shutil
from pathlib import Path

from tasks.ingest import collect_inputs
from tasks.memstores.discover import (
    StoreRoles,
    custodian_dir_for_check,
    find_custodian_dirs,
    find_mem_stores,
    is_custodian_dir,
)
from tests.tasks.memstores.store_fixtures import CUSTODIAN_GOOD, CUSTODIAN_NO_MANIFEST, FIXTURES, MEM_GOOD


def test_mem_stores_are_found_under_a_folder_or_given_directly() -> None:
    assert find_mem_stores(MEM_GOOD) == [MEM_GOOD]
    assert find_mem_stores(FIXTURES) == [MEM_GOOD, FIXTURES / "mem-broken" / ".mem"]


def test_custodian_trees_need_their_manifest(tmp_path: Path) -> None:
    assert find_custodian_dirs(FIXTURES / "custodian") == [CUSTODIAN_GOOD]
    assert not is_custodian_dir(CUSTODIAN_NO_MANIFEST)
    assert custodian_dir_for_check(FIXTURES / "custodian-no-manifest") == CUSTODIAN_NO_MANIFEST
    plain = tmp_path / "docs" / "api"
    plain.mkdir(parents=True)
    (plain / "manifest.md").write_text("# Shipping manifest\n\nWhat ships in 2.0.\n")
    assert not is_custodian_dir(plain)  # a manifest.md alone is just a document


def test_store_roles_of_files() -> None:
    roles = StoreRoles()
    assert roles.role(MEM_GOOD / "domains" / "ci.jsonl") == "mem:domains/ci.jsonl"
    assert roles.role(CUSTODIAN_GOOD / "areas" / "sync.md") == "custodian:areas/sync.md"
    assert roles.role(FIXTURES.parent.parent / "conftest.py") is None


def test_ingest_walks_a_hidden_mem_store_and_no_other_hidden_folder(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(MEM_GOOD, repo / ".mem")
    (repo / ".cache").mkdir()
    (repo / ".cache" / "notes.md").write_text("# Hidden\n")
    (repo / ".git").mkdir()
    inputs, problems = collect_inputs([repo])
    assert not problems
    shown = sorted(i.display.removeprefix(str(repo) + "/") for i in inputs)
    assert shown[0] == ".mem/archive/auth.jsonl" and len(shown) == 7
    assert all(i.store_role and i.store_role.startswith("mem:") for i in inputs)
    direct, _ = collect_inputs([repo / ".mem"])
    assert [i.store_role for i in direct] == [i.store_role for i in inputs]

"""The distill test helper stores sources as real ingest does: UTC prefix and slug, -2, -3 on a
clash, a rendered source page, and a new version of a path linked to the one it supersedes."""

from __future__ import annotations

from pathlib import Path

from tasks.store.pages import read_page
from tests.stored_sources import bootstrap, store_folder, store_source

LATER = "2026-04-01T08:00:00Z"


def test_store_source_names_clashes_and_versions_as_ingest_does(tmp_path: Path) -> None:
    root = tmp_path / ".memories"
    bootstrap(root)
    first = store_source(root, "one/billing.md", "# Billing\n\n- [fact] Runs on port 8080\n")
    other = store_source(root, "two/billing.md", "# Billing too\n\n- [fact] Runs on port 9090\n")
    newer = store_source(root, "one/billing.md", "# Billing\n\n- [fact] Runs on port 8081\n",
                         now_iso=LATER, supersedes=first)
    assert [a.sourcePage for a in (first, other, newer)] == [
        "wiki/sources/2026-03-24T22-40-05Z__billing.md",
        "wiki/sources/2026-03-24T22-40-05Z__billing-2.md",
        "wiki/sources/2026-04-01T08-00-00Z__billing-3.md",
    ]
    assert other.rawPath == "raw/2026-03-24T22-40-05Z__billing-2.md"
    assert newer.supersedesAssetId == first.assetId and other.supersedesAssetId is None
    assert read_page(root / first.sourcePage).meta["superseded_by"] == [newer.sourcePage]
    page = read_page(root / other.sourcePage)
    assert page.meta["raw_asset_id"] == other.assetId
    assert "## Content\n\n# Billing too\n\n- [fact] Runs on port 9090" in page.body


def test_store_folder_ingests_every_file_in_one_run(tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nAlpha.\n", encoding="utf-8")
    (folder / "b.md").write_text("# B\n\nBeta.\n", encoding="utf-8")
    root = tmp_path / ".memories"
    bootstrap(root)
    assets = store_folder(root, folder)
    assert [a.originalPath for a in assets] == [str(folder / "a.md"), str(folder / "b.md")]
    assert all((root / a.sourcePage).is_file() and (root / a.rawPath).is_file() for a in assets)

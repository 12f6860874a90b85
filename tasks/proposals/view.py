"""A read-only view of a memory root for the proposal gate, refreshed as the batch writes
pages (RootView)."""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from schemas.proposal import Adoption, AdoptionLedger
from tasks.proposals.gate import PagePlan
from tasks.search.browse import TopicMatcher
from tasks.store.errors import MembankError, RootError
from tasks.store.graph_store import load_manifest
from tasks.store.layout import (
    HUB_NAME,
    INDEX_FILE,
    WIKI_DIR,
    WIKI_FOLDER,
    MemoryLayout,
)
from tasks.store.names import in_shards, parse_memory_file_name, resolve_inside
from tasks.store.pages import split_page

# --------------------------------------------------------------------------- the memory view


def _may_be_hub(page: Path) -> bool:
    """Cheap pre-check on the frontmatter head, so listing hubs does not read every page."""
    try:
        with page.open("rb") as handle:
            head = handle.read(4096)
    except OSError:
        return False
    return (
        page.name == HUB_NAME
        or b"type: hub" in head
        or b"type: 'hub'" in head
        or b'type: "hub"' in head
    )


class RootView:
    """A read-only view of a memory root for the gate, refreshed as the batch writes pages."""

    def __init__(self, root: Path, ledger: AdoptionLedger, *, semantic: bool = False) -> None:
        self.root = root
        self.ledger = ledger
        self._texts: dict[str, str | None] = {}
        self._slugs: dict[str, dict[str, str]] = {}
        self._hubs: list[str] | None = None
        self._assets: dict[str, set[str]] | None = None
        self._by_digest = {a.proposalHash: a for a in ledger.adoptions}
        self._by_deliverable = {a.deliverable_key: a for a in ledger.adoptions if a.deliverable_key}
        self._by_asset = {a.assetId: a.page for a in ledger.adoptions if a.assetId}
        self.topics = TopicMatcher(MemoryLayout(root), semantic=semantic)

    def _path(self, path: str) -> Path | None:
        try:
            return resolve_inside(self.root, path)
        except (RootError, OSError, ValueError):
            return None

    def exists(self, path: str) -> bool:
        if path in self._texts:
            return self._texts[path] is not None
        target = self._path(path)
        return target is not None and target.is_file()

    def text(self, path: str) -> str | None:
        if path not in self._texts:
            target = self._path(path)
            try:
                self._texts[path] = target.read_text(encoding="utf-8") if target else None
            except (OSError, UnicodeDecodeError):
                self._texts[path] = None
        return self._texts[path]

    def is_hub(self, path: str) -> bool:
        if path == INDEX_FILE or not path.startswith(WIKI_FOLDER):
            return False
        text = self.text(path)
        if text is None:
            return False
        try:
            return split_page(text, file=path).meta.get("type") == "hub"
        except MembankError:
            return False

    def hubs(self) -> list[str]:
        """Folder hubs and topic hubs (pages of type hub) under wiki/."""
        if self._hubs is None:
            wiki = self.root / WIKI_DIR
            found = []
            for page in sorted(wiki.rglob("*.md")) if wiki.is_dir() else []:
                relative = page.relative_to(self.root).as_posix()
                if in_shards(relative) or not _may_be_hub(page):
                    continue  # only hub candidates are read whole (and cached)
                if self.is_hub(relative):
                    found.append(relative)
            self._hubs = found
        return self._hubs

    def page_with_slug(self, folder: str, slug: str) -> str | None:
        if folder not in self._slugs:
            by_slug: dict[str, str] = {}
            target = self._path(folder)
            for entry in sorted(os.listdir(target)) if target and target.is_dir() else []:
                try:
                    name = parse_memory_file_name(entry)
                except MembankError:
                    continue
                if name.ext == ".md":
                    by_slug.setdefault(name.slug, f"{folder}/{entry}")
            self._slugs[folder] = by_slug
        return self._slugs[folder].get(slug)

    def raw_paths_of_asset(self, asset_id: str) -> set[str]:
        if self._assets is None:
            self._assets = {}
            manifest = MemoryLayout(self.root).raw_manifest_file
            if manifest.exists():
                try:
                    for asset in load_manifest(manifest).assets:
                        self._assets.setdefault(asset.assetId, set()).add(asset.rawPath)
                except MembankError:
                    pass  # a damaged manifest is reconcile's to report; here it names no asset
        return self._assets.get(asset_id, set())

    def adoption(self, digest: str, deliverable_key: str | None) -> Adoption | None:
        found = self._by_digest.get(digest)
        if found is None and deliverable_key:
            found = self._by_deliverable.get(deliverable_key)
        return found

    def page_of_asset(self, asset_id: str) -> str | None:
        """The page the latest adopted revision of this deliverable went to."""
        return self._by_asset.get(asset_id)

    # --- what the writer tells the view
    def topic_page(self, folder: str, title: str, description: str) -> str | None:
        """An existing page under `folder` on the same topic (the search index's matcher)."""
        return self.topics.same_topic_page(folder, title, description)

    def topic_suggestions(self, topic: str) -> str:
        return self.topics.suggestions(topic)

    def wrote(self, plan: PagePlan) -> None:
        self.topics.wrote(plan.path)
        if plan.text is not None:
            self._texts[plan.path] = plan.text
        if plan.created:
            folder, name = PurePosixPath(plan.path).parent.as_posix(), PurePosixPath(plan.path).name
            if folder in self._slugs:  # keep the listing: re-listing per new leaf is quadratic
                try:
                    parsed = parse_memory_file_name(name)
                except MembankError:
                    self._slugs.pop(folder)
                else:
                    if parsed.ext == ".md":
                        self._slugs[folder].setdefault(parsed.slug, plan.path)
            if plan.meta.get("type") == "hub":
                self._hubs = None

    def adopted(self, adoption: Adoption) -> None:
        self.ledger.adoptions.append(adoption)
        self._by_digest.setdefault(adoption.proposalHash, adoption)
        if adoption.deliverable_key:
            self._by_deliverable.setdefault(adoption.deliverable_key, adoption)
        if adoption.assetId:
            self._by_asset[adoption.assetId] = adoption.page

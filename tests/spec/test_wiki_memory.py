"""spec/wiki-memory-pkf.md, row by row (issue 25): each test is named after the seed audit's row
(../shared/reviews/seed-audit-2026-12-01.md) and does what the row tried. The tool-surface rows
(W1, W2, W4, W7-W10, W26, W28, W29) call what the MCP tools call (flows/surface.py), in process;
where membank does a row only in part, tests/spec/audit_report.py's NOTES say what is missing.
W35 (PKF carrier, cloud materialize, visibility) is a platform feature, not a local pipeline's:
no test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from schemas.report import MemoryOperationReport
from tasks.proposals.apply import process_proposals
from tasks.search.browse import browse
from tasks.search.query import SearchOptions, search
from tasks.store.errors import InputError
from tasks.store.layout import MemoryLayout
from tasks.store.operation import reading_operation, writing_operation
from tasks.store.pages import split_page
from tasks.store.settings import load_settings
from tests.proposal_fixtures import ASSET, EXISTING, proposal, proposal_markdown, seed_memory

NOW = "2026-03-24T22:40:05Z"
LATER = "2026-03-25T08:00:00Z"
POINTER = f'<a rel="derived-from" href="prismer://asset/{ASSET}">the logs</a>'
DELIVERABLE = {"assetId": ASSET, "contentHash": "sha256:" + "c" * 64, "sizeBytes": 2048}


def _propose(root: Path, tmp: Path, *items: dict[str, Any], clock: str = NOW
             ) -> MemoryOperationReport:
    files = []
    for number, item in enumerate(items):
        path = tmp / f"p{number}-{len(list(tmp.glob('*.md')))}.md"
        path.write_text(proposal_markdown(item), encoding="utf-8")
        files.append(path)
    settings = load_settings(root, fixed_clock=clock, search_semantic=False)
    with writing_operation(settings, "propose") as operation:
        return process_proposals(operation, files)


def _codes(report: MemoryOperationReport) -> list[str]:
    return [p.code for p in report.problems]


def _created(report: MemoryOperationReport) -> list[str]:
    return [a.path for a in report.artifacts if a.action == "created"]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    seed_memory(tmp_path / "mem")
    (tmp_path / "in").mkdir()
    return tmp_path / "mem"


def _findings(root: Path) -> list[tuple[str, str | None]]:
    from tasks.checks.reconcile import reconcile_memory

    settings = load_settings(root, fixed_clock=LATER, search_semantic=False)
    with reading_operation(settings, "reconcile") as operation:
        _report, summary = reconcile_memory(operation, check=True)
    return [(f.code, f.path) for f in summary.findings if f.severity != "info"]


def test_W3_hubs_carry_subtree_freshness_most_recent_first(root: Path, tmp_path: Path) -> None:
    from tasks.checks.freshness import freshness_audit

    _propose(root, tmp_path / "in", proposal(), clock=LATER)
    settings = load_settings(root, fixed_clock=LATER, search_semantic=False)
    with reading_operation(settings, "audit") as operation:
        _report, summary = freshness_audit(operation)
    assert summary.freshness is not None
    rows = summary.freshness.hubs_by_recent
    assert rows[0].path == "wiki/synthesis/index.md" and rows[0].subtree_updated_at == LATER
    stamps = [r.subtree_updated_at or "" for r in rows]
    assert stamps == sorted(stamps, reverse=True)


def test_W5_W6_search_filters_by_type_and_limit_and_returns_ranked_evidence(root: Path) -> None:
    layout = MemoryLayout(root)
    result = search(layout, "retried uploads", SearchOptions(limit=5))
    assert result.hits and result.hits[0].path == EXISTING
    assert "**" in result.hits[0].snippet and result.hits[0].score > 0
    scores = [h.score for h in result.hits]
    assert scores == sorted(scores, reverse=True) and len(result.hits) <= 5
    hubs = search(layout, "resilience", SearchOptions(types=("hub",), limit=1))
    assert len(hubs.hits) == 1 and hubs.hits[0].page_type == "hub"


def test_W11_a_deliverable_carries_exactly_one_asset_pointer(root: Path, tmp_path: Path) -> None:
    none = proposal(deliverableSource=DELIVERABLE)
    two = proposal(deliverableSource=DELIVERABLE, body=f"# Upload retry findings\n\n{POINTER} {POINTER}\n")
    report = _propose(root, tmp_path / "in", none, two)
    assert _codes(report) == ["deliverable_pointer_missing", "deliverable_pointer_missing"]
    assert "exactly one is allowed" in report.problems[1].message


def test_W12_W13_a_replay_is_a_dedupe_hit_and_a_new_revision_extends_its_page(
        root: Path, tmp_path: Path) -> None:
    first = proposal(deliverableSource=DELIVERABLE, body=f"# Upload retry findings\n\n{POINTER}\n")
    [page] = _created(_propose(root, tmp_path / "in", first))
    replay = _propose(root, tmp_path / "in", first, clock=LATER)
    assert [a.action for a in replay.artifacts] == ["dedupe_hit"]
    revision = proposal(title="Upload retry digest", deliverableSource={
        **DELIVERABLE, "contentHash": "sha256:" + "d" * 64},
        body=f"# Upload retry digest\n\n{POINTER}\n\nNow five retries.\n")
    report = _propose(root, tmp_path / "in", revision, clock=LATER)
    assert _created(report) == [] and [a.path for a in report.artifacts][0] == page
    assert "Now five retries." in (root / page).read_text(encoding="utf-8")


def test_W14_an_oversized_proposal_is_routed_to_sharding(root: Path, tmp_path: Path) -> None:
    big = proposal(body="# Upload retry findings\n\n" + "All retries are logged. " * 3500)
    assert _codes(_propose(root, tmp_path / "in", big)) == ["sharding_required"]


def test_W15_W16_a_source_over_64k_becomes_an_index_page_above_its_shards(tmp_path: Path) -> None:
    from tests.tasks.memstores.pipeline import ingest_and_distill

    folder = tmp_path / "src"
    folder.mkdir()
    parts = [f"## Appendix {n}\n\n" + f"Lantern detail {n}. " * 260 + "\n" for n in range(16)]
    (folder / "lantern-design.md").write_text("# Lantern design\n\n" + "\n".join(parts),
                                              encoding="utf-8")
    (folder / "short-note.md").write_text("# Short note\n\n" + "Word. " * 9000, encoding="utf-8")
    root = tmp_path / "mem"
    ingest_and_distill(root, [folder])
    shards = sorted((root / "wiki/sources/shards").rglob("shard-*.md"))
    assert len(shards) == 2 and all(len(s.read_text(encoding="utf-8")) <= 64_000 for s in shards)
    index_page = next((root / "wiki/sources").glob("*__lantern-design.md"))
    index = split_page(index_page.read_text(encoding="utf-8"))
    assert index.meta["type"] == "source-index" and index.meta["derived_from"][0].startswith("raw/")
    rel = index_page.relative_to(root).as_posix()
    for shard in shards:
        meta = split_page(shard.read_text(encoding="utf-8")).meta
        assert meta["child_of"] == [rel]
        assert shard.read_text(encoding="utf-8").split("---", 2)[2].lstrip().startswith(
            ("# ", "## Appendix"))  # a content edge: a heading
        assert shard.name in index.body
    assert list((root / "wiki/sources").glob("*__short-note.md"))  # 54K chars: one page


def test_W18_W27_typed_links_target_what_exists(root: Path, tmp_path: Path) -> None:
    report = _propose(root, tmp_path / "in",
                      proposal(derived_from=["raw/2026-03-20T10-00-00Z__nowhere.md"]))
    assert _codes(report) == ["dead_link"]
    assert "does not exist in the memory" in report.problems[0].message


def test_W19_W34_browse_gives_the_nearest_pages_with_anchors_and_the_hubs_that_fit(
        root: Path) -> None:
    result = browse(MemoryLayout(root), "How often uploads are retried")
    assert result.nearest[0].path == EXISTING
    assert set(result.nearest[0].anchors) >= {"budget", "backoff"}
    assert any(h.path == "wiki/concepts/index.md" for h in result.hubs)


def test_W21_sections_are_rewritten_or_appended_and_old_text_is_kept(
        root: Path, tmp_path: Path) -> None:
    rewrite = proposal(title="Retry budget", body="Retry five times.\n",
                       placement={"kind": "extend_section", "page": EXISTING, "section": "budget"})
    add = proposal(title="Jitter", body="Add full jitter.\n",
                   placement={"kind": "append_section", "page": EXISTING, "section": "jitter"})
    missing = proposal(title="Runbook", body="Page the on-call.\n",
                       placement={"kind": "extend_section", "page": EXISTING, "section": "runbook"})
    report = _propose(root, tmp_path / "in", rewrite, add, missing)
    assert _codes(report) == ["placement_required"]
    assert "its sections: budget, backoff" in report.problems[0].message
    text = (root / EXISTING).read_text(encoding="utf-8")
    assert "Retry five times." in text and "## Jitter" in text
    assert "## Superseded" in text and "Retry three times." in text


def test_W22_W25_a_new_leaf_is_attached_to_its_hub_and_reported(root: Path, tmp_path: Path) -> None:
    report = _propose(root, tmp_path / "in", proposal())
    [page] = _created(report)
    assert page.startswith("wiki/synthesis/2026-03-24T22-40-05Z__upload-retry-findings")
    assert split_page((root / page).read_text(encoding="utf-8")).meta["child_of"] == [
        "wiki/synthesis/index.md"]
    assert page.split("/")[-1] in (root / "wiki/synthesis/index.md").read_text(encoding="utf-8")
    assert page in (root / "index.md").read_text(encoding="utf-8")
    why = next(a.why for a in report.artifacts if a.path == page)
    assert why == "new leaf under wiki/synthesis/index.md"


def test_W24_an_unanchored_leaf_is_rejected_with_the_hubs(root: Path, tmp_path: Path) -> None:
    report = _propose(root, tmp_path / "in", proposal(placement=None),
                      proposal(placement={"kind": "new_leaf", "hub": "wiki/nowhere"}))
    assert _codes(report) == ["placement_required", "placement_required"]
    for problem in report.problems:
        assert "wiki/synthesis/index.md" in problem.message  # the existing hubs are listed


def test_W30_evolution_metadata_is_required_and_named(root: Path, tmp_path: Path) -> None:
    report = _propose(root, tmp_path / "in", proposal(memory=None),
                      proposal(memory={"memoryRole": "musing", "source": "x"}),
                      proposal(memory=None, extra={"memory": {"memoryRole": "knowledge",
                                                              "source": "dream leg"}}))
    assert _codes(report) == ["evolution_metadata_required"] * 3
    messages = [p.message for p in report.problems]
    assert "field 'memory' is missing" in messages[0]
    assert "'memory.memoryRole'" in messages[1]
    assert "nested under 'extra'" in messages[2]


def test_W32_a_hand_written_page_needs_no_evolution_metadata(root: Path) -> None:
    page = split_page((root / EXISTING).read_text(encoding="utf-8"))
    assert "memory" not in page.meta  # written by hand (seed_memory), no memory block
    assert [f for f in _findings(root) if f[1] == EXISTING] == []


def test_W17_a_page_over_the_limit_is_flagged_by_reconcile(root: Path) -> None:
    page = root / EXISTING
    page.write_text(page.read_text(encoding="utf-8") + "\nMore detail. " * 6500, encoding="utf-8")
    assert ("page_too_large", EXISTING) in _findings(root)


def test_W17_the_generated_catalogs_grow_with_the_memory_unflagged(root: Path) -> None:
    """index.md lists every record and a wiki hub every page of its folder: past ~600 records
    they pass 64K characters, and a memory of that size is not unhealthy for it."""
    index = root / "index.md"
    text = index.read_text(encoding="utf-8")
    index.write_text(text + "".join(f"\n<!-- catalog padding {n} -->" for n in range(4000)),
                     encoding="utf-8")
    assert len(index.read_text(encoding="utf-8")) > 64_000
    assert not [f for f in _findings(root) if f[0] == "page_too_large"]



def test_W23_W33_a_new_topic_hub_is_listed_and_its_leaves_hang_under_it(
        root: Path, tmp_path: Path) -> None:
    hub = proposal(title="Costs", description="What storage and compute cost per team.",
                   type="hub", body="# Costs\n\n## Overview\n\nWhat each team spends.\n")
    [hub_page] = _created(_propose(root, tmp_path / "in", hub))
    leaf = proposal(title="Storage cost per team", description="Storage spend by team.",
                    placement={"kind": "new_leaf", "hub": hub_page},
                    body="# Storage cost per team\n\nPlatform spends most.\n")
    [leaf_page] = _created(_propose(root, tmp_path / "in", leaf, clock=LATER))
    assert split_page((root / leaf_page).read_text(encoding="utf-8")).meta["child_of"] == [hub_page]
    assert leaf_page.split("/")[-1] in (root / hub_page).read_text(encoding="utf-8")
    index = (root / "index.md").read_text(encoding="utf-8")
    hubs = index.split("## Hubs", 1)[1].split("\n## ", 1)[0]
    catalog = [f for f in _findings(root) if f[0].startswith(("hub_", "orphan", "index_"))]
    assert catalog == []
    assert hub_page in hubs  # one line per hub, topic hubs too (W33)


def test_W31_pages_a_pipeline_leg_wrote_carry_their_evolution_metadata(tmp_path: Path) -> None:
    from schemas.page import MemoryBlock
    from tests.tasks.memstores.pipeline import ingest_and_distill

    root = tmp_path / "mem"
    ingest_and_distill(root, [Path(__file__).resolve().parents[2] / "raw-samples" / "decisions"])
    pages = sorted((root / "wiki" / "entities").glob("*__*.md"))
    pages += sorted((root / "wiki" / "sources").glob("*__*.md"))
    assert len(pages) > 3
    for page in pages:
        block = MemoryBlock.model_validate(split_page(page.read_text(encoding="utf-8")).meta["memory"])
        assert block.memoryRole.value == "knowledge" and block.source, page.name


# --------------------------------------------------------------------------------------------
# The tool surface (W1, W2, W4, W7-W10, W26, W28, W29): what the MCP tools call, in process
# (flows/surface.py; tests/flows/mcp/test_server.py runs the same calls through `membank mcp`).

SURFACE_CLOCK = "2026-03-26T09:00:00Z"


@pytest.fixture
def surface(tmp_path: Path) -> Any:
    """The read-side fixture memory (tests/tasks/search/search_memory.py) behind a Surface:
    every page written at EARLIER, the synthesis leaf then re-dated later than its hub."""
    from flows.surface import Surface
    from tests.memory_builder import page_meta, write
    from tests.tasks.search.search_memory import SYNTHESIS, build_search_memory

    root = tmp_path / "mem"
    build_search_memory(root)
    page = split_page((root / SYNTHESIS).read_text(encoding="utf-8"))
    write(root, SYNTHESIS, {**page_meta("synthesis", "Upload retry budget",
                                        "wiki/synthesis/index.md", when=LATER),
                            "utc_datetime_prefix": page.meta["utc_datetime_prefix"]}, page.body)
    return Surface(settings=load_settings(root, fixed_clock=SURFACE_CLOCK, search_semantic=False))


def _content(description: str, body: str, **meta: str) -> str:
    lines = [f"description: {description}", *(f"{k}: {v}" for k, v in meta.items())]
    return "---\n" + "\n".join(lines) + "\n---\n" + body


def test_W1_parameterless_browse_is_the_root_structure_surface(surface: Any) -> None:
    from tests.tasks.search.search_memory import SYNTHESIS

    answer = surface.browse()
    assert answer.topic is None and answer.root is not None
    root = answer.root
    assert (root.index.path, root.index.pageType) == ("index.md", "index")
    hubs = {h.path for h in root.hubs}
    assert hubs == {h.path for h in root.hubsByRecent} >= {
        "wiki/concepts/index.md", "wiki/entities/index.md", "wiki/sources/index.md",
        "wiki/synthesis/index.md"}
    for hub in root.hubs:
        assert hub.title and hub.pageType == "hub" and hub.snippet and hub.updatedAt
    # subtree freshness: the synthesis hub carries its child's later write and leads hubsByRecent
    assert root.hubsByRecent[0].path == "wiki/synthesis/index.md"
    assert root.hubsByRecent[0].updatedAt == LATER
    assert root.nearest[0].path == SYNTHESIS and all(p.pageType != "hub" for p in root.nearest)
    stamps = [p.updatedAt or "" for p in root.nearest]
    assert stamps == sorted(stamps, reverse=True)


def test_W2_hub_rows_are_ordered_by_their_own_updated_at_and_by_subtree_freshness(
        surface: Any) -> None:
    """The two views differ exactly when a child was written after its hub row: the synthesis
    hub's own updated_at is the fixture's, its child's is LATER; the concepts hub row is itself
    rewritten when a leaf is attached to it. Within a hub, memory_load's linksIn lists the
    children newest first."""
    written = surface.write({"path": "wiki/concepts/backpressure.md", "parentHubPath":
                             "wiki/concepts/index.md", "content": _content(
                                 "How producers slow down.", "# Backpressure\n\nQueues push back.\n",
                                 type="concept")})
    assert written.ok, written  # the concepts hub row itself is rewritten at SURFACE_CLOCK
    root = surface.browse().root
    structural = [h.path for h in root.hubs]
    recent = [h.path for h in root.hubsByRecent]
    assert recent[:2] == ["wiki/concepts/index.md", "wiki/synthesis/index.md"]
    assert structural[0] == "wiki/concepts/index.md" and structural[-1] == "wiki/synthesis/index.md"
    own = [str(surface.load(path).frontmatter["updated_at"]) for path in structural]
    assert own == sorted(own, reverse=True)  # hubs[]: each hub's own updated_at, newest first
    stamps = [h.updatedAt or "" for h in root.hubsByRecent]
    assert stamps == sorted(stamps, reverse=True)
    # within a hub, its children come updatedAt DESC (ties by path) on memory_load's linksIn
    for hub in structural:
        children = [x.path for x in surface.load(hub).linksIn if x.rel == "child-of"]
        keys = [(str(surface.load(c).frontmatter.get("updated_at") or ""), c) for c in children]
        assert keys == sorted(sorted(keys), key=lambda k: k[0], reverse=True), hub
    concepts = [x.path for x in surface.load("wiki/concepts/index.md").linksIn]
    assert concepts[0] == written.path and concepts != sorted(concepts)  # newest, not by path


def test_W4_batch_search_answers_each_phrasing_grouped_by_query(surface: Any) -> None:
    from tasks.search.query import QueryError
    from tests.tasks.search.search_memory import SHARD_INDEX, SYNTHESIS

    answer = surface.search("third retry", ["zebrafish rotation", "third retry", "delegates"])
    grouped = answer.resultsByQuery
    assert [r.query for r in grouped] == ["third retry", "zebrafish rotation", "delegates"]
    assert grouped[0].hits[0].path == SYNTHESIS
    assert grouped[1].hits and grouped[1].hits[0].path == SHARD_INDEX
    assert all(r.navigation is None for r in grouped)
    assert len(surface.search("a", list("bcdefghi")).resultsByQuery) == 9  # query + 8 queries
    with pytest.raises(QueryError, match="9 phrasings, over the limit of 8"):
        surface.search("a", list("bcdefghij"))


def test_W7_a_miss_carries_navigation_with_the_index_and_hubs_as_start_points(
        surface: Any) -> None:
    [miss] = surface.search("zebra quantum flux").resultsByQuery
    assert miss.hits == [] and miss.navigation is not None
    assert miss.navigation.reason == "text-miss" and "memory_browse" in miss.navigation.guidance
    starts = miss.navigation.startPoints
    assert (starts[0].path, starts[0].pageType) == ("index.md", "index")
    assert {s.pageType for s in starts[1:]} == {"hub"} and len(starts) >= 5
    assert all(s.why == "structural-entry" for s in starts)
    counts = [s.childrenCount for s in starts[1:]]
    assert counts == sorted(counts, reverse=True)  # children-rich first


def test_W8_load_takes_a_page_or_its_section_and_returns_its_links(surface: Any) -> None:
    from tests.tasks.search.search_memory import SYNTHESIS

    section = surface.load(f"{SYNTHESIS}#retry-budget")
    assert section.section == "retry-budget" and "Retry three times" in section.body
    assert "Forty failed uploads" not in section.body
    assert section.sections == ["evidence", "retry-budget"]
    assert surface.load(uri=f"memory://page/{SYNTHESIS}", section="evidence").body.strip() \
        .endswith("none recovered after the third retry.")
    assert [(link.rel, link.path, link.exists) for link in section.linksOut] == [
        ("child-of", "wiki/synthesis/index.md", True)]
    hub = surface.load("wiki/synthesis/index.md")
    assert ("child-of", SYNTHESIS) in {(link.rel, link.path) for link in hub.linksIn}
    source = surface.load("wiki/sources/" + SYNTHESIS.split("/")[-1].split("__")[0]
                          + "__design-notes.md")
    assert any(link.rel == "link" and link.path.endswith("__orchestrator.md")
               for link in source.linksOut)  # a link in the body is returned too


def test_W9_memory_write_takes_the_tools_fields(surface: Any) -> None:
    """memory_write: `path* · content* · title · parentHubPath · relation (child-of|related) ·
    op (replace|append-section|rewrite-section) · section · visibility`: a new leaf under a hub,
    a section appended and one rewritten, a page related to another (placed under the hub of
    that page's folder, with a typed related link); visibility 'workspace' is the one a local
    root can honour; bad values are refused with the gate's code naming the field."""
    hub = "wiki/synthesis/index.md"
    created = surface.write({
        "path": "wiki/synthesis/cache-eviction.md", "title": "Cache eviction",
        "content": _content("How the read cache evicts entries.",
                            "# Cache eviction\n\n## Limits\n\nAt most 512 entries.\n",
                            type="reference"),
        "parentHubPath": hub, "relation": "child-of", "op": "replace", "visibility": "workspace"})
    assert created.ok and created.action == "created", created
    page = created.path
    assert page.startswith("wiki/synthesis/") and created.placement == f"new leaf under {hub}"
    appended = surface.write({"path": page, "op": "append-section", "section": "owners",
                              "content": "## Owners\n\nThe platform team.\n"})
    rewritten = surface.write({"path": page, "op": "rewrite-section", "section": "limits",
                               "content": "## Limits\n\nAt most 1024 entries.\n"})
    assert appended.ok and rewritten.ok and rewritten.revision != appended.revision
    loaded = surface.load(page)
    assert loaded.sections[:2] == ["limits", "owners"] and "1024 entries" in loaded.body
    assert loaded.frontmatter["child_of"] == [hub]
    # relation related: a child of the hub of that page's folder, with a typed related link
    related = surface.write({
        "path": "wiki/synthesis/cache-warmup.md", "relation": "related", "parentHubPath": page,
        "content": _content("How the read cache is warmed.", "# Cache warmup\n\nPreload.\n",
                            type="reference")})
    assert related.ok and related.action == "created", related
    assert related.placement == f"new leaf under {hub}" and related.path.startswith("wiki/synthesis/")
    warm = surface.load(related.path)
    assert (warm.frontmatter["child_of"], warm.frontmatter["related"]) == ([hub], [page])
    assert [(x.rel, x.path, x.exists) for x in warm.linksOut] == [
        ("child-of", hub, True), ("related", page, True)]
    refused = [surface.write({"path": "wiki/synthesis/x.md", "content": _content("X.", "X.\n"),
                              "parentHubPath": hub, **bad})
               for bad in ({"visibility": "everyone"}, {"op": "delete"},
                           {"relation": "related", "parentHubPath": "wiki/synthesis/nope.md"},
                           {"relation": "sibling"})]
    assert [(a.ok, a.code, a.field) for a in refused] == [
        (False, "invalid_frontmatter", "visibility"), (False, "placement_required", "op"),
        (False, "dead_link", "related[0]"), (False, "placement_required", "relation")]
    assert "only 'workspace'" in (refused[0].message or "")


def test_W10_curate_supersedes_merges_and_links_without_deleting(surface: Any) -> None:
    from tests.memory_builder import CONCEPT, SOURCE
    from tests.tasks.search.search_memory import SYNTHESIS

    written = surface.write({"path": "wiki/synthesis/pager-handover.md",
                             "content": _content("How the pager is handed over.",
                                                 "# Pager handover\n\n## Budget\n\nFive.\n",
                                                 type="synthesis"),
                             "parentHubPath": "wiki/synthesis/index.md"})
    assert written.ok and written.path, written
    other = written.path
    superseded = surface.curate("supersede", pageId=SYNTHESIS, supersededByPageId=other)
    assert {SYNTHESIS, other} <= {a.path for a in superseded.artifacts}
    assert surface.load(SYNTHESIS).frontmatter["superseded_by"] == [other]  # kept, not deleted
    assert surface.load(other).frontmatter["supersedes"] == [SYNTHESIS]
    merged = surface.curate("merge", pageId=other, sourcePageId=CONCEPT, targetSection="budget",
                            mergedContent="Five retries; the planner owns the budget.")
    assert merged.status == "success"
    assert "the planner owns the budget" in surface.load(other, section="budget").body
    assert surface.load(CONCEPT).frontmatter["superseded_by"] == [other]
    surface.curate("link", pageId=other, kind="derived-from", toPath=SOURCE)
    assert ("derived-from", SOURCE) in {(x.rel, x.path) for x in surface.load(other).linksOut}
    surface.curate("unlink", pageId=other, linkId=f"derived-from:{SOURCE}")
    assert "derived_from" not in surface.load(other).frontmatter
    # toSection: a section-anchored link, checked against the target page's sections
    surface.curate("link", pageId=SYNTHESIS, kind="derived-from", toPath=other, toSection="Budget")
    assert ("derived-from", f"{other}#budget", True) in {
        (x.rel, x.path, x.exists) for x in surface.load(SYNTHESIS).linksOut}
    with pytest.raises(InputError, match="no section #nowhere"):
        surface.curate("link", pageId=SYNTHESIS, kind="derived-from", toPath=other,
                       toSection="nowhere")
    surface.curate("unlink", pageId=SYNTHESIS, kind="derived-from", toPath=other,
                   toSection="budget")
    assert "derived_from" not in surface.load(SYNTHESIS).frontmatter
    # limit bounds the pages one call writes: over it, the batch is refused and nothing moves
    before = surface.load(CONCEPT).frontmatter
    with pytest.raises(InputError, match="over limit 1"):
        surface.curate("supersede", pageId=CONCEPT, supersededByPageId=SYNTHESIS, limit=1)
    assert surface.load(CONCEPT).frontmatter == before
    assert "supersedes" not in surface.load(SYNTHESIS).frontmatter
    kept = surface.curate("link", pageId=CONCEPT, kind="derived-from", toPath=SOURCE, limit=1)
    assert kept.figures["pages_written"] == 1 and CONCEPT in {a.path for a in kept.artifacts}


def test_W20_a_title_in_other_words_extends_the_page_on_its_topic(surface: Any) -> None:
    """STEP 3(a): "How often uploads are retried" beside "Upload retry budget" extends it
    (section by section); a different topic in the same words' shape gets its own page."""
    from tests.tasks.search.search_memory import SYNTHESIS

    def write(title: str, description: str, body: str) -> Any:
        return surface.write({"path": "wiki/synthesis/x.md", "title": title,
                              "parentHubPath": "wiki/synthesis/index.md",
                              "content": _content(description, f"# {title}\n\n{body}",
                                                  type="synthesis")})

    paraphrase = write("How often uploads are retried", "How many times an upload is retried.",
                       "## Cadence\n\nEvery minute, three times.\n")
    assert (paraphrase.ok, paraphrase.path, paraphrase.action) == (True, SYNTHESIS, "updated")
    assert "cadence" in surface.load(SYNTHESIS).sections
    other = write("How often uploads fail", "The failure rate of uploads.",
                  "## Rate\n\nOne in a thousand.\n")
    assert other.ok and other.action == "created" and other.path != SYNTHESIS, other


def test_W26_frontmatter_needs_a_one_sentence_description_the_four_types_and_pkf_1_1(
        surface: Any) -> None:
    """PKF 1: "REQUIRED frontmatter description (one sentence) — in the PKF frontmatter block
    alongside type (user|feedback|project|reference), title, pkfVersion "1.1"": each is checked
    by the write gate, and a page failing one is refused naming the field."""
    def write(name: str, content: str) -> Any:
        return surface.write({"path": f"wiki/synthesis/{name}.md", "content": content,
                              "parentHubPath": "wiki/synthesis/index.md"})

    written = [write(kind, _content(f"A {kind} memory, e.g. one kept by J. Smith in v1.1.",
                                    f"# {kind.title()}\n\nText.\n", type=kind, title=kind.title(),
                                    pkfVersion=version))
               for kind, version in (("user", '"1.1"'), ("feedback", "1.1"), ("project", '"1.1"'),
                                     ("reference", '"1.1"'))]
    assert all(a.ok for a in written), written
    for answer, kind in zip(written, ("user", "feedback", "project", "reference"), strict=True):
        meta = surface.load(answer.path).frontmatter
        assert (meta["type"], meta["title"], meta["pkfVersion"]) == (kind, kind.title(), "1.1")
    refused = {
        "nodesc": write("nodesc", "---\ntype: project\n---\n# No description\n\nText.\n"),
        "twosent": write("twosent", _content("Uploads are retried. The planner owns it.",
                                             "# Two\n\nText.\n", type="project")),
        "cjk": write("cjk", _content("上传会重试。规划器负责。", "# Cjk\n\nText.\n", type="project")),
        "version": write("version", _content("A page.", "# Old\n\nText.\n", type="project",
                                             pkfVersion='"1.0"')),
        "badtype": write("badtype", _content("A page.", "# Bad\n\nText.\n", type="musing")),
    }
    assert {k: (a.ok, a.code, a.field) for k, a in refused.items()} == {
        "nodesc": (False, "invalid_frontmatter", "description"),
        "twosent": (False, "invalid_frontmatter", "description"),
        "cjk": (False, "invalid_frontmatter", "description"),
        "version": (False, "invalid_frontmatter", "pkfVersion"),
        "badtype": (False, "invalid_frontmatter", "type")}
    assert "more than one sentence" in (refused["twosent"].message or "")
    assert "The planner owns it." in (refused["twosent"].message or "")
    assert '"1.1"' in (refused["version"].message or "")


def _pkf(header: str, body: str) -> str:
    return f'<script type="application/prismer+json">{header}</script>\n{body}'


def _memory_files(root: Path) -> list[tuple[Path, bytes]]:
    return sorted((p, p.read_bytes()) for p in root.rglob("*") if p.is_file()
                  and p.suffix == ".md" and "wiki" in p.parts)


def test_W28_the_write_gate_reads_a_pkf_body_and_rejects_an_invalid_one_before_writing(
        surface: Any) -> None:
    """PKF 3: "pkf_validate BEFORE memory_write … the write gate rejects invalid v1.1 bodies".
    A PKF v1.1 body's <script type="application/prismer+json"> header is read as the page's
    front matter, checked like YAML front matter, and stored as Markdown with YAML front matter;
    an invalid header, front matter or body (a dead typed link) is refused and nothing is
    written."""
    from tasks.store.pages import split_page as split

    root = surface.settings.resolved_root()
    hub = "wiki/synthesis/index.md"
    header = ('{"type":"note","title":"Pager handover","description":"How the pager is handed '
              'over.","pkfVersion":"1.1","memory":{"memoryRole":"procedure","source":"the '
              'planner\'s dream leg, session 12"}}')
    written = surface.write({"path": "wiki/synthesis/pager-handover.pkf", "parentHubPath": hub,
                             "content": _pkf(header, "# Pager handover\n\n## Steps\n\nCall.\n")})
    assert written.ok and written.action == "created", written
    text = (root / written.path).read_text(encoding="utf-8")
    assert text.startswith("---\n") and "<script" not in text and "prismer+json" not in text
    page = split(text)
    assert (page.meta["type"], page.meta["title"], page.meta["pkfVersion"]) == (
        "note", "Pager handover", "1.1")
    assert page.meta["description"] == "How the pager is handed over."
    assert page.meta["memory"]["memoryRole"] == "procedure" and page.meta["child_of"] == [hub]
    assert page.body.startswith("# Pager handover") and surface.load(written.path).sections == [
        "steps"]

    before = _memory_files(root)
    body = "# Bad\n\nText.\n"
    answers = {
        "json": surface.write({"path": "wiki/synthesis/bad.md", "parentHubPath": hub,
                               "content": _pkf('{"type": "note", "title": ', body)}),
        "unclosed": surface.write({"path": "wiki/synthesis/bad.md", "parentHubPath": hub,
                                   "content": '<script type="application/prismer+json">{}\n'}),
        "twosent": surface.write({"path": "wiki/synthesis/bad.md", "parentHubPath": hub,
                                  "content": _pkf('{"type":"note","description":"One. Two."}',
                                                  body)}),
        "version": surface.write({"path": "wiki/synthesis/bad.md", "parentHubPath": hub,
                                  "content": _pkf('{"type":"note","description":"One.",'
                                                  '"pkfVersion":"2.0"}', body)}),
        "dead": surface.write({"path": "wiki/synthesis/dead.md", "parentHubPath": "wiki/synthesis",
                               "content": _content("Points nowhere.", '# Dead\n\n<a rel="child-of" '
                                                   'href="wiki/no.md">x</a>\n', type="note")}),
        "pkfdead": surface.write({"path": "wiki/synthesis/dead.md", "parentHubPath": hub,
                                  "content": _pkf('{"type":"note","description":"Nowhere."}',
                                                  '# Dead\n\n<a rel="derived-from" '
                                                  'href="wiki/no.md">x</a>\n')}),
        "broken": surface.write({"path": "wiki/synthesis/broken.md", "parentHubPath": hub,
                                 "content": "---\ndescription: [unclosed\n---\n# Broken\n"}),
    }
    assert {k: (a.ok, a.code, a.field) for k, a in answers.items()} == {
        "json": (False, "invalid_frontmatter", "content"),
        "unclosed": (False, "invalid_frontmatter", "content"),
        "twosent": (False, "invalid_frontmatter", "description"),
        "version": (False, "invalid_frontmatter", "pkfVersion"),
        "dead": (False, "dead_link", "body"),
        "pkfdead": (False, "dead_link", "body"),
        "broken": (False, "invalid_frontmatter", "content")}
    assert "PKF header" in (answers["json"].message or "")
    assert _memory_files(root) == before


def test_W29_no_write_rewrites_a_whole_page_or_an_entity_pages_graph_sections(
        surface: Any) -> None:
    """op replace on an existing page is refused (extend it by section); an entity page's
    Observations and Relations are the graph's, so a write there is refused too (MB34), and
    neither the pages nor the graph move."""
    from tests.memory_builder import ORCHESTRATOR
    from tests.tasks.search.search_memory import SYNTHESIS

    root = surface.settings.resolved_root()
    kept = [SYNTHESIS, ORCHESTRATOR, "context/knowledge-graph.index.jsonc"]
    before = {p: (root / p).read_bytes() for p in kept}
    whole = surface.write({"path": SYNTHESIS, "content": "# Upload retry budget\n\nAll new.\n"})
    assert (whole.ok, whole.code, whole.field) == (False, "placement_required", "op")
    assert "rewrite the whole page" in (whole.message or "")
    answers = [surface.write({"path": ORCHESTRATOR, "op": op, "section": section,
                              "content": f"## {section.title()}\n\n- [fact] orchestrator is fast\n"})
               for op, section in (("rewrite-section", "observations"),
                                   ("append-section", "relations"))]
    assert [(a.ok, a.code) for a in answers] == [(False, "graph_owned_section")] * 2
    assert {p: (root / p).read_bytes() for p in kept} == before

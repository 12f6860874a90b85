"""Reading raw files: a file that cannot be read is one Problem (one table of causes)."""

from __future__ import annotations

import gc
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schemas.raw_manifest import RawAsset
from tasks.distill.plan import DistillPlan, DistillSource, extract_batch, fewer_collections, read_problem
from tasks.extract import SourceRef
from tasks.store.layout import MemoryLayout


def item(path: Path) -> DistillSource:
    return DistillSource(SourceRef("a" * 64, "wiki/sources/a.md", f"raw/{path.name}"), path)


def test_unreadable_raw_files_are_problems_with_their_cause(tmp_path: Path) -> None:
    (tmp_path / "latin1.md").write_bytes(b"caf\xe9\n")
    (tmp_path / "ok.md").write_text("# Ok\n\n- [fact] Ok is fine\n")
    (tmp_path / "folder.md").mkdir()
    outcomes = extract_batch([item(tmp_path / name)
                              for name in ("missing.md", "latin1.md", "folder.md", "ok.md")])
    problems = [(o.problem.code, o.problem.message, o.problem.hint) if o.problem else None
                for o in outcomes]
    assert problems[:3] == [
        ("raw_missing", "raw file listed in the manifest is missing",
         "restore raw/ from git; raw files are never modified or deleted"),
        ("raw_not_utf8", "invalid UTF-8 at byte 3", "distill reads text sources only"),
        ("raw_unreadable", "cannot read: Is a directory", None),
    ]
    assert problems[3] is None and outcomes[3].extraction is not None
    assert all(o.problem.file == f"raw/{n}" for o, n in
               zip(outcomes, ("missing.md", "latin1.md", "folder.md"), strict=False) if o.problem)


def test_read_problem_names_the_file() -> None:
    problem = read_problem("raw/x.md", PermissionError(13, "Permission denied"))
    assert problem.one_line() == "raw/x.md: cannot read: Permission denied"


def _plan_of_every_asset(layout: MemoryLayout, reread_all: bool) -> DistillPlan:
    """plan_distill as it was before ingest32: every asset of the manifest sorted and planned."""
    from tasks.distill import plan as planning
    from tasks.distill.state_rows import SourceStates
    from tasks.store.graph_store import load_distill_state, load_manifest
    from tasks.store.versions import current_of_reverted

    plan = planning.DistillPlan()
    manifest = load_manifest(layout.raw_manifest_file)
    state = load_distill_state(layout.distill_state_file)
    plan.state = SourceStates.of(state.sources)
    plan.state_stamp = state.stateGeneratedAtUtc
    planner = planning._Planner(plan, layout, manifest, planning.forgotten_asset_ids(layout), reread_all)
    reverted = current_of_reverted(manifest)
    if reverted:
        planner.plan_reverted(reverted)
    for asset in sorted(manifest.assets, key=lambda a: (a.rawPath, a.assetId)):
        if asset.originalPath not in reverted:
            planner.plan_asset(asset)
    return plan


def test_only_assets_the_state_lacks_are_sorted_and_planned(tmp_path: Path) -> None:
    # (ingest32) the plan is the one of every asset planned in path order: new sources, a new
    # version, versions replaced before they were ever distilled, and --all
    from tasks.distill.plan import plan_distill
    from tasks.store.graph_store import load_manifest
    from tests.stored_sources import bootstrap, store_source
    from tests.tasks.distill.test_distill import LATER
    from tests.tasks.distill.test_incremental_graph import _first

    root = tmp_path / ".memories"
    bootstrap(root)
    v1 = _first(root)
    v2 = store_source(root, "svc.md", "---\nentity: Billing\n---\n\n- [fact] Runs on port 9090\n",
                      now_iso=LATER, supersedes=v1)
    store_source(root, "svc.md", "---\nentity: Billing\n---\n\n- [fact] Runs on port 9191\n",
                 now_iso="2026-04-01T09:00:00Z", supersedes=v2)
    store_source(root, "notes/a-new-one.md", "- [fact] Alpha talks to Billing\n", now_iso=LATER)
    layout = MemoryLayout(root)
    manifest_file = layout.raw_manifest_file
    for hand_edited in (False, True):
        if hand_edited:  # the same data laid out by hand: validated, planned from the model
            manifest_file.write_text(json.dumps(json.loads(manifest_file.read_text()), indent=4))
        for reread_all in (False, True):
            plan = plan_distill(layout, reread_all=reread_all)
            assert plan == _plan_of_every_asset(layout, reread_all)
            # (what read_earlier_sources lists from: membank's own file as rows, else the model)
            assert (plan.manifest is None) is (plan.manifest_rows is not None) is (not hand_edited)
            kept = (plan.manifest.assets if plan.manifest is not None
                    else [RawAsset.model_validate(row) for row in plan.manifest_rows or []])
            assert kept == load_manifest(manifest_file).assets
            assert plan.to_read and (reread_all or plan.skipped)


def test_fewer_collections_raises_the_threshold_and_only_its_raiser_restores_it() -> None:
    before = gc.get_threshold()
    with fewer_collections(50_000):
        assert gc.get_threshold() == (50_000, *before[1:])
        with fewer_collections(20_000):  # already higher: left as it is, not restored here
            assert gc.get_threshold()[0] == 50_000
        assert gc.get_threshold()[0] == 50_000
    assert gc.get_threshold() == before


# Names and texts mixing ASCII with characters whose lowercase is ASCII or longer (Kelvin sign,
# dotted capital I), accents, digits, separators and bytes that are not UTF-8.
_NAME_CHARS = "abcABC xyz-_.:()19Kİé"
_TEXT_CHARS = _NAME_CHARS + "\n\t,;!ÄßK"


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=st.lists(st.text(_NAME_CHARS, max_size=12), min_size=1, max_size=4),
       text=st.text(_TEXT_CHARS, max_size=80), junk=st.sampled_from([b"", b"\xff", b"\xc3"]))
def test_mention_probe_passes_what_the_probe_over_the_decoded_text_passes(
        names: list[str], text: str, junk: bytes) -> None:
    # (check40) ASCII files are probed as bytes; the probe must pass exactly the files the
    # probe over the decoded, lowercased text passes (before check40, every file), and hand
    # over the text the matcher reads
    from tasks.distill.plan import _MentionProbe

    spelled = {r"\W+".join(map(re.escape, re.findall(r"\w+", name.lower()))) for name in names}
    str_probe = re.compile("|".join(sorted(w for w in spelled if w)))
    for data in (text.encode(), text.encode() + junk, text.encode("ascii", errors="ignore")):
        decoded = data.decode("utf-8", errors="replace")
        expected = decoded if str_probe.search(decoded.lower()) else None
        assert _MentionProbe(names).text_if_mentioned(data) == expected


def test_read_file_bytes_reads_every_byte(tmp_path: Path) -> None:
    from tasks.distill.plan import read_file_bytes

    big = bytes(range(256)) * 1000  # more than one read's chunk
    (tmp_path / "big").write_bytes(big)
    (tmp_path / "empty").write_bytes(b"")
    assert read_file_bytes(str(tmp_path / "big")) == big and read_file_bytes(str(tmp_path / "empty")) == b""
    with pytest.raises(OSError):
        read_file_bytes(str(tmp_path / "missing"))


def test_a_byte_order_mark_is_read_as_no_part_of_the_title(tmp_path: Path) -> None:
    (tmp_path / "outage.md").write_bytes("\ufeff# Login outage\r\n\r\n- [fact] Logins failed\r\n".encode())
    (outcome,) = extract_batch([item(tmp_path / "outage.md")])
    assert outcome.extraction is not None and outcome.extraction.title == "Login outage"

"""The distill state as rows when membank wrote it (tasks/distill/state_rows.py): the same
sources, the same bytes written after the same changes, and a file anyone else wrote validated
as before."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from schemas.distill_state import DistilledSource, DistillState
from tasks.distill.state_rows import SourceStates, load_source_states, save_source_states
from tasks.store.errors import ContractError
from tasks.store.graph_store import load_distill_state, save_distill_state
from tasks.store.layout import STATE_DIR
from tests.tasks.store.test_written import hand_edit

STAMP, LATER = "2026-05-01T00:00:00Z", "2026-05-02T00:00:00Z"


def _id(i: int) -> str:
    return f"{i:064x}"


def _state() -> DistillState:
    """Every kind of field a source carries: optional ones left out, record links waiting,
    a decision log's entry keys, a plain document, a skipped version, extension keys, non-ASCII."""
    sources = [
        DistilledSource(assetId=_id(3), sourcePage="wiki/sources/c.md", distilledAtUtc=STAMP, title="Ç café"),
        DistilledSource(assetId=_id(1), sourcePage="wiki/sources/a.md", distilledAtUtc=STAMP,
                        pendingRecordLinks=[{"subject": "ADR 1", "links": [["supersedes", "adr-0002", 4]],
                                             "note": None}]),
        DistilledSource(assetId=_id(2), sourcePage="wiki/sources/b.md", distilledAtUtc=STAMP,
                        title="Decision log", entryKeys=["DL-01", "DL-02"], entryEntity="Decision log"),
        DistilledSource(assetId=_id(4), sourcePage="wiki/sources/d.md", distilledAtUtc=STAMP,
                        documentKey="proposals/options", documentEntity="Options analysis",
                        extraKey={"nested": [1, 2.5, "tab\there"]}),
        DistilledSource(assetId=_id(5), sourcePage="", distilledAtUtc=STAMP, supersededByAssetId=_id(6)),
    ]
    return DistillState(stateGeneratedAtUtc=STAMP, sources=sources)


def _context(root: Path) -> Path:
    """A memory root's context/ with the folder of membank's records (tasks/store/written.py)."""
    (root / STATE_DIR).mkdir(parents=True)
    (root / "context").mkdir()
    return root / "context"


def _written(tmp_path: Path) -> Path:
    path = _context(tmp_path) / "distill-state.jsonc"
    assert save_distill_state(path, _state(), now_iso=STAMP)
    return path


def _change(states: SourceStates) -> SourceStates:
    """What a distill does to the state: links resolved, a source read again, one added, one
    given links."""
    changed = states.copy()
    for _asset_id, source in states.having("pendingRecordLinks"):
        changed.put(source.model_copy(update={"pendingRecordLinks": None}))
    changed.put(DistilledSource(assetId=_id(3), sourcePage="wiki/sources/c2.md", distilledAtUtc=LATER,
                                title="Ç café, again"))
    changed.put(DistilledSource(assetId=_id(0), sourcePage="wiki/sources/new.md", distilledAtUtc=LATER))
    changed.put(changed[_id(2)].model_copy(update={"pendingRecordLinks": [{"subject": "DL"}]}))
    return changed


def test_rows_give_the_models_sources_and_write_the_models_bytes(tmp_path: Path) -> None:
    path = _written(tmp_path)
    rows, stamp = load_source_states(path)
    models = SourceStates.of(load_distill_state(path).sources)
    assert stamp == STAMP and not rows.all_models and models.all_models
    assert list(rows.pages()) == list(models.pages())
    assert [key for key, _ in rows.having("documentKey")] == [_id(4)]
    assert dict(rows) == dict(models)  # (every row made a model here)
    rows, _ = load_source_states(path)  # rows again
    copy = _context(tmp_path / "copy") / "distill-state.jsonc"
    shutil.copyfile(path, copy)
    assert save_source_states(path, _change(rows), STAMP, now_iso=LATER)
    assert save_source_states(copy, _change(models), STAMP, now_iso=LATER)
    assert path.read_bytes() == copy.read_bytes()
    assert load_distill_state(path).stateGeneratedAtUtc == LATER
    again, stamp = load_source_states(path)  # unchanged: nothing written, the stamp kept
    assert not again.all_models and stamp == LATER
    assert not save_source_states(path, again, stamp, now_iso="2026-05-03T00:00:00Z")


def test_a_state_edited_by_hand_is_validated(tmp_path: Path) -> None:
    path = _written(tmp_path)
    hand_edit(path, b'"title": "Decision log"', b'"title": "Decision loq"')
    states, _ = load_source_states(path)
    assert states.all_models and states[_id(2)].title == "Decision loq"
    hand_edit(path, _id(1).encode(), b"not-a-hash".ljust(64, b"!"))
    with pytest.raises(ContractError, match="sources.1.assetId"):  # (names the file and field)
        load_source_states(path)

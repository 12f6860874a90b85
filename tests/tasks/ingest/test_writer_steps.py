"""The writer's steps (one per prepared batch) apply every input once, in input order, the
stored sources at their positions: the same sequence as one writer over all results."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tasks.ingest import SourceInput, StoredSource, in_input_order, plan_writer_steps
from tasks.ingest.inputs import make_problem


def _stored(position: int) -> StoredSource:
    return StoredSource(SourceInput(f"/in/{position}.md", f"{position}.md", 1), f"sha256:{position}")


@given(st.lists(st.booleans(), max_size=40), st.data())
def test_the_steps_apply_what_one_writer_applies(is_stored: list[bool], data: st.DataObject) -> None:
    stored = {p: _stored(p) for p, flag in enumerate(is_stored) if flag}
    new = [p for p, flag in enumerate(is_stored) if not flag]
    cuts = sorted(data.draw(st.lists(st.integers(0, len(new)), max_size=6)))
    bounds = [0, *cuts, len(new)] if new else []
    batches = [new[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]
    results = {p: make_problem(f"{p}.md", "not_found", "gone") for p in new}  # one per input
    steps = plan_writer_steps(len(is_stored), stored, [len(b) for b in batches])
    assert len(steps) == max(1, len(batches))
    prepared_per_step = [[results[p] for p in batch] for batch in batches] or [[]]
    applied = [r for step, prepared in zip(steps, prepared_per_step, strict=True)
               for r in step.results(prepared)]
    whole = list(in_input_order(len(is_stored), stored, [results[p] for p in new]))
    assert applied == whole


def test_batches_that_do_not_cover_the_new_inputs_are_refused() -> None:
    with pytest.raises(ValueError, match="inputs"):
        plan_writer_steps(3, {1: _stored(1)}, [1])

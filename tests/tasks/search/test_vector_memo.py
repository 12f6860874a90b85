"""The kept unit-vector matrix: after a change, only changed rows are converted and only their
pages summed again, with the same float32 values as a fresh build; page vectors summed for a
few pages alone are the rows of the whole page matrix, bit for bit."""

from __future__ import annotations

import numpy as np

from tasks.search.semantic import DIMENSIONS, matrix, similarities
from tasks.search.vector_memo import (
    VectorState,
    page_rows,
    page_sums,
    row_arrays,
    state_of,
    vector_state,
    with_pages,
)

Row = tuple[int, int, int, bytes]


def _blob(rng: np.random.Generator) -> bytes:
    vector = rng.standard_normal(DIMENSIONS).astype(np.float32)
    return (vector / np.linalg.norm(vector)).astype(np.float16).tobytes()


def _fresh(rows: list[Row]) -> tuple[list[int], object, object, object]:
    """The matrix as it was built before the memo: np.add.at over every row."""
    vectors = matrix([blob for _i, _u, _d, blob in rows])
    _ids, docs = np.unique(np.array([d for _i, _u, d, _b in rows], dtype=np.int64),
                           return_inverse=True)
    pages = np.zeros((len(_ids), DIMENSIONS), dtype=np.float32)
    np.add.at(pages, docs, vectors)
    pages /= np.maximum(np.linalg.norm(pages, axis=1, keepdims=True), 1e-6)
    return [u for _i, u, _d, _b in rows], docs, vectors, pages


def _bits(array: object) -> bytes:
    return np.ascontiguousarray(array).tobytes()


def _same(state: VectorState, rows: list[Row]) -> bool:
    """The state's rows and page vectors (its kept matrix, or summed for every page, or for a
    few pages alone) are the fresh build's, bit for bit."""
    units, docs, vectors, pages = _fresh(rows)
    some = np.arange(len(state.page_ids))[::3][::-1]  # (a few pages, out of order)
    return (state.units == units and _bits(state.docs) == _bits(docs)
            and _bits(state.vectors) == _bits(vectors)
            and _bits(with_pages(state).pages) == _bits(pages)
            and _bits(page_rows(state, some)) == _bits(pages[some])  # type: ignore[index]
            and _bits(page_rows(with_pages(state), some)) == _bits(pages[some]))  # type: ignore[index]


def test_page_sums_add_each_pages_rows_in_row_order_as_np_add_at_does() -> None:
    rng = np.random.default_rng(3)
    vectors = rng.standard_normal((5000, DIMENSIONS)).astype(np.float16).astype(np.float32)
    docs = rng.integers(0, 300, 5000)  # (about 17 rows per page, interleaved)
    expected = np.zeros((300, DIMENSIONS), dtype=np.float32)
    np.add.at(expected, docs, vectors)
    assert np.array_equal(page_sums(vectors, docs, 300), expected)


def test_the_kept_matrix_after_a_change_equals_a_fresh_one() -> None:
    rng = np.random.default_rng(7)
    rows: list[Row] = []
    for doc in range(1, 61):  # 60 pages of 1-4 passages
        for _ in range(doc % 4 + 1):
            rows.append((len(rows) + 1, len(rows) + 101, doc, _blob(rng)))
    kept = vector_state(rows, None)
    assert _same(kept, rows)
    steps: list[list[Row]] = []
    # a page added (new ids), a passage of page 5 rewritten in place, page 9 deleted
    added = [*rows, (len(rows) + 1, 9001, 61, _blob(rng)), (len(rows) + 2, 9002, 61, _blob(rng))]
    steps.append(added)
    rewritten = [(i, u, d, _blob(rng) if d == 5 else b) for i, u, d, b in added]
    steps.append(rewritten)
    steps.append([row for row in rewritten if row[2] != 9])
    # the last page rewritten under the same (reused) row, unit and page ids: new bytes
    last = steps[-1]
    steps.append([*last[:-1], (*last[-1][:3], _blob(rng))])
    # a page that lost one of its passages, and one that moved a passage to another page
    steps.append([row for row in steps[-1] if row[0] != 8])
    steps.append([(i, u, 2 if i == 20 else d, b) for i, u, d, b in steps[-1]])
    for step in steps:
        state = vector_state(step, kept)
        assert _same(state, step)
        assert _same(vector_state(step, None), step)
        kept = state
    # a kept page matrix follows the changes as well (only the changed pages summed again)
    kept = with_pages(vector_state(rows, None))
    for step in steps:
        state = vector_state(step, kept)
        assert state.pages is not None and _same(state, step)
        kept = state


def test_similarity_to_a_few_pages_equals_their_rows_of_the_whole_products() -> None:
    """semantic_pages scores only the pages it ranks: the same doubles as scoring every page."""
    rng = np.random.default_rng(11)
    rows: list[Row] = [(i + 1, i + 1, i // 3 if i % 7 else i, _blob(rng)) for i in range(2001)]
    state, query = vector_state(rows, None), rng.standard_normal(DIMENSIONS).astype(np.float32)
    every = similarities(with_pages(state).pages, query)
    for some in ([0], [5, 1, 5], list(range(len(state.page_ids)))[::-7], [len(state.page_ids) - 1]):
        assert _bits(similarities(page_rows(state, some), query)) == _bits(every[some])


def test_an_empty_index_has_an_empty_matrix() -> None:
    state = vector_state([], None)
    assert state.units == [] and state.vectors.shape == (0, DIMENSIONS)
    pages = with_pages(vector_state([], vector_state([(1, 2, 3, bytes(DIMENSIONS * 2))], None))
                       ).pages
    assert pages is not None and pages.shape == (0, DIMENSIONS)
    assert page_rows(state, []).shape == (0, DIMENSIONS)


def test_rows_read_batch_by_batch_give_the_same_state() -> None:
    """row_arrays fills the arrays a batch at a time (a bound too small grows them): the same
    state as from the list of every row."""
    rng = np.random.default_rng(5)
    rows: list[Row] = [(i * 2 + 1, i + 7, i // 2, _blob(rng)) for i in range(1000)]
    whole = vector_state(rows, None)
    for size, bound in ((1, 1000), (97, 1000), (4096, 1000), (64, 10), (64, 5000), (10, 0)):
        batches = [rows[i:i + size] for i in range(0, len(rows), size)]
        state = state_of(row_arrays(iter(batches), bound), None)
        assert _bits(state.ids) == _bits(whole.ids) and state.units == whole.units
        assert _bits(state.doc_ids) == _bits(whole.doc_ids) and _bits(state.raw) == _bits(whole.raw)
        assert _bits(state.vectors) == _bits(whole.vectors) and _same(state, rows)
    assert len(row_arrays(iter([]), 10)[3]) == 0

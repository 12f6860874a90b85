"""The unit-vector matrix a warm process keeps between index states: after a write only the rows
that changed are converted; page vectors are summed only for the pages a search asks about.

A fresh read takes every vector row (float16 bytes) and converts them all to float32. A page's
vector (its rows summed in row order, unit length) is needed only for the few pages a semantic
search ranks (the gate's whole-page similarities), so it is summed for those pages alone
(`page_rows`); the whole page matrix (`with_pages`) only when every row's score leans on its
page's (query.py's PAGE_WEIGHT), and it is then kept across states like the rows. Summing every
page cost a one-shot search at 100,000 pages about 200 MB of fresh memory and its page faults.
The rows are still read on each new state (an exact comparison needs their bytes), but a row
whose id, unit, page and bytes are all unchanged keeps its converted vector, and a kept page
matrix keeps the vectors of the pages none of whose rows changed: the same float32 values, bit
for bit, as a fresh build (each page's sum adds its rows in row order, as `np.add.at` does;
tests/tasks/search/test_vector_memo.py compares the two).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from tasks.search.semantic import DIMENSIONS

_ROW_BYTES = DIMENSIONS * 2  # (float16)


@dataclass(frozen=True)
class VectorState:
    """Every unit vector row of one index state, ordered by vector row id."""

    ids: Any  # vector row ids (int64, ascending)
    units: list[int]  # each row's unit id
    unit_ids: Any  # the same, as int64
    doc_ids: Any  # each row's page (docs.id, int64)
    raw: Any  # each row's stored bytes (uint8, rows x 512)
    vectors: Any  # each row as float32
    docs: Any  # each row's page as a row of `pages`
    page_ids: Any  # the pages (docs.id, ascending)
    pages: Any | None  # each page's rows summed, unit length (float32); None: not summed



def page_sums(vectors: Any, docs: Any, count: int) -> Any:
    """Each page's unit vectors summed (row `docs[i]` of the result adds `vectors[i]`), added
    in row order as `np.add.at` adds them (the same float32 sums, bit for bit) but one
    vectorized step per passage rank: the first passage of every page, then the second, ...
    (np.add.at took 40 ms at 10,000 pages)."""
    import numpy as np

    pages = np.zeros((count, vectors.shape[1]), dtype=np.float32)
    if not len(docs):
        return pages
    order = np.argsort(docs, kind="stable")  # (rows by page, each page's in row order)
    ordered = docs[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    rank = np.arange(len(order)) - np.repeat(starts, np.diff(np.r_[starts, len(order)]))
    for step in range(int(rank.max()) + 1):
        rows = order[rank == step]  # (one row per page: no index repeats within a step)
        pages[docs[rows]] += vectors[rows]
    return pages


def vector_state(rows: list[tuple[int, int, int, bytes]], kept: VectorState | None) -> VectorState:
    """The state of these (vector id, unit id, page id, bytes) rows, ordered by vector id,
    reusing what `kept` (an earlier state) already converted and summed."""
    import numpy as np

    columns = list(zip(*rows, strict=True)) or [(), (), (), ()]
    ids = np.array(columns[0], dtype=np.int64)
    unit_ids = np.array(columns[1], dtype=np.int64)
    doc_ids = np.array(columns[2], dtype=np.int64)
    raw = np.frombuffer(b"".join(columns[3]), dtype=np.uint8).reshape(len(rows), _ROW_BYTES)
    del columns
    return state_of((ids, unit_ids, doc_ids, raw), kept)


def row_arrays(batches: Iterable[list[tuple[int, int, int, bytes]]], bound: int
               ) -> tuple[Any, Any, Any, Any]:
    """(ids, unit ids, page ids, bytes: rows x 512) of the (vector id, unit id, page id, bytes)
    rows of `batches`, filled batch by batch into arrays of `bound` rows (grown if more come):
    no list of every row's bytes and no joined copy of them (50 MB each at 100,000 rows)."""
    import numpy as np

    ids, unit_ids, doc_ids = (np.empty(bound, dtype=np.int64) for _ in range(3))
    raw = np.empty((bound, _ROW_BYTES), dtype=np.uint8)
    count = 0
    for batch in batches:
        end = count + len(batch)
        if end > len(ids):  # (more rows than the bound said: a writer in between)
            size = max(end, 2 * len(ids))
            ids, unit_ids, doc_ids = (np.resize(a, size) for a in (ids, unit_ids, doc_ids))
            raw = np.resize(raw, (size, _ROW_BYTES))
        columns = list(zip(*batch, strict=True)) or [(), (), (), ()]
        ids[count:end], unit_ids[count:end], doc_ids[count:end] = columns[:3]
        raw[count:end] = np.frombuffer(b"".join(columns[3]), dtype=np.uint8).reshape(
            len(batch), _ROW_BYTES)
        count = end
    return ids[:count], unit_ids[:count], doc_ids[:count], raw[:count]


def state_of(rows: tuple[Any, Any, Any, Any], kept: VectorState | None,
             unchanged: tuple[Any, Any] | None = None) -> VectorState:
    """vector_state of rows given as arrays (ids ascending, unit ids, page ids, bytes: rows x
    512); `unchanged`: which rows `kept` holds unchanged and where, when the caller knows
    (else compared)."""
    import numpy as np

    ids, unit_ids, doc_ids, raw = rows
    units = unit_ids.tolist()
    same, at = unchanged or _unchanged_rows(ids, unit_ids, doc_ids, raw, kept)
    if kept is None or not same.any():  # (one conversion, no other copy: 100 MB at 100,000 rows)
        vectors = raw.view(np.float16).astype(np.float32)
    else:  # (one gather from the kept matrix, then the changed rows over it)
        vectors = kept.vectors[np.where(same, at, 0)]
        vectors[~same] = raw[~same].view(np.float16).astype(np.float32)
    page_ids, docs = np.unique(doc_ids, return_inverse=True)
    state = VectorState(ids, units, unit_ids, doc_ids, raw, vectors, docs, page_ids, None)
    if kept is None or kept.pages is None:
        return state  # (page vectors: summed when asked, page_rows or with_pages)
    fresh = _pages_to_sum(page_ids, doc_ids, same, at, kept)
    if fresh.all():
        return with_pages(state)
    pages = kept.pages[np.where(fresh, 0, np.searchsorted(kept.page_ids, page_ids).clip(
        0, len(kept.page_ids) - 1))]
    summed = fresh[docs]  # (the rows of the pages summed anew, in row order)
    which, local = np.unique(docs[summed], return_inverse=True)
    pages[which] = _unit_rows(page_sums(vectors[summed], local, len(which)))
    return replace(state, pages=pages)


def with_pages(state: VectorState) -> VectorState:
    """The state with its whole page matrix: each page's rows summed, unit length (summed in
    place: no copy of the rows or of the pages, 100 MB each at 100,000 pages)."""
    if state.pages is not None:
        return state
    return replace(state, pages=_unit_rows(page_sums(state.vectors, state.docs,
                                                     len(state.page_ids))))


def page_rows(state: VectorState, which: Any) -> Any:
    """The vectors of the pages `which` (rows of `state.page_ids`), one row each in that order:
    the rows of the whole page matrix, bit for bit (the same sums of the same rows in the same
    order, and each row's length is its own), without summing the other pages."""
    import numpy as np

    which = np.asarray(which, dtype=np.int64)
    if state.pages is not None:
        return state.pages[which]
    wanted, back = np.unique(which, return_inverse=True)
    summed = np.isin(state.docs, wanted)  # (their rows, in row order)
    local = np.searchsorted(wanted, state.docs[summed])
    return _unit_rows(page_sums(state.vectors[summed], local, len(wanted)))[back]


def _unit_rows(sums: Any) -> Any:
    """The rows scaled to unit length, in place (a zero row stays zero)."""
    import numpy as np

    sums /= np.maximum(np.linalg.norm(sums, axis=1, keepdims=True), 1e-6)
    return sums


def changed_rows(kept: VectorState, gone: Any, fetched: list[tuple[int, int, int, bytes]]
                 ) -> tuple[tuple[Any, Any, Any, Any], tuple[Any, Any]]:
    """(ids, unit ids, page ids, bytes) of `kept`'s rows but those of the units `gone`, with
    the `fetched` rows (new units' vectors), in vector id order; and which rows are kept ones
    and where in `kept` (state_of's `unchanged`)."""
    import numpy as np

    keep = ~np.isin(kept.unit_ids, gone)
    columns = list(zip(*fetched, strict=True)) or [(), (), (), ()]
    ids = np.concatenate([kept.ids[keep], np.array(columns[0], dtype=np.int64)])
    unit_ids = np.concatenate([kept.unit_ids[keep], np.array(columns[1], dtype=np.int64)])
    doc_ids = np.concatenate([kept.doc_ids[keep], np.array(columns[2], dtype=np.int64)])
    raw = np.concatenate([kept.raw[keep], np.frombuffer(b"".join(columns[3]), dtype=np.uint8
                                                        ).reshape(len(fetched), _ROW_BYTES)])
    same = np.r_[np.ones(int(keep.sum()), dtype=bool), np.zeros(len(fetched), dtype=bool)]
    at = np.r_[np.flatnonzero(keep), np.zeros(len(fetched), dtype=np.int64)]
    order = np.argsort(ids, kind="stable")
    return (ids[order], unit_ids[order], doc_ids[order], raw[order]), (same[order], at[order])


def _unchanged_rows(ids: Any, unit_ids: Any, doc_ids: Any, raw: Any, kept: VectorState | None
                    ) -> tuple[Any, Any]:
    """Which rows `kept` holds unchanged (same id, unit, page and bytes), and where."""
    import numpy as np

    if kept is None or not len(kept.ids) or not len(ids):
        return np.zeros(len(ids), dtype=bool), np.zeros(len(ids), dtype=np.int64)
    at = np.minimum(np.searchsorted(kept.ids, ids), len(kept.ids) - 1)
    same = (kept.ids[at] == ids) & (kept.unit_ids[at] == unit_ids) & (kept.doc_ids[at] == doc_ids)
    row = np.dtype((np.void, _ROW_BYTES))  # (a row's bytes as one value: one comparison each)
    same[same] = kept.raw.view(row)[at[same], 0] == raw.view(row)[same, 0]
    return same, at


def _pages_to_sum(page_ids: Any, doc_ids: Any, same: Any, at: Any, kept: VectorState | None
                  ) -> Any:
    """The pages whose vector must be summed anew: new pages, and pages that gained, lost or
    changed a row."""
    import numpy as np

    if kept is None:
        return np.ones(len(page_ids), dtype=bool)
    still = np.zeros(len(kept.ids), dtype=bool)
    still[at[same]] = True
    touched = np.union1d(doc_ids[~same], kept.doc_ids[~still])
    return np.isin(page_ids, touched) | ~np.isin(page_ids, kept.page_ids)

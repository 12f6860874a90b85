"""The unit-vector matrix a warm process keeps between index states: after a write only the rows
that changed are converted and only the pages they belong to are summed again.

A fresh build reads every vector row (float16 bytes), converts them all to float32 and sums each
page's rows into its page vector (unit length): ~90 ms at 10,000 pages, paid by the first
semantic search after every memory_write. The rows are still read on each new state (an
exact comparison needs their bytes), but a row whose id, unit, page and bytes are all unchanged
keeps its converted vector, and a page none of whose rows changed keeps its page vector: the
same float32 values, bit for bit, as a fresh build (each page's sum adds its rows in row order,
as `np.add.at` does; tests/tasks/search/test_vector_memo.py compares the two).
"""

from __future__ import annotations

from dataclasses import dataclass
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
    pages: Any  # each page's rows summed, unit length (float32)



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


def state_of(rows: tuple[Any, Any, Any, Any], kept: VectorState | None,
             unchanged: tuple[Any, Any] | None = None) -> VectorState:
    """vector_state of rows given as arrays (ids ascending, unit ids, page ids, bytes: rows x
    512); `unchanged`: which rows `kept` holds unchanged and where, when the caller knows
    (else compared)."""
    import numpy as np

    ids, unit_ids, doc_ids, raw = rows
    units = unit_ids.tolist()
    same, at = unchanged or _unchanged_rows(ids, unit_ids, doc_ids, raw, kept)
    # (one gather from the kept matrix, then the changed rows over it: no other large temporary)
    vectors = kept.vectors[np.where(same, at, 0)] if kept is not None and same.any() else \
        np.empty((len(ids), DIMENSIONS), dtype=np.float32)
    vectors[~same] = raw[~same].view(np.float16).astype(np.float32)
    page_ids, docs = np.unique(doc_ids, return_inverse=True)
    fresh = _pages_to_sum(page_ids, doc_ids, same, at, kept)
    if fresh.all():  # every page summed anew: no copy of the rows or of the pages (100 MB each
        pages = _unit_rows(page_sums(vectors, docs, len(page_ids)))  # at 100,000 pages)
        return VectorState(ids, units, unit_ids, doc_ids, raw, vectors, docs, page_ids, pages)
    if kept is not None:
        pages = kept.pages[np.where(fresh, 0, np.searchsorted(kept.page_ids, page_ids).clip(
            0, len(kept.page_ids) - 1))]
    else:
        pages = np.empty((len(page_ids), DIMENSIONS), dtype=np.float32)
    summed = fresh[docs]  # (the rows of the pages summed anew, in row order)
    which, local = np.unique(docs[summed], return_inverse=True)
    pages[which] = _unit_rows(page_sums(vectors[summed], local, len(which)))
    return VectorState(ids, units, unit_ids, doc_ids, raw, vectors, docs, page_ids, pages)


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

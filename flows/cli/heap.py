"""A one-shot command keeps the memory it frees for its own next allocations (glibc's malloc).

By default glibc gives a large block (from 128 KiB, raised up to 32 MiB as such blocks are
freed) its own mapping and unmaps it when it is freed, and gives the top of the heap back once
128 KiB of it are free. A one-note ingest into a 100,000-page memory allocates and frees blocks of
1-40 MB in turn (a file's bytes, their decoded text, the rows parsed from them, the bytes
written back: the raw manifest, index.md, the registry, the distill state), and each new block's
pages are faulted in again by the kernel: 138,000 minor page faults for a peak of 377 MB, 13 %
of the command's cpu in the kernel's fault handler. With every block under 1 GiB taken from the
heap and up to 1 GiB of its free top kept, a freed block's pages serve the next one: 100,000
faults, the command's sys time ~0.1 s lower, its peak ~20 MiB higher (one67's section of
benchmarks/bench_growth_results.md). `reconcile --check` right after an ingest (the cache's
table of 120,000 rows, the changed context files, the catalogs and the graph's frame read in
turn): 195,000 -> 142,000 faults, sys ~0.07 s lower, its peak ~48 MiB higher (chk69).

Only for commands that run for seconds and end (a long-running server would hold its largest
moment's heap for ever), and only where it is measured: the ingest and `reconcile --check` (a
repair run is left as it was: it gives its heap back before forking workers, scan_pool's
trim_heap). Nothing else changes: the same allocations, the same results. Elsewhere than glibc
(no `mallopt`) it does nothing.
"""

from __future__ import annotations

import ctypes

# glibc's malloc.h
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
# Far above any block an ingest allocates (the largest: the embedding table as float32, 33 MB;
# index.md's bytes at 100,000 pages, 10 MB): none mapped apart, no free top given back.
MMAP_THRESHOLD_BYTES = 1024 * 1024 * 1024
TRIM_THRESHOLD_BYTES = 1024 * 1024 * 1024


def keep_freed_heap() -> bool:
    """Ask glibc to serve blocks under 1 GiB from the heap and to keep its free top; whether it
    took both settings (False where there is no glibc `mallopt`)."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)
                and mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD_BYTES))

"""Metamorphic check of distill's entity names (issue 23 item 4): re-wrap each development
set's fixture documents at 60 and 80 columns and unwrapped (one line per paragraph), extract
each version, and count per set the entities made by one version and not the other, classed
(cut: a name cut at a line end; joined: a name joined across a line end; duplicate: the start
or end of a longer name of the same document; other).

    nice .venv/bin/python benchmarks/bench_rewrap.py [SET ...] [-v]
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.rewrap_documents import UNWRAPPED, differences, set_documents

SETS = ["dev", "dev2", "dev3", "dev4", "dev4meta", "dev5", "dev6", "dev7", "dev8",
        "heldout", "heldout2", "heldout3", "heldout4", "heldout5"]  # never heldout6-8
WIDTHS = (60, 80, UNWRAPPED)


def main(argv: list[str]) -> None:
    verbose = "-v" in argv
    names = [a for a in argv if not a.startswith("-")] or SETS
    total: Counter[str] = Counter()
    for name in names:
        counts: Counter[str] = Counter()
        documents = set_documents(name)
        for path in documents:
            for diff in differences(path, WIDTHS):
                counts[diff.kind] += 1
                if verbose:
                    print(f"  {name} {diff.document} w={diff.width or 'one line'} {diff.side}: "
                          f"{diff.name!r} ({diff.entity_type}) [{diff.kind}]")
        total.update(counts)
        print(f"{name}: {len(documents)} documents, {sum(counts.values())} differences "
              f"{dict(sorted(counts.items()))}")
    print(f"all: {sum(total.values())} differences {dict(sorted(total.items()))}")


if __name__ == "__main__":
    main(sys.argv[1:])

"""JSONC read speed: the fast path (orjson, then comment stripper + orjson) against json5.

Generates a knowledge graph of at least 5 MB with comments and trailing commas, as a person
editing it by hand would leave, and prints MB/s of each reader. Not run by CI.

    .venv/bin/python benchmarks/bench_jsonc.py [--mb 6]
"""

from __future__ import annotations

import argparse
import random
import time

import json5
import orjson

from tasks.store.jsonc import loads_jsonc, strip_jsonc


def generate_graph_jsonc(target_mb: float, seed: int = 1) -> str:
    rng = random.Random(seed)
    words = ("service agent memory graph shard source entity decision relation observation "
             "sqlite wal mode retry backoff queue planner executor historian curator").split()
    lines = ['{', '  // knowledge graph, hand-annotated', '  "graphGeneratedAtUtc": "2026-03-24T22:40:05Z",',
             '  "entities": [']
    size, index = 0, 0
    while size < target_mb * 1_000_000:
        name = f"entity-{index:06d}"
        observations = ", ".join(
            orjson.dumps(" ".join(rng.choice(words) for _ in range(rng.randint(5, 14)))).decode()
            for _ in range(rng.randint(3, 9))
        )
        line = (f'    {{"entityName": "{name}", /* {rng.choice(words)} */ "entityType": "service", '
                f'"observations": [{observations},]}},  // row {index}')
        lines.append(line)
        size += len(line)
        index += 1
    lines += ['  ],', '  "relations": [', '    {"sourceEntityName": "entity-000000", '
              '"targetEntityName": "entity-000001", "relationType": "depends_on"},', '  ],', '}']
    return "\n".join(lines) + "\n"


def rate(label: str, megabytes: float, action, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    print(f"{label:<34} {best:8.3f} s  {megabytes / best:8.1f} MB/s")
    return megabytes / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=6.0, help="size of the generated graph")
    args = parser.parse_args()
    text = generate_graph_jsonc(args.mb)
    megabytes = len(text.encode()) / 1_000_000
    print(f"generated JSONC graph: {megabytes:.2f} MB")
    plain = orjson.dumps(orjson.loads(strip_jsonc(text))).decode()
    rate("orjson on plain JSON (our files)", len(plain) / 1_000_000, lambda: loads_jsonc(plain), 5)
    fast = rate("fast path: strip + orjson", megabytes, lambda: loads_jsonc(text), 3)
    small = text[: 300_000].rsplit("\n    {", 1)[0] + "\n  ],\n  \"relations\": []\n}\n"
    rate("json5 (300 kB slice)", len(small) / 1_000_000, lambda: json5.loads(small), 1)
    assert loads_jsonc(small) == json5.loads(small)
    print(f"goal: fast path >= 20 MB/s -> {'met' if fast >= 20 else 'NOT met'}")


if __name__ == "__main__":
    main()

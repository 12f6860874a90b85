"""Benchmark drawing the ops dashboard (context/health/dashboard.html) from history.jsonl.

    nice .venv/bin/python benchmarks/bench_dashboard.py [--days 30 90 365] [--repeat 5]

For each window, writes that many days of runs (a nightly reconcile, four freshness audits and
an ingest a day, through the real health code: build_summary, history_line, append_history),
then times tasks.health.dashboard.build.write_dashboard:
  cold: a fresh Python process that has loaded tasks.health.files (as a `membank reconcile --check`
        has when it writes its summary): the imports of the page code, then the
        drawing; median of --repeat runs;
  warm: in this process after one drawing (what a long-running `membank serve` pays).
Also times a real health write (tasks.health.files.write_health, which redraws the page) on the
same history. Goals: cold well under 100 ms at 30 days, <= 1 s at 365 days.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tasks.health.dashboard.build import write_dashboard  # noqa: E402
from tasks.health.files import write_health  # noqa: E402
from tests.health_history import write_history  # noqa: E402
from tests.tasks.health.test_retention import summary  # noqa: E402

END = "2026-03-24T22:40:05Z"
# A process that has just written a health summary (tasks.health.files loaded), drawing its first
# dashboard: the charting library's import and the drawing are what it pays.
COLD = ("import sys, time\nfrom pathlib import Path\nimport tasks.health.files\nt = time.perf_counter()\n"
        "from tasks.health.dashboard.build import write_dashboard\n"
        "write_dashboard(Path(sys.argv[1]), now_iso=sys.argv[2])\n"
        "print(time.perf_counter() - t)\n")


def cold_seconds(root: Path, repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", COLD, str(root), END], cwd=REPO, check=True,
                             capture_output=True, text=True)
        runs.append(float(out.stdout.strip()))
    return statistics.median(runs)


def warm_seconds(root: Path, repeat: int) -> float:
    write_dashboard(root, now_iso=END)
    runs = []
    for _ in range(repeat):
        started = time.perf_counter()
        write_dashboard(root, now_iso=END)
        runs.append(time.perf_counter() - started)
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--days", type=int, nargs="+", default=[30, 90, 365])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"load average: {open('/proc/loadavg').read().split()[:3]}")
    print(f"{'days':>5} {'runs':>6} {'history KB':>10} {'page KB':>8} {'cold ms':>8} {'warm ms':>8} "
          f"{'health write ms':>15}")
    for days in args.days:
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            runs = write_history(root, days=days, end=END)
            health = root / "context/health"
            cold = cold_seconds(root, args.repeat)
            warm = warm_seconds(root, args.repeat)
            started = time.perf_counter()
            write_health(root, summary("2026-03-24T23:00:00Z", errors=2))
            health_write = time.perf_counter() - started
            print(f"{days:>5} {runs:>6} {(health / 'history.jsonl').stat().st_size / 1024:>10.0f} "
                  f"{(health / 'dashboard.html').stat().st_size / 1024:>8.0f} {cold * 1000:>8.0f} "
                  f"{warm * 1000:>8.0f} {health_write * 1000:>15.0f}")
    print(f"load average: {open('/proc/loadavg').read().split()[:3]}")


if __name__ == "__main__":
    main()

"""Benchmark the knowledge view (context/health/graph.html) on generated memories.

    nice .venv/bin/python benchmarks/bench_graph_view.py [--pages 10000 20000] [--observations 100000]

For each size, generates the memory bench_reconcile and bench_search use (a page count of N
gives N/2 entities, a ring of depends_on relations, the observations spread over the entities,
each with its provenance), then measures:
  build: tasks.health.dashboard.graph_view.write_graph_view in this process (reading the graph, the
         registry, the manifest and the evidence pages' front matter, the view model, the page,
         the atomic write); median of --repeat runs;
  size:  the page's bytes;
  load:  headless Chromium (tests/chromium.py), from navigation to the load event (the page's
         script has parsed the model and drawn the overview by then); median of --repeat
         fresh loads; then a search and a click, timed in the page.
Goal (issue 26): the page loads in <= 2 s for the 10,000-page memory.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.bench_reconcile import generate  # noqa: E402
from tasks.health.dashboard.graph_view import write_graph_view  # noqa: E402
from tests.chromium import Page, headless_page  # noqa: E402

SEARCH_AND_CLICK = """(function () {
  var t = performance.now(), box = document.getElementById('search');
  box.value = 'component-00042';
  box.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter'}));
  var name = document.getElementById('entity-name').textContent;
  return [name, performance.now() - t, document.querySelectorAll('#observations li').length];
})()"""


def load_seconds(page: Page, url: str) -> float:
    page.events.clear()
    started = time.perf_counter()
    page.send("Page.navigate", url=url)
    page.wait_for("Page.loadEventFired", timeout=60)
    return time.perf_counter() - started


def measure(pages: int, observations: int, repeat: int, work: Path) -> dict[str, object]:
    root = work / f"memory-{pages}"
    started = time.perf_counter()
    counts = generate(root, pages, observations)
    generated = time.perf_counter() - started
    builds = []
    for _ in range(repeat):
        started = time.perf_counter()
        target = write_graph_view(root, force=True)
        builds.append(time.perf_counter() - started)
    with headless_page(work / f"profile-{pages}") as page:
        page.send("Page.enable")
        page.send("Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=1,
                  mobile=False)
        loads = [load_seconds(page, target.resolve().as_uri()) for _ in range(repeat)]
        shown = page.evaluate("document.getElementById('shown').textContent")
        name, click_ms, listed = page.evaluate(SEARCH_AND_CLICK)
    return {"pages": pages, **counts, "generate_s": round(generated, 1),
            "build_s": round(statistics.median(builds), 3), "size_mb": round(target.stat().st_size / 1e6, 2),
            "load_s": round(statistics.median(loads), 3), "load_max_s": round(max(loads), 3),
            "overview": shown, "search_and_click_ms": round(click_ms, 1),
            "selected": name, "observations_listed": listed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, nargs="+", default=[10000, 20000])
    parser.add_argument("--observations", type=int, default=100000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-graph-view-") as work:
        for pages in args.pages:
            result = measure(pages, args.observations, args.repeat, Path(work))
            print(" ".join(f"{key}={value}" for key, value in result.items()), flush=True)


if __name__ == "__main__":
    main()

"""The Python API's read and write surface returns the MCP tools' models, from the same code."""

from __future__ import annotations

from pathlib import Path

from membank import Memory
from schemas.search import RetrievalReport
from schemas.tools import BrowseAnswer, LoadedPage, SearchAnswer, WriteAnswer
from tasks.search.query import SearchOptions, search
from tasks.store.layout import MemoryLayout
from tests.tasks.search.search_memory import SYNTHESIS, build_search_memory


def test_memory_reads_and_writes_like_the_tools(tmp_path: Path) -> None:
    root = tmp_path / "m"
    build_search_memory(root)
    memory = Memory(root)
    found = memory.search("third retry", ["qqxv wombatz"])
    assert isinstance(found, SearchAnswer)
    direct = search(MemoryLayout(root.resolve()), "third retry", SearchOptions(semantic=True))
    assert [h.path for h in found.resultsByQuery[0].hits] == [h.path for h in direct.hits]
    assert found.resultsByQuery[1].navigation is not None
    browsed = memory.browse()
    assert isinstance(browsed, BrowseAnswer) and browsed.root is not None
    assert memory.browse("upload retry").topic is not None
    loaded = memory.load(SYNTHESIS, section="evidence")
    assert isinstance(loaded, LoadedPage) and "Forty failed uploads" in loaded.body
    written = memory.write(path="wiki/synthesis/cold-start.md", title="Cold start budget",
                           parentHubPath="wiki/synthesis",
                           content="---\ndescription: How long a cold start may take.\n"
                                   "type: project\n---\nTen seconds at most.\n")
    assert isinstance(written, WriteAnswer) and written.ok and written.path
    assert "Python API" in str(memory.load(written.path).frontmatter["memory"])
    packet = memory.retrieve("orchestrator planner", budget_tokens=1000)
    assert isinstance(packet, RetrievalReport) and packet.packet.budget_tokens == 1000


def test_python_dash_m_membank_is_the_command_line(tmp_path: Path) -> None:
    """`python -m membank` runs the CLI (it printed nothing and exited 0: membank.py is the API)."""
    import subprocess
    import sys

    repo = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-m", "membank", "health", "--root", str(tmp_path / "none")],
                          cwd=repo, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode != 0 and done.stderr.strip(), (done.returncode, done.stdout, done.stderr)
    help_run = subprocess.run([sys.executable, "-m", "membank", "--help"], cwd=repo, capture_output=True,
                              text=True, timeout=120, check=False)
    assert help_run.returncode == 0 and "ingest" in help_run.stdout and "reconcile" in help_run.stdout

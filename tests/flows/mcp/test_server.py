"""`membank mcp` through the SDK's real client: one server (a subprocess over stdio) for the
module, on the read-side fixture memory; results are compared with the CLI's for the same root."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from typer.testing import CliRunner

from flows.cli.app import app
from tests.conftest import REPO_ROOT
from tests.tasks.search.search_memory import SYNTHESIS, build_search_memory

SPEC = REPO_ROOT.parent / "shared" / "spec" / "wiki-memory-pkf.md"
MEMBANK = str(Path(sys.executable).parent / "membank")
runner = CliRunner()


class Client:
    """A ClientSession on its own event loop thread, called synchronously by the tests."""

    def __init__(self, args: list[str]) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.ready: asyncio.Future[ClientSession] = self.loop.create_future()
        self.stop = asyncio.Event()
        self.task = asyncio.run_coroutine_threadsafe(self._serve(args), self.loop)
        self.session = asyncio.run_coroutine_threadsafe(self._ready(), self.loop).result(60)

    async def _ready(self) -> ClientSession:
        return await self.ready

    async def _serve(self, args: list[str]) -> None:
        params = StdioServerParameters(command=MEMBANK, args=["mcp", *args])
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            self.ready.set_result(session)
            await self.stop.wait()

    def run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(120)

    def call(self, name: str, args: dict[str, Any]) -> Any:
        return self.run(self.session.call_tool(name, args))

    def ok(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        result = self.call(name, args)
        assert not result.is_error, result.content[0].text
        return dict(result.structured_content)

    def error(self, name: str, args: dict[str, Any]) -> str:
        result = self.call(name, args)
        assert result.is_error, result.structured_content
        text: str = result.content[0].text
        return text

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.stop.set)
        self.task.result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("mcp") / "memory"
    build_search_memory(root)
    (root.parent / "allowed").mkdir()
    return root


@pytest.fixture(scope="module")
def client(root: Path) -> Iterator[Client]:
    served = Client(["--root", str(root), "--allow-ingest", str(root.parent / "allowed")])
    yield served
    served.close()


def cli_json(*args: str) -> Any:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def spec_parameters() -> dict[str, tuple[set[str], set[str]]]:
    """The spec's generated parameter list: tool -> (all names, required names)."""
    found = {}
    for tool, params in re.findall(r"^• (memory_\w+): (.+)$", SPEC.read_text(), re.MULTILINE):
        names = [p.strip().split(" ")[0] for p in params.split("·")]
        found[tool] = ({n.rstrip("*").removesuffix("[]") for n in names},
                       {n.rstrip("*") for n in names if n.endswith("*")})
    return found


def test_tools_have_the_specs_parameters_and_annotations(client: Client) -> None:
    tools = {t.name: t for t in client.run(client.session.list_tools()).tools}
    spec = spec_parameters()
    assert set(spec) <= set(tools)
    for name, (names, required) in spec.items():
        schema = tools[name].input_schema
        assert names <= set(schema["properties"]), name
        assert set(schema.get("required", [])) == required, name
        assert tools[name].output_schema is not None, name
    assert schema_type(tools["memory_search"].input_schema["properties"]["queries"]) == "array"
    assert schema_type(tools["memory_search"].input_schema["properties"]["pageType"]) == "array"
    assert tools["memory_search"].annotations.read_only_hint is True
    assert {"since", "before"} <= set(tools["memory_search"].input_schema["properties"])
    write = tools["memory_write"].annotations
    assert (write.read_only_hint, write.destructive_hint, write.idempotent_hint) == (False, False, True)
    assert {"memory_retrieve", "memory_show", "memory_health", "memory_ingest",
            "memory_forget_plan"} <= set(tools)


def schema_type(prop: dict[str, Any]) -> str:
    return str(prop.get("type") or next(p["type"] for p in prop["anyOf"] if p["type"] != "null"))


def test_search_matches_the_cli_and_a_miss_navigates(client: Client, root: Path) -> None:
    answer = client.ok("memory_search", {"query": "third retry",
                                         "queries": ["zebrafish rotation", "qqxv wombatz"]})
    cli = cli_json("search", "third retry", "--root", str(root))
    first = answer["resultsByQuery"][0]
    assert [(h["path"], h["section"], h["score"]) for h in first["hits"]] == [
        (h["path"], h["anchor"], h["score"]) for h in cli["hits"]]
    assert first["hits"][0]["path"] == SYNTHESIS and first["navigation"] is None
    assert [r["query"] for r in answer["resultsByQuery"]] == ["third retry", "zebrafish rotation",
                                                               "qqxv wombatz"]
    miss = answer["resultsByQuery"][2]
    assert miss["hits"] == [] and miss["navigation"]["reason"] == "text-miss"
    starts = miss["navigation"]["startPoints"]
    assert starts[0]["path"] == "index.md" and {s["pageType"] for s in starts[1:]} == {"hub"}
    counts = [s["childrenCount"] for s in starts[1:]]
    assert counts == sorted(counts, reverse=True)
    assert "9 phrasings" in client.error("memory_search", {"query": "a", "queries": list("abcdefghi")})
    assert "since takes a date" in client.error("memory_search", {"query": "a", "since": "soon"})


def test_browse_with_and_without_a_query(client: Client, root: Path) -> None:
    topic = client.ok("memory_browse", {"query": "upload retry budget"})["topic"]
    cli = cli_json("browse", "upload retry budget", "--root", str(root))
    assert topic == cli
    surface = client.ok("memory_browse", {})["root"]
    assert surface["index"]["path"] == "index.md"
    hubs = {h["path"] for h in surface["hubs"]}
    assert "wiki/synthesis/index.md" in hubs and hubs == {h["path"] for h in surface["hubsByRecent"]}
    recent = [h["updatedAt"] or "" for h in surface["hubsByRecent"]]
    assert recent == sorted(recent, reverse=True)
    assert all(p["pageType"] != "hub" for p in surface["nearest"])


def test_load_show_retrieve_and_forget_plan_match_the_cli(client: Client, root: Path) -> None:
    loaded = client.ok("memory_load", {"path": SYNTHESIS, "section": "retry-budget"})
    shown = cli_json("show", f"{SYNTHESIS}#retry-budget", "--root", str(root))
    assert (loaded["body"], loaded["frontmatter"]) == (shown["body"], shown["frontmatter"])
    assert loaded["sections"] == ["evidence", "retry-budget"]
    assert {"rel": "child-of", "path": "wiki/synthesis/index.md", "exists": True} in loaded["linksOut"]
    by_uri = client.ok("memory_load", {"uri": f"memory://page/{SYNTHESIS}#evidence"})
    assert by_uri["section"] == "evidence" and "Forty failed uploads" in by_uri["body"]
    hub = client.ok("memory_load", {"path": "wiki/sources/index.md"})
    assert any(link["rel"] == "child-of" for link in hub["linksIn"])
    entity = client.ok("memory_show", {"entity": "main-orchestrator"})["entity"]
    assert entity == cli_json("show", "main-orchestrator", "--root", str(root))
    packet = client.ok("memory_retrieve", {"task": "orchestrator planner delegation",
                                           "budget_tokens": 1500})["packet"]
    cli_packet = cli_json("retrieve", "orchestrator planner delegation", "--budget-tokens", "1500",
                          "--root", str(root))["packet"]
    assert packet == cli_packet
    before = sorted((p, p.read_bytes()) for p in root.rglob("*.md"))
    plan = client.ok("memory_forget_plan", {"topic": "quokka"})
    assert plan["mode"] == "forget"
    assert sorted((p, p.read_bytes()) for p in root.rglob("*.md")) == before
    missing = client.error("memory_health", {})
    assert "\n" not in missing and "health" in missing


def test_the_specs_write_flow_end_to_end(client: Client, root: Path) -> None:
    client.ok("memory_browse", {"query": "cache eviction policy"})
    searched = client.ok("memory_search", {"query": "cache eviction",
                                           "queries": ["evict stale entries"]})
    assert len(searched["resultsByQuery"]) == 2
    content = ("---\ndescription: How the read cache evicts entries.\ntype: reference\n---\n"
               "# Cache eviction policy\n\nLeast recently used, capped at 512 entries.\n\n"
               "## Limits\n\nThe cap is 512 entries per worker.\n")
    written = client.ok("memory_write", {"path": "wiki/synthesis/cache-eviction-policy.md",
                                         "content": content, "title": "Cache eviction policy",
                                         "parentHubPath": "wiki/synthesis/index.md",
                                         "relation": "child-of"})
    assert written["ok"] and written["action"] == "created", written
    path = written["path"]
    assert path.startswith("wiki/synthesis/") and path.endswith("__cache-eviction-policy.md")
    assert written["revision"].startswith("sha256:")
    again = client.ok("memory_write", {"path": path, "op": "rewrite-section", "section": "limits",
                                       "content": "## Limits\n\nThe cap is 1024 entries per worker.\n",
                                       "title": "Cache eviction policy"})
    assert again["ok"] and again["path"] == path and again["revision"] != written["revision"], again
    loaded = client.ok("memory_load", {"path": path, "section": "limits"})
    assert "1024 entries" in loaded["body"]
    whole = client.ok("memory_load", {"path": path})
    assert "512 entries per worker" in whole["body"]  # the old text kept as superseded
    assert whole["frontmatter"]["type"] == "reference"
    assert re.search(r"memory_write over MCP by \w", json.dumps(whole["frontmatter"]["memory"]))
    hits = client.ok("memory_search", {"query": "1024 entries"})["resultsByQuery"][0]["hits"]
    assert hits and hits[0]["path"] == path
    hub = client.ok("memory_browse", {})["root"]
    synthesis = next(h for h in hub["hubsByRecent"] if h["path"] == "wiki/synthesis/index.md")
    assert synthesis["updatedAt"] >= whole["frontmatter"]["updated_at"]


def test_the_gate_rejects_with_its_codes(client: Client) -> None:
    orphan = client.ok("memory_write", {"path": "wiki/synthesis/orphan-note.md",
                                        "content": "---\ndescription: An orphan.\n---\nText.\n"})
    assert not orphan["ok"] and orphan["code"] == "placement_required"
    assert orphan["field"] == "parentHubPath" and "wiki/synthesis/index.md" in orphan["message"]
    secret = client.ok("memory_write", {
        "path": "wiki/synthesis/deploy-key.md", "parentHubPath": "wiki/synthesis",
        "content": "---\ndescription: The deploy key.\n---\n"
                   "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ9a2LkT8d\n"})
    assert not secret["ok"] and secret["code"] == "secret_detected"
    replace = client.ok("memory_write", {"path": SYNTHESIS, "content": "# New\n\nAll new.\n"})
    assert not replace["ok"] and replace["field"] == "op"


def test_curate_supersedes_a_section_and_links_through_the_writer(client: Client, root: Path) -> None:
    linked = client.ok("memory_curate", {"op": "link", "pageId": SYNTHESIS, "kind": "derived-from",
                                         "toPath": "wiki/sources/index.md"})
    assert linked["status"] == "success" and SYNTHESIS in [a["path"] for a in linked["artifacts"]]
    loaded = client.ok("memory_load", {"path": SYNTHESIS})
    assert {"rel": "derived-from", "path": "wiki/sources/index.md", "exists": True} in loaded["linksOut"]
    client.ok("memory_curate", {"op": "unlink", "pageId": SYNTHESIS,
                                "linkId": "derived-from:wiki/sources/index.md"})
    assert "derived_from" not in client.ok("memory_load", {"path": SYNTHESIS})["frontmatter"]
    assert "not used" in client.error("memory_curate", {"op": "link", "pageId": SYNTHESIS,
                                                        "childPaths": ["a.md"]})
    assert "has no section #nowhere" in client.error("memory_curate", {
        "op": "link", "pageId": SYNTHESIS, "kind": "derived-from", "toPath": SYNTHESIS,
        "toSection": "nowhere"})
    assert "over limit 1" in client.error("memory_curate", {
        "op": "reparent", "pageId": "wiki/synthesis", "childPaths": [SYNTHESIS], "limit": 1})
    moved = client.ok("memory_curate", {"op": "reparent", "pageId": "wiki/synthesis",
                                        "childPaths": [SYNTHESIS]})
    assert moved["status"] == "success"
    assert client.ok("memory_load", {"path": SYNTHESIS})["frontmatter"]["child_of"] == [
        "wiki/synthesis/index.md"]
    assert "not a hub" in client.error("memory_curate", {"op": "reparent", "pageId": SYNTHESIS,
                                                         "childPaths": [SYNTHESIS]})


def test_hostile_calls_are_one_line_errors_and_the_server_stays_up(client: Client, root: Path) -> None:
    hostile: list[tuple[str, dict[str, Any]]] = [
        ("memory_search", {"query": "x", "nope": 1}),
        ("memory_search", {"query": 5}),
        ("memory_search", {"query": "x", "limit": "many"}),
        ("memory_search", {"query": "x", "limit": 0}),
        ("memory_search", {"query": "q" * 10_000}),
        ("memory_search", {"query": ""}),
        ("memory_search", {}),
        ("memory_load", {"path": "../../etc/passwd"}),
        ("memory_load", {"path": "/etc/passwd.md"}),
        ("memory_load", {"uri": "file:///etc/passwd"}),
        ("memory_load", {}),
        ("memory_load", {"path": SYNTHESIS, "section": "no-such"}),
        ("memory_browse", {"query": "w " * 5_000}),
        ("memory_show", {"entity": "no such entity zz"}),
        ("memory_retrieve", {"task": "x", "budget_tokens": 10}),
        ("memory_health", {"kind": "bogus"}),
        ("memory_ingest", {"paths": ["/etc/hostname"]}),
        ("memory_write", {"path": "wiki/x.md"}),
        ("memory_write", {"path": "../escape.md", "content": "x", "op": "append-section",
                          "section": "a"}),
        ("memory_write", {"path": "wiki/x.md", "content": "x", "op": "delete"}),
        ("memory_curate", {"op": "supersede", "pageId": "../../etc/passwd",
                           "supersededByPageId": SYNTHESIS}),
        ("memory_curate", {"op": "drop"}),
        ("no_such_tool", {}),
    ]
    for n in range(200):
        name, args = hostile[n % len(hostile)]
        result = client.call(name, args)
        text = result.content[0].text
        if result.is_error:
            assert "\n" not in text and "Traceback" not in text, (name, text)
        else:  # the gate's verdict is an answer, not an error
            assert result.structured_content["ok"] is False, (name, text)
    huge = client.error("memory_write", {"path": "wiki/synthesis/huge.md", "parentHubPath":
                                         "wiki/synthesis", "content": "a" * 10_000_000})
    assert "over the" in huge and "\n" not in huge
    assert client.ok("memory_search", {"query": "third retry"})["resultsByQuery"][0]["hits"]
    assert not list((root / "wiki").rglob("*huge*"))


def test_ingest_only_under_allowed_folders_and_a_cli_ingest_is_seen(client: Client, root: Path) -> None:
    outside = root.parent / "outside.md"
    outside.write_text("# Outside\n\nThe narwhal protocol.\n")
    assert "not under a folder" in client.error("memory_ingest", {"paths": [str(outside)]})
    beside = root.parent / "beside.md"
    beside.write_text("# Capybara runbook\n\nRestart the capybara gateway with care.\n")
    done = subprocess.run([MEMBANK, "ingest", str(beside), "--root", str(root), "--no-distill"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    hits = client.ok("memory_search", {"query": "capybara gateway"})["resultsByQuery"][0]["hits"]
    assert hits and hits[0]["path"].endswith("__beside.md")


def test_resources_and_prompt(client: Client) -> None:
    digest = client.run(client.session.read_resource("memory://map"))
    text = digest.contents[0].text
    assert text.startswith("# Memory Map") and "wiki/synthesis/index.md" in text
    page = client.run(client.session.read_resource(f"memory://page/{SYNTHESIS}"))
    assert "## Evidence" in page.contents[0].text
    prompt = client.run(client.session.get_prompt("memory_write_flow"))
    assert "parentHubPath" in prompt.messages[0].content.text


def test_a_non_loopback_bind_needs_a_token(root: Path) -> None:
    env = {k: v for k, v in __import__("os").environ.items() if k != "MEMBANK_MCP_TOKEN"}
    done = subprocess.run([MEMBANK, "mcp", "--root", str(root), "--transport", "http",
                           "--host", "0.0.0.0"], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 2
    assert "MEMBANK_MCP_TOKEN" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_streamable_http_with_a_bearer_token(root: Path) -> None:
    import os
    import socket
    import time

    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "MEMBANK_MCP_TOKEN": "s3cret-token"}
    server = subprocess.Popen([MEMBANK, "mcp", "--root", str(root), "--transport", "http",
                               "--port", str(port)], env=env, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        for _ in range(150):
            try:
                refused = httpx2.post(url, json={}, timeout=2)
                break
            except httpx2.TransportError:
                time.sleep(0.1)
        assert refused.status_code == 401

        async def search() -> list[str]:
            headers = {"Authorization": "Bearer s3cret-token"}
            async with httpx2.AsyncClient(headers=headers, timeout=60) as http, \
                    streamable_http_client(url, http_client=http) as (read, write, *_), \
                    ClientSession(read, write) as session:
                await session.initialize()
                answer = await session.call_tool("memory_search", {"query": "third retry"})
                return [h["path"] for h in answer.structured_content["resultsByQuery"][0]["hits"]]

        assert asyncio.run(search())[0] == SYNTHESIS
    finally:
        server.terminate()
        server.wait(10)


def test_json_lists_the_tools_without_serving(root: Path) -> None:
    listed = cli_json("mcp", "--root", str(root))
    names = [tool["name"] for tool in listed["tools"]]
    assert names[:3] == ["memory_browse", "memory_search", "memory_load"]
    assert "memory_curate" in names and all(t["outputSchema"] for t in listed["tools"])
    assert "memory_browse" in runner.invoke(app, ["mcp", "--help"]).output


_MMAP_PROBE = """
import ctypes, sys
from flows.mcp.server import pin_mmap_threshold
class Info(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in
                "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split()]
libc = ctypes.CDLL(None)
libc.mallinfo2.restype, libc.malloc.restype = Info, ctypes.c_void_p
libc.free.argtypes = [ctypes.c_void_p]
pinned = pin_mmap_threshold() if sys.argv[1] == "pin" else False
libc.free(libc.malloc(4 << 20))  # (unpinned, glibc now serves up to 4 MiB from its heap)
before = libc.mallinfo2().hblks
block = libc.malloc(1 << 20)
print(pinned, libc.mallinfo2().hblks - before)
"""


@pytest.mark.skipif(__import__("platform").libc_ver()[0] != "glibc", reason="glibc's malloc")
def test_the_server_keeps_large_blocks_out_of_its_heap() -> None:
    """pin_mmap_threshold (called before serving): a 1 MiB block freed later is a mapping of
    its own, returned to the system, even after a larger block was freed (glibc would
    otherwise raise its threshold and serve it from the heap, where it stays)."""
    # glibc's own defaults: a MALLOC_* variable another library left in this process's
    # environment (dask's nanny sets MALLOC_TRIM_THRESHOLD_) turns its threshold moves off
    env = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}

    def probe(mode: str) -> list[str]:
        return subprocess.run([sys.executable, "-c", _MMAP_PROBE, mode], capture_output=True,
                              text=True, check=True, cwd=REPO_ROOT, env=env).stdout.split()

    assert probe("pin") == ["True", "1"]
    assert probe("no") == ["False", "0"]

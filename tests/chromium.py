"""Headless Chromium driven over the Chrome DevTools Protocol, for browser tests.

Debian's `chromium` package, started offline (no background networking, no component
updates, a fresh profile); the protocol spoken through `websockets` (its sync client), so no
browser download is ever needed.
"""

from __future__ import annotations

import itertools
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson
from websockets.sync.client import ClientConnection, connect

CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--no-default-browser-check", "--remote-debugging-port=0", "--remote-allow-origins=*")


def chromium_binary() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        raise AssertionError("headless Chromium is missing: apt-get install -y chromium "
                             "(.ci/run installs it when missing)")
    return found


class Page:
    """One page target: send commands, collect the events they cause."""

    def __init__(self, socket: ClientConnection) -> None:
        self._socket = socket
        self._ids = itertools.count(1)
        self.events: list[dict[str, Any]] = []

    def send(self, method: str, timeout: float = 30, **params: Any) -> dict[str, Any]:
        message_id = next(self._ids)
        self._socket.send(orjson.dumps({"id": message_id, "method": method, "params": params}).decode())
        deadline = time.monotonic() + timeout
        while True:
            message = self._receive(deadline, method)
            if message.get("id") == message_id:
                if "error" in message:
                    raise AssertionError(f"{method}: {message['error']}")
                return message.get("result", {})

    def wait_for(self, event: str, timeout: float = 30) -> dict[str, Any]:
        for seen in self.events:
            if seen["method"] == event:
                return seen
        deadline = time.monotonic() + timeout
        while True:
            message = self._receive(deadline, event)
            if message.get("method") == event:
                return message

    def evaluate(self, expression: str) -> Any:
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True,
                           awaitPromise=True)
        if "exceptionDetails" in result:
            raise AssertionError(f"page script failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def _receive(self, deadline: float, waiting_for: str) -> dict[str, Any]:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError(f"Chromium did not answer {waiting_for} in time")
        message = orjson.loads(self._socket.recv(timeout=remaining))
        if "method" in message:
            self.events.append(message)
        return message


def _debugging_port(profile: Path, process: subprocess.Popen[bytes], timeout: float = 30) -> int:
    marker = profile / "DevToolsActivePort"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if marker.exists() and marker.read_text().strip():
            return int(marker.read_text().split()[0])
        if process.poll() is not None:
            raise AssertionError(f"Chromium exited with {process.returncode} before listening")
        time.sleep(0.05)
    raise AssertionError("Chromium did not open its debugging port in time")


def _page_socket_url(port: int, timeout: float = 10) -> str:
    from urllib.request import urlopen

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with urlopen(f"http://127.0.0.1:{port}/json/list", timeout=5) as answer:  # loopback only
            targets = orjson.loads(answer.read())
        pages = [t for t in targets if t.get("type") == "page"]
        if pages:
            return pages[0]["webSocketDebuggerUrl"]
        time.sleep(0.05)
    raise AssertionError("Chromium opened no page target")


@contextmanager
def headless_page(profile: Path) -> Iterator[Page]:
    """A blank page of a fresh headless Chromium whose profile lives in `profile`."""
    profile.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen([chromium_binary(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
                                "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        port = _debugging_port(profile, process)
        with connect(_page_socket_url(port), max_size=None, open_timeout=10) as socket:
            yield Page(socket)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

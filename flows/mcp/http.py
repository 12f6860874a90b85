"""Streamable HTTP for `membank mcp --transport http`, with a bearer token when one is set."""

from __future__ import annotations

import hmac
from typing import Any

from flows.mcp.server import MembankServer


class BearerGate:
    """ASGI middleware: every HTTP request carries `Authorization: Bearer <token>`."""

    def __init__(self, app: Any, token: str) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or ()).get(b"authorization", b"")
            if not hmac.compare_digest(given, self.expected):
                await send({"type": "http.response.start", "status": 401,
                            "headers": [(b"content-type", b"text/plain"),
                                        (b"www-authenticate", b"Bearer")]})
                await send({"type": "http.response.body", "body": b"membank: bearer token required\n"})
                return
        await self.app(scope, receive, send)


def serve_http(server: MembankServer, *, host: str, port: int, token: str | None) -> None:
    import uvicorn

    app: Any = server.streamable_http_app(host=host)
    if token:
        app = BearerGate(app, token)
    uvicorn.run(app, host=host, port=port, log_level="warning")

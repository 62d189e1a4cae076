"""ASGI middleware in front of every route: security headers on every response, and for requests that
change state (POST, PUT, PATCH, DELETE) and WebSocket handshakes an Origin check; request bodies are
JSON only and refused by their Content-Length before they are read (a body without a length is cut
off at the limit)."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..settings import ServerSettings

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; media-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
OTHER_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()), *OTHER_HEADERS,
)
#: the calculator's offline scorer (js/score-worker.js, a Web Worker: its own response's policy is the
#: worker's) compiles Pyodide's WebAssembly, which needs 'wasm-unsafe-eval' (not 'unsafe-eval': no
#: string is run as JavaScript); no other response allows it
WASM_SCRIPT = re.compile(r"^/static/(r/[0-9a-f]+/)?js/score-worker\.js$")
WASM_CSP = CSP.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'")
WASM_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", WASM_CSP.encode()), *OTHER_HEADERS,
)
CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class BodyTooLarge(Exception):
    pass


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def origin_allowed(scope: Scope, allowed: frozenset[str]) -> bool:
    """No Origin (not a browser), or the page's own origin (same host as the request), or a listed one."""
    origin = _header(scope, b"origin")
    if origin is None:
        return True
    if origin.rstrip("/") in allowed:
        return True
    parts = urlsplit(origin)
    host = _header(scope, b"host")
    if parts.scheme not in ("http", "https") or not parts.netloc or host is None:
        return False
    return parts.netloc.lower() == host.lower()


async def _answer(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send({
        "type": "http.response.start", "status": status,
        "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"), *SECURITY_HEADERS],
    })
    await send({"type": "http.response.body", "body": body})


#: the scope key of the server's own ``send`` of a WebSocket (uvicorn's, before the framework's wrappers):
#: the table's writers queue their many messages straight to it (app.py)
RAW_SEND = "sgmahjong.raw_send"


class GuardMiddleware:
    """Headers, Origin, content type and body size (see the module docstring)."""

    def __init__(self, app: ASGIApp, settings: ServerSettings) -> None:
        self.app = app
        self.max_body = settings.max_body
        self.allowed = frozenset(o.rstrip("/") for o in settings.allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if not origin_allowed(scope, self.allowed):
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": 1008, "reason": "foreign origin"})
                return
            scope[RAW_SEND] = send
            try:
                await self.app(scope, receive, send)
            finally:  # the protocol holds the scope: a cycle kept its closed connection until a gc pass
                scope.pop(RAW_SEND, None)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        security = WASM_HEADERS if WASM_SCRIPT.match(scope["path"]) else SECURITY_HEADERS

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *security]}
            await send(message)

        if scope["method"] not in CHANGING:
            await self.app(scope, receive, send_with_headers)
            return
        if not origin_allowed(scope, self.allowed):
            await _answer(send, 403, "requests from another site's pages are refused")
            return
        ctype = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
        length = _header(scope, b"content-length")
        if length is not None:
            if not length.isdigit():
                await _answer(send, 400, "bad Content-Length")
                return
            if int(length) > self.max_body:
                await _answer(send, 413, f"request body larger than {self.max_body} bytes")
                return
        if ctype != "application/json" and not (length == "0" and not ctype):
            await _answer(send, 415, "request bodies are JSON: send Content-Type: application/json")
            return
        seen = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise BodyTooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send_with_headers(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge:
            if not started:
                await _answer(send, 413, f"request body larger than {self.max_body} bytes")


def json_depth_ok(value: Any, limit: int) -> bool:
    """Whether ``value`` (parsed JSON) nests at most ``limit`` arrays/objects deep."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return False
            children = item.values() if isinstance(item, dict) else item
            stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    return True

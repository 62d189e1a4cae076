"""A push service for the tests: an HTTP server on 127.0.0.1 that takes the server's Web Push POSTs,
checks each one's VAPID Authorization (RFC 8292: an ES256 JWT signed by the key the server serves, its
``aud`` this endpoint's origin) and decrypts its aes128gcm body (RFC 8291) with the subscription's
private key, as a browser's push service and the browser would. A path can be told to answer 410."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece  # type: ignore[import-untyped]
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """A browser's side of a subscription: its P-256 key and auth secret (what PushManager makes)."""

    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        return b64url(self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                         serialization.PublicFormat.UncompressedPoint))

    def subscription(self, endpoint: str) -> dict[str, Any]:
        return {"endpoint": endpoint, "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth)}}


@dataclass
class Received:
    path: str
    vapid_key: str  # the k= of the Authorization header
    claims: dict[str, Any]
    body: bytes  # encrypted
    headers: dict[str, str]  # by lower-case name


def check_vapid(authorization: str, served_key: str) -> tuple[str, dict[str, Any]]:
    """The claims of a ``vapid t=JWT, k=KEY`` header, its signature checked against ``served_key``."""
    assert authorization.startswith("vapid "), authorization
    parts = dict(p.strip().split("=", 1) for p in authorization[len("vapid "):].split(","))
    token, key = parts["t"], parts["k"]
    assert key == served_key, "the JWT is not of the server's served key"
    head, claims, signature = token.split(".")
    assert json.loads(unb64url(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    assert len(raw) == 64
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
    try:
        public.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                      f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise AssertionError("the VAPID JWT's signature is wrong") from None
    return key, json.loads(unb64url(claims))


def decrypt(body: bytes, browser: Browser) -> dict[str, Any]:
    plain = http_ece.decrypt(body, private_key=browser.key, auth_secret=browser.auth, version="aes128gcm")
    return json.loads(plain.decode())  # type: ignore[no-any-return]


class PushEndpoint:
    """``with PushEndpoint() as push:`` a push service on a free port; ``push.url(name)`` an endpoint;
    ``push.wait(n)`` the first ``n`` POSTs (waits for them)."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.gone: set[str] = set()  # paths answered 410
        self._cond = threading.Condition()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                auth = self.headers.get("Authorization", "")
                parts = dict(p.strip().split("=", 1) for p in auth[len("vapid "):].split(",") if "=" in p)
                claims = json.loads(unb64url(parts["t"].split(".")[1])) if "t" in parts else {}
                headers = {k.lower(): v for k, v in self.headers.items()}
                got = Received(self.path, parts.get("k", ""), claims, body, headers)
                self.send_response(410 if self.path in outer.gone else 201)
                self.send_header("Content-Length", "0")
                self.end_headers()
                with outer._cond:
                    outer.received.append(got)
                    outer._cond.notify_all()

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.origin = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def url(self, name: str) -> str:
        return f"{self.origin}/push/{name}"

    def wait(self, n: int, path: str | None = None, timeout: float = 30) -> list[Received]:
        """The POSTs (to ``path`` alone, if given) once there are ``n`` of them."""
        end = time.monotonic() + timeout
        with self._cond:
            while True:
                got = [r for r in self.received if path is None or r.path == path]
                if len(got) >= n:
                    return got
                left = end - time.monotonic()
                assert left > 0, f"{len(got)} push messages of {n} arrived"
                self._cond.wait(left)

    def __enter__(self) -> PushEndpoint:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

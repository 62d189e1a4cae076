"""What a table page transfers, cold and warm, in English and 中文 (docs/delivery.md).

    .venv/bin/python -m bench transfer

Counted at the server (every HTTP response's headers and body as sent, compressed; the WebSocket left
out), for a table in play seen by a new browser (Debian's Chromium, a fresh profile):

* cold, page only: the first visit with service workers blocked (what the page itself needs);
* cold, with the service worker: the first visit, then the worker's install (its precache: the other
  pages' modules, the other language's strings; what the HTTP cache already holds is not fetched again);
* warm: the second visit (the pages, modules and fonts come from the worker's cache).

The issue's bar: cold ≤ 150 KB in English and ≤ 250 KB in 中文, warm ≤ 10 KB.
"""

from __future__ import annotations

import socket
import threading
import time
from collections import defaultdict
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

BARS = {"en": 150_000, "zh": 250_000}
WARM_BAR = 10_000


class Counting:
    """ASGI middleware adding up the bytes of every HTTP response (status line and headers too)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.lock = threading.Lock()
        self.by_path: dict[str, int] = defaultdict(int)

    def reset(self) -> None:
        with self.lock:
            self.by_path.clear()

    def total(self) -> int:
        with self.lock:
            return sum(self.by_path.values())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]

        async def counted(message: Message) -> None:
            size = 0
            if message["type"] == "http.response.start":
                size = 17 + sum(len(k) + len(v) + 4 for k, v in message.get("headers", ())) + 2
            elif message["type"] == "http.response.body":
                size = len(message.get("body", b""))
            with self.lock:
                self.by_path[path] += size
            await send(message)

        await self.app(scope, receive, counted)


def _visit(context: Any, url: str, counter: Counting, *, install: bool = False) -> int:
    """The bytes of one visit to ``url`` (with ``install``, until the service worker is active too)."""
    counter.reset()
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("body[data-connected='true']", timeout=30_000)
    if install:
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_load_state("networkidle")
    if install:
        time.sleep(0.5)
    page.close()
    return counter.total()


def main() -> None:
    import tempfile
    from pathlib import Path

    from playwright.sync_api import sync_playwright

    from bench.bench_lighthouse import IN_PLAY
    from sgmahjong.server import create_app
    from sgmahjong.server.settings import ServerSettings
    from tests.conftest import CHROMIUM, CHROMIUM_ARGS, _Thread, free_port

    with tempfile.TemporaryDirectory(prefix="sgmj-transfer-") as tmp:
        settings = ServerSettings()
        counter = Counting(create_app(str(Path(tmp) / "t.sqlite3"), test_hooks=True, settings=settings))
        port = free_port()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
        runner = _Thread(counter, sock, settings)
        base = f"http://127.0.0.1:{port}"
        try:
            import httpx

            answer = httpx.post(f"{base}/api/play", json={"name": "Ann", "seed": 5, "options": IN_PLAY})
            url = f"{base}/t/{answer.json()['code']}"
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                try:
                    for lang in ("en", "zh"):
                        init = f"localStorage.setItem('sgmahjong:lang', '{lang}')"
                        blocked = browser.new_context(service_workers="block", locale=lang)
                        blocked.add_init_script(init)
                        page_only = _visit(blocked, url, counter)
                        top = sorted(counter.by_path.items(), key=lambda kv: -kv[1])[:6]
                        blocked.close()
                        context = browser.new_context(locale=lang)
                        context.add_init_script(init)
                        with_sw = _visit(context, url, counter, install=True)
                        warm = _visit(context, url, counter)
                        warm_paths = dict(counter.by_path)
                        context.close()
                        bar = BARS[lang]
                        print(f"   {lang}: cold, page only {page_only / 1000:6.1f} KB (bar {bar // 1000} KB:"
                              f" {'ok' if page_only <= bar else 'OVER'}); cold with the service worker's"
                              f" install {with_sw / 1000:6.1f} KB; warm {warm / 1000:5.1f} KB"
                              f" (bar {WARM_BAR // 1000} KB: {'ok' if warm <= WARM_BAR else 'OVER'})")
                        print("       largest cold: " + ", ".join(f"{k.rsplit('/', 1)[-1]} {v / 1000:.1f}"
                                                               for k, v in top))
                        warm_list = ", ".join(f"{k} {v / 1000:.1f}" for k, v in warm_paths.items())
                        print(f"       warm: {warm_list}")
                finally:
                    browser.close()
        finally:
            runner.stop()


if __name__ == "__main__":
    main()

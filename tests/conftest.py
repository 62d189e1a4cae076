"""Shared fixtures: a live server (uvicorn in a background thread) for server and browser tests.

``live_server`` is the base URL (a ``str``, e.g. ``http://127.0.0.1:53211``) with helpers:

* ``live_server.create_table(name="Test", *, seed=None, wall=None, rules=None, options=None,
  preset=None, private=False) -> dict`` (the ``POST /api/tables`` answer: ``code``, ``url``, ``table``);
  ``seed`` fixes the first hand's shuffle, ``wall`` stacks it (148 tiles in draw order). Options
  default to ``FAST_OPTIONS`` (no bot delay, no timers) unless given.
  ``stacked_wall(E="...", S="...", draws="...")`` (below) builds a ``wall``.
* ``live_server.join(code, name, seat=None, cookie=None) -> dict`` (``seat``, ``token``, ``cookie``: the
  session of the new visitor who took it, or of ``cookie``),
* ``live_server.post(path, body, cookie=None)``, ``live_server.get(path, cookie=None)``,
* ``live_server.ws(code, cookie=None) -> WsClient`` (a synchronous WebSocket client, see below; a hello
  with a seat token sends the session of the player who took that seat),
* ``live_server.ws_url``, ``live_server.database`` (the SQLite file), ``live_server.restart()``
  (stop and start a new application on the same database and port: what a process restart does),
  ``live_server.settings`` (the server's :class:`ServerSettings`; ``LiveServer(..., settings=...)``).

Test hooks (seed/wall) are on for this server only.
"""

from __future__ import annotations

import collections
import json
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, settings

from tests.exit_watchdog import pytest_unconfigure  # noqa: F401  (a finished run must end)
from tests.seat_registry import SEAT_COOKIES

# Property tests check what holds, never how fast: no deadline per example and no "too slow" health
# check, which a loaded CI machine would otherwise trip at random.
settings.register_profile(
    "sgmahjong", deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example]
)
settings.load_profile("sgmahjong")

FAST_OPTIONS: dict[str, Any] = {
    "bot_delay": 0, "turn_seconds": 0, "claim_seconds": 0, "next_hand_seconds": 0, "takeover_seconds": 0,
    "claim_pause": 0,
}


# SEAT_COOKIES: seat token -> the session cookie of the player who took the seat (a seat is its
# player's: a socket opens it with that player's session). Filled by :func:`remember_seat` from every
# answer that seats someone; :meth:`WsClient.hello` sends the cookie of the token it is given.


def session_cookie(response: httpx.Response) -> str | None:
    """The ``Cookie`` header value of the session an answer set, if it set one."""
    value = response.cookies.get("sg_session")
    return None if value is None else f"sg_session={value}"


def remember_seat(response: httpx.Response, cookie: str | None = None) -> None:
    """Note the session (set by the answer, else ``cookie``) of a seat token the answer holds."""
    try:
        body = response.json()
    except ValueError:
        return
    token = body.get("token") if isinstance(body, dict) else None
    cookie = session_cookie(response) or cookie
    if isinstance(token, str) and cookie is not None:
        SEAT_COOKIES[token] = cookie


def give_seat_session(context: Any, base: str, token: str) -> None:
    """A browser context gets the session of the player who took the seat of ``token`` (a seat opens
    with its player's session: a token alone opens nothing)."""
    cookie = SEAT_COOKIES[token]
    context.add_cookies([{"name": "sg_session", "value": cookie.split("=", 1)[1], "url": base}])


class WsClient:
    """A blocking WebSocket client speaking the JSON protocol. ``view`` and ``delta`` messages come
    out expanded as a browser's viewstate.js does it: their ``event`` messages, then the whole ``view``
    (``raw`` keeps the messages as received). ``headers``: sent with the handshake (a proxy's
    ``X-Forwarded-For``); ``cookie``: a session's ``Cookie``.

    It connects at its first message: with ``cookie`` if given, else, when that message is a hello with
    a token, with the session of the player who took that seat (:data:`SEAT_COOKIES`)."""

    def __init__(self, url: str, headers: dict[str, str] | None = None, cookie: str | None = None) -> None:
        from sgmahjong.server.table.deltas import ClientViews

        self.url = url
        self.cookie = cookie
        self.headers = dict(headers or {})
        self._conn: Any = None
        self.seen: list[dict[str, Any]] = []
        self.raw: list[dict[str, Any]] = []
        self.views = ClientViews()
        self._pending: collections.deque[dict[str, Any]] = collections.deque()

    @property
    def conn(self) -> Any:
        if self._conn is None:
            from websockets.sync.client import connect

            headers = {**self.headers, "Cookie": self.cookie} if self.cookie else self.headers or None
            self._conn = connect(self.url, open_timeout=10, max_size=1 << 22, proxy=None, legacy=True,
                                 additional_headers=headers)
        return self._conn

    def send(self, message: dict[str, Any] | str | bytes) -> None:
        if isinstance(message, dict):
            if self._conn is None and self.cookie is None and message.get("type") == "hello":
                self.cookie = SEAT_COOKIES.get(str(message.get("token")))
            message = json.dumps(message)
        self.conn.send(message)

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        while not self._pending:
            data = json.loads(self.conn.recv(timeout=timeout))
            self.raw.append(data)
            self._pending.extend(self.views.expand(data))
        message = self._pending.popleft()
        self.seen.append(message)
        return message

    def until(
        self, mtype: str, pred: Callable[[dict[str, Any]], bool] | None = None, timeout: float = 20
    ) -> dict[str, Any]:
        """The next message of ``mtype`` (satisfying ``pred``), skipping others."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {mtype!r} message within {timeout}s")
            msg = self.recv(timeout=left)
            if msg.get("type") == mtype and (pred is None or pred(msg)):
                return msg

    def settle(self, quiet: float = 0.5, timeout: float = 20) -> dict[str, Any]:
        """The last ``view`` message once none has come for ``quiet`` seconds (the table is waiting
        for a human: a seat's view alone cannot tell, since a claim window names only the viewer)."""
        end = time.monotonic() + timeout
        last: dict[str, Any] | None = None
        while time.monotonic() < end:
            try:
                msg = self.recv(timeout=quiet)
            except TimeoutError:
                if last is not None:
                    return last
                continue
            if msg.get("type") == "view":
                last = msg
        raise TimeoutError(f"views did not settle within {timeout}s")

    def hello(self, token: str | None) -> dict[str, Any]:
        self.send({"type": "hello", "token": token})
        return self.until("welcome")

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()

    def __enter__(self) -> WsClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Thread:
    def __init__(self, app: Any, sock: socket.socket, settings: Any) -> None:
        import uvicorn

        from sgmahjong.server.http.guard import uvicorn_options

        config = uvicorn.Config(app, log_level="warning", lifespan="on", **uvicorn_options(settings))
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]}, daemon=True)
        self.thread.start()
        end = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > end or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


class LiveServer(str):
    """The base URL of a running test server, with helpers (see the module docstring)."""

    database: str
    port: int
    test_hooks: bool
    settings: Any
    _runner: _Thread | None

    def __new__(
        cls, port: int, database: str, *, test_hooks: bool = True, settings: Any = None
    ) -> LiveServer:
        from sgmahjong.server.settings import ServerSettings

        self = super().__new__(cls, f"http://127.0.0.1:{port}")
        self.port = port
        self.database = database
        self.test_hooks = test_hooks
        self.settings = settings or ServerSettings()
        self._runner = None
        return self

    def __enter__(self) -> LiveServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        return str(self)

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        from sgmahjong.server import create_app

        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", self.port))
        app = create_app(self.database, test_hooks=self.test_hooks, settings=self.settings)
        self._runner = _Thread(app, sock, self.settings)

    def stop(self) -> None:
        if self._runner is not None:
            self._runner.stop()
            self._runner = None

    def restart(self) -> None:
        self.stop()
        self.start()

    # -- helpers ---------------------------------------------------------------------------------
    def post(self, path: str, body: Any, cookie: str | None = None) -> httpx.Response:
        """POST JSON (with a session ``cookie``, else as a new visitor); a seat it gets is noted."""
        headers = {"Cookie": cookie} if cookie else None
        r = httpx.post(self.url + path, json=body, timeout=10, headers=headers)
        remember_seat(r, cookie)
        return r

    def get(self, path: str, cookie: str | None = None) -> httpx.Response:
        return httpx.get(self.url + path, timeout=10, headers={"Cookie": cookie} if cookie else None)

    def create_table(
        self, name: str = "Test", *, seed: int | None = None, wall: str | None = None,
        rules: dict[str, Any] | None = None, options: dict[str, Any] | None = None,
        preset: str | None = None, private: bool = False,
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"name": name, "private": private,
                                "options": FAST_OPTIONS if options is None else options}
        if seed is not None:
            body["seed"] = seed
        if wall is not None:
            body["wall"] = wall
        if rules:
            body["rules"] = rules
        if preset:
            body["preset"] = preset
        r = self.post("/api/tables", body)
        assert r.status_code == 201, r.text
        return r.json()  # type: ignore[no-any-return]

    def join(self, code: str, name: str, seat: int | None = None,  # type: ignore[override]
             cookie: str | None = None) -> dict[str, Any]:
        """Take a seat as a new visitor (or the session ``cookie``): ``seat``, ``token`` and ``cookie``
        (the player's session). (It hides ``str.join``: LiveServer is the server's address.)"""
        body: dict[str, Any] = {"name": name}
        if seat is not None:
            body["seat"] = seat
        r = self.post(f"/api/tables/{code}/join", body, cookie)
        assert r.status_code == 200, r.text
        return {**r.json(), "cookie": session_cookie(r) or cookie}

    def ws(self, code: str, cookie: str | None = None) -> WsClient:
        return WsClient(f"{self.ws_url}/ws/{code}", cookie=cookie)


def stacked_wall(*, E: str = "", S: str = "", W: str = "", N: str = "", draws: str = "",
                 back: str = "") -> str:
    """A stacked wall (for ``create_table(wall=...)``) dealing these tiles to the seats (the rest of
    each hand is filled with quiet tiles), then ``draws`` from the front and ``back`` as replacement
    draws. East is the dealer (14 tiles)."""
    from sgmahjong.game.testing import stack_wall
    from sgmahjong.notation import parse_tiles

    def tiles(text: str) -> list[Any]:
        return parse_tiles(text) if text else []

    hands = {i: tiles(x) for i, x in enumerate((E, S, W, N)) if x}
    return " ".join(t.notation for t in stack_wall(hands, tiles(draws), tiles(back)))


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serving(database: Path | str, **kwargs: Any) -> LiveServer:
    """A test server on a free port for ``database`` (``with serving(...) as live:`` starts and stops
    it); ``kwargs`` as :class:`LiveServer` takes them (``settings=``, ``test_hooks=``)."""
    return LiveServer(free_port(), str(database), **kwargs)


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server on 127.0.0.1 (random free port) with a temporary SQLite file and test hooks on."""
    with serving(tmp_path / "test.sqlite3") as server:
        yield server


# -- the browser tests' Chromium (Debian's; never `playwright install`, it needs the internet) ------
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic",
]
# how long a page's navigation may take (ms) before a test fails: a page that loads in a second on a quiet
# machine can take tens of seconds on a busy 2-core one (CI installing packages, a long bench beside it),
# and Playwright's own default is 30 s; SGMJ_TEST_NAVIGATION_MS sets it
NAVIGATION_MS = int(os.environ.get("SGMJ_TEST_NAVIGATION_MS", "90000"))
# for page.evaluate: resolves once the page has drawn two more frames, so whatever was laid out before
# the call is painted (a state to wait for instead of a fixed time)
NEXT_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def click_and_see_the_table_move(page: Any, target: Any) -> None:
    """Click ``target`` (a Playwright locator) on a table page and wait until the table's view has
    moved on (the body's ``data-version`` changed): the action was taken."""
    from playwright.sync_api import expect

    seen = page.locator("body").get_attribute("data-version") or ""
    target.click()
    expect(page.locator("body")).not_to_have_attribute("data-version", seen)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium per test module (each test opens its own contexts)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield PatientBrowser(b)
        finally:
            b.close()


class PatientBrowser:
    """The browser a test gets: Playwright's, whose every new context (and the page of ``new_page``)
    waits up to :data:`NAVIGATION_MS` for a navigation."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)

    def new_context(self, **options: Any) -> Any:
        context = self._browser.new_context(**options)
        context.set_default_navigation_timeout(NAVIGATION_MS)
        return context

    def new_page(self, **options: Any) -> Any:
        page = self._browser.new_page(**options)
        page.set_default_navigation_timeout(NAVIGATION_MS)
        return page


@pytest.fixture
def open_page(browser: Any) -> Iterator[Any]:
    """open_page(size, lang=None, **context options) -> a page failing the test on a script error."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(size: dict[str, Any], lang: str | None = None, **extra: Any) -> Any:
        ctx = browser.new_context(**size, **extra)
        if lang:
            key = "'sgmahjong:lang'"
            ctx.add_init_script(f"localStorage.getItem({key}) || localStorage.setItem({key}, '{lang}')")
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    yield make
    for ctx in contexts:
        ctx.close()
    assert errors == []


# -- a real PostgreSQL (Debian's binaries, initdb into a temporary folder), once per test session --
@pytest.fixture(scope="session")
def postgres() -> Iterator[Any]:
    """A PostgreSQL server on a free 127.0.0.1 port (run as the postgres user when we are root)."""
    import shutil
    import tempfile

    from sgmahjong.server.cluster.local import LocalPostgres

    folder = tempfile.mkdtemp(prefix="sgmahjong-pg-")
    pg = LocalPostgres(folder)
    pg.start()
    try:
        yield pg
    finally:
        pg.stop()
        shutil.rmtree(folder, ignore_errors=True)


_databases = iter(range(1, 1_000_000))


@pytest.fixture
def postgres_url(postgres: Any) -> str:
    """The URL of a new, empty database on the session's PostgreSQL."""
    return str(postgres.create_database(f"test_{next(_databases)}"))


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new empty database of each backend in turn: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'test.sqlite3'}"
    return str(request.getfixturevalue("postgres_url"))

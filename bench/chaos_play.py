"""The chaos run's players (bench/chaos.py): scripted WebSocket clients through the proxy, on asyncio.

A :class:`HumanTable` is four seated clients that play one of their legal actions as soon as they are
awaited (a win when they can), say ``next`` between hands, and record every action of theirs the
server acknowledged: the ``action`` event naming their seat and action, which the server sends only
once the action is stored. A :class:`BotTable` is three bots and one scripted human who started it
(a table whose humans have all gone waits between hands for one to come back, by design). Every
socket reconnects when it drops (backoff 0.3 s doubling to 2 s, as the browser does) and says hello
with its token again. Each table notes when it last moved (a new version, or a new hand), for the
stall and gap figures. Each table's clients come from an address of their own (127.0.0.N: all on
this machine), so the per-address limits treat them as the separate households they stand for.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any, ClassVar

import httpx
from websockets.asyncio.client import connect

from sgmahjong.server.table.deltas import ClientViews

HUMAN_OPTIONS = {"turn_seconds": 15, "claim_seconds": 8, "claim_pause": 0.3, "next_hand_seconds": 3,
                 "takeover_seconds": 600, "bot_delay": 0.3}
BOT_OPTIONS = {"turn_seconds": 15, "claim_seconds": 8, "claim_pause": 0.3, "next_hand_seconds": 3,
               "takeover_seconds": 600, "bot_delay": 0.4, "bot_level": "greedy"}


@dataclass
class Acked:
    """An action the server acknowledged to the seat that played it."""

    code: str
    hand: int
    seat: int
    action: str
    version: int  # of the event (the stored action's version is this, or one less)


@dataclass
class Progress:
    """When a table moved: (monotonic time, hand, version) of each step any of its clients saw."""

    code: str
    kind: str
    deadline: float  # the table's longest timer: it must move within this (plus slack) whatever happens
    steps: list[float] = field(default_factory=list)
    last: tuple[int, int] = (-1, -1)
    finished: bool = False

    def saw(self, hand: int, version: int) -> None:
        if (hand, version) > self.last:
            self.last = (hand, version)
            self.steps.append(time.monotonic())


class Seat:
    """One socket of a table (a seated player with ``token``, or a spectator with None)."""

    def __init__(self, table: Table, seat: int | None, token: str | None, rng: random.Random) -> None:
        self.table, self.seat, self.token, self.rng = table, seat, token, rng
        self.views = ClientViews()
        self.hand = 0
        self.sent_for: tuple[int, int] | None = None  # (hand, version) it last acted on
        self.reconnects = 0

    async def run(self, stop: asyncio.Event) -> None:
        backoff = 0.3
        while not stop.is_set() and not self.table.progress.finished:
            try:
                async with connect(self.table.ws_url, open_timeout=10, close_timeout=2,
                                   local_addr=(self.table.address, 0), max_size=1 << 22,
                                   additional_headers=self.table.session_of(self.token)) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": self.token}))
                    self.views, self.sent_for = ClientViews(), None
                    backoff = 0.3
                    await self.play(ws, stop)
            except Exception:  # any drop (closed, refused, timed out): reconnect
                pass
            if stop.is_set() or self.table.progress.finished:
                return
            self.reconnects += 1
            await asyncio.sleep(backoff * (0.5 + self.rng.random()))
            backoff = min(2.0, backoff * 2)

    async def play(self, ws: Any, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=1.0)
            except TimeoutError:
                continue
            batch: list[dict[str, Any]] = []
            for msg in self.views.expand(json.loads(raw)):
                kind = msg.get("type")
                if kind == "event":
                    batch.append(msg)
                elif kind == "view":
                    await self.on_view(ws, msg, batch)
                    batch = []
                elif kind == "error" and msg.get("ref") == "action":
                    self.sent_for = None  # refused (stale, storage down...): act again on the next view

    async def on_view(self, ws: Any, msg: dict[str, Any], events: list[dict[str, Any]]) -> None:
        view, status = msg["view"], msg.get("status")
        hand = int(view.get("hand_number") or 0)
        starts = [i for i, e in enumerate(events) if e["event"].get("kind") == "hand_start"]
        for i, e in enumerate(events):
            ev = e["event"]
            if self.seat is not None and ev.get("seat") == self.seat and isinstance(ev.get("action"), str):
                in_hand = hand - 1 if starts and i < starts[-1] else hand
                acked = Acked(self.table.code, in_hand, self.seat, ev["action"], e["version"])
                self.table.acked.append(acked)
        self.table.progress.saw(hand, int(view.get("version", 0)))
        if status == "finished" or view.get("match_finished"):
            self.table.progress.finished = True
            return
        if self.seat is None:
            return
        if status == "between_hands":
            if self.sent_for != (hand, -1):
                self.sent_for = (hand, -1)
                await ws.send(json.dumps({"type": "next"}))
            return
        legal = view.get("legal_actions") or []
        key = (hand, int(view["version"]))
        if self.seat not in view.get("awaiting", []) or not legal or self.sent_for == key:
            return
        wins = [a for a in legal if a.startswith("win")]
        action = wins[0] if wins else self.rng.choice(legal)
        self.sent_for = key
        await ws.send(json.dumps({"type": "action", "action": action, "version": key[1]}))


class Table:
    """A table of the chaos run: created through the proxy by a client at ``address``."""

    kind = "table"
    options: ClassVar[dict[str, Any]] = {}

    def __init__(self, proxy: str, address: str, rng: random.Random) -> None:
        self.proxy, self.address, self.rng = proxy, address, rng
        self.code = ""
        self.cookies: dict[str, str] = {}  # seat token -> the session of the player who took it
        self.acked: list[Acked] = []
        self.seats: list[Seat] = []
        self.progress = Progress("", self.kind, max(float(self.options[k]) for k in
                                                    ("turn_seconds", "claim_seconds", "next_hand_seconds")))

    @property
    def ws_url(self) -> str:
        return self.proxy.replace("http://", "ws://") + f"/ws/{self.code}"

    def _http(self) -> httpx.Client:
        return httpx.Client(base_url=self.proxy, timeout=15,
                            transport=httpx.HTTPTransport(local_address=self.address, retries=3))

    def _create(self, web: httpx.Client) -> None:
        r = web.post("/api/tables", json={"name": f"chaos {self.kind}", "options": self.options})
        r.raise_for_status()
        self.code = self.progress.code = r.json()["code"]

    def _join(self, seat: int) -> str:
        """A player takes ``seat``: a visitor of their own (a session each, as four browsers)."""
        with self._http() as web:
            r = web.post(f"/api/tables/{self.code}/join", json={"name": f"P{seat}", "seat": seat})
            r.raise_for_status()
            token = str(r.json()["token"])
            self.cookies[token] = f"sg_session={r.cookies['sg_session']}"
        return token

    def session_of(self, token: str | None) -> dict[str, str] | None:
        """The handshake's headers of a seat's socket: its player's session (a spectator has none)."""
        cookie = self.cookies.get(token or "")
        return {"Cookie": cookie} if cookie else None

    async def _start(self, token: str) -> None:
        async with connect(self.ws_url, open_timeout=10, local_addr=(self.address, 0),
                           additional_headers=self.session_of(token)) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            await ws.send(json.dumps({"type": "start"}))
            while True:  # started once a view arrives
                msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=15))
                if msg.get("type") in ("view", "delta"):
                    return

    async def setup(self) -> None:
        raise NotImplementedError

    async def run(self, stop: asyncio.Event) -> None:
        await asyncio.gather(*(s.run(stop) for s in self.seats))


class HumanTable(Table):
    kind = "humans"
    options = HUMAN_OPTIONS

    async def setup(self) -> None:
        def make() -> list[str]:
            with self._http() as web:
                self._create(web)
            return [self._join(seat) for seat in range(4)]

        tokens = await asyncio.to_thread(make)
        self.seats = [Seat(self, i, t, random.Random(self.rng.random())) for i, t in enumerate(tokens)]
        await self._start(tokens[0])


class BotTable(Table):
    kind = "bots"
    options = BOT_OPTIONS

    async def setup(self) -> None:
        def make() -> str:
            with self._http() as web:
                self._create(web)
            return self._join(0)

        token = await asyncio.to_thread(make)
        await self._start(token)  # the other seats get bots
        self.seats = [Seat(self, 0, token, random.Random(self.rng.random()))]


async def keep_playing(tables: list[Table], make: Any, stop: asyncio.Event) -> None:
    """Run every table's clients until ``stop``; a table whose match finished is replaced by a new one
    of its kind (``make(kind)``), so the load stays the same."""
    running = {asyncio.ensure_future(t.run(stop)): t for t in tables}
    while running:
        done, _ = await asyncio.wait(running, timeout=1.0, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            table = running.pop(task)
            with contextlib.suppress(Exception):
                task.result()
            if not stop.is_set():
                fresh = await make(table.kind)
                tables.append(fresh)
                running[asyncio.ensure_future(fresh.run(stop))] = fresh

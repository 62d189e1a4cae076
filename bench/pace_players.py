"""The players of ``bench_pace_load``: a client process (asyncio + ``websockets``) opens several
"Play vs bots" tables (``POST /api/play`` at one pace, three bots at the table's default level) and
plays the one human seat of each over the WebSocket protocol (docs/protocol.md), acting at once as
``bench_pace``'s player does: a win when offered, a pass on every claim, else the rightmost tile (the
drawn tile when it may go, else the last tile in the hand's order).

Every human waits for the start signal before its first action (the tables wait on their dealer, the
human), so all tables begin once every one is set up, spread over ``STAGGER_SECONDS``. A table keeps
playing after its measured hands (the load stays the same) until the coordinator says stop. What the
process measures: the seconds between two of a human's turns within a hand (one turn's offer to the
next), and the seconds of each hand (its deal, or the human's start, to its result)."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import time
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any

from .server_players import PING_SECONDS, SETUP_CONCURRENCY, SeatState, _merge, _post

PROGRESS_SECONDS = 5.0
STAGGER_SECONDS = 2.0  # the humans start spread over this long (real tables do not move in step)


@dataclass
class PaceStats:
    gaps: list[float] = field(default_factory=list)  # seconds between two turns of one human, in one hand
    hands: list[float] = field(default_factory=list)  # seconds per measured hand
    tables_done: int = 0  # tables that played all their measured hands
    errors: int = 0
    failed: int = 0  # tables that could not be set up
    all_done: asyncio.Event = field(default_factory=asyncio.Event)


def choose(legal: list[str], drawn: str | None) -> str:
    """The bench player's action: win, else pass, else discard the rightmost tile."""
    if "win" in legal:
        return "win"
    if "pass" in legal:
        return "pass"
    discards = [a for a in legal if a.startswith("discard ")]
    if drawn is not None and f"discard {drawn}" in discards:
        return f"discard {drawn}"
    return discards[-1] if discards else legal[0]


class Human:
    """The one human seat of a table: reads its messages, acts at once, times its turns and hands."""

    def __init__(self, ws: Any, hands: int, stats: PaceStats, go: asyncio.Event, tables: int,
                 offset: float) -> None:
        self.ws, self.hands_wanted, self.stats, self.go, self.tables = ws, hands, stats, go, tables
        self.offset = offset  # seconds after the start signal this human starts
        self.state = SeatState()
        self.hand: int | None = None  # the hand in play
        self.hand_start = 0.0
        self.turns: list[float] = []
        self.ended: set[int] = set()
        self.measured = 0
        self.refused = False  # the server refused an action: decide again

    async def reader(self) -> None:
        st = self.state
        async for raw in self.ws:
            msg = json.loads(raw)
            kind = msg["type"]
            if kind in ("view", "delta"):
                _merge(st, msg)
                st.changed.set()
            elif kind == "table":
                st.status = msg["table"]["status"]
                st.changed.set()
            elif kind == "error":
                self.stats.errors += 1
                self.refused = True
                st.changed.set()

    async def pinger(self) -> None:
        while True:
            await asyncio.sleep(PING_SECONDS)
            await self.ws.send('{"type": "ping"}')

    async def decider(self) -> None:
        st = self.state
        await self.go.wait()
        await asyncio.sleep(self.offset)
        acted: tuple[int, tuple[str, ...]] | None = None
        while True:
            await st.changed.wait()
            st.changed.clear()
            v = st.view
            if v is None:
                continue
            now = time.monotonic()
            if self.refused:
                self.refused, acted = False, None
            number: int | None = v.get("hand_number")
            if st.status == "playing" and number != self.hand and number not in self.ended:
                self.hand, self.hand_start, self.turns = number, now, []
            legal = list(v.get("legal_actions") or ())
            uncounted = number not in self.ended  # the end of this hand is not yet counted
            if st.status == "playing" and legal and (v["version"], tuple(legal)) != acted:
                acted = (v["version"], tuple(legal))
                action = choose(legal, v["seats"][v["seat"]].get("drawn"))
                if action.startswith("discard "):
                    self.turns.append(now)
                await self.ws.send(json.dumps({"type": "action", "action": action, "version": v["version"]}))
            elif st.status in ("between_hands", "finished") and number is not None and number == self.hand \
                    and uncounted:
                self.ended.add(number)
                self._hand_over(now)
                if st.status == "between_hands":
                    await self.ws.send('{"type": "next"}')

    def _hand_over(self, now: float) -> None:
        if self.measured >= self.hands_wanted:
            return
        self.measured += 1
        self.stats.hands.append(now - self.hand_start)
        self.stats.gaps += [b - a for a, b in itertools.pairwise(self.turns)]
        if self.measured == self.hands_wanted:
            self.stats.tables_done += 1
            if self.stats.tables_done + self.stats.failed >= self.tables:
                self.stats.all_done.set()


async def _table(client: Any, base_ws: str, index: int, pace: str, hands: int, stats: PaceStats,
                 go: asyncio.Event, tables: int, sem: asyncio.Semaphore, tasks: list[asyncio.Task[None]],
                 sockets: list[Any], level: str | None) -> None:
    from websockets.asyncio.client import connect

    async with sem:
        try:
            body = {"name": f"Pace {index}", "options": {"pace": pace}, "seed": 1000 + index}
            answer = await _post(client, "/api/play", {**body, "level": level} if level else body)
            ws = await connect(f"{base_ws}/ws/{answer['code']}", max_size=1 << 22, proxy=None,
                               ping_interval=None, open_timeout=120,
                               additional_headers={"Cookie": answer["cookie"]})
        except Exception as exc:  # the machine's limit: counted, the others go on
            stats.failed += 1
            print(f"pace_players: table {index} not set up: {exc!r}", flush=True)
            return
        sockets.append(ws)
        await ws.send(json.dumps({"type": "hello", "token": answer["token"]}))
        human = Human(ws, hands, stats, go, tables, random.Random(index).uniform(0, STAGGER_SECONDS))
        tasks += [asyncio.create_task(human.reader()), asyncio.create_task(human.decider()),
                  asyncio.create_task(human.pinger())]


async def _play(url: str, indices: list[int], pace: str, hands: int, pipe: Any,
                level: str | None) -> PaceStats:
    """Set up the tables, say ``ready``, wait for the start, report progress, play until ``stop``."""
    import httpx

    loop = asyncio.get_running_loop()
    stats = PaceStats()
    go = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    sockets: list[Any] = []
    sem = asyncio.Semaphore(SETUP_CONCURRENCY)
    jar = CookieJar(DefaultCookiePolicy(allowed_domains=[]))  # each table a new visitor
    start = time.monotonic()
    async with httpx.AsyncClient(base_url=url, timeout=60, cookies=jar) as client:
        await asyncio.gather(*[_table(client, "ws" + url[4:], i, pace, hands, stats, go, len(indices), sem,
                                     tasks, sockets, level) for i in indices])
    pipe.send({"ready": len(sockets), "failed": stats.failed, "setup": time.monotonic() - start})
    await loop.run_in_executor(None, pipe.recv)  # the start signal
    go.set()
    stop = loop.run_in_executor(None, pipe.recv)
    if stats.failed >= len(indices):
        stats.all_done.set()
    done_said = False
    while not stop.done():
        await asyncio.wait([stop, asyncio.ensure_future(asyncio.sleep(PROGRESS_SECONDS))],
                           return_when=asyncio.FIRST_COMPLETED)
        pipe.send({"progress": {"tables_done": stats.tables_done, "hands": len(stats.hands),
                                "turns": len(stats.gaps), "errors": stats.errors}})
        if stats.all_done.is_set() and not done_said:
            pipe.send({"done": True})
            done_said = True
    for t in tasks:
        t.cancel()
    await asyncio.gather(*[ws.close() for ws in sockets], return_exceptions=True)
    return stats


def client_main(url: str, indices: list[int], pace: str, hands: int, pipe: Any,
                level: str | None = None) -> None:
    """A client process: play the tables ``indices`` at ``pace`` (bots of ``level``, None: the table's
    default), send the figures on ``pipe``."""
    try:
        import uvloop
        uvloop.install()
    except ImportError:
        pass
    cpu0 = time.process_time()
    stats = asyncio.run(_play(url, indices, pace, hands, pipe, level))
    pipe.send({"gaps": stats.gaps, "hands": stats.hands, "tables_done": stats.tables_done,
               "errors": stats.errors, "failed": stats.failed, "cpu": time.process_time() - cpu0})

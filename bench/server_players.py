"""The players of ``bench_server``: client processes (asyncio + ``websockets``), each setting up and
playing several tables of four WebSocket players, as browsers do (see bench_server's docstring)."""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any

OPTIONS = {
    "bot_delay": 0, "turn_seconds": 0, "claim_seconds": 0, "next_hand_seconds": 0,
    "takeover_seconds": 3600,
}
SETUP_CONCURRENCY = 16
PING_SECONDS = 25  # what static/js/protocol.js sends


# -- the players (one client process plays several tables) ------------------------------------------------

@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: int = 0
    hands: int = 0


@dataclass
class SeatState:
    view: dict[str, Any] | None = None
    status: str = "lobby"
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    sent: tuple[int, tuple[str, ...], float] | None = None  # (version, legal actions, when) of an action


def _merge(state: SeatState, msg: dict[str, Any]) -> None:
    """Apply a ``view`` (whole) or ``delta`` (changed keys; ``seats`` by index) message."""
    if "status" in msg:
        state.status = msg["status"]
    kind = msg["type"]
    if kind == "view":
        state.view = msg["view"]
    elif kind == "delta" and state.view is not None:
        changes = dict(msg["view"])
        seats = changes.pop("seats", None)
        state.view.update(changes)
        if seats:
            old = list(state.view["seats"])
            for i, s in seats.items():
                old[int(i)] = s
            state.view["seats"] = old


def _choose(rng: random.Random, legal: list[str]) -> str:
    if "win" in legal:
        return "win"
    if "pass" in legal and rng.random() < 0.85:
        return "pass"
    return rng.choice(legal)


class Player:
    def __init__(self, ws: Any, seat: int, think: float, stats: Stats, window: list[float],
                 rng: random.Random) -> None:
        self.ws, self.seat, self.think, self.rng = ws, seat, think, rng
        self.stats, self.window = stats, window
        self.state = SeatState()

    def _in_window(self, t: float) -> bool:
        return self.window[0] <= t < self.window[1]

    async def reader(self) -> None:
        st = self.state
        async for raw in self.ws:
            now = time.monotonic()
            msg = json.loads(raw)
            kind = msg["type"]
            if kind in ("view", "delta"):
                _merge(st, msg)
                v = st.view
                if st.sent is not None and v is not None and (
                    v["version"] != st.sent[0] or tuple(v.get("legal_actions") or ()) != st.sent[1]
                ):
                    if self._in_window(st.sent[2]):
                        self.stats.latencies.append(now - st.sent[2])
                        self.stats.actions += 1
                    st.sent = None
                st.changed.set()
            elif kind == "table":
                status = msg["table"]["status"]
                if status != st.status:
                    st.status = status
                    st.changed.set()
            elif kind == "error":
                self.stats.errors += 1
                st.sent = None
                st.changed.set()

    async def pinger(self) -> None:
        await asyncio.sleep(self.rng.uniform(0, PING_SECONDS))
        while True:
            await self.ws.send('{"type": "ping"}')
            await asyncio.sleep(PING_SECONDS)

    async def decider(self) -> None:
        st = self.state
        acted: int | None = None
        ready_for: int | None = None
        while True:
            await st.changed.wait()
            st.changed.clear()
            v = st.view
            if v is None or st.sent is not None:
                continue
            if st.status == "playing" and v.get("legal_actions") and v["version"] != acted:
                await asyncio.sleep(self.think)
                v = st.view
                assert v is not None
                legal = v.get("legal_actions") or []
                if st.status != "playing" or not legal or st.sent is not None:
                    st.changed.set()
                    continue
                acted = v["version"]
                st.sent = (v["version"], tuple(legal), time.monotonic())
                await self.ws.send(json.dumps(
                    {"type": "action", "action": _choose(self.rng, legal), "version": v["version"]}
                ))
            elif st.status == "between_hands" and ready_for != v.get("hand_number"):
                ready_for = v.get("hand_number")
                if self.seat == 0:
                    self.stats.hands += 1
                await asyncio.sleep(self.think)
                await self.ws.send('{"type": "next"}')
                st.changed.set()


async def _post(client: Any, path: str, body: dict[str, Any]) -> dict[str, Any]:
    import httpx

    for attempt in range(5):  # a kept-alive connection the server closed meanwhile: send it again
        try:
            r = await client.post(path, json=body)
            break
        except httpx.TransportError:
            if attempt == 4:
                raise
            await asyncio.sleep(0.2 * (attempt + 1))
    if r.status_code not in (200, 201):
        raise RuntimeError(f"{path}: {r.status_code} {r.text}")
    result: dict[str, Any] = r.json()
    if "sg_session" in r.cookies:  # the session of a new visitor (the client keeps no cookies)
        result["cookie"] = f"sg_session={r.cookies['sg_session']}"
    return result


async def _table(client: Any, base_ws: str, index: int, think: float, stats: Stats, window: list[float],
                 sem: asyncio.Semaphore, tasks: list[asyncio.Task[None]], sockets: list[Any]) -> None:
    from websockets.asyncio.client import connect

    rng = random.Random(index)
    async with sem:
        code = (await _post(client, "/api/tables", {"name": f"bench {index}", "options": OPTIONS}))["code"]
        joined = [await _post(client, f"/api/tables/{code}/join", {"name": f"P{s}", "seat": s})
                  for s in range(4)]  # four visitors: a session each
        players = []
        for s, seat in enumerate(joined):
            token = seat["token"]
            # like a browser: permessage-deflate offered (the server takes it only with
            # SGMAHJONG_WS_DEFLATE=1), no protocol-level pings from the client, a `ping` message every 25 s
            ws = await connect(f"{base_ws}/ws/{code}", max_size=1 << 22, compression="deflate", proxy=None,
                               ping_interval=None, open_timeout=120,
                               additional_headers={"Cookie": seat["cookie"]})
            sockets.append(ws)
            await ws.send(json.dumps({"type": "hello", "token": token}))
            players.append(Player(ws, s, think, stats, window, random.Random(rng.random())))
        for p in players:
            tasks.append(asyncio.create_task(p.reader()))
            tasks.append(asyncio.create_task(p.decider()))
            tasks.append(asyncio.create_task(p.pinger()))
        await players[0].ws.send('{"type": "start"}')


async def _play(url: str, indices: list[int], think: float, pipe: Any) -> tuple[Stats, float]:
    """Set up the tables, say so on ``pipe``, receive the measuring window, play until its end."""
    import httpx

    stats = Stats()
    window = [float("inf"), float("inf")]
    tasks: list[asyncio.Task[None]] = []
    sockets: list[Any] = []
    sem = asyncio.Semaphore(SETUP_CONCURRENCY)
    base_ws = "ws" + url[4:]
    start = time.monotonic()
    # a jar that keeps no cookie: each join is a new visitor, whose session its seat's socket sends
    jar = CookieJar(DefaultCookiePolicy(allowed_domains=[]))
    async with httpx.AsyncClient(base_url=url, timeout=60, cookies=jar) as client:
        await asyncio.gather(*[
            _table(client, base_ws, i, think, stats, window, sem, tasks, sockets) for i in indices
        ])
    setup = time.monotonic() - start
    pipe.send("ready")
    w0, w1, stop_at = await asyncio.get_running_loop().run_in_executor(None, pipe.recv)
    window[:] = [w0, w1]
    await asyncio.sleep(max(0.0, stop_at - time.monotonic()))
    for t in tasks:
        t.cancel()
    await asyncio.gather(*[ws.close() for ws in sockets], return_exceptions=True)
    return stats, setup


def _client_main(url: str, indices: list[int], think: float, pipe: Any) -> None:
    try:
        import uvloop
        uvloop.install()
    except ImportError:
        pass
    cpu0 = time.process_time()
    stats, setup = asyncio.run(_play(url, indices, think, pipe))
    pipe.send({"latencies": stats.latencies, "actions": stats.actions, "errors": stats.errors,
               "hands": stats.hands, "setup": setup, "cpu": time.process_time() - cpu0})

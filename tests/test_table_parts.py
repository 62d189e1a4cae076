"""The parts of a live table, each built and tested alone: the seating (with a list for a store), the
deadlines, the fan-out (with connections that only record) and the claim-window pause (with a stand-in
table)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine
from typing import Any

import pytest

from sgmahjong.rules import RuleSet
from sgmahjong.server.options import TableOptions
from sgmahjong.server.protocol import ProtocolError
from sgmahjong.server.store import SeatRow
from sgmahjong.server.table import engine
from sgmahjong.server.table.bots import BotDriver
from sgmahjong.server.table.claim_pause import ClaimPause
from sgmahjong.server.table.connections import Connection, Fanout
from sgmahjong.server.table.seats import Seating
from sgmahjong.server.table.timers import Deadlines


def test_seating_writes_each_seat_first_and_keeps_names_apart() -> None:
    written: list[SeatRow] = []
    seating = Seating(written.append)
    seat, token = seating.join(" Ann  ", None)
    assert (seat, seating[0].name) == (0, "Ann") and seating.seat_of_token(token) == 0
    with pytest.raises(ProtocolError) as exc:
        seating.join("ANN", 2)
    assert exc.value.code == "name_taken"
    seating.add_bot(None, "greedy")
    assert [r.kind for r in written] == ["human", "bot"] and seating[1].kind == "bot"

    def refuse(row: SeatRow) -> None:
        raise OSError("disk full")

    stubborn = Seating(refuse)
    with pytest.raises(OSError):
        stubborn.join("Bo", 3)
    assert stubborn[3].kind == "empty"  # a refused write changes nothing


def _claim_window() -> engine.Match:
    """A match in a claim window nobody is left to decide in (every asked seat passed)."""
    match, _ = engine.start_match(RuleSet(), 3, None, pause_windows=True)
    dealer = engine.awaiting(match)[0]
    discard = next(a for a in engine.legal_texts(match, dealer) if a.startswith("discard"))
    match, _ = engine.apply(match, dealer, discard)
    while not engine.closable(match):
        seat = engine.awaiting(match)[0]
        match, _ = engine.apply(match, seat, "pass")
    return match


def test_deadlines_follow_the_seats_awaited() -> None:
    options = TableOptions.parse({"turn_seconds": 30, "claim_seconds": 15, "next_hand_seconds": 20})
    deadlines = Deadlines(None, options)  # type: ignore[arg-type]  # no timer armed here
    match, _ = engine.start_match(RuleSet(), 3, None, pause_windows=True)
    deadlines.refresh_since(match)
    deadlines.set("playing", match, [])
    assert deadlines.current is not None and deadlines.current.kind == "turn"
    assert deadlines.current.seats == engine.awaiting(match)
    deadlines.set("between_hands", match, [0, 2])
    assert deadlines.current is not None and (deadlines.current.kind, deadlines.current.seats) == (
        "next_hand", [0, 2])
    assert deadlines.timer(1) is not None and not deadlines.results_expired()


def test_the_fan_out_sends_each_viewer_its_own_view_once() -> None:
    sent: dict[int | None, list[str]] = {0: [], 1: [], None: []}
    fanout = Fanout()
    conns = []
    for seat in (0, 1, None):
        async def send(text: str, seat: int | None = seat) -> None:
            sent[seat].append(text)

        conn = Connection(send)
        conn.seat, conn.hello = seat, True
        fanout.conns.add(conn)
        conns.append(conn)
    match, events = engine.start_match(RuleSet(), 3, None, pause_windows=True)
    fanout.broadcast(match, "playing", events, lambda viewer: None)
    texts = {c.seat: c._pending[0][0] for c in conns}
    views = {seat: json.loads(text)["view"] for seat, text in texts.items()}
    assert views[0]["seat"] == 0 and views[1]["seat"] == 1 and views[None]["seat"] is None
    assert fanout.connected(0) and not fanout.connected(2) and fanout.watched()
    fanout.broadcast(match, "playing", [], lambda viewer: None)  # nothing changed: nothing is sent
    assert all(len(c._pending) == 1 for c in conns)


class _Table:
    """A stand-in for the table the claim pause closes windows of."""

    def __init__(self, match: engine.Match) -> None:
        self.code = "PART"
        self.lock = asyncio.Lock()
        self.closed = False
        self.status = "playing"
        self.match: engine.Match | None = match
        self.acted: list[tuple[int, str, int, str]] = []
        self.tasks: list[asyncio.Task[None]] = []
        self.retries = 0

    def act(self, seat: int, text: str, version: int, source: str) -> None:
        self.acted.append((seat, text, version, source))

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.append(task)
        return task

    def retry_later(self) -> None:
        self.retries += 1


def test_the_claim_pause_closes_a_decided_window_after_its_pause() -> None:
    match = _claim_window()
    table = _Table(match)
    pause = ClaimPause(table, TableOptions.parse({"claim_pause": 0.05}))

    async def run() -> None:
        pause.after_change(lambda: True)
        assert pause.at > 0 and table.acted == []  # waiting for the pause
        await asyncio.gather(*table.tasks)

    asyncio.run(run())
    version = engine.hand_of(match).version
    assert table.acted == [(engine.window_source(match), "close", version, "table")]
    assert table.retries == 0


class _BotTable(_Table):
    """A stand-in table whose every seat is a bot (for the bot driver)."""

    def bot_seats(self) -> list[int]:
        return engine.awaiting(self.match) if self.match is not None else []

    def bot_level(self, seat: int) -> str:
        return "greedy"


def test_the_bots_decide_during_their_pause_not_after_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot's decision is made when its turn comes and its human-like pause is what is left of the
    pause after deciding (issue 35): on a busy server the decision's time does not slow the table's
    pace. The pause is recorded, not waited."""
    match, _ = engine.start_match(RuleSet(), 3, None, pause_windows=True)
    table = _BotTable(match)
    driver = BotDriver(table, RuleSet(), TableOptions.parse({"bot_delay": 0.8, "pace": "relaxed"}))
    decided: list[dict[int, str | None]] = []
    choose_all = driver.choose_all

    def deciding(m: engine.Match, levels: dict[int, str]) -> dict[int, str | None]:
        decided.append(choose_all(m, levels))
        return decided[-1]

    paused: list[tuple[float, int]] = []  # (seconds, decisions made by then)

    async def pause(seconds: float) -> None:
        paused.append((seconds, len(decided)))

    monkeypatch.setattr(driver, "choose_all", deciding)
    monkeypatch.setattr(asyncio, "sleep", pause)
    version = engine.hand_of(match).version
    asyncio.run(driver.run(version))
    seat = engine.awaiting(match)[0]
    assert [d for _, d in paused] == [1]  # the pause came after the decision
    assert 0 < paused[0][0] <= 0.8 * (1 + 1.5) * 1.15  # what is left of the relaxed pace's pause
    assert table.acted == [(seat, decided[0][seat], version, "bot")]

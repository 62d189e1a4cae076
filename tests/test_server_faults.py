"""A table's step never dies half-way (issue 23): whatever fails after a change is committed (the hints,
a metric, a bot, a timer's callback, the claim window's close, the fan-out) is logged once with the
table and what was committed, the change stays, and the table plays on (its bots and timers armed
again). A watchdog arms a table that nothing is scheduled for."""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from sgmahjong.server import metrics
from sgmahjong.server.settings import ServerSettings
from sgmahjong.server.table import engine
from sgmahjong.server.table.bots import BotDriver
from sgmahjong.server.table.connections import Connection, Fanout
from sgmahjong.server.table.table import Table
from sgmahjong.server.tables import CreateTable, TableServer
from tests.conftest import FAST_OPTIONS, LiveServer
from tests.data.make_old_db import play_human

BOTS = {**FAST_OPTIONS, "bot_level": "greedy"}
SETTINGS = ServerSettings(storage_retry_seconds=0.05, watchdog_seconds=0.1)


class Injected(Exception):
    """The failure a test injects."""


def failing(times: int | None, real: Callable[..., Any] | None = None) -> Callable[..., Any]:
    """A stand-in that raises :class:`Injected` its first ``times`` calls (always when None), then
    calls ``real``."""
    count = itertools.count()

    def fn(*args: Any, **kwargs: Any) -> Any:
        if times is None or next(count) < times:
            raise Injected("injected")
        assert real is not None
        return real(*args, **kwargs)

    return fn


async def _bots_play_a_hand(tmp_path: Path, *, spectator: bool = False, stall: bool = False,
                            options: dict[str, Any] | None = None) -> tuple[Table, list[str]]:
    """A table of four bots plays its first hand (a spectator watching it, if asked) on a server with
    the watchdog on; returns the table once the hand has ended, and what the spectator was sent."""
    server = TableServer(str(tmp_path / "faults.sqlite3"), settings=SETTINGS)
    server.open()
    server.start_tasks()
    watchdog = asyncio.get_running_loop().create_task(server.watchdog())
    sent: list[str] = []
    try:
        table = server.create(CreateTable(name="Faults", options=options or BOTS))
        if spectator:
            async def send(text: str) -> None:
                sent.append(text)

            conn = Connection(send, server.commits)
            conn.hello = True
            table.conns.add(conn)
            writer = asyncio.get_running_loop().create_task(conn.writer())
        async with table.lock:
            table.begin()
        if stall:  # every task of the table dies: only the watchdog can move it now
            await asyncio.sleep(0)
            async with table.lock:
                for task in list(table._tasks):
                    task.cancel()
                for _ in range(100):
                    if not table._tasks:
                        break
                    await asyncio.sleep(0)
                assert table.stalled()
        for _ in range(3000):
            if table.status != "playing":
                break
            await asyncio.sleep(0.01)
        assert table.status in ("between_hands", "finished"), "the hand did not end"
        if spectator:
            conn.finish()
            await asyncio.wait_for(writer, 5)
        return table, sent
    finally:
        watchdog.cancel()
        server.close()


@pytest.fixture
def errors(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """What the server logs (warnings and errors)."""
    with caplog.at_level(logging.WARNING, logger="sgmahjong.server"):
        yield caplog


def _failures(errors: pytest.LogCaptureFixture, code: str) -> list[str]:
    """The errors logged about the table ``code``."""
    return [r.getMessage() for r in errors.records if r.levelno >= logging.ERROR and code in r.getMessage()]


# (what fails, how often (None: always), what is logged each time; how many times (None: at least once))
IN_PLAY: dict[str, tuple[Any, str, int | None, str, int | None]] = {
    "bot step": (BotDriver, "delay", 3, "the bots' step at version", 3),  # retried
    "bot decision": (engine, "bot_choose", None, "bot failed", None),  # the first legal action instead
    "claim close": (engine, "window_source", 2, "closing the claim window failed", 2),  # retried
    "schedule": (Table, "_schedule", 2, "failed after", 2),  # after the first deal, then in the retry
}


@pytest.mark.parametrize("step", list(IN_PLAY))
def test_a_failing_step_in_play_is_logged_and_the_hand_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, errors: pytest.LogCaptureFixture, step: str
) -> None:
    owner, name, times, message, count = IN_PLAY[step]
    monkeypatch.setattr(owner, name, failing(times, getattr(owner, name)))
    table, _ = asyncio.run(_bots_play_a_hand(tmp_path))
    logged = _failures(errors, table.code)
    assert logged and all(message in m for m in logged)
    assert count is None or len(logged) == count


def test_a_failing_fan_out_resends_whole_views_and_the_hand_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, errors: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(Fanout, "broadcast", failing(None))
    table, sent = asyncio.run(_bots_play_a_hand(tmp_path, spectator=True))
    logged = _failures(errors, table.code)
    assert logged and all("the fan-out failed after" in m for m in logged)
    views = [m for m in sent if m.startswith('{"type":"view"')]
    assert len(views) > 10  # each change reached the spectator as a whole view
    assert '"status":"between_hands"' in views[-1] or '"status":"finished"' in views[-1]


def test_the_watchdog_arms_a_stalled_table_and_the_hand_ends(
    tmp_path: Path, errors: pytest.LogCaptureFixture
) -> None:
    table, _ = asyncio.run(_bots_play_a_hand(tmp_path, stall=True))
    assert any("stalled with nothing scheduled" in r.getMessage() and table.code in r.getMessage()
               for r in errors.records)


def test_a_failing_timer_callback_is_retried_and_the_table_plays_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, errors: pytest.LogCaptureFixture
) -> None:
    """A human who never acts: each of their turns and claims ends by its deadline (0.05 s); the first
    two timeout steps fail, and the hand still ends."""
    monkeypatch.setattr(engine, "timeout_action", failing(2, engine.timeout_action))

    async def run() -> Table:
        server = TableServer(str(tmp_path / "timers.sqlite3"), settings=SETTINGS)
        server.open()
        server.start_tasks()
        try:
            options = {**BOTS, "turn_seconds": 0.05, "claim_seconds": 0.05, "takeover_seconds": 3600}
            table = server.create(CreateTable(name="Timers", options=options))
            async with table.lock:
                table.join("Ann", 0)
                conn = Connection(_ignore, server.commits)
                writer = asyncio.get_running_loop().create_task(conn.writer())
                table.conns.add(conn)
                table.hello(conn, None)
                conn.seat = 0  # Ann is here (her seat is not played by a bot) and never acts
                table.begin()
            for _ in range(6000):
                if table.status != "playing":
                    break
                await asyncio.sleep(0.01)
            conn.finish()
            await asyncio.wait_for(writer, 5)
            return table
        finally:
            server.close()

    table = asyncio.run(run())
    assert table.status in ("between_hands", "finished")
    logged = _failures(errors, table.code)
    assert len(logged) == 2 and all("deadline's step failed" in m for m in logged)


async def _ignore(text: str) -> None:
    return None


@pytest.mark.parametrize("step", ["hints", "metrics"])
def test_a_failing_step_after_a_human_action_answers_what_was_applied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, errors: pytest.LogCaptureFixture, step: str
) -> None:
    """Over a real WebSocket: the seat's hints (every time) or the action latency metric (every time)
    fail after the human's actions are stored; the human is sent no error, sees each action applied,
    and plays the hand to its end."""
    from sgmahjong import hints

    if step == "hints":
        monkeypatch.setattr(hints, "ready_hints", failing(None))
    else:
        monkeypatch.setattr(metrics.ACTION_LATENCY, "observe", failing(None))
    server = LiveServer(_free_port(), str(tmp_path / "human.sqlite3"))
    server.start()
    try:
        options = {**BOTS, "takeover_seconds": 3600}  # the seat waits for Ann
        answer = server.post("/api/play", {"name": "Ann", "seed": 5, "options": options}).json()
        with server.ws(answer["code"]) as ws:
            ws.hello(answer["token"])
            play_human(ws, lambda m: m["status"] != "playing")
            refused = [m for m in ws.seen if m.get("type") == "error" and m.get("code") == "server"]
        assert refused == []
        logged = _failures(errors, answer["code"])
        assert logged, "the injected failure was not logged"
        if step == "hints":
            assert all("the hints failed after" in m for m in logged)
        else:
            assert all("latency metric failed" in m for m in logged)
    finally:
        server.stop()


def _free_port() -> int:
    from tests.conftest import free_port

    return free_port()

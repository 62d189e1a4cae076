"""``sgmahjong backup`` / ``restore`` (docs/operations.md, "Backups"), on both stores.

A backup is taken from a live server while bot tables are being played; it is restored into a new
database, and every hand in it is replayed from its stored log with the engine: each ended hand must
reproduce its stored events and published wall hash, and each hand still in play its events so far.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import LiveServer, WsClient, free_port

from sgmahjong.cli import main
from sgmahjong.game.log import replay
from sgmahjong.server.settings import ServerSettings
from sgmahjong.server.store import Store, open_store

# bots play at once, or (SLOW) a hand in a few seconds, so that the backup is taken mid-hand
BOT_OPTIONS = {"bot_delay": 0.0, "turn_seconds": 0, "claim_seconds": 0, "next_hand_seconds": 0.01,
               "takeover_seconds": 0, "claim_pause": 0}
SLOW = {**BOT_OPTIONS, "bot_delay": 0.05}
ENDED, PLAYING = 3, 2


def bot_table(server: LiveServer, options: dict[str, Any]) -> str:
    """A table whose one human starts the match and leaves: bots play the first hand (the table
    then waits for a human to come back)."""
    code: str = server.create_table(options=options)["code"]
    token = server.join(code, "Ann")["token"]
    with WsClient(f"{server.ws_url}/ws/{code}") as ws:
        ws.hello(token)
        ws.send({"type": "start"})
        ws.until("view")
    return code


def stored(store: Store) -> dict[str, int]:
    """Ended hands and stored actions over every table."""
    ended = actions = 0
    for table in store.tables():
        for hand in store.hands(table.id):
            ended += hand.ended is not None
            actions += len(store.actions(table.id, hand.number))
    return {"ended": ended, "actions": actions}


def wait_for(server: LiveServer, what: str, more_than: int, timeout: float = 120) -> None:
    end = time.monotonic() + timeout
    while True:
        counts = stored_of(server)
        if counts[what] > more_than:
            return
        if time.monotonic() > end:
            raise AssertionError(f"the bot tables did not get past {more_than} {what}: {counts}")
        time.sleep(0.2)


def stored_of(server: LiveServer) -> dict[str, int]:
    store = open_store(server.database, worker="reader") if server.database.startswith("postgres") else None
    if store is None:  # SQLite: the server holds the file's lock; read it through SQLite directly
        import sqlite3

        path = server.database.removeprefix("sqlite:///")
        with sqlite3.connect(path) as db:
            ended = db.execute("SELECT count(*) FROM hands WHERE ended IS NOT NULL").fetchone()[0]
            actions = db.execute("SELECT count(*) FROM actions").fetchone()[0]
        return {"ended": ended, "actions": actions}
    try:
        return stored(store)
    finally:
        store.close()


def log_of(store: Store, table_id: int, number: int) -> str:
    """A hand's log as the server publishes it (GET /api/tables/CODE/hands/N/log): its first event
    (hand_start, the header) and its actions."""
    events = store.events(table_id, number)
    lines = [json.dumps(events[0], sort_keys=True)]
    lines += [json.dumps({"seat": a.seat, "action": a.action, "version": i}, sort_keys=True)
              for i, a in enumerate(store.actions(table_id, number), start=1)]
    return "\n".join(lines) + "\n"


def replay_every_hand(store: Store) -> dict[str, int]:
    seen = {"ended": 0, "playing": 0, "actions": 0}
    for table in store.tables():
        for hand in store.hands(table.id):
            state, events = replay(log_of(store, table.id, hand.number))
            recorded: list[dict[str, Any]] = store.events(table.id, hand.number)
            assert [e.to_json() for e in events] == recorded, (table.code, hand.number)
            assert state.wall_hash == hand.wall_hash
            assert state.ended == (hand.ended is not None), (table.code, hand.number)
            seen["ended" if state.ended else "playing"] += 1
            seen["actions"] += len(state.actions)
    return seen


def test_a_backup_taken_during_play_restores_and_every_hand_replays(
    database_url: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    settings = ServerSettings(table_burst=100)
    server = LiveServer(free_port(), database_url, settings=settings)
    server.start()
    backup = tmp_path / "backup"
    try:
        codes = [bot_table(server, BOT_OPTIONS) for _ in range(ENDED)]
        wait_for(server, "ended", ENDED - 1)  # these hands ended ...
        before = stored_of(server)["actions"]
        codes += [bot_table(server, SLOW) for _ in range(PLAYING)]
        wait_for(server, "actions", before + 10)  # ... and these are being played
        assert main(["backup", "--database", database_url, str(backup)]) == 0
        taken = stored_of(server)
        wait_for(server, "actions", taken["actions"])  # and play went on after the backup
        assert all(httpx.get(f"{server}/api/tables/{c}").status_code == 200 for c in codes)
    finally:
        server.stop()

    if database_url.startswith("postgres"):
        restored = str(request.getfixturevalue("postgres").create_database(f"restored_{free_port()}"))
    else:
        restored = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    assert main(["restore", str(backup), "--database", restored]) == 0
    store = open_store(restored)
    try:
        assert {t.code for t in store.tables()} == set(codes)
        seen = replay_every_hand(store)
        in_backup = stored(store)
    finally:
        store.close()
    assert seen["ended"] >= ENDED and seen["ended"] == in_backup["ended"]
    assert seen["playing"] >= 1  # taken mid-play: the hands in progress, up to their last stored action
    assert seen["actions"] == in_backup["actions"]
    assert in_backup["actions"] < stored_of(server)["actions"]  # the live store went on past the backup


def test_restore_refuses_a_database_in_use_or_holding_tables(tmp_path: Path, capsys: Any) -> None:
    live, copy, other = tmp_path / "live.sqlite3", tmp_path / "copy", tmp_path / "other.sqlite3"
    store = open_store(str(live))
    try:
        store.create_table("abcdEFGH", "Test", False, {}, {})
        assert main(["backup", "--database", str(live), str(copy)]) == 0
        assert main(["restore", str(copy), "--database", str(live)]) == 2
        assert "in use by a running server: stop it first" in capsys.readouterr().err
    finally:
        store.close()
    assert main(["backup", "--database", str(live), str(copy)]) == 2
    assert f"{copy} exists; give another file or --force" in capsys.readouterr().err
    assert main(["restore", str(copy), "--database", str(live)]) == 2
    assert "holds tables; give --replace" in capsys.readouterr().err
    assert main(["restore", str(copy), "--database", str(live), "--replace"]) == 0
    assert main(["restore", str(tmp_path / "missing"), "--database", str(other)]) == 2
    assert "no such file" in capsys.readouterr().err
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database\n")
    assert main(["restore", str(junk), "--database", str(other)]) == 2
    assert "is not a SQLite backup" in capsys.readouterr().err
    assert not other.exists()


def test_postgres_restore_refuses_while_workers_are_connected_and_replaces_only_when_asked(
    postgres: Any, postgres_url: str, tmp_path: Path, capsys: Any
) -> None:
    copy = tmp_path / "copy"
    empty = str(postgres.create_database(f"empty_{free_port()}"))
    open_store(empty).close()  # a schema and no tables: what a worker leaves after its first start
    store = open_store(postgres_url, worker="w1")
    try:
        store.create_table("abcdEFGH", "Test", False, {}, {})
        assert main(["backup", "--database", postgres_url, str(copy)]) == 0
        assert main(["restore", str(copy), "--database", postgres_url, "--replace"]) == 2
        assert "connected to the database: stop the workers first" in capsys.readouterr().err
    finally:
        store.close()
    assert main(["restore", str(copy), "--database", postgres_url]) == 2
    assert "the database holds tables; give --replace" in capsys.readouterr().err
    assert main(["restore", str(copy), "--database", postgres_url, "--replace"]) == 0
    assert main(["restore", str(copy), "--database", empty]) == 0  # nothing to replace there
    for url in (postgres_url, empty):
        store = open_store(url)
        try:
            assert [t.code for t in store.tables()] == ["abcdEFGH"]
        finally:
            store.close()

"""A restart resumes a live table from the snapshot stored with its last hand plus that hand's actions
(issue 13, fast start), and tables stored before snapshots (migration 0006) by replaying every hand."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from sgmahjong.server.store import open_store
from sgmahjong.server.store.sql import SqlStore
from sgmahjong.server.table.table import Table
from sgmahjong.server.tables import CreateTable, TableServer
from tests.conftest import FAST_OPTIONS

HANDS = 5  # the table is stopped in its 5th hand (or after it)


def _state(table: Table) -> tuple[Any, ...]:
    return table.match, table.hand_number, table.action_seq, table.event_seq, table.status


async def _play(server: TableServer, code: str, *, between: bool) -> tuple[Any, ...]:
    """Bots play the table's match (the test deals each next hand, as a ready human would) until hand
    ``HANDS`` is a few actions in (or has ended); then the table stops there, with everything stored."""
    table = server.tables[code]
    async with table.lock:
        table.begin()  # the empty seats get bots
    while True:
        await asyncio.sleep(0.002)
        async with table.lock:
            assert table.status != "finished", "the match ended before the hand the test stops in"
            late = table.hand_number >= HANDS
            if between:
                stop = late and table.status == "between_hands"
            else:
                stop = late and table.status == "playing" and table.action_seq >= 7
            if stop:
                state = _state(table)
                server.close()  # cancels the bots; everything written is committed
                return state
            if table.status == "between_hands":
                table.next_hand()


def _resumed(path: str, monkeypatch: pytest.MonkeyPatch) -> tuple[tuple[Any, ...], set[int]]:
    """Open a server on ``path`` (what a restart does): the one table's state, and the hands whose
    actions were read to rebuild it."""
    read: set[int] = set()
    real = SqlStore.actions

    def actions(self: SqlStore, table_id: int, hand: int) -> Any:
        read.add(hand)
        return real(self, table_id, hand)

    monkeypatch.setattr(SqlStore, "actions", actions)
    server = TableServer(path)
    server.open()
    try:
        (table,) = server.tables.values()
        return _state(table), read
    finally:
        server.close()
        monkeypatch.setattr(SqlStore, "actions", real)


@pytest.mark.parametrize("between", [False, True], ids=["mid-hand", "between-hands"])
@pytest.mark.parametrize("seed", [11, None], ids=["test-seed", "fresh-secrets"])
def test_a_table_late_in_its_match_resumes_from_its_last_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int | None, between: bool,
) -> None:
    path = str(tmp_path / "resume.sqlite3")
    server = TableServer(path, test_hooks=True)
    server.open()
    code = server.create(CreateTable(name="Long", seed=seed, options=FAST_OPTIONS)).code
    before = asyncio.run(_play(server, code, between=between))
    assert before[1] >= HANDS and before[0].hand_number == before[1]
    assert before[0].history and before[0].ledger != (0, 0, 0, 0)  # a match with a past

    after, read = _resumed(path, monkeypatch)
    assert after == before
    assert read == {before[1]}  # only the last hand's actions were replayed

    # hands stored before migration 0006 (no snapshot): the whole match is replayed, to the same state
    db = sqlite3.connect(path)
    db.execute("UPDATE hands SET snapshot = NULL WHERE number = ?", (before[1],))
    db.commit()
    after, read = _resumed(path, monkeypatch)
    assert after == before and read == {before[1] - 1, before[1]}  # from the latest snapshot on
    db.execute("UPDATE hands SET snapshot = NULL")
    db.commit()
    db.close()
    after, read = _resumed(path, monkeypatch)
    assert after == before and read == set(range(1, before[1] + 1))


def test_only_live_tables_are_resumed_at_start(tmp_path: Path) -> None:
    path = str(tmp_path / "live.sqlite3")
    store = open_store(path)
    ids = {status: store.create_table(f"c{status}", status, False, {}, {}) for status in
           ("lobby", "playing", "between_hands", "finished", "closed")}
    for status, tid in ids.items():
        store.set_status(tid, status)
    store.close()
    server = TableServer(path)
    server.open()
    try:
        assert sorted(t.status for t in server.tables.values()) == ["between_hands", "lobby", "playing"]
    finally:
        server.close()


def test_the_last_snapshot_on_each_backend(database_url: str) -> None:
    store = open_store(database_url)
    try:
        tid = store.create_table("SNAP", "Snap", False, {}, {})
        store.start_match(tid, 5, 1, "h1", [])
        assert store.last_snapshot(tid) is None
        store.add_hand(tid, 2, 2, "h2", [], {"v": 1, "hand_number": 2, "history": [{"hand": 1}]})
        store.add_hand(tid, 3, 3, "h3", [])  # stored without one
        assert store.last_snapshot(tid) == (2, {"v": 1, "hand_number": 2, "history": [{"hand": 1}]})
        assert [h.number for h in store.hands(tid, 2)] == [2, 3]
        assert [h.number for h in store.hands(tid)] == [1, 2, 3]
    finally:
        store.close()

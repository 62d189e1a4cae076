"""PostgreSQL failures that are not the SQL's fault are ``StorageUnavailable`` (a one-line reason), with
nothing of the refused change kept, and the store recovers when the database is back (issue 13)."""

from __future__ import annotations

import tempfile
from typing import Any

import psycopg
import pytest

from sgmahjong.server.cluster.local import LocalPostgres
from sgmahjong.server.settings import ServerSettings
from sgmahjong.server.store import LeaseLost, StorageUnavailable, open_store
from tests.conftest import FAST_OPTIONS, LiveServer, free_port

DISK_FULL = """CREATE FUNCTION disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'could not extend file "base/16384/16385": No space left on device'
USING ERRCODE = 'disk_full'; END $$"""


def _table(store: Any) -> int:
    tid: int = store.create_table("PGF", "Faults", False, {}, {})
    store.start_match(tid, 5, 1, "h1", [{"kind": "hand_start"}])
    return tid


def test_disk_full_refuses_the_write_whole_and_the_next_one_succeeds(postgres_url: str) -> None:
    """The database answers disk full (SQLSTATE 53100, here from a trigger on the events table): the
    action whose event cannot be stored is refused as storage unavailable, its action row (written
    first in the same transaction) is not kept, and the session and the table's ownership live on."""
    store = open_store(postgres_url)
    try:
        tid = _table(store)
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute(DISK_FULL)
            admin.execute("CREATE TRIGGER full_disk BEFORE INSERT ON events FOR EACH ROW"
                          " EXECUTE FUNCTION disk_full()")
            with pytest.raises(StorageUnavailable) as refused:
                store.add_action(tid, 1, 0, 0, "discard 1p", 1, "human", [{"kind": "discard"}], 1)
            assert str(refused.value) == ("storage unavailable, try again (the database refused the write:"
                                          ' could not extend file "base/16384/16385": No space left on device'
                                          " [53100])")
            assert store.actions(tid, 1) == [] and len(store.events(tid, 1)) == 1  # nothing half-applied
            assert store.owns(tid)
            admin.execute("DROP TRIGGER full_disk ON events")
        store.add_action(tid, 1, 0, 0, "discard 1p", 1, "human", [{"kind": "discard"}], 1)
        assert [a.action for a in store.actions(tid, 1)] == ["discard 1p"] and len(store.events(tid, 1)) == 2
    finally:
        store.close()


def test_sql_errors_are_not_storage_unavailable(postgres_url: str) -> None:
    store = open_store(postgres_url)
    try:
        tid = _table(store)
        with pytest.raises(psycopg.errors.UniqueViolation):
            store.add_hand(tid, 1, 1, "again", [])  # hand 1 exists: the SQL's fault, not the database's
        assert store.owns(tid) and [h.number for h in store.hands(tid)] == [1]
    finally:
        store.close()


def test_a_stopped_database_is_storage_unavailable_and_the_store_recovers() -> None:
    """PostgreSQL stopped under a worker: its writes and reads are refused as storage unavailable, in one
    line; started again, the store reconnects by itself, owning nothing until it claims again (its
    session's locks went with the session), and nothing refused was kept."""
    with tempfile.TemporaryDirectory(prefix="sgmahjong-pgf-") as folder:
        pg = LocalPostgres(folder)
        pg.start()
        try:
            store = open_store(pg.create_database("faults"))
            tid = _table(store)
            pg.stop()
            lost_text = r"^storage unavailable, try again \(the database session was lost: .*\)$"
            with pytest.raises(StorageUnavailable, match=lost_text) as lost:
                store.add_action(tid, 1, 0, 0, "discard 1p", 1, "human", [], 1)
            assert "\n" not in str(lost.value)
            assert store.owned() == set()
            with pytest.raises(StorageUnavailable, match=r"cannot reach the database \(postgresql://"):
                store.actions(tid, 1)
            assert store.heartbeat() == set()  # does not raise while the database is down
            pg.start()
            pg.wait()
            with pytest.raises(LeaseLost):
                store.add_action(tid, 1, 0, 0, "discard 1p", 1, "human", [], 1)  # not owned any more
            assert store.actions(tid, 1) == []  # reconnected by itself; the refused write is not there
            assert store.claim(tid)
            store.add_action(tid, 1, 0, 0, "discard 1p", 1, "human", [], 1)
            assert [a.action for a in store.actions(tid, 1)] == ["discard 1p"]
            store.close()
        finally:
            pg.stop()


def test_a_terminated_session_refuses_the_action_and_the_table_comes_back(postgres_url: str) -> None:
    """The worker's database session is terminated (pg_terminate_backend: an admin, a failover) just
    before a player's discard: the discard is refused with the clear storage error (the socket then
    closed, 1013) and nothing of it is kept; on reconnecting, the worker (on a new session) claims the
    table again, resumes it from the database where it was, and the same discard is then played."""
    from tests.test_server import seated

    # the lease watch kept slow: its own heartbeat would otherwise race the discard for the lost
    # session (and evict the table with `moved` first on a busy machine)
    live = LiveServer(free_port(), postgres_url, settings=ServerSettings(lease_watch_seconds=60,
                                                                     storage_retry_seconds=0.2))
    live.start()
    try:
        assert live._runner is not None
        server = live._runner.server.config.app.state.server
        code = live.create_table(seed=11, options={**FAST_OPTIONS, "takeover_seconds": 600})["code"]
        ann, token = seated(live, code, "Ann", 0)
        with ann:
            ann.send({"type": "start"})
            view = ann.settle()["view"]
            assert view["awaiting"] == [0]
            version, discard = view["version"], view["legal_actions"][0]
            table_id = server.tables[code].id
            pid = server.store._read("SELECT pg_backend_pid()")[0][0]
            with psycopg.connect(postgres_url, autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            ann.send({"type": "action", "action": discard, "version": version})
            error = ann.until("error", timeout=30)
            assert error["code"] == "storage" and error["message"] == "storage unavailable, try again"
            with pytest.raises(Exception, match="1013"):  # the table is closed: its state was ahead
                ann.recv(timeout=30)
        assert server.store.actions(table_id, 1) == []
        with live.ws(code) as again:
            again.hello(token)
            back = again.settle()["view"]
            assert (back["version"], back["awaiting"]) == (version, [0])
            again.send({"type": "action", "action": discard, "version": version})
            after = again.settle()["view"]
            assert after["version"] > version
        assert [a.action for a in server.store.actions(table_id, 1)][:1] == [discard]
    finally:
        live.stop()


def test_postgres_reason_is_one_line() -> None:
    from sgmahjong.server.store.postgres import reason

    err = psycopg.errors.AdminShutdown("terminating connection due to administrator command\nmore")
    assert reason(err) == "terminating connection due to administrator command [57P01]"


def test_after_a_terminated_session_the_next_statements_reconnect(postgres_url: str) -> None:
    """Terminated between two transactions (so the next one fails at its first statement, or at its
    commit): each write is refused as storage unavailable, and the statements after it run on a new
    session (a failed transaction leaves nothing behind on the store)."""
    import time

    store = open_store(postgres_url)
    try:
        tid = _table(store)
        for _ in range(3):
            assert store.claim(tid)
            pid = store._read("SELECT pg_backend_pid()")[0][0]
            with psycopg.connect(postgres_url, autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            time.sleep(0.2)  # the session's socket is closed before the next transaction begins
            with pytest.raises(StorageUnavailable, match="the database session was lost"):
                store.set_status(tid, "closed")
            assert store.owned() == set()
            assert store._read("SELECT pg_backend_pid()")[0][0] != pid
            assert store.tables(tid)[0].status == "playing"  # the refused write changed nothing
    finally:
        store.close()


def test_the_session_stays_usable_after_refused_writes(postgres_url: str) -> None:
    """Writes refused mid-transaction (disk full), again and again, between writes that succeed: every
    later write still succeeds. (With psycopg's automatic prepared statements a statement first
    prepared after the failed one, in the same pipeline, was taken as prepared though it never ran,
    and every later use failed "prepared statement does not exist": the worker's session was wedged
    after a few seconds of a full disk, found by the chaos run, bench/chaos.py.)"""
    store = open_store(postgres_url)
    try:
        tid = _table(store)
        seq = 0

        def act() -> None:
            nonlocal seq
            store.add_action(tid, 1, seq, 0, f"discard {seq % 9 + 1}p", seq + 1, "human", [{"kind": "x"}],
                             seq + 1)
            seq += 1

        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute(DISK_FULL)
            for _ in range(3):
                for _ in range(2):
                    act()
                admin.execute("CREATE TRIGGER full_disk BEFORE INSERT ON events FOR EACH ROW"
                              " EXECUTE FUNCTION disk_full()")
                for _ in range(6):
                    with pytest.raises(StorageUnavailable, match="No space left on device"):
                        store.add_action(tid, 1, seq, 0, "discard 1p", seq + 1, "human", [{"kind": "x"}],
                                         seq + 1)
                admin.execute("DROP TRIGGER full_disk ON events")
        act()
        assert len(store.actions(tid, 1)) == seq == 7 and store.owns(tid)
    finally:
        store.close()

"""Storage faults (issue 13): a database that cannot be written, or that another server holds, is
refused at start with one clear line; a write that fails is refused with "storage unavailable, try
again", nothing of it applied, and the table (its bots too) goes on once writes succeed again."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sgmahjong.server.settings import ServerSettings
from sgmahjong.server.store import StorageUnavailable, StoreError, open_store
from tests.conftest import FAST_OPTIONS, LiveServer, free_port


def serve(
    database: str, *, as_nobody: bool = False, namespace: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``sgmahjong serve`` on ``database`` in a child process (it must refuse to start)."""
    cmd = [sys.executable, "-m", "sgmahjong", "serve", "--port", str(free_port()), "--database", database]
    if as_nobody:
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
    if namespace is not None:  # a shell command run first in a private mount namespace
        cmd = ["unshare", "-m", "sh", "-c", f'{namespace} && exec "$@"', "sh", *cmd]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env, check=False)


def refused_in_one_line(run: subprocess.CompletedProcess[str], words: str) -> None:
    assert run.returncode == 2, (run.returncode, run.stdout, run.stderr)
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and words in lines[0], run.stderr
    assert "Traceback" not in run.stderr and "serving on" not in run.stdout


@pytest.fixture
def open_dir() -> Iterator[Path]:
    """A folder anyone may write in (pytest's own temporary folders are the owner's only)."""
    path = Path(tempfile.mkdtemp(prefix="sgmahjong-storage-"))
    path.chmod(0o777)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def test_a_database_file_that_cannot_be_written_is_refused_at_start(open_dir: Path) -> None:
    db = open_dir / "game.sqlite3"
    open_store(str(db)).close()
    db.chmod(0o444)
    for extra in open_dir.glob("game.sqlite3?*"):
        extra.unlink()
    # root may write anything: the server runs as an ordinary user, as it would in production
    run = serve(str(db), as_nobody=os.geteuid() == 0)
    refused_in_one_line(run, "attempt to write a readonly database: the file or its folder cannot be written")


def test_a_read_only_mount_is_refused_at_start(open_dir: Path) -> None:
    mount = open_dir / "mnt"
    mount.mkdir()
    if os.geteuid() == 0:
        run = serve(str(mount / "game.sqlite3"), namespace=f"mount -t tmpfs -o ro,size=1m tmpfs {mount}")
    else:
        mount.chmod(0o555)
        run = serve(str(mount / "game.sqlite3"))
    refused_in_one_line(run, "cannot use the database")
    assert "Read-only file system" in run.stderr or "Permission denied" in run.stderr


def test_a_second_server_on_the_same_database_is_refused(tmp_path: Path) -> None:
    live = LiveServer(free_port(), str(tmp_path / "one.sqlite3"))
    live.start()
    try:
        refused_in_one_line(serve(live.database), "is in use by another sgmahjong server")
        with pytest.raises(StoreError, match="in use by another sgmahjong server"):
            open_store(live.database)
        assert live.get("/api/health").status_code == 200  # the first one serves on
    finally:
        live.stop()
    open_store(live.database).close()  # free again once the first has stopped


def _server_of(live: LiveServer) -> Any:
    assert live._runner is not None
    return live._runner.server.config.app.state.server


class Failing:
    """Makes the store's writes fail (as on a full disk) while ``on``."""

    def __init__(self, store: Any) -> None:
        self.on = False
        self.refused = 0
        for name in ("write_batch", "create_table"):
            real = getattr(store, name)

            def fail(*args: Any, _real: Any = real, **kwargs: Any) -> Any:
                if self.on:
                    self.refused += 1
                    raise StorageUnavailable("database or disk is full")
                return _real(*args, **kwargs)

            setattr(store, name, fail)


def test_a_failed_write_is_refused_and_play_goes_on_when_writes_succeed(tmp_path: Path) -> None:
    from tests.test_server import seated

    settings = ServerSettings(storage_retry_seconds=0.2)
    live = LiveServer(free_port(), str(tmp_path / "full.sqlite3"), settings=settings)
    live.start()
    try:
        server = _server_of(live)
        failing = Failing(server.commits.inner if server.commits is not None else server.store)
        code = live.create_table(seed=11, options={**FAST_OPTIONS, "takeover_seconds": 600})["code"]
        ann, token = seated(live, code, "Ann", 0)
        with ann:
            ann.send({"type": "start"})
            view = ann.settle()  # Ann (East, the dealer) is to discard; bots fill the other seats
            assert view["view"]["awaiting"] == [0]
            version = view["view"]["version"]
            stored = len(server.store.actions(server.tables[code].id, 1))
            discard = view["view"]["legal_actions"][0]
            failing.on = True
            ann.send({"type": "action", "action": discard, "version": version})
            error = ann.until("error", timeout=30)
            assert error["code"] == "storage" and error["message"] == "storage unavailable, try again"
            with pytest.raises(Exception, match="1013"):
                ann.recv(timeout=30)
            # nothing of it was applied: HTTP says so too, while the disk is full
            r = live.post("/api/tables", {"name": "another"})
            assert r.status_code == 503 and r.json()["error"] == "storage unavailable, try again"
        failing.on = False
        with live.ws(code) as again:
            again.hello(token)
            back = again.settle()
            assert back["view"]["version"] == version and back["view"]["awaiting"] == [0]
            assert len(server.store.actions(server.tables[code].id, 1)) == stored
            again.send({"type": "action", "action": discard, "version": version})
            after = again.settle()  # the bots play on to Ann's next decision
            assert after["view"]["version"] > version + 1
        assert failing.refused >= 2
    finally:
        live.stop()


def test_bots_survive_a_storage_failure_and_play_on(tmp_path: Path) -> None:
    settings = ServerSettings(storage_retry_seconds=0.2)
    live = LiveServer(free_port(), str(tmp_path / "bots.sqlite3"), settings=settings)
    live.start()
    try:
        server = _server_of(live)
        failing = Failing(server.commits.inner if server.commits is not None else server.store)
        code = live.create_table(seed=5, options={**FAST_OPTIONS, "bot_delay": 0.05})["code"]
        token = live.join(code, "Ann", 0)["token"]
        with live.ws(code) as ann:  # Ann starts and leaves: bots play every seat
            ann.hello(token)
            ann.send({"type": "start"})
            ann.until("view")
        failing.on = True
        end = time.monotonic() + 30
        while failing.refused < 3:  # the bots' writes fail again and again
            assert time.monotonic() < end
            time.sleep(0.05)
        table_id = server.store.table_by_code(code).id
        stuck = len(server.store.actions(table_id, 1))
        failing.on = False
        while len(server.store.actions(table_id, 1)) <= stuck + 5:  # and then they go on
            assert time.monotonic() < end + 30
            time.sleep(0.1)
    finally:
        live.stop()


def test_a_join_whose_write_failed_is_not_answered_with_a_seat(tmp_path: Path) -> None:
    """The HTTP answer waits for the join's write: when it fails, the answer is 503 (no seat, no token
    for a seat the database never recorded), and a join once writes succeed again is seated."""
    settings = ServerSettings(storage_retry_seconds=0.2)
    live = LiveServer(free_port(), str(tmp_path / "join.sqlite3"), settings=settings)
    live.start()
    try:
        server = _server_of(live)
        failing = Failing(server.commits.inner if server.commits is not None else server.store)
        code = live.create_table(seed=12, options=FAST_OPTIONS)["code"]
        failing.on = True
        r = live.post(f"/api/tables/{code}/join", {"name": "Ann", "seat": 0})
        assert r.status_code == 503 and "token" not in r.json(), r.text
        failing.on = False
        for _ in range(100):  # the table is loaded again from the database once writes succeed
            r = live.post(f"/api/tables/{code}/join", {"name": "Ann", "seat": 0})
            if r.status_code != 503:
                break
            time.sleep(0.1)
        assert r.status_code == 200 and r.json()["seat"] == 0, r.text
        seats = {s.seat: s.name for s in server.store.seats(server.tables[code].id)}
        assert seats.get(0) == "Ann"
    finally:
        live.stop()

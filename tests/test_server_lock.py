"""One server per SQLite database, whatever path names it (issue 23): the lock is on the database file
itself, so a second ``sgmahjong serve`` reaching the same file through a hard link, a symbolic link or
a bind mount is refused with one line, and a restart after the first server stops works."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from sgmahjong.server.store import StoreError, open_store
from tests.conftest import free_port
from tests.test_server_storage import refused_in_one_line, serve

ROOT = Path(__file__).resolve().parents[1]


class Serving:
    """A real ``sgmahjong serve`` process on ``database``, until :meth:`stop`."""

    def __init__(self, database: str) -> None:
        self.port = free_port()
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sgmahjong", "serve", "--port", str(self.port), "--database", database],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        end = time.monotonic() + 60
        while not self.healthy():
            if self.proc.poll() is not None or time.monotonic() > end:
                raise AssertionError(f"the server did not start: {self.stop()}")
            time.sleep(0.1)

    def healthy(self) -> bool:
        try:
            return httpx.get(f"http://127.0.0.1:{self.port}/api/health", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    def stop(self) -> str:
        """SIGTERM, as systemd stops it; what it wrote on stderr."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        _, err = self.proc.communicate(timeout=30)
        return err


@pytest.fixture
def first(tmp_path: Path) -> Iterator[tuple[Serving, Path]]:
    db = tmp_path / "data" / "game.sqlite3"
    server = Serving(str(db))
    try:
        yield server, db
    finally:
        server.stop()


def test_a_second_server_through_a_hard_link_is_refused(first: tuple[Serving, Path], tmp_path: Path) -> None:
    server, db = first
    link = tmp_path / "elsewhere.sqlite3"
    os.link(db, link)
    refused_in_one_line(serve(str(link)), "is in use by another sgmahjong server")
    with pytest.raises(StoreError, match="in use by another sgmahjong server"):
        open_store(str(link))
    assert server.healthy()  # the first one serves on


def test_a_second_server_through_a_symbolic_link_is_refused_and_a_restart_works(
    first: tuple[Serving, Path], tmp_path: Path
) -> None:
    server, db = first
    link = tmp_path / "link.sqlite3"
    link.symlink_to(db)
    refused_in_one_line(serve(str(link)), "is in use by another sgmahjong server")
    dir_link = tmp_path / "dir-link"
    dir_link.symlink_to(db.parent, target_is_directory=True)
    refused_in_one_line(serve(str(dir_link / db.name)), "is in use by another sgmahjong server")
    assert server.healthy()
    assert "Traceback" not in server.stop()
    # the first has stopped: the same file, through the link, is served again (a normal restart)
    again = Serving(str(link))
    try:
        assert again.healthy()
        refused_in_one_line(serve(str(db)), "is in use by another sgmahjong server")
    finally:
        assert "Traceback" not in again.stop()
    open_store(str(db)).close()  # and free once that one stopped too


@pytest.mark.skipif(os.geteuid() != 0, reason="a bind mount needs root")  # CI runs as root
def test_a_second_server_through_a_bind_mount_is_refused(first: tuple[Serving, Path], tmp_path: Path) -> None:
    _server, db = first
    mount = tmp_path / "mnt"
    mount.mkdir()
    run = serve(str(mount / db.name), namespace=f"mount --bind {db.parent} {mount}")
    refused_in_one_line(run, "is in use by another sgmahjong server")

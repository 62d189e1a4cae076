"""A server process killed mid-hand (SIGKILL) and started again resumes every table from SQLite."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import FAST_OPTIONS, WsClient, free_port, remember_seat

SEED = 42


class Process:
    """``python -m sgmahjong serve`` in a child process."""

    def __init__(self, port: int, database: Path) -> None:
        env = {**os.environ, "SGMAHJONG_TEST_HOOKS": "1"}
        self.url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sgmahjong", "serve", "--port", str(port), "--database", str(database)],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        assert self.proc.stdout is not None
        self.banner = self.proc.stdout.readline()
        end = time.monotonic() + 30
        while True:
            try:
                if httpx.get(self.url + "/api/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if self.proc.poll() is not None or time.monotonic() > end:
                out = self.proc.stdout.read() if self.proc.stdout else ""
                raise RuntimeError(f"server did not start: {out}")
            time.sleep(0.1)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        if self.proc.stdout:
            self.proc.stdout.close()

    def ws(self, code: str) -> WsClient:
        return WsClient(f"{self.ws_url}/ws/{code}")


def _settle_both(clients: list[WsClient], last: list[dict[str, Any]]) -> None:
    """Both clients' latest views once the table is quiet: a bot's decision on a busy machine may
    outlast one client's quiet spell, so settle again until the two agree (or nothing more comes)."""
    for _ in range(10):
        for seat, ws in enumerate(clients):
            with contextlib.suppress(TimeoutError):  # nothing new for this client
                last[seat] = ws.settle(timeout=2)["view"]
        if last[0]["version"] == last[1]["version"]:
            return


@pytest.mark.parametrize("seed", [SEED, None], ids=["test-seed", "fresh-secret"])
def test_restart_resumes_a_table_mid_hand_with_no_action_lost(tmp_path: Path, seed: int | None) -> None:
    """With a test seed the hands derive from it; without, each hand has its own OS secret, stored
    with the hand, from which the restarted server rebuilds the same wall."""
    port, db = free_port(), tmp_path / "restart.sqlite3"
    server = Process(port, db)
    assert f"http://127.0.0.1:{port}" in server.banner and str(db) in server.banner
    try:
        options = {**FAST_OPTIONS, "takeover_seconds": 60}
        r = httpx.post(server.url + "/api/tables",
                       json={"name": "Restart", "seed": seed, "options": options}, timeout=10)
        code = r.json()["code"]
        tokens = []
        for s, n in ((0, "Ann"), (1, "Bob")):
            joined = httpx.post(f"{server.url}/api/tables/{code}/join", json={"name": n, "seat": s},
                                timeout=10)
            remember_seat(joined)  # the seat is the new visitor's: its session opens it
            tokens.append(joined.json()["token"])
        clients = [server.ws(code), server.ws(code)]
        for ws, token in zip(clients, tokens, strict=True):
            ws.hello(token)
        clients[0].send({"type": "start"})
        last: list[dict[str, Any]] = [ws.settle()["view"] for ws in clients]
        # the humans play their turns (first legal action), bots play the others, for a while
        moves = 0
        while moves < 6 and last[0]["phase"] != "ended":
            for seat, ws in enumerate(clients):
                view = last[seat]
                if seat in view["awaiting"] and view["legal_actions"]:
                    ws.send({"type": "action", "action": view["legal_actions"][0],
                             "version": view["version"]})
                    moves += 1
                    break
            else:
                raise AssertionError(f"the table settled awaiting no human: {last[0]['awaiting']}")
            _settle_both(clients, last)
            assert last[0]["version"] == last[1]["version"]
        assert moves >= 2 and last[0]["version"] >= 2
        server.kill()  # while both humans are connected: nothing more happens before the kill
        for ws in clients:
            ws.close()

        server = Process(port, db)
        summary = httpx.get(f"{server.url}/api/tables/{code}", timeout=10).json()
        assert summary["status"] == ("playing" if last[0]["phase"] != "ended" else "between_hands")
        for seat, token in enumerate(tokens):
            with server.ws(code) as ws:
                assert ws.hello(token)["seat"] == seat
                assert ws.until("view")["view"] == last[seat]
        # and play goes on from there
        if last[0]["phase"] != "ended":
            seat = next(s for s in (0, 1) if s in last[s]["awaiting"])
            with server.ws(code) as ws:
                ws.hello(tokens[seat])
                view = ws.until("view")["view"]
                ws.send({"type": "action", "action": view["legal_actions"][0], "version": view["version"]})
                after = ws.until("view", lambda m: m["view"]["version"] > view["version"])["view"]
                assert after["version"] > last[0]["version"]
    finally:
        server.kill()

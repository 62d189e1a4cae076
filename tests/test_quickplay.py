"""Quick play's countdown: a lone player is playing against bots within the countdown plus 2 s, and a
second player who comes during the countdown sits at the same table (bots fill only the rest)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sgmahjong.server.settings import ServerSettings
from tests.conftest import LiveServer, serving

COUNTDOWN = 1.5


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    settings = ServerSettings(quick_countdown_seconds=COUNTDOWN)
    with serving(tmp_path / "quick.sqlite3", settings=settings) as live:
        yield live


def test_a_lone_player_is_playing_against_bots_within_the_countdown_plus_2_s(server: LiveServer) -> None:
    asked = time.monotonic()
    r = server.post("/api/quick", {"name": "Ann"})
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["starts_in"] == COUNTDOWN
    summary = server.get(f"/api/tables/{answer['code']}").json()
    assert summary["status"] == "lobby" and 0 < summary["starts_in"] <= COUNTDOWN
    with server.ws(answer["code"]) as ws:
        ws.hello(answer["token"])
        view = ws.until("view", lambda m: m["status"] == "playing")
    took = time.monotonic() - asked
    assert took < COUNTDOWN + 2, f"playing after {took:.2f} s"
    kinds = [s["kind"] for s in server.get(f"/api/tables/{answer['code']}").json()["seats"]]
    assert sorted(kinds) == ["bot", "bot", "bot", "human"] and view["status"] == "playing"


def test_a_second_player_in_the_countdown_sits_at_the_same_table(server: LiveServer) -> None:
    first = server.post("/api/quick", {"name": "Ann"}).json()
    second = server.post("/api/quick", {"name": "Bo"}).json()
    assert second["code"] == first["code"] and second["seat"] != first["seat"]
    with server.ws(first["code"]) as ws:
        ws.hello(first["token"])
        ws.until("view", lambda m: m["status"] == "playing")
    kinds = [s["kind"] for s in server.get(f"/api/tables/{first['code']}").json()["seats"]]
    assert sorted(kinds) == ["bot", "bot", "human", "human"]
    assert server.get(f"/api/tables/{first['code']}").json()["starts_in"] is None  # started: no countdown

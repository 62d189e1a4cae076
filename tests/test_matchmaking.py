"""The ranked queue on one process (SQLite): signed-in players queue, are matched in fours by rating
(a window that widens with waiting), each seated exactly once at a ranked table whose seat token is
their ticket; the number waiting and the window are shown while they wait. The cluster test (two
workers on PostgreSQL behind HAProxy, one killed) is in test_cluster_matchmaking.py."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from sgmahjong.server.ranking.record import RankedPolicy
from sgmahjong.server.settings import ServerSettings
from sgmahjong.server.store.queue import QueueEntry, groups_of_four
from tests.conftest import LiveServer, serving
from tests.test_accounts import cookie_of, device, key_for, register


def entry(i: int, rating: float, joined: float) -> QueueEntry:
    return QueueEntry(i, f"t{i}", i, i, f"P{i}", rating, joined, "waiting")


def test_groups_of_four_by_rating_with_a_window_that_widens() -> None:
    now = 1000.0
    waiting = [entry(i, 1500 + 60 * i, now - 1) for i in range(8)]  # 60 apart: 4 need a window of 180
    assert groups_of_four(waiting, now, 100, 10) == []  # window 110 at 1 s
    later = groups_of_four(waiting, now + 8, 100, 10)  # 190 at 9 s
    assert [[e.id for e in g] for g in later] == [[0, 1, 2, 3], [4, 5, 6, 7]]
    # the oldest is served first, with the nearest ratings
    mixed = [entry(0, 1500, now - 50), entry(1, 2000, now - 40), entry(2, 1510, now), entry(3, 1490, now),
             entry(4, 1700, now), entry(5, 1495, now)]
    assert [sorted(e.id for e in g) for g in groups_of_four(mixed, now, 100, 0)] == [[0, 2, 3, 5]]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    settings = ServerSettings(sign_in_burst=50, queue_interval_seconds=0.2, queue_window=50,
                              queue_widen_per_second=40, trusted_proxies=("127.0.0.1",))
    with serving(tmp_path / "queue.sqlite3", settings=settings) as live:
        yield live


def wait_matched(client: httpx.Client, ticket: str, timeout: float = 60) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        answer: dict[str, Any] = client.post("/api/ranked/poll", json={"ticket": ticket}).json()
        if answer["status"] == "matched":
            return answer
        time.sleep(0.1)
    raise TimeoutError("never matched")


def test_eight_signed_in_players_are_seated_once_each_at_two_ranked_tables(server: LiveServer) -> None:
    players = [device(server, f"198.51.100.{i + 1}") for i in range(8)]  # eight homes
    guest = device(server, "198.51.100.99")
    assert guest.post("/api/ranked/join", json={}).status_code == 401  # a guest plays Quick play instead
    for i, client in enumerate(players):
        assert register(client, key_for(server), f"Player {i}").status_code == 200
    tickets = []
    for client in players[:3]:
        r = client.post("/api/ranked/join", json={})
        assert r.status_code == 200, r.text
        tickets.append(r.json()["ticket"])
    waiting = players[0].post("/api/ranked/poll", json={"ticket": tickets[0]}).json()
    assert waiting["status"] == "waiting" and waiting["waiting"] == 3 and waiting["window"] >= 50
    for client in players[3:]:
        tickets.append(client.post("/api/ranked/join", json={}).json()["ticket"])
    seated = [wait_matched(c, t) for c, t in zip(players, tickets, strict=True)]
    places = {(s["code"], s["seat"]) for s in seated}
    assert len(places) == 8  # nobody twice, no seat twice
    codes = {s["code"] for s in seated}
    assert len(codes) == 2
    for code in codes:
        summary = server.get(f"/api/tables/{code}").json()
        assert [s["kind"] for s in summary["seats"]] == ["human"] * 4  # humans only
        assert summary["rules"] == RankedPolicy.of().rules
        assert summary["status"] in ("playing", "between_hands")
    # the seat is the player's: their session opens it (with the ticket as its token, or none)
    first = seated[0]
    with server.ws(first["code"], cookie_of(players[0])) as ws:
        assert ws.hello(tickets[0])["seat"] == first["seat"]
    with server.ws(first["code"], cookie_of(players[0])) as ws:
        assert ws.hello(None)["seat"] == first["seat"]
    with server.ws(first["code"]) as ws:  # the ticket alone, without the player's session, opens nothing
        ws.send({"type": "hello", "token": tickets[0]})
        assert ws.until("error")["code"] == "bad_token"
    # leaving the queue: a new ticket, then leave
    again = players[0].post("/api/ranked/join", json={}).json()["ticket"]
    assert players[0].post("/api/ranked/leave", json={"ticket": again}).json() == {"left": True}
    assert players[0].post("/api/ranked/poll", json={"ticket": again}).status_code == 404


def test_four_accounts_behind_one_address_are_never_seated_together(server: LiveServer) -> None:
    """One person's four accounts (one address) queue: no table is formed of them; when four homes
    join, no table seats two of them (one may sit with three strangers; the others wait)."""
    alts = [device(server, "203.0.113.5") for _ in range(4)]
    for i, client in enumerate(alts):
        assert register(client, key_for(server), f"Alt {i}").status_code == 200
    tickets = [c.post("/api/ranked/join", json={}).json()["ticket"] for c in alts]
    time.sleep(1.2)  # six rounds of matching (queue_interval_seconds 0.2)
    polls = [c.post("/api/ranked/poll", json={"ticket": t}).json()
             for c, t in zip(alts, tickets, strict=True)]
    assert [p["status"] for p in polls] == ["waiting"] * 4
    homes = [device(server, f"192.0.2.{i + 1}") for i in range(4)]
    for i, client in enumerate(homes):
        assert register(client, key_for(server), f"Home {i}").status_code == 200
    home_tickets = [c.post("/api/ranked/join", json={}).json()["ticket"] for c in homes]
    time.sleep(1.2)
    polls = [c.post("/api/ranked/poll", json={"ticket": t}).json()
             for c, t in zip(alts + homes, tickets + home_tickets, strict=True)]
    tables: dict[str, list[str]] = {}
    for who, p in zip(["alt"] * 4 + ["home"] * 4, polls, strict=True):
        if p["status"] == "matched":
            tables.setdefault(p["code"], []).append(who)
    assert len(tables) == 1 and all(seated.count("alt") <= 1 for seated in tables.values())
    assert [p["status"] for p in polls[:4]].count("waiting") == 3


def test_a_ranked_table_every_player_left_plays_on_to_be_rated(tmp_path: Path) -> None:
    """A ranked match is played to its end when every player has left (their seats by bots, so the
    match is rated with all of them placed last), never closed unrated by the idle sweep: leaving
    together is no way out of a rating."""
    settings = ServerSettings(sign_in_burst=50, queue_interval_seconds=0.2, queue_window=50,
                              queue_widen_per_second=40, trusted_proxies=("127.0.0.1",),
                              idle_table_seconds=0.5, sweep_seconds=0.2)
    with serving(tmp_path / "leave.sqlite3", settings=settings) as live:
        players = [device(live, f"198.51.100.{i + 1}") for i in range(4)]
        for i, client in enumerate(players):
            assert register(client, key_for(live), f"Player {i}").status_code == 200
        tickets = [c.post("/api/ranked/join", json={}).json()["ticket"] for c in players]
        seated = [wait_matched(c, t) for c, t in zip(players, tickets, strict=True)]
        code = seated[0]["code"]
        assert live.get(f"/api/tables/{code}").json()["options"]["unattended"] is True
        end = time.monotonic() + 3  # six sweeps past the idle time with nobody at the table
        while time.monotonic() < end:
            assert live.get(f"/api/tables/{code}").json()["status"] in ("playing", "between_hands")
            time.sleep(0.2)

"""The ranked queue's counts and the place kept while playing bots (http/ranked.py, store/queue.py):
how many accounts are online and queueing, the wait to expect from recent matches (none while too
few were matched), counts only (never who); and a queued player who opens an ordinary bots table keeps
their place, is matched while there, and the bots table stays unrated and theirs to leave."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from sgmahjong.server.http.ranked import ESTIMATE_MIN, QueueCounts
from sgmahjong.server.settings import ServerSettings
from tests.conftest import LiveServer, serving
from tests.test_accounts import device, key_for, register
from tests.test_matchmaking import wait_matched

SETTINGS = ServerSettings(sign_in_burst=50, queue_interval_seconds=0.2, queue_window=50,
                          queue_widen_per_second=40, trusted_proxies=("127.0.0.1",), queue_counts_seconds=0)


@pytest.fixture
def server(database_url: str) -> Iterator[LiveServer]:
    """A server on each backend in turn (the counts are the store's SQL: SQLite and PostgreSQL)."""
    with serving(database_url, settings=SETTINGS) as live:
        yield live


def players(server: LiveServer, n: int) -> list[httpx.Client]:
    out = []
    for i in range(n):
        client = device(server, f"198.51.100.{i + 1}")
        assert register(client, key_for(server), f"Counted {i}").status_code == 200
        out.append(client)
    return out


def test_counts_online_and_queueing_and_the_wait_once_matches_were_made(server: LiveServer) -> None:
    anyone = device(server, "198.51.100.200")
    empty = anyone.get("/api/ranked/status").json()
    assert empty == {"online": 0, "waiting": 0, "estimate": None}
    clients = players(server, 8)
    assert anyone.get("/api/ranked/status").json() == {"online": 8, "waiting": 0, "estimate": None}
    tickets = [c.post("/api/ranked/join", json={}).json()["ticket"] for c in clients[:3]]
    status = anyone.get("/api/ranked/status")
    assert status.json() == {"online": 8, "waiting": 3, "estimate": None}  # nobody matched yet: no estimate
    assert "Counted" not in status.text  # counts only, never who
    poll = clients[0].post("/api/ranked/poll", json={"ticket": tickets[0]}).json()
    assert poll["waiting"] == 3 and poll["online"] == 8 and poll["estimate"] is None
    tickets.append(clients[3].post("/api/ranked/join", json={}).json()["ticket"])
    for client, ticket in zip(clients[:4], tickets, strict=True):
        wait_matched(client, ticket)
    after = anyone.get("/api/ranked/status").json()
    assert after["waiting"] == 0 and after["online"] == 8
    assert isinstance(after["estimate"], int) and 0 <= after["estimate"] < 60  # four waits: a median
    # a fifth in the queue is told the same estimate while they wait
    ticket = clients[4].post("/api/ranked/join", json={}).json()["ticket"]
    told = clients[4].post("/api/ranked/poll", json={"ticket": ticket}).json()
    assert told["estimate"] == after["estimate"]


def test_counts_are_kept_briefly_and_need_enough_matches() -> None:
    class Store:
        calls = 0

        def __init__(self) -> None:
            self.waits = [10.0, 30.0, 20.0]

        def accounts_online(self, since: float) -> int:
            Store.calls += 1
            return 6

        def queue_size(self, now: float, stale: float) -> int:
            return 1

        def queue_waits(self, since: float, most: int) -> list[float]:
            return list(self.waits)[:most]

    clock = [1000.0]
    store = Store()
    counts = QueueCounts(lambda: store, ServerSettings(queue_counts_seconds=2), lambda: clock[0])
    assert counts.now() == {"online": 6, "waiting": 1, "estimate": None}  # three waits: too few
    store.waits = [10.0, 30.0, 20.0, 40.0, 90.0][:ESTIMATE_MIN + 1]
    assert counts.now()["estimate"] is None and Store.calls == 1  # kept for 2 s
    clock[0] += 2.5
    assert counts.now()["estimate"] == 30 and Store.calls == 2  # the median of five


def test_a_queued_player_at_a_bots_table_keeps_their_place_and_is_matched_there(server: LiveServer) -> None:
    clients = players(server, 4)
    ann = clients[0]
    ticket = ann.post("/api/ranked/join", json={}).json()["ticket"]
    bots = ann.post("/api/play", json={"name": "Counted 0"})
    assert bots.status_code == 201, bots.text
    bots_code = bots.json()["code"]
    # playing there, Ann keeps asking (the table page polls the ticket): her place is kept
    waiting = ann.post("/api/ranked/poll", json={"ticket": ticket}).json()
    assert waiting["status"] == "waiting" and waiting["waiting"] == 1
    assert server.get(f"/api/tables/{bots_code}/ranked").json()["ranked"] is False  # an ordinary table
    others = [c.post("/api/ranked/join", json={}).json()["ticket"] for c in clients[1:]]
    found = wait_matched(ann, ticket)
    assert found["code"] != bots_code and found["url"] == f"/t/{found['code']}"
    assert server.get(f"/api/tables/{found['code']}/ranked").json()["ranked"] is True
    for client, t in zip(clients[1:], others, strict=True):
        assert wait_matched(client, t)["code"] == found["code"]
    # matched: the ticket is no longer in the queue, and leaving the queue now does nothing
    assert ann.post("/api/ranked/leave", json={"ticket": ticket}).json() == {"left": False}
    assert server.get("/api/ranked/status").json()["waiting"] == 0

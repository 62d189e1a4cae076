"""Ranked matchmaking on a real cluster (PostgreSQL + two ``sgmahjong serve`` workers + HAProxy):
40 signed-in players queue through both workers at once; one worker is killed (SIGKILL) while they
all wait; every one is then seated exactly once by the other, in tables of four, each table on one
worker."""

from __future__ import annotations

import contextlib
import hashlib
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from sgmahjong.server.cluster.local import LocalCluster
from sgmahjong.server.http import sessions
from sgmahjong.server.ranking.ladder import BASE, SCALE
from sgmahjong.server.store import open_store
from sgmahjong.server.store.identity_sql import SessionRow
from tests.conftest import free_port

PLAYERS = 40
SPREAD = 25  # rating points between neighbours: a group of four needs a window of 75 ...
WIDEN = 3  # ... which the window (0 at first) reaches after 25 s of waiting


@pytest.fixture
def cluster(postgres: Any, tmp_path: Path) -> Any:
    url = postgres.create_database(f"queue_{free_port()}")
    c = LocalCluster(tmp_path / "cluster", workers=2, port=free_port(), database=url, env={
        "SGMAHJONG_QUEUE_WINDOW": "0", "SGMAHJONG_QUEUE_WIDEN_PER_SECOND": str(WIDEN),
        "SGMAHJONG_QUEUE_INTERVAL_SECONDS": "0.2"})
    c.start()
    try:
        yield c
    finally:
        c.stop()


def signed_in_players(url: str) -> list[dict[str, Any]]:
    """PLAYERS accounts with a session each and ratings SPREAD apart (written to the database)."""
    store = open_store(url, worker="test")
    out = []
    try:
        sigma = 25 / 3
        for i in range(PLAYERS):
            aid = store.create_account(f"Q{i:02d}", f"q{i:02d}", f"queue-handle-{i}")
            assert aid is not None
            token = secrets.token_urlsafe(32)
            pid = store.new_guest(f"Q{i:02d}")
            assert store.claim_player(pid, aid)
            now = time.time()
            store.add_session(SessionRow(sessions.digest(token), pid, aid, f"device-{i}", "", now, now + 3600,
                                         now, "test"), 5)
            out.append({"account": aid, "cookie": token})
        with psycopg.connect(url, autocommit=True) as conn:
            for i, p in enumerate(out):
                mu = (SPREAD * i) / SCALE + 3 * sigma  # rating BASE + SPREAD * i
                conn.execute("INSERT INTO ratings (account_id, season, mu, sigma, matches, rank, points,"
                             " updated) VALUES (%s, 'all', %s, %s, 10, 1, 50, 0)", (p["account"], mu, sigma))
    finally:
        store.close()
    assert round(BASE + SCALE * ((SPREAD * 3) / SCALE)) == BASE + 75
    return out


def test_forty_players_queue_through_both_workers_and_a_killed_worker_loses_nobody(
        cluster: LocalCluster) -> None:
    url = cluster.database
    assert url is not None
    players = signed_in_players(url)
    a, b = cluster.workers

    def join(i: int) -> str:
        p = players[i]
        worker = (a, b)[i % 2]  # half through each worker, all at once
        r = httpx.post(worker.url + "/api/ranked/join", json={}, timeout=20,  # forty homes
                       headers={"X-Forwarded-For": f"10.0.{i}.1"}, cookies={"sg_session": p["cookie"]})
        assert r.status_code == 200, r.text
        return str(r.json()["ticket"])

    with ThreadPoolExecutor(8) as pool:
        tickets = list(pool.map(join, range(PLAYERS)))
    with psycopg.connect(url) as conn:
        waiting = conn.execute("SELECT COUNT(*) FROM queue_entries WHERE status = 'waiting'").fetchone()
    assert waiting is not None and waiting[0] > 0  # players are waiting when ...
    a.kill()  # ... one worker dies
    with psycopg.connect(url) as conn:
        waited = {r[0] for r in conn.execute(
            "SELECT ticket_hash FROM queue_entries WHERE table_code IS NULL")}

    seated: dict[str, tuple[str, int]] = {}
    end = time.monotonic() + 120
    # each player polls through the proxy from an address of its own, over one kept-alive connection, as
    # forty browsers would (HAProxy's front door limits new connections and requests per client address)
    with contextlib.ExitStack() as stack:
        clients = [stack.enter_context(httpx.Client(
            transport=httpx.HTTPTransport(local_address=f"127.0.1.{i + 1}"), timeout=10))
            for i in range(PLAYERS)]
        while len(seated) < PLAYERS and time.monotonic() < end:
            for client, ticket in zip(clients, tickets, strict=True):
                if ticket in seated:
                    continue
                r = client.post(cluster.url + "/api/ranked/poll", json={"ticket": ticket})
                if r.status_code == 200 and r.json()["status"] == "matched":
                    seated[ticket] = (r.json()["code"], r.json()["seat"])
            time.sleep(0.3)
    assert len(seated) == PLAYERS  # nobody lost from the queue
    assert len(set(seated.values())) == PLAYERS  # nobody seated twice, no seat given twice
    tables: dict[str, list[int]] = {}
    for code, seat in seated.values():
        tables.setdefault(code, []).append(seat)
    assert len(tables) == PLAYERS // 4 and all(sorted(s) == [0, 1, 2, 3] for s in tables.values())

    hashed = {hashlib.sha256(t.encode()).hexdigest(): t for t in tickets}
    with psycopg.connect(url) as conn:
        for code in tables:
            rows = conn.execute("SELECT s.seat, s.kind, s.token_hash FROM seats s JOIN tables t"
                                " ON t.id = s.table_id WHERE t.code = %s ORDER BY s.seat", (code,)).fetchall()
            assert [r[1] for r in rows] == ["human"] * 4
            for seat, _, token_hash in rows:
                assert seated[hashed[token_hash]] == (code, seat)  # the ticket is that seat's token
            owners = conn.execute("SELECT DISTINCT l.worker FROM leases l JOIN tables t ON t.id = l.table_id"
                                  " WHERE t.code = %s", (code,)).fetchall()
            assert len(owners) == 1  # each table on one worker ...
            if any(token_hash in waited for _, _, token_hash in rows):
                assert owners == [(b.name,)]  # ... and those still waiting at the kill seated by the other
        # each table's players are within the window of its oldest when they were matched
        for code in tables:
            rows = conn.execute("SELECT rating, joined, matched_at FROM queue_entries WHERE table_code = %s",
                                (code,)).fetchall()
            ratings = [r[0] for r in rows]
            oldest, matched = min(r[1] for r in rows), rows[0][2]
            assert 3 * SPREAD <= max(ratings) - min(ratings) <= WIDEN * (matched - oldest) + 0.001

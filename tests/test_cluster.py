"""A real cluster: PostgreSQL + two ``sgmahjong serve`` workers + HAProxy (sgmahjong.server.cluster.local).

Four clients play through the proxy; the worker that owns the table is killed (SIGKILL) mid-hand;
the clients reconnect through the proxy and play on at the other worker, from PostgreSQL. The stored
log shows every acknowledged action kept, and no table with two workers applying actions at once.
"""

from __future__ import annotations

import time
from itertools import pairwise
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from sgmahjong.server.cluster.local import LocalCluster
from tests.conftest import FAST_OPTIONS, WsClient, free_port, remember_seat

SEED = 2024
ROOT = Path(__file__).resolve().parent.parent


class Player:
    """One seat's browser, reduced: a WebSocket through the proxy that reconnects when it drops."""

    def __init__(self, ws_url: str, token: str, seat: int) -> None:
        self.ws_url, self.token, self.seat = ws_url, token, seat
        self.ws: WsClient | None = None
        self.view: dict[str, Any] | None = None
        self.max_version = -1  # the highest hand version this client was shown
        self.sent_for = -1  # the version it last acted on

    def connect(self) -> bool:
        try:
            ws = WsClient(self.ws_url)
            ws.hello(self.token)
        except Exception:
            return False
        self.ws = ws
        return True

    def pump(self, timeout: float = 0.05) -> None:
        """Read what has arrived; a dropped connection leaves ``ws`` None."""
        while self.ws is not None:
            try:
                msg = self.ws.recv(timeout=timeout)
            except TimeoutError:
                return
            except Exception:
                self.ws = None
                return
            if msg.get("type") == "view":
                self.view = msg["view"]
                self.max_version = max(self.max_version, msg["view"]["version"])
            timeout = 0.01

    def act(self) -> bool:
        """Send one action if this seat is awaited (a discard or pass rather than a win)."""
        view = self.view
        if self.ws is None or view is None or self.seat not in view["awaiting"] or not view["legal_actions"]:
            return False
        if view["version"] <= self.sent_for:
            return False
        legal = view["legal_actions"]
        action = next((a for a in legal if a.startswith(("discard", "pass"))), legal[0])
        try:
            self.ws.send({"type": "action", "action": action, "version": view["version"]})
        except Exception:
            self.ws = None
            return False
        self.sent_for = view["version"]
        return True


def _play(players: list[Player], actions: int, timeout: float = 30) -> None:
    """Let the four players play ``actions`` actions (and see them acknowledged)."""
    end = time.monotonic() + timeout
    start = max(p.max_version for p in players)
    while True:
        for p in players:
            p.pump()
        if min(p.max_version for p in players) >= start + actions:
            return
        assert all(p.ws is not None for p in players), "a connection dropped"
        assert time.monotonic() < end, "play did not advance"
        for p in players:
            p.act()


def _stored_actions(url: str, table_code: str) -> list[tuple[int, int, str, int]]:
    with psycopg.connect(url) as conn:
        return [tuple(r) for r in conn.execute(  # type: ignore[misc]
            "SELECT a.hand, a.seq, a.worker, a.lease FROM actions a JOIN tables t ON t.id = a.table_id"
            " WHERE t.code = %s ORDER BY a.hand, a.seq", (table_code,)).fetchall()]


def _owner(url: str, table_code: str) -> str:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT l.worker FROM leases l JOIN tables t ON t.id = l.table_id"
                           " WHERE t.code = %s", (table_code,)).fetchone()
    assert row is not None
    return str(row[0])


@pytest.fixture
def cluster(postgres: Any, tmp_path: Path) -> Any:
    url = postgres.create_database(f"cluster_{free_port()}")
    ports = (free_port(), free_port())  # fixed worker ports, as `cluster up --worker-ports` gives them
    c = LocalCluster(tmp_path / "cluster", workers=2, port=free_port(), database=url,
                     env={"SGMAHJONG_TEST_HOOKS": "1"}, worker_ports=ports)
    c.start()
    assert [w.port for w in c.workers] == list(ports)
    try:
        yield c
    finally:
        c.stop()


def test_a_killed_workers_table_resumes_on_the_other_with_nothing_lost(cluster: LocalCluster) -> None:
    proxy, db = cluster.url, cluster.database
    assert db is not None
    options = {**FAST_OPTIONS, "takeover_seconds": 600}  # no bot takes a seat during the failover
    r = httpx.post(proxy + "/api/tables", json={"name": "Cluster", "seed": SEED, "options": options},
                   timeout=10)
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    ws_url = f"ws://127.0.0.1:{cluster.port}/ws/{code}"
    players = []
    for seat, name in enumerate(("Ann", "Bob", "Cat", "Dan")):
        j = httpx.post(f"{proxy}/api/tables/{code}/join", json={"name": name, "seat": seat}, timeout=10)
        assert j.status_code == 200, j.text
        remember_seat(j)  # each seat is its new visitor's: that session opens it
        players.append(Player(ws_url, j.json()["token"], seat))
    for p in players:
        assert p.connect()
    assert players[0].ws is not None
    players[0].ws.send({"type": "start"})
    _play(players, 8)

    # every table read works from either worker: the lobby of each lists the table
    for w in cluster.workers:
        listed = httpx.get(w.url + "/api/tables", timeout=10).json()["tables"]
        assert code in [t["code"] for t in listed]

    owner = _owner(db, code)
    survivor = next(w.name for w in cluster.workers if w.name != owner)
    acknowledged = min(p.max_version for p in players)
    before = _stored_actions(db, code)
    assert {w for _, _, w, _ in before} == {owner}

    cluster.worker(owner).kill()  # mid-hand
    killed = time.monotonic()
    for p in players:  # each notices its connection dropped
        while p.ws is not None:
            p.pump(0.2)
    for p in players:  # and reconnects through the proxy (the browser retries with backoff)
        while not p.connect():
            assert time.monotonic() - killed < 30, "could not reconnect"
            time.sleep(0.1)
    _play(players, 1)
    resumed = time.monotonic() - killed
    print(f"\nplay resumed on {survivor} {resumed:.2f} s after {owner} was killed")
    assert resumed < 5
    assert min(p.max_version for p in players) > acknowledged  # nothing acknowledged was lost
    _play(players, 6)

    after = _stored_actions(db, code)
    assert after[:len(before)] == before  # every action stored before the kill is still there
    assert _owner(db, code) == survivor
    # the log: one action per seq, in order; one worker per lease; leases never interleave
    for (h1, s1, _, l1), (h2, s2, _, l2) in pairwise(after):
        assert (h2, s2) == (h1, s1 + 1) or (h2 > h1 and s2 == 0)
        assert l2 >= l1
    workers_of_lease: dict[int, set[str]] = {}
    for _, _, w, lease in after:
        workers_of_lease.setdefault(lease, set()).add(w)
    assert all(len(ws) == 1 for ws in workers_of_lease.values())
    assert [next(iter(workers_of_lease[k])) for k in sorted(workers_of_lease)] == [owner, survivor]


def test_a_table_created_on_one_worker_opens_on_the_one_it_is_routed_to(cluster: LocalCluster) -> None:
    """Worker A creates a table; a request for it reaching worker B gets it handed over to B, and A's
    clients are told it moved."""
    a, b = cluster.workers
    code = httpx.post(a.url + "/api/tables", json={"name": "Moving", "options": FAST_OPTIONS},
                      timeout=10).json()["code"]
    with WsClient(f"ws://127.0.0.1:{a.port}/ws/{code}") as ws_a:
        ws_a.hello(None)
        got = httpx.get(f"{b.url}/api/tables/{code}", timeout=10)
        assert got.status_code == 200 and got.json()["code"] == code
        assert ws_a.until("error")["code"] == "moved"
    assert cluster.database is not None and _owner(cluster.database, code) == b.name
    metrics = httpx.get(b.url + "/metrics", timeout=10).text
    assert "sgmahjong_live_tables 1.0" in metrics


def test_quick_play_pairs_players_who_reach_different_workers(cluster: LocalCluster) -> None:
    """Quick play finds the waiting table in the database, not only among its own worker's tables:
    two players whose requests reach different workers sit at one table."""
    a, b = cluster.workers
    first = httpx.post(a.url + "/api/quick", json={"name": "Ann"}, timeout=10).json()
    second = httpx.post(b.url + "/api/quick", json={"name": "Bo"}, timeout=10).json()
    assert first["code"] == second["code"] and first["seat"] != second["seat"]
    summary = httpx.get(f"{cluster.url}/api/tables/{first['code']}", timeout=10).json()
    assert sorted(s["name"] for s in summary["seats"] if s["kind"] == "human") == ["Ann", "Bo"]


def test_the_deploy_config_is_the_generated_one_and_haproxy_accepts_it() -> None:
    import subprocess

    from sgmahjong.server.cluster.haproxy import deploy_example
    from sgmahjong.server.cluster.local import haproxy

    committed = (ROOT / "deploy" / "haproxy.cfg").read_text()
    assert committed == deploy_example(), "stale: python -m sgmahjong.server.cluster.haproxy > it"
    r = subprocess.run([haproxy(), "-c", "-f", str(ROOT / "deploy" / "haproxy.cfg")], capture_output=True,
                       text=True, check=False)
    assert r.returncode == 0, r.stderr


def test_the_browser_reconnects_to_the_other_worker_and_keeps_its_seat(cluster: LocalCluster,
                                                                       browser: Any) -> None:
    """A seated page through the proxy; its table's worker is killed: the page reconnects by itself
    (backoff), is seated again at the same version, and plays on."""
    from playwright.sync_api import expect

    options = {"bot_delay": 0, "turn_seconds": 60, "claim_seconds": 60, "next_hand_seconds": 0,
               "takeover_seconds": 600}
    code = httpx.post(cluster.url + "/api/tables", json={"name": "Browser", "seed": 11, "options": options},
                      timeout=10).json()["code"]
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{cluster.url}/t/{code}")
    page.fill("#join-name", "Ann")
    page.locator('#seat-list [data-seat="0"] [data-action="join"]').click()
    expect(page.locator("body")).to_have_attribute("data-seat", "0")
    page.locator("#start-btn").click()
    turn = "#hand .slot.can-discard, #actions [data-action=pass]:not([disabled])"
    page.wait_for_selector(turn)
    version = int(page.locator("body").get_attribute("data-version") or -1)
    assert cluster.database is not None
    cluster.worker(_owner(cluster.database, code)).kill()
    expect(page.locator("#conn")).not_to_have_text("connected")
    expect(page.locator("#conn")).to_have_text("connected", timeout=20_000)
    expect(page.locator("body")).to_have_attribute("data-seat", "0")
    page.wait_for_selector(turn)
    assert int(page.locator("body").get_attribute("data-version") or -1) == version
    if page.locator('#actions [data-action="pass"]:not([disabled])').count():
        page.locator('#actions [data-action="pass"]').first.click()
    else:
        page.locator("#hand .slot.can-discard").last.click()
    expect(page.locator("body")).not_to_have_attribute("data-version", str(version))
    assert errors == []
    page.context.close()

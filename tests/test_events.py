"""Events run by the server (docs/events.md): a duplicate event of eight entrants at two tables over
three rounds, its shared walls checked with the docs/wall.md recipe, its standings equal to a
recomputation from the stored hands, every hand with a replay; and the routes' refusals."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from typing import Any

import httpx

from sgmahjong.tournament import EventRules, HandRecord, SeatResult, standings
from tests.conftest import FAST_OPTIONS, LiveServer
from tests.test_clubs import call, player
from tests.test_wall import _recipe


def _event(server: LiveServer, code: str, who: str | None = None) -> dict[str, Any]:
    r = call(server, "GET", f"/api/events/{code}", who)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _wait_finished(server: LiveServer, code: str, seconds: float = 240) -> dict[str, Any]:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        data = _event(server, code)
        if data["status"] == "finished":
            return data
        time.sleep(0.5)  # polling the server's state (the event moves on its own check interval)
    raise AssertionError(f"the event did not finish: {_event(server, code)}")


Query = Callable[[str, tuple[Any, ...]], list[Any]]


def recompute(query: Query, code: str) -> tuple[dict[str, str], list[HandRecord]]:
    """An event's entrants (id -> name) and its hands as the standings read them, straight from the
    database (``query(sql, params)`` with ``?`` placeholders), independently of the server's code."""
    ((event_id,),) = query("SELECT id FROM tournaments WHERE code = ?", (code,))
    names = {str(p): n for p, n in query(
        "SELECT e.player_id, p.name FROM tournament_entrants e JOIN players p ON p.id = e.player_id"
        " WHERE e.event_id = ? ORDER BY e.entered, e.player_id", (event_id,))}
    records = []
    for table_id, rnd, table_no in query(
            "SELECT table_id, round, table_no FROM tournament_tables WHERE event_id = ?", (event_id,)):
        who = dict(query("SELECT seat, player_id FROM seat_players WHERE table_id = ?", (table_id,)))
        for number, wall_hash, text in query(
                "SELECT number, wall_hash, result FROM hands WHERE table_id = ? AND result IS NOT NULL",
                (table_id,)):
            result = json.loads(text) if isinstance(text, str) else text
            net = list(result["payments"])
            for pay in result.get("instant") or ():
                net = [a + b for a, b in zip(net, pay["amounts"], strict=True)]
            sources = [tuple(r) for r in query(
                "SELECT seat, source FROM actions WHERE table_id = ? AND hand = ?", (table_id, number))]
            seats = [SeatResult(str(who[s]) if s in who else None, net[s],
                                by_bot=(s, "bot") in sources and (s, "human") not in sources)
                     for s in range(4)]
            records.append(HandRecord(rnd, table_no, number - 1, wall_hash,
                                      (seats[0], seats[1], seats[2], seats[3]), result.get("winner")))
    return names, records


def test_a_duplicate_event_deals_one_wall_per_hand_to_every_table_and_scores_from_the_stored_hands(
        live_server: LiveServer) -> None:
    people = [player(live_server, f"Player {i}") for i in range(8)]
    r = call(live_server, "POST", "/api/events", people[0],
             {"name": "CNY duplicate", "format": "duplicate", "rounds": 3, "hands": 2, "absent": "bot",
              "options": {**FAST_OPTIONS, "next_hand_seconds": 1}})
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    for who in people:
        r = call(live_server, "POST", f"/api/events/{code}/enter", who, {})
        assert r.status_code == 200, r.text
    data = _event(live_server, code, people[0])
    assert len(data["entrants"]) == 8 and data["is_organiser"] and data["entered"]
    assert call(live_server, "POST", f"/api/events/{code}/start", people[1], {}).status_code == 403
    r = call(live_server, "POST", f"/api/events/{code}/start", people[0], {})
    assert r.status_code == 200, r.text
    first = r.json()["played"][0]
    assert [len(t["seats"]) for t in first["tables"]] == [4, 4]
    assert all(w["secret"] is None for w in first["walls"])  # committed, not revealed, while it plays
    assert call(live_server, "POST", f"/api/events/{code}/enter", people[0], {}).status_code == 200
    late = player(live_server, "Late")
    assert call(live_server, "POST", f"/api/events/{code}/enter", late, {}).json()["code"] == "event_closed"

    data = _wait_finished(live_server, code)
    assert [p["round"] for p in data["played"]] == [1, 2, 3]
    verify = _recipe()
    met: set[frozenset[str]] = set()
    for rnd in data["played"]:
        assert rnd["ended"] and len(rnd["tables"]) == 2 and len(rnd["walls"]) == 2
        seated = [frozenset(t["seats"]) for t in rnd["tables"]]
        assert sorted(n for s in seated for n in s) == sorted(data["entrants"])
        assert not (set(seated) & met)  # no four sit together twice
        met |= set(seated)
        for wall in rnd["walls"]:
            hashes = []
            for t in rnd["tables"]:
                base = f"{live_server.url}/api/tables/{t['code']}/hands/{wall['hand']}"
                assert httpx.get(base + "/log", timeout=10).status_code == 200
                replay = httpx.get(base + "/replay", timeout=30)  # every hand has its replay
                assert replay.status_code == 200, replay.text
                shown = replay.json()
                reveal = shown["result"]["wall_reveal"]
                hashes.append(shown["wall_hash"])
                assert verify(wall["wall_hash"], reveal)  # the docs/wall.md recipe, run as written
                assert reveal["secret"] == wall["secret"]
            assert hashes == [wall["wall_hash"]] * 2  # both tables were dealt the published wall

    # the standings equal a recomputation from the stored hands (read here with sqlite3 alone)
    db = sqlite3.connect(f"file:{live_server.database}?mode=ro", uri=True)
    try:
        names, records = recompute(lambda sql, params: db.execute(sql, params).fetchall(), code)
    finally:
        db.close()
    assert len(records) == 3 * 2 * 2
    again = standings(list(names), records, EventRules(format="duplicate", rounds=3, hands=2, absent="bot"))
    shown = [(row["entrant"], row["score"]) for row in data["standings"]]
    assert shown == [(names[r.entrant], round(float(r.score), 2)) for r in again]
    assert abs(sum(row["score"] for row in data["standings"])) < 0.05  # duplicate scores sum to zero


def test_events_refuse_what_they_cannot_do(live_server: LiveServer) -> None:
    owner = player(live_server, "Organiser")
    assert call(live_server, "POST", "/api/events", None, {"name": "x"}).json()["code"] == "name_needed"
    bad = call(live_server, "POST", "/api/events", owner, {"name": "x", "format": "knockout"})
    assert bad.status_code == 400
    long = call(live_server, "POST", "/api/events", owner, {"name": "x" * 61})
    assert long.status_code == 400 and long.json()["code"] == "event_name"
    code = call(live_server, "POST", "/api/events", owner, {"name": "Solo"}).json()["code"]
    assert call(live_server, "POST", f"/api/events/{code}/enter", owner, {}).status_code == 200
    too_few = call(live_server, "POST", f"/api/events/{code}/start", owner, {})
    assert too_few.status_code == 400 and too_few.json()["code"] == "event_entrants"
    assert call(live_server, "GET", "/api/events/nope", owner).json()["code"] == "event_unknown"
    page = _event(live_server, code)  # anyone with the link may read it
    assert page["entrants"] == ["Organiser"] and not page["is_organiser"] and page["standings"] == []


def test_the_events_store_on_both_backends(database_url: str) -> None:
    from sgmahjong.server.store import open_store

    store = open_store(database_url)
    try:
        ann, ben, cat = (store.new_guest(n) for n in ("Ann", "Ben", "Cat"))
        event_id = store.create_event("ev1", "Friday cup", ann, "duplicate", 2, 4, "zero", "default",
                                      {"pace": "fast"}, 100.0)
        event = store.event("ev1")
        assert event is not None and (event.id, event.status, event.round, event.options) == (
            event_id, "open", 0, {"pace": "fast"})
        assert store.enter_event(event_id, ben, 101.0) and store.enter_event(event_id, ann, 102.0)
        assert not store.enter_event(event_id, ben, 103.0)  # once
        assert [e.name for e in store.event_entrants(event_id)] == ["Ben", "Ann"]
        assert store.leave_event(event_id, ben)
        assert [e.name for e in store.event_entrants(event_id)] == ["Ann"]
        t1 = store.create_table("evt1", "Friday cup · 1.1", True, {}, {})
        walls = [(k, f"{k:064x}", f"hash{k}") for k in range(4)]
        assert store.begin_round(event_id, 1, [(1, t1)], walls)
        t2 = store.create_table("evt2", "Friday cup · 1.1", True, {}, {})
        assert not store.begin_round(event_id, 1, [(1, t2)], walls)  # a second worker: refused, none written
        assert not store.enter_event(event_id, cat, 104.0)  # entries close when the first round begins
        assert store.table_secrets(t1) == [f"{k:064x}" for k in range(4)]
        assert store.table_secrets(t2) is None
        assert [(t.round, t.table_no, t.code) for t in store.event_tables(event_id)] == [(1, 1, "evt1")]
        assert [w.wall_hash for w in store.event_walls(event_id)] == ["hash0", "hash1", "hash2", "hash3"]
        assert [e.code for e in store.running_events()] == ["ev1"]
        assert store.end_event(event_id, 1) and not store.end_event(event_id, 1)
        assert store.running_events() == [] and store.event_hands(event_id) == []
        club_id = store.create_club("kaki1", "Kaki", 10, "default", ann, 100.0)
        later = store.create_event("ev2", "Sunday cup", ann, "swiss", 3, 4, "zero", "default", {}, 100.0,
                                   starts=500.0, zone="Asia/Kuala_Lumpur", entry="club", club_id=club_id,
                                   join_hash="ab" * 32)
        got = store.event("ev2")
        assert got is not None and (got.starts, got.zone, got.entry, got.club_id, got.join_hash) == (
            500.0, "Asia/Kuala_Lumpur", "club", club_id, "ab" * 32)
        assert store.due_events(499.0) == [] and [e.id for e in store.due_events(500.0)] == [later]
        assert store.unschedule_event(later) and store.due_events(600.0) == []
        assert store.event("ev2").starts is None  # type: ignore[union-attr]
        assert store.event("ev1").entry == "open"  # type: ignore[union-attr]
    finally:
        store.close()


def test_only_an_events_tables_go_on_unattended(live_server: LiveServer) -> None:
    r = live_server.post("/api/tables", {"name": "Forever", "options": {"unattended": True}})
    assert r.status_code == 400 and "event" in r.json()["error"]


def test_an_event_goes_on_across_a_server_restart_with_its_shared_walls(live_server: LiveServer) -> None:
    people = [player(live_server, f"P{i}") for i in range(8)]
    code = call(live_server, "POST", "/api/events", people[0],
                {"name": "Restart cup", "format": "duplicate", "rounds": 2, "hands": 3, "absent": "bot",
                 "options": {**FAST_OPTIONS, "next_hand_seconds": 1}}).json()["code"]
    for who in people:
        assert call(live_server, "POST", f"/api/events/{code}/enter", who, {}).status_code == 200
    assert call(live_server, "POST", f"/api/events/{code}/start", people[0], {}).status_code == 200
    end = time.monotonic() + 120
    while not _event(live_server, code)["standings"] or not any(
            r["score"] for r in _event(live_server, code)["standings"]):
        assert time.monotonic() < end, "no hand ended"
        time.sleep(0.2)  # polling the server's state until a hand of round 1 has ended
    live_server.restart()  # what a process restart does: the tables resume from the store
    data = _wait_finished(live_server, code)
    verify = _recipe()
    for rnd in data["played"]:
        assert len(rnd["walls"]) == 3
        for wall in rnd["walls"]:
            for t in rnd["tables"]:
                shown = httpx.get(f"{live_server.url}/api/tables/{t['code']}/hands/{wall['hand']}/replay",
                                  timeout=30).json()
                assert shown["wall_hash"] == wall["wall_hash"]  # no hand lost, each dealt the shared wall
                assert verify(wall["wall_hash"], shown["result"]["wall_reveal"])

"""An event on a real cluster (PostgreSQL, two ``sgmahjong serve`` workers, HAProxy): the worker
holding a round's tables is killed (SIGKILL) mid-round; the other adopts them and the event ends with
no hand lost, every hand of a duplicate round dealt its published wall, and the standings equal to a
recomputation from the stored hands (docs/events.md)."""

from __future__ import annotations

import time
from typing import Any

import httpx
import psycopg

from sgmahjong.server.cluster.local import LocalCluster
from sgmahjong.tournament import EventRules, standings
from tests.conftest import FAST_OPTIONS, session_cookie
from tests.test_cluster import cluster  # noqa: F401 (the fixture)
from tests.test_events import recompute
from tests.test_wall import _recipe


def _get(url: str, path: str) -> dict[str, Any]:
    r = httpx.get(url + path, timeout=10)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _post(url: str, path: str, cookie: str | None, body: Any) -> httpx.Response:
    return httpx.post(url + path, json=body, timeout=20, headers={"Cookie": cookie} if cookie else None)


def test_an_event_survives_the_death_of_the_worker_holding_its_tables(cluster: LocalCluster) -> None:  # noqa: F811
    proxy, db = cluster.url, cluster.database
    assert db is not None
    people = []
    for i in range(8):
        r = _post(proxy, "/api/players", None, {"name": f"P{i}"})
        assert r.status_code == 200, r.text
        people.append(session_cookie(r))
    r = _post(proxy, "/api/events", people[0],
              {"name": "Cluster cup", "format": "duplicate", "rounds": 2, "hands": 3, "absent": "bot",
               "options": {**FAST_OPTIONS, "next_hand_seconds": 1}})
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    for who in people:
        assert _post(proxy, f"/api/events/{code}/enter", who, {}).status_code == 200
    assert _post(proxy, f"/api/events/{code}/start", people[0], {}).status_code == 200

    end = time.monotonic() + 120
    while not any(row["score"] for row in _get(proxy, f"/api/events/{code}")["standings"]):
        assert time.monotonic() < end, "no hand of round 1 ended"
        time.sleep(0.2)  # polling the stored state until round 1 is under way
    with psycopg.connect(db) as conn:
        holders = {str(r[0]) for r in conn.execute(
            "SELECT l.worker FROM leases l JOIN tournament_tables tt ON tt.table_id = l.table_id").fetchall()}
    assert holders, "nobody holds the round's tables"
    for name in holders:
        cluster.worker(name).kill()  # mid-round: its tables' leases end with its database session
        break

    end = time.monotonic() + 240
    data = _get(proxy, f"/api/events/{code}")
    while data["status"] != "finished":
        assert time.monotonic() < end, f"the event did not finish: {data}"
        time.sleep(0.5)
        data = _get(proxy, f"/api/events/{code}")
    verify = _recipe()
    for rnd in data["played"]:
        for wall in rnd["walls"]:
            for t in rnd["tables"]:
                shown = _get(proxy, f"/api/tables/{t['code']}/hands/{wall['hand']}/replay")
                assert shown["wall_hash"] == wall["wall_hash"]  # no hand lost, each dealt its shared wall
                assert verify(wall["wall_hash"], shown["result"]["wall_reveal"])

    with psycopg.connect(db) as conn:
        names, records = recompute(
            lambda sql, params: [tuple(r) for r in conn.execute(sql.replace("?", "%s"), params).fetchall()],
            code)
    assert len(records) == 2 * 2 * 3
    again = standings(list(names), records, EventRules(format="duplicate", rounds=2, hands=3, absent="bot"))
    assert [(row["entrant"], row["score"]) for row in data["standings"]] == [
        (names[r.entrant], round(float(r.score), 2)) for r in again]

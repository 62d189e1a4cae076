"""The expert's queue shared fairly (server/analysis/pool.py, http/expert.py): each person (identity and
address, ``identity.person_keys``) holds at most ``analysis_jobs_per_requester`` jobs and one whole-match
review at a time, and the queue serves the persons in turn, so one person's backlog never makes another
wait behind all of it, nor get 503."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from sgmahjong.server.analysis import JobPool, RequesterBusy
from sgmahjong.server.settings import ServerSettings
from tests.conftest import LiveServer, serving
from tests.test_clubs import player
from tests.test_expert_http import _app, _reviewer, finished_table
from tests.test_server import seated, wait_status


def wait_for(path: str, value: str) -> str:
    """In a worker: wait until the file ``path`` exists (the test's gate), then answer ``value``."""
    end = time.monotonic() + 60
    while not Path(path).exists() and time.monotonic() < end:
        time.sleep(0.01)
    return value


def test_the_pool_bounds_each_requester_and_serves_the_requesters_in_turn(tmp_path: Path) -> None:
    gate = str(tmp_path / "gate")
    pool = JobPool(1, 16, 3)
    ann, bob = ("a:203.0.113.1", "p:1"), ("a:203.0.113.2", "p:2")
    try:
        a = [pool.submit(f"a{i}", wait_for, (gate, f"a{i}"), requester=ann) for i in range(3)]
        with pytest.raises(RequesterBusy, match="you have 3 expert jobs queued or running"):
            pool.submit("a3", wait_for, (gate, "a3"), requester=ann)
        with pytest.raises(RequesterBusy):  # Ann's address is counted too, whoever she says she is
            pool.submit("a4", wait_for, (gate, "a4"), requester=("a:203.0.113.1", "p:9"))
        with pytest.raises(RequesterBusy):  # and so is her identity, from wherever she asks
            pool.submit("a5", wait_for, (gate, "a5"), requester=("a:198.51.100.7", "p:1"))
        more = pool.submit("a6", wait_for, (gate, "a6"), requester=ann, counted=False)  # a match's hand
        b = pool.submit("b0", wait_for, (gate, "b0"), requester=bob)  # Bob is not refused
        assert pool.held("a:203.0.113.1") == 3 and pool.held("p:2") == 1
        Path(gate).touch()
        assert [j.future.result(timeout=60) for j in (*a, more, b)] == ["a0", "a1", "a2", "a6", "b0"]
        # Bob's job ran right after the one of Ann's that was running, not after her backlog of four
        assert a[0].order == 1 and b.order == 2
        assert [j.order for j in (*a[1:], more)] == [3, 4, 5]
        assert pool.held("a:203.0.113.1") == 0 and pool.submit("a7", wait_for, (gate, "a7"), requester=ann)
    finally:
        pool.close()


def _as(server: LiveServer, address: str, path: str, secret: str | None = None) -> httpx.Response:
    """POST ``path`` as if from ``address`` (the trusted proxy's X-Forwarded-For), with the session
    cookie ``secret``."""
    headers = {"X-Forwarded-For": address, **({"Cookie": secret} if secret else {})}
    return httpx.post(server.url + path, headers=headers, json={}, timeout=30)


def _done(server: LiveServer, path: str) -> dict[str, Any]:
    end = time.monotonic() + 120
    while time.monotonic() < end:
        r = server.get(path)
        assert r.status_code in (200, 202), r.text
        if r.status_code == 200 and r.json().get("complete", True):
            return r.json()  # type: ignore[no-any-return]
        time.sleep(0.1)
    raise TimeoutError(path)


def test_one_persons_backlog_neither_delays_nor_refuses_another(tmp_path: Path) -> None:
    settings = ServerSettings(analysis_deals=4, analysis_workers=1, analysis_jobs_per_requester=2,
                              trusted_proxies=("127.0.0.0/8",))
    with serving(tmp_path / "fair.sqlite3", settings=settings) as server:
        first, second = finished_table(server, seed=5), finished_table(server, seed=8)
        secret = player(server, "Ann")  # her session
        pool = _reviewer(server).pool
        gate = str(tmp_path / "gate")
        blocker = pool.submit("someone's long job", wait_for, (gate, "x"), requester=("a:192.0.2.9",))
        ann, bob = "203.0.113.1", "203.0.113.2"
        hand = f"/api/tables/{first}/hands/1/expert"
        # Ann: a whole-match review and her two other jobs
        r = _as(server, ann, f"/api/tables/{first}/expert?seat=0", secret)
        assert r.status_code == 202 and r.json()["hands"][0]["status"] == "queued"
        assert _as(server, ann, f"{hand}?seat=1", secret).status_code == 202
        assert _as(server, ann, f"{hand}?seat=2", secret).status_code == 202
        r = _as(server, ann, f"{hand}?seat=3", secret)
        assert r.status_code == 429 and r.json()["code"] == "expert_jobs"
        assert r.json()["params"] == {"most": 2}
        # her second whole-match review is refused (from her address, or as her from another)
        for address, who in ((ann, None), ("198.51.100.7", secret)):
            r = _as(server, address, f"/api/tables/{second}/expert?seat=0", who)
            assert r.status_code == 429 and r.json()["code"] == "review_running", r.text
        assert _as(server, ann, f"/api/tables/{first}/expert?seat=0", secret).status_code == 202  # joins
        # Bob is served: not refused, and next after the job of Ann's that will be running
        r = _as(server, bob, f"/api/tables/{second}/hands/1/expert?seat=0")
        assert r.status_code == 202, r.text
        Path(gate).touch()
        for seat in (1, 2):
            _done(server, f"{hand}?seat={seat}")
        _done(server, f"/api/tables/{second}/hands/1/expert?seat=0")
        match = _done(server, f"/api/tables/{first}/expert?seat=0")
        assert match["complete"] and match["summary"]["hands"] == len(match["hands"])
        store = _app(server).state.server.store
        ids = {code: store.table_by_code(code).id for code in (first, second)}

        def order(code: str, seat: int) -> int:
            job = pool.job(("review", ids[code], 1, seat, 4))
            assert job is not None
            return job.order

        # the blocker, then Ann's first job, then Bob's, then the rest of Ann's
        assert blocker.order == 1
        assert [order(first, 0), order(second, 0), order(first, 1), order(first, 2)] == [2, 3, 4, 5]
        # once her review is over, Ann may start another
        assert _as(server, ann, f"/api/tables/{second}/expert?seat=1", secret).status_code in (200, 202)


def test_a_whole_match_review_holds_one_place_in_the_queue_at_a_time(tmp_path: Path) -> None:
    settings = ServerSettings(analysis_deals=4, analysis_workers=1)
    with serving(tmp_path / "chain.sqlite3", settings=settings) as server:
        code = server.create_table(seed=5)["code"]
        ann, token = seated(server, code, "Ann", 0)
        ann.send({"type": "start"})
        ann.until("view")
        ann.close()
        wait_status(server, code, {"between_hands"})
        with server.ws(code) as again:  # Ann is back for the second hand, then leaves it to the bots
            again.hello(token)
            again.send({"type": "next"})
            again.until("view", lambda m: m["view"]["hand_number"] == 2)
        summary = wait_status(server, code, {"between_hands", "finished"})
        assert summary["hand_number"] == 2
        pool = _reviewer(server).pool
        gate = str(tmp_path / "gate")
        blocker = pool.submit("someone's long job", wait_for, (gate, "x"), requester=("a:192.0.2.9",))
        r = server.post(f"/api/tables/{code}/expert?seat=0", {})
        assert r.status_code == 202 and [h["status"] for h in r.json()["hands"]] == ["queued", "queued"]
        assert pool.active() == 2  # the blocker and the match's first hand: its second waits its turn
        Path(gate).touch()
        match = _done(server, f"/api/tables/{code}/expert?seat=0")
        assert [h["status"] for h in match["hands"]] == ["done", "done"] and match["summary"]["hands"] == 2
        table_id = _app(server).state.server.store.table_by_code(code).id
        jobs = [pool.job(("review", table_id, n, 0, 4)) for n in (1, 2)]
        assert blocker.order == 1 and [j.order for j in jobs if j is not None] == [2, 3]

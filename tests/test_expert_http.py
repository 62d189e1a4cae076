"""The expert's review and analysis board over HTTP (server/analysis, http/expert.py): a pool of
processes with a bounded queue, one job per key, reviews stored once (SQLite and PostgreSQL), and
nothing of a hand before it has ended."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sgmahjong.coach import _fold
from sgmahjong.game import legal_actions
from sgmahjong.server.analysis import JobPool, PoolBusy
from sgmahjong.server.http.replay import NOT_ENDED
from sgmahjong.server.settings import ServerSettings
from sgmahjong.server.store import open_store
from tests.conftest import LiveServer, serving
from tests.test_server import seated, wait_status

SETTINGS = ServerSettings(analysis_deals=4)


def _app(server: LiveServer) -> Any:
    assert server._runner is not None
    return server._runner.server.config.app


def _reviewer(server: LiveServer) -> Any:
    return _app(server).state.reviewer


@pytest.fixture
def expert_server(tmp_path: Path) -> Iterator[LiveServer]:
    with serving(tmp_path / "test.sqlite3", settings=SETTINGS) as server:
        yield server


def finished_table(server: LiveServer, seed: int = 5) -> str:
    """A table whose first hand bots played to its end (Ann sat at East, started and left)."""
    code = server.create_table(seed=seed)["code"]
    ann, _ = seated(server, code, "Ann", 0)
    with ann:
        ann.send({"type": "start"})
        ann.until("view")
    wait_status(server, code, {"between_hands", "finished"})
    return str(code)


def poll(server: LiveServer, path: str, seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """GET ``path`` until it answers 200 (the job is done); each answer appended to ``seen``."""
    end = time.monotonic() + 120
    while time.monotonic() < end:
        r = server.get(path)
        assert r.status_code in (200, 202), r.text
        data: dict[str, Any] = r.json()
        if seen is not None:
            seen.append(data)
        if r.status_code == 200:
            return data
        time.sleep(0.1)
    raise TimeoutError(path)


def test_the_store_keeps_a_review_once(database_url: str) -> None:
    store = open_store(database_url)
    try:
        table = store.create_table("ABCD1234", "T", False, {}, {})
        assert store.review(table, 1, 0, "expert", 4) is None
        store.add_review(table, 1, 0, "expert", 4, {"decisions": [1], "summary": {"x": 1}}, 1.0)
        store.add_review(table, 1, 0, "expert", 4, {"decisions": [2]}, 2.0)  # the first stays
        store.add_review(table, 2, 0, "expert", 4, {"decisions": []}, 3.0)
        store.add_review(table, 2, 1, "expert", 4, {"decisions": [9]}, 3.0)
        assert store.review(table, 1, 0, "expert", 4) == {"decisions": [1], "summary": {"x": 1}}
        assert store.review(table, 1, 0, "expert", 8) is None  # another budget is another review
        assert store.table_reviews(table, 0, "expert", 4) == {1: {"decisions": [1], "summary": {"x": 1}},
                                                              2: {"decisions": []}}
    finally:
        store.close()


def test_the_pool_bounds_its_queue_and_joins_a_job_of_the_same_key() -> None:
    pool = JobPool(1, 2)
    try:
        first = pool.submit("a", time.sleep, (60,))
        assert pool.submit("a", time.sleep, (60,)) is first  # the same key joins the job
        pool.submit("b", time.sleep, (60,))
        with pytest.raises(PoolBusy, match="busy, try again in a minute"):
            pool.submit("c", time.sleep, (60,))
        assert pool.started == 2 and pool.active() == 2
        assert first.status in ("queued", "running")
    finally:
        pool.close()  # the sleeping worker is stopped, the queued job cancelled
    second = pool.job("b")
    assert first.future.done() and second is not None and second.status == "failed"


def test_an_expert_review_is_computed_once_with_its_progress_and_stored(expert_server: LiveServer) -> None:
    code = finished_table(expert_server)
    path = f"/api/tables/{code}/hands/1/expert?seat=E"
    assert expert_server.get(path).status_code == 404  # not asked for yet
    first = expert_server.post(path, {})
    assert first.status_code in (200, 202), first.text
    again = expert_server.post(path, {})  # the same review asked for again joins the job
    assert again.status_code in (200, 202)
    seen: list[dict[str, Any]] = []
    data = poll(expert_server, path, seen)
    assert _reviewer(expert_server).pool.started == 1
    decisions = data["review"]["decisions"]
    assert decisions and data["done"] == data["total"] == len(decisions)
    assert data["deals"] == 4 and data["seat"] == 0
    for answer in seen:
        assert answer["status"] in ("queued", "running", "done")
        assert 0 <= answer["done"] <= answer["total"] or answer["total"] == 0
    summary = data["review"]["summary"]
    assert summary["decisions"] == len(decisions)
    for d in decisions:
        assert d["seat"] == 0 and d["options"] and d["chosen"] in [o["action"] for o in d["options"]]
    # asked again (after the result was stored): answered from the store, nothing recomputed
    assert expert_server.post(path, {}).json()["review"] == data["review"]
    assert _reviewer(expert_server).pool.started == 1
    expert_server.restart()  # a new process: the stored review is served, not computed
    r = expert_server.get(path)
    assert r.status_code == 200 and r.json()["review"] == data["review"]
    assert _reviewer(expert_server).pool.started == 0


def test_a_match_summary_and_the_analysis_board(expert_server: LiveServer) -> None:
    code = finished_table(expert_server, seed=8)
    r = expert_server.post(f"/api/tables/{code}/expert?seat=1", {})
    assert r.status_code in (200, 202), r.text
    match = poll(expert_server, f"/api/tables/{code}/expert?seat=1")
    assert match["complete"] and match["summary"]["hands"] == len(match["hands"]) >= 1
    assert all(h["status"] == "done" and "summary" in h for h in match["hands"])
    hand = expert_server.get(f"/api/tables/{code}/hands/1/expert?seat=1").json()["review"]
    step = hand["decisions"][0]["number"] - 1  # the state before the seat's first decision
    path = f"/api/tables/{code}/hands/1/analysis?seat=S&step={step}"
    started = _reviewer(expert_server).pool.started
    r = expert_server.post(path, {})
    assert r.status_code == 200, r.text  # from the stored review at once: the same numbers, no job
    a = r.json()["analysis"]
    assert _reviewer(expert_server).pool.started == started
    assert a["number"] == step and a["seat"] == 1 and a["played"] == hand["decisions"][0]["chosen"]
    assert a["best"] == hand["decisions"][0]["best"] and a["options"] == hand["decisions"][0]["options"]
    assert a["best"] == a["options"][0]["action"] and a["played"] in [o["action"] for o in a["options"]]
    assert all(o["deals"] == 4 and o["se"] >= 0 for o in a["options"])
    # a seat no review priced: its first choice computed, then kept in memory
    steps, _ = _fold(expert_server.get(f"/api/tables/{code}/hands/1/log").text)
    other = next(k for k, (state, _) in enumerate(steps) if len(legal_actions(state, 2)) > 1)
    path = f"/api/tables/{code}/hands/1/analysis?seat=W&step={other}"
    r = expert_server.post(path, {})
    data = r.json() if r.status_code == 200 else poll(expert_server, path)
    b = data["analysis"]
    assert b["number"] == other and b["seat"] == 2
    started = _reviewer(expert_server).pool.started
    assert expert_server.post(path, {}).json()["analysis"] == b  # from the memory: not recomputed
    assert _reviewer(expert_server).pool.started == started


def test_bad_requests_are_clear_and_an_unfinished_hand_is_not_reviewed(expert_server: LiveServer) -> None:
    code = finished_table(expert_server)
    base = f"/api/tables/{code}/hands/1"
    steps = len(expert_server.get(f"{base}/log").text.splitlines()) - 1
    for path, status, words in [
        (f"{base}/expert?seat=Q", 400, "seat is E, S, W, N or 0-3"),
        (f"{base}/analysis?seat=9&step=1", 400, "seat is"),
        (f"{base}/analysis?seat=0&step=x", 400, f"step is a whole number from 0 to {steps}"),
        (f"{base}/analysis?seat=0&step=%C2%B2", 400, "step is a whole number"),  # "²": was a 500
        (f"{base}/analysis?seat=0&step={'9' * 5000}", 400, "step is a whole number"),  # was a 500 too
        (f"{base}/analysis?seat=0&step={steps + 1}", 400, "step is a whole number"),
        (f"{base}/analysis?seat=0&step={steps}", 409, ""),  # the hand is over: nothing to choose
        (f"/api/tables/{code}/hands/7/expert?seat=0", 404, "no hand 7"),
        ("/api/tables/nope1234/expert?seat=0", 404, "no such table"),
    ]:
        r = expert_server.post(path, {})
        assert r.status_code == status, (path, r.text)
        assert words in r.json()["error"], (path, r.text)
    # a hand still in play: nothing is reviewed or analysed
    live = expert_server.create_table(seed=5)["code"]
    ann, _ = seated(expert_server, live, "Ann", 0)
    with ann:
        ann.send({"type": "start"})
        ann.until("view")
        for path in (f"/api/tables/{live}/hands/1/expert?seat=0",
                     f"/api/tables/{live}/hands/1/analysis?seat=0&step=0"):
            r = expert_server.post(path, {})
            assert r.status_code == 409 and r.json() == {"error": NOT_ENDED}
        assert expert_server.post(f"/api/tables/{live}/expert?seat=0", {}).json()["hands"] == []


def test_a_full_queue_is_a_503_with_retry_after(tmp_path: Path) -> None:
    with serving(tmp_path / "q.sqlite3", settings=SETTINGS.replace(analysis_queue=1)) as server:
        code = finished_table(server)
        _reviewer(server).pool.submit("someone else's job", time.sleep, (60,))
        for path in (f"/api/tables/{code}/hands/1/expert?seat=0", f"/api/tables/{code}/expert?seat=0",
                     f"/api/tables/{code}/hands/1/analysis?seat=0&step=1"):
            r = server.post(path, {})
            assert r.status_code == 503, path
            assert r.json()["error"] == "the reviewer is busy, try again in a minute"
            assert r.headers["retry-after"] == "30"

"""The end of a ranked match: each seat's new rating, its change and the rank points gained or lost,
served from the stored record (``GET /api/tables/CODE/ranked``); a leaver is marked, and a match a
seat never played says it was not rated and why."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sgmahjong.server.http.ranking import outcome_json
from sgmahjong.server.settings import ServerSettings
from sgmahjong.server.store import open_store
from tests.conftest import FAST_OPTIONS, LiveServer, serving
from tests.test_accounts import cookie_of, device, key_for, register
from tests.test_identity import mark_ranked, play_until_each_seat_acted
from tests.test_ratings import NOBODY, four_accounts
from tests.test_server import wait_status


def test_a_rated_match_keeps_each_seats_rating_and_rank_before_and_after(database_url: str) -> None:
    store = open_store(database_url)
    try:
        table_id = four_accounts(store)
        assert outcome_json(store.ranked_outcome(table_id), 20)["state"] == "playing"
        store.rate_match(table_id, [120, 40, -40, -120], [False, False, False, True], NOBODY, time.time(),
                         "2026-11", 20)
        out = outcome_json(store.ranked_outcome(table_id), 20)
        assert out["ranked"] is True and out["state"] == "rated"
        seats = out["seats"]
        assert [s["place"] for s in seats] == [1, 2, 3, 4]
        assert [s["left"] for s in seats] == [False, False, False, True]
        assert [s["before"]["rating"] for s in seats] == [1500] * 4
        now = [store.standing(a) for a in range(1, 5)]
        assert [s["after"]["rating"] for s in seats] == [n.rating for n in now if n is not None]
        assert [s["rating_change"] for s in seats] == [s["after"]["rating"] - 1500 for s in seats]
        assert seats[0]["rating_change"] > 0 and seats[0]["points_change"] == 40
        assert seats[1]["points_change"] == 20 and seats[3]["points_change"] == 0  # a Novice: no lower than 0
        other = store.create_table("Private", "private", False, {}, {})
        assert outcome_json(store.ranked_outcome(other), 20) == {"ranked": False}
    finally:
        store.close()


def test_a_match_a_seat_never_played_is_unrated_and_says_who(database_url: str) -> None:
    store = open_store(database_url)
    try:
        table_id = four_accounts(store)
        store.rate_match(table_id, [0, 0, 0, 0], NOBODY, [False, True, False, False], time.time(),
                         "2026-11", 20)
        out = outcome_json(store.ranked_outcome(table_id), 20)
        assert out["state"] == "unrated"
        assert [s["absent"] for s in out["seats"]] == [False, True, False, False]
        assert [s["rating_change"] for s in out["seats"]] == [0, 0, 0, 0]
    finally:
        store.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    settings = ServerSettings(sign_in_burst=50, trusted_proxies=("127.0.0.1",), identity_burst=40)
    with serving(tmp_path / "ranked_end.sqlite3", settings=settings) as live:
        yield live


def shot(page: Any, name: str) -> None:
    """With SGMJ_SHOTS=DIR, a screenshot of the page to look at."""
    where = os.environ.get("SGMJ_SHOTS")
    if where:
        page.screenshot(path=f"{where}/{name}.png", full_page=True)


def ranked_end_shown(page: Any) -> None:
    """Wait for the page's rated match end; if it never shows, fail saying what the page shows."""
    try:
        page.wait_for_selector("#ranked-end[data-state=rated]")
    except Exception as exc:  # a Playwright timeout: what the page shows instead
        shown = page.evaluate("() => ({status: document.body.dataset.status,"
                              " version: document.body.dataset.version,"
                              " result: [...document.querySelectorAll('#result [id]')].map((e) => e.id)})")
        raise AssertionError(f"no rated match end on {page.url}: the page shows {shown}") from exc


def test_the_end_of_a_ranked_match_serves_each_seats_change(server: LiveServer, browser: Any) -> None:
    """Ann stays to the end; Bo, Cy and Di close their tabs (bots play on): they left, placed last.
    Ann's page (English, desktop) and a watcher's (中文, phone) say that leaving places you last while
    the match goes on, then show each seat's new rating and its change and the rank points (the
    watcher's page after asking twice: the server could not answer its first ask)."""
    names = ["Ann", "Bo", "Cy", "Di"]
    devices = [device(server, f"198.51.100.{i + 1}") for i in range(4)]
    for client, name in zip(devices, names, strict=True):
        assert register(client, key_for(server), name).status_code == 200
    options = {**FAST_OPTIONS, "next_hand_seconds": 0.1, "turn_seconds": 0.2, "claim_seconds": 0.1,
               "bot_level": "greedy"}
    code = server.create_table("Ranked", seed=7, preset="site", rules={"rounds": 1}, options=options)["code"]
    assert server.get(f"/api/tables/{code}/ranked").json() == {"ranked": False}
    for seat, client in enumerate(devices):
        joined = client.post(f"/api/tables/{code}/join", json={"name": names[seat], "seat": seat})
        assert joined.status_code == 200, joined.text
    mark_ranked(server, code)
    assert server.get(f"/api/tables/{code}/ranked").json()["state"] == "playing"
    ann_ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    ann_ctx.add_cookies([{"name": "sg_session", "value": cookie_of(devices[0]).split("=", 1)[1],
                          "url": server.url}])
    watcher_ctx = browser.new_context(viewport={"width": 360, "height": 740})
    ann, watcher = ann_ctx.new_page(), watcher_ctx.new_page()
    ann.goto(f"{server.url}/t/{code}?lang=en")
    watcher.goto(f"{server.url}/t/{code}?lang=zh")
    note_en = "Leaving a ranked match places you last and costs rank points."
    ann.wait_for_function("(t) => document.getElementById('ranked-note')?.textContent === t", arg=note_en)
    watcher.wait_for_function("(t) => document.getElementById('ranked-note')?.textContent === t",
                              arg="中途离开段位赛会被排为最后一名，并扣段位分。")
    refused: list[str] = []

    def unavailable_once(route: Any) -> None:
        """The watcher's first ask for the outcome finds the server unable to answer: it asks again."""
        if refused:
            route.continue_()
            return
        refused.append(route.request.url)
        route.fulfill(status=503, json={"error": "the server is restarting"})

    watcher.route("**/api/tables/*/ranked", unavailable_once)
    clients = {seat: server.ws(code, cookie_of(client)) for seat, client in enumerate(devices)}
    for ws in clients.values():
        ws.hello(None)
    clients[0].send({"type": "start"})
    play_until_each_seat_acted(server, code, clients)
    for seat in (1, 2, 3):
        clients[seat].close()
    clients[0].until("view", lambda m: m["status"] == "finished", timeout=240)
    clients[0].close()
    assert wait_status(server, code, {"finished"})["status"] == "finished"
    out = server.get(f"/api/tables/{code}/ranked").json()
    assert out["state"] == "rated"
    seats = out["seats"]
    assert [s["left"] for s in seats] == [False, True, True, True]
    assert seats[0]["place"] == 1 and seats[0]["points_change"] == 40  # alone at the end: first
    mine = devices[0].get("/api/me/rating?season=all").json()["standing"]
    assert seats[0]["after"]["rating"] == mine["rating"]
    assert seats[0]["rating_change"] == mine["rating"] - 1500
    assert all(s["rating_change"] < 0 for s in seats[1:])  # placed behind Ann
    for page in (ann, watcher):
        ranked_end_shown(page)
    assert refused == [f"{server.url}/api/tables/{code}/ranked"]
    assert ann.locator("#ranked-note").count() == 0  # the match is over
    first = ann.locator("#ranked-end tr[data-seat='0'] td")
    assert first.nth(1).inner_text() == f"{seats[0]['after']['rating']} (+{seats[0]['rating_change']})"
    assert first.nth(2).inner_text() == f"+40 (now {seats[0]['after']['points']})"
    bo = ann.locator("#ranked-end tr[data-seat='1'] td")
    assert "(left: placed last)" in bo.nth(0).inner_text()
    assert bo.nth(1).inner_text() == f"{seats[1]['after']['rating']} ({seats[1]['rating_change']})"
    assert "（离开：排最后）" in watcher.locator("#ranked-end tr[data-seat='1'] td").nth(0).inner_text()
    assert watcher.locator("#ranked-end h2").inner_text() == "段位赛结果"
    for page in (ann, watcher):  # the ranked change right under the standings, whichever arrived first
        page.wait_for_selector("#hand-results")
        order = page.evaluate("() => [...document.querySelectorAll('#standings, #ranked-end, #hand-results')]"
                              ".map((e) => e.id)")
        assert order == ["standings", "ranked-end", "hand-results"]
    for page, lang, other in ((ann, "en", {"width": 360, "height": 740}),
                              (watcher, "zh", {"width": 1366, "height": 768})):
        page.locator("#ranked-end").scroll_into_view_if_needed()
        shot(page, f"ranked-end-{lang}-{page.viewport_size['width']}")
        page.set_viewport_size(other)
        shot(page, f"ranked-end-{lang}-{other['width']}")
    ann_ctx.close()
    watcher_ctx.close()

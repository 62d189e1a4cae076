"""Browser tests of the match flow (Debian's Chromium through Playwright, against ``live_server``):
play vs bots in one click, quick play pairing two browsers, the rematch after a one-round match of two
humans, the auto-pass / auto-win / auto-discard options, the waits panel against ``sgmahjong score``,
the table log after a reload and for a spectator, and the table page's bugs fixed (one test each)."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.conftest import FAST_OPTIONS, WsClient, give_seat_session, stacked_wall
from tests.test_browser import autoplay, new_page, no_errors, start_with_bots, take_seat
from tests.test_matchflow import play_to_the_end, score_json

expect.set_options(timeout=15_000)


def open_with_token(page: Page, base: str, code: str, token: str) -> None:
    give_seat_session(page.context, base, token)  # the seat's player's session, as on their device
    page.goto(f"{base}/")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"sgmahjong:{code}", token])
    page.goto(f"{base}/t/{code}")


def test_play_vs_bots_in_one_click(live_server: Any, browser: Browser) -> None:
    page = new_page(browser)
    page.goto(live_server.url + "/")
    page.fill("#play-name", "Ann")
    page.locator("#play-bots").click()
    page.wait_for_url("**/t/*")
    expect(page.locator("body")).to_have_attribute("data-seat", "0")
    expect(page.locator("#seating")).to_be_hidden()
    expect(page.locator("#hand .tile").first).to_be_visible()
    expect(page.locator('.seat[data-seat="0"] .plate .name')).to_contain_text("Ann")
    expect(page.locator('.seat[data-seat="2"] .plate .name')).to_contain_text("Bot")
    # the name is remembered for the next time
    page.goto(live_server.url + "/")
    expect(page.locator("#play-name")).to_have_value("Ann")
    no_errors(page)


def test_quick_play_pairs_two_browsers(live_server: Any, browser: Browser) -> None:
    ann, bo = new_page(browser), new_page(browser)
    for page, name in ((ann, "Ann"), (bo, "Bo")):
        page.goto(live_server.url + "/")
        page.fill("#play-name", name)
        page.locator("#quick-play").click()
        page.wait_for_url("**/t/*")
        expect(page.locator("#seated-controls")).to_be_visible()
    assert ann.url == bo.url
    for page in (ann, bo):
        expect(page.locator("#seat-list")).to_contain_text("Ann")
        expect(page.locator("#seat-list")).to_contain_text("Bo")
    assert ann.locator("body").get_attribute("data-seat") != bo.locator("body").get_attribute("data-seat")
    ann.locator("#start-btn").click()
    for page in (ann, bo):
        expect(page.locator("#hand .tile").first).to_be_visible()
    no_errors(ann, bo)


def test_rematch_after_a_one_round_match_of_two_humans(live_server: Any, browser: Browser) -> None:
    code = live_server.create_table("Rematch", seed=5, rules={"rounds": 1})["code"]
    ann_token = live_server.join(code, "Ann", 0)["token"]
    bo_token = live_server.join(code, "Bo", 2)["token"]
    with live_server.ws(code) as ws:
        ws.hello(ann_token)
        ws.send({"type": "start"})
        ws.until("view")
    play_to_the_end(live_server, code, [ann_token, bo_token])  # bots play the away seats
    hands = len(live_server.get(f"/api/tables/{code}/results").json()["hands"])
    assert hands >= 4
    ann, bo = new_page(browser), new_page(browser)
    open_with_token(ann, live_server.url, code, ann_token)
    open_with_token(bo, live_server.url, code, bo_token)
    for page in (ann, bo):
        expect(page.locator("#standings")).to_be_visible()
        # the totals and each hand's result
        expect(page.locator("#hand-results tbody tr")).to_have_count(hands)
        expect(page.locator('#result a[href="/"]')).to_be_visible()
    totals = [int(x) for x in ann.locator("#hand-results tfoot th.num").all_inner_texts()]
    assert totals == [int(x) for x in ann.locator("#ledger .total-amount").all_inner_texts()]
    ann.locator('#result [data-action="rematch"]').click()
    expect(bo.locator("#result .rematch-votes")).to_contain_text("Ann")
    expect(ann.locator('#result [data-action="rematch"]')).to_be_disabled()
    bo.locator('#result [data-action="rematch"]').click()
    for page, seat in ((ann, "0"), (bo, "2")):
        page.wait_for_url(lambda url: code not in url)
        expect(page.locator("body")).to_have_attribute("data-seat", seat)
        expect(page.locator("#seating")).to_be_hidden()
    new_code = ann.url.rsplit("/", 1)[1]
    assert bo.url.endswith(new_code) and new_code != code
    summary = live_server.get(f"/api/tables/{new_code}").json()
    assert summary["rules"]["rounds"] == 1 and summary["status"] != "lobby"
    assert [s["name"] for s in summary["seats"]][::2] == ["Ann", "Bo"]
    no_errors(ann, bo)


def drive(clients: dict[int, WsClient], first: str, stop: Any, timeout: float = 60) -> dict[str, Any]:
    """Play the WebSocket seats: pass on every claim, discard the drawn tile on a turn (the dealer's
    first discard is ``first``), until a view satisfies ``stop``; returns that view."""
    views: dict[int, dict[str, Any]] = {}
    done: set[tuple[int, int]] = set()
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for seat, ws in clients.items():
            try:
                msg = ws.recv(timeout=0.05)
            except TimeoutError:
                msg = None
            if msg and msg.get("type") == "view":
                views[seat] = msg["view"]
                if stop(msg["view"]):
                    return msg["view"]
            v = views.get(seat)
            if v is None or (seat, v["version"]) in done or not v["legal_actions"]:
                continue
            legal = v["legal_actions"]
            drawn = v["seats"][seat]["drawn"]
            action = "pass" if "pass" in legal else f"discard {drawn}" if drawn else f"discard {first}"
            if action not in legal:
                action = next(a for a in legal if a.startswith("discard"))
            ws.send({"type": "action", "action": action, "version": v["version"]})
            done.add((seat, v["version"]))
    raise TimeoutError("the hand did not reach the expected point")


def test_auto_pass_auto_discard_and_auto_win(live_server: Any, browser: Browser) -> None:
    """South (the browser) is ready on 3s/6s with a pair of 8s: East's 8s could be ponged (auto-pass
    declines), the drawn 9p does not win (auto-discard throws it), North's 6s wins (auto-win)."""
    wall = stacked_wall(E="8s", S="123m456m789p4588s", draws="9p 9m 6s")
    code = live_server.create_table("Auto", wall=wall)["code"]
    names = ((0, "Ed"), (2, "Wu"), (3, "Ned"))
    tokens = {seat: live_server.join(code, name, seat)["token"] for seat, name in names}
    page = new_page(browser)
    take_seat(page, live_server.url, code, "Bo", 1)
    clients = {seat: live_server.ws(code) for seat in tokens}
    for seat, ws in clients.items():
        ws.hello(tokens[seat])
    clients[0].send({"type": "start"})
    page.locator("#sheet-btn").click()  # the play options sheet
    for box in ("#set-autoPass", "#set-autoWin", "#set-autoDiscard"):
        page.locator(box).check()
    page.keyboard.press("Escape")
    expect(page.locator("#hints-panel .waits li")).to_have_count(2)
    view = drive(clients, "8s", lambda v: v["result"] is not None)
    result = view["result"]
    assert (result["winner"], result["shooter"]) == (1, 3)
    assert view["seats"][1]["discards"] == ["9p"] and view["seats"][1]["melds"] == []
    expect(page.locator("#result")).to_have_attribute("data-winner", "1")
    # the options are remembered in this browser
    page.reload()
    expect(page.locator("#set-autoWin")).to_be_checked()
    for ws in clients.values():
        ws.close()
    no_errors(page)


def test_waits_panel_matches_sgmahjong_score(live_server: Any, browser: Browser) -> None:
    wall = stacked_wall(E="123m456m789p4588s1p", S="3s", draws="9s")
    code = live_server.create_table("Waits", wall=wall, options={**FAST_OPTIONS, "turn_seconds": 600})["code"]
    page = new_page(browser)
    take_seat(page, live_server.url, code, "Ann", 0)
    page.locator("#start-btn").click()
    waits = page.locator("#hints-panel .waits li")
    expect(waits).to_have_count(2)
    seen = {}
    for i in range(2):
        li = waits.nth(i)
        tile, hand = li.get_attribute("data-wait"), li.get_attribute("data-hand")
        assert hand and tile and hand.endswith("+" + tile)
        discard = score_json([hand, "--seat", "E", "--wind", "E", "--json"])
        self_drawn = score_json([hand, "--seat", "E", "--wind", "E", "--self-drawn", "--json"])
        assert li.get_attribute("data-tai-discard") == str(discard["tai"])
        assert li.get_attribute("data-tai-self") == str(self_drawn["tai"])
        expect(li.locator(".tai")).to_contain_text(f"{discard['tai']} tai on a discard")
        seen[tile] = li.get_attribute("data-unseen")
    # South holds one 3s, which East cannot see: unseen counts only what East sees
    assert seen == {"3s": "4", "6s": "4"}
    # after discarding a tile that breaks the wait, the panel counts the tiles to ready
    page.locator('#hand .slot.can-discard .tile[data-tile="1m"]').first.click()
    expect(page.locator("#hints-panel .hint-status")).to_have_text("1 tile from ready")
    no_errors(page)


def test_log_survives_a_reload_and_is_shown_to_spectators(live_server: Any, browser: Browser) -> None:
    timers = {"bot_delay": 0, "turn_seconds": 600, "claim_seconds": 600, "next_hand_seconds": 0}
    page, code = start_with_bots(browser, live_server, seed=11, options=timers)
    page.wait_for_selector("#hand .slot.can-discard")
    page.locator("#hand .slot.can-discard").last.click()
    expect(page.locator("#log li[data-kind=discard]").first).to_be_visible()
    before = page.locator("#log li").count()
    page.reload()
    expect(page.locator("#log li[data-kind=deal]")).to_have_count(1)
    expect(page.locator("#log li[data-kind=deal] .log-tiles .tile")).to_have_count(14)  # the dealer
    assert page.locator("#log li").count() >= before
    # plain words with tile pictures, no notation
    first_discard = page.locator("#log li[data-kind=discard]").first
    expect(first_discard).to_contain_text("discards")
    expect(first_discard.locator(".log-tiles .tile")).to_have_count(1)
    spectator = new_page(browser)
    spectator.goto(f"{live_server.url}/t/{code}")
    expect(spectator.locator("#log li[data-kind=discard]").first).to_be_visible()
    expect(spectator.locator("#log li[data-kind=deal]")).to_have_count(0)
    expect(spectator.locator("#log li[data-kind=draw]")).to_have_count(0)
    no_errors(page, spectator)


# -- the table page's bugs, one test each ------------------------------------------------------------

def test_result_panel_starts_at_its_top_for_the_next_hand(live_server: Any, browser: Browser) -> None:
    page, _ = start_with_bots(browser, live_server, seed=7)
    page.set_viewport_size({"width": 900, "height": 560})
    autoplay(page)
    result = page.locator("#result")
    page.evaluate("() => { const r = document.getElementById('result'); r.scrollTop = r.scrollHeight; }")
    assert page.evaluate("document.getElementById('result').scrollTop") > 0
    result.locator('[data-action="next"]').click()
    expect(result).to_be_hidden()
    expect(page.locator("#match-info")).to_contain_text("hand 2")
    autoplay(page)
    expect(result).to_be_visible()
    # scrolled back in the frame that shows it (not at once: that would lay the page out mid-redraw)
    page.wait_for_function("document.getElementById('result').scrollTop === 0")
    no_errors(page)


def test_seating_card_hides_the_empty_table(live_server: Any, browser: Browser) -> None:
    code = live_server.create_table("Hidden")["code"]
    page = new_page(browser)
    page.goto(f"{live_server.url}/t/{code}")
    expect(page.locator("#seating")).to_be_visible()
    expect(page.locator("#play")).to_be_hidden()
    assert page.evaluate("getComputedStyle(document.getElementById('play')).display") == "none"
    no_errors(page)


def test_name_boxes_take_at_most_24_characters(live_server: Any, browser: Browser) -> None:
    code = live_server.create_table("Names")["code"]
    page = new_page(browser)
    page.goto(f"{live_server.url}/t/{code}")
    page.locator("#join-name").fill("x" * 30)
    assert len(page.locator("#join-name").input_value()) == 24
    page.goto(live_server.url + "/")
    page.locator("#play-name").fill("y" * 30)
    assert len(page.locator("#play-name").input_value()) == 24
    no_errors(page)


def test_no_stale_name_message_after_sitting_down(live_server: Any, browser: Browser) -> None:
    code = live_server.create_table("Toast")["code"]
    page = new_page(browser)
    page.goto(f"{live_server.url}/t/{code}")
    page.locator('#seat-list [data-seat="0"] [data-action="join"]').click()
    toast = page.locator("#toast")
    expect(toast).to_have_class("show")
    expect(toast).to_have_text("Type your display name first.")
    page.fill("#join-name", "Ann")
    page.locator('#seat-list [data-seat="0"] [data-action="join"]').click()
    expect(page.locator("body")).to_have_attribute("data-seat", "0")
    expect(toast).not_to_have_class("show")
    page.locator("#start-btn").click()
    expect(page.locator("#hand .tile").first).to_be_visible()
    expect(toast).not_to_have_class("show")
    no_errors(page)


def test_two_players_cannot_take_the_same_name(live_server: Any, browser: Browser) -> None:
    code = live_server.create_table("Same name")["code"]
    ann, other = new_page(browser), new_page(browser)
    take_seat(ann, live_server.url, code, "Ann", 0)
    other.goto(f"{live_server.url}/t/{code}")
    other.fill("#join-name", "ann")
    other.locator('#seat-list [data-seat="1"] [data-action="join"]').click()
    expect(other.locator("#toast")).to_have_text("Another player at this table already has that name.")
    expect(other.locator("body")).not_to_have_attribute("data-seat", "1")
    assert [s["kind"] for s in live_server.get(f"/api/tables/{code}").json()["seats"]][1] == "empty"
    no_errors(ann, other)

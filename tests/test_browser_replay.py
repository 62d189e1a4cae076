"""Browser tests of the replay viewer (/replay/CODE/N): stacked hands played out by bots, then the
viewer's final screen compared with the stored result; stepping, points of view, the wall check and
the review. Debian's Chromium (``browser`` fixture in conftest), never ``playwright install``."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from sgmahjong.game.log import replay
from tests.conftest import LiveServer, stacked_wall
from tests.test_browser import new_page, no_errors, scripted_wall
from tests.test_server import seated, wait_status

expect.set_options(timeout=15_000)


def finished_hand(live_server: LiveServer, wall: str) -> tuple[str, Any, str]:
    """A table whose first hand (stacked ``wall``) is played to its end by bots (Ann sits at East,
    starts and leaves: a bot plays her seat). Its code, final state and log."""
    code = live_server.create_table("Replayed", wall=wall, seed=3)["code"]
    ann, _ = seated(live_server, code, "Ann", 0)
    with ann:
        ann.send({"type": "start"})
        ann.until("view")
    wait_status(live_server, code, {"between_hands", "finished"})
    log = live_server.get(f"/api/tables/{code}/hands/1/log").text
    state, _ = replay(log)
    assert state.ended
    return code, state, log


def tiles_of(page: Page, selector: str) -> list[str]:
    return page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.tile || 'back')")


WALLS = {
    "scripted": scripted_wall,
    "dealer_ready": lambda: stacked_wall(E="123m 456m 789p 234s 5s 9s", S="99s", draws="1s 5s 2m"),
}


@pytest.mark.parametrize("wall", sorted(WALLS))
def test_replay_ends_exactly_as_the_stored_hand(live_server: LiveServer, browser: Browser, wall: str) -> None:
    code, state, _ = finished_hand(live_server, WALLS[wall]())
    result = state.result
    page = new_page(browser)
    page.goto(f"{live_server.url}/replay/{code}/1")
    expect(page.locator("#replay")).to_be_visible()
    total = len(state.actions)
    expect(page.locator("#step-total")).to_have_text(str(total))
    page.keyboard.press("End")
    expect(page.locator("#step-number")).to_have_text(str(total))
    end = page.locator("#end-panel")
    expect(end).to_be_visible()
    heading = end.locator("h2").first
    if result["winner"] is None:
        expect(heading).to_have_text(re.compile("Drawn hand"))
    else:
        expect(heading).to_contain_text(f"{result['tai']} tai")
        expect(end).to_have_attribute("data-winner", str(result["winner"]))
        shown = [int(x) for x in end.locator(".patterns tbody tr td.num").all_inner_texts()]
        assert shown == [p["tai"] for p in result["patterns"]]
        for seat in range(4):
            cell = end.locator(f'.payments tr.pay-win td[data-seat="{seat}"]')
            amount = result["payments"][seat]
            expect(cell).to_have_text(f"+{amount}" if amount > 0 else str(amount) if amount else "·")
    # the felt: every seat's final tiles, sets, bonus tiles and discards as the engine has them
    for seat, st in enumerate(state.seats):
        where = "#hand .tile" if seat == 0 else f'.seat[data-seat="{seat}"] .hidden .tile'
        assert sorted(tiles_of(page, where)) == sorted(t.notation for t in st.concealed)
        assert tiles_of(page, f'.discards[data-discards="{seat}"] .tile:not(.taken)') == \
            [t.notation for t in st.discards]
        assert tiles_of(page, f'.discards[data-discards="{seat}"] .tile.taken') == \
            [t.notation for _, t, _ in st.taken]
        assert page.locator(f'.pond[data-pond="{seat}"] .meld').count() == len(st.melds)
        assert sorted(tiles_of(page, f'.pond[data-pond="{seat}"] .bonus .tile')) == \
            sorted(t.notation for t in st.bonus)
        amount = page.locator(f'.seat[data-seat="{seat}"] .plate .score').inner_text()
        assert int(amount) == state.ledger[seat]
    # the wall check, computed in the browser
    expect(page.locator("#wall-check")).to_have_attribute("data-match", "true")
    expect(page.locator("#wall-check")).to_contain_text(state.wall_hash)
    no_errors(page)


def test_stepping_points_of_view_and_review(live_server: LiveServer, browser: Browser) -> None:
    code, _, _ = finished_hand(live_server, scripted_wall())
    page = new_page(browser)
    csp: list[str] = []  # the page works under the site's Content-Security-Policy
    page.on("console", lambda m: csp.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(f"{live_server.url}/replay/{code}/1?seat=1&step=2")
    expect(page.locator("#step-number")).to_have_text("2")
    # South's point of view: South's hand large at the bottom, the others face down
    expect(page.locator('.seat.pos-bottom[data-seat="1"]')).to_be_visible()
    expect(page.locator('.seat[data-seat="0"] .hidden .tile.back').first).to_be_visible()
    assert page.locator('.seat[data-seat="0"] .hidden .tile:not(.back)').count() == 0
    page.keyboard.press("ArrowRight")
    expect(page.locator("#step-number")).to_have_text("3")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#step-number")).to_have_text("1")
    page.click("#next")
    expect(page.locator("#step-number")).to_have_text("2")
    assert "step=2" in page.url and "seat=1" in page.url
    # every hand open
    page.select_option("#pov", "all")
    expect(page.locator('.seat[data-seat="1"] .hidden .tile:not(.back)').first).to_be_visible()
    assert page.locator(".seat .hidden .tile.back").count() == 0
    expect(page.locator('.seat.pos-bottom[data-seat="0"] #hand .tile').first).to_be_visible()
    # the slider
    page.locator("#slider").fill("0")
    expect(page.locator("#step-number")).to_have_text("0")
    expect(page.locator("#step-action")).to_have_text("The deal")
    # the review of East by the strong bot
    page.select_option("#review-seat", "0")
    page.click("#review-btn")
    review = live_server.get(f"/api/tables/{code}/hands/1/review?seat=0").json()
    expect(page.locator("#review-summary")).to_contain_text(f"{review['summary']['decisions']} decisions")
    expect(page.locator("#review-list tr[data-step]")).to_have_count(len(review["decisions"]))
    first = review["decisions"][0]
    page.locator("#review-list tr[data-step]").first.click()
    expect(page.locator("#step-number")).to_have_text(str(first["number"] - 1))
    # the move in words and tile pictures ("discard" and the 9m picture), never notation
    kind, _, tile = first["player"].partition(" ")
    mark = page.locator(".review-mark")
    expect(mark).to_contain_text(kind)
    if tile:
        expect(mark).not_to_contain_text(first["player"])
        assert tiles_of(page, ".review-mark .move-tiles .tile")[:1] == [tile[0] + tile[-1]]
    # the step's events: words with pictures ("You were dealt" and the 13 or 14 tiles)
    page.locator("#slider").fill("0")
    dealt = page.locator("#step-events li", has_text="was dealt")  # every hand open: each seat's deal
    expect(dealt).to_have_count(4)
    page.select_option("#pov", "0")
    dealt = page.locator("#step-events li", has_text="You were dealt")
    expect(dealt.locator(".tile")).to_have_count(14)  # East, the dealer
    no_errors(page)
    assert csp == []


def test_replay_of_an_unfinished_hand_says_so(live_server: LiveServer, browser: Browser) -> None:
    code = live_server.create_table(seed=5)["code"]
    ann, _ = seated(live_server, code, "Ann", 0)
    with ann:
        ann.send({"type": "start"})
        ann.until("view")
        page = new_page(browser)
        page.goto(f"{live_server.url}/replay/{code}/1")
        expect(page.locator("#replay-error")).to_contain_text("published when the hand ends")
        expect(page.locator("#replay")).to_be_hidden()


def test_my_hands_page_lists_the_history(live_server: LiveServer, browser: Browser) -> None:
    from tests.conftest import session_cookie

    code = live_server.create_table("Mine", seed=3, wall=scripted_wall())["code"]
    joined = live_server.post(f"/api/tables/{code}/join", {"name": "Ann", "seat": 0})
    cookie = session_cookie(joined)
    assert cookie is not None
    token = joined.json()["token"]
    with live_server.ws(code) as ann:
        ann.hello(token)
        ann.send({"type": "start"})
        ann.until("view")
    wait_status(live_server, code, {"between_hands", "finished"})
    state, _ = replay(live_server.get(f"/api/tables/{code}/hands/1/log").text)
    page = new_page(browser)
    page.context.add_cookies([{"name": "sg_session", "value": cookie.split("=", 1)[1],
                               "url": live_server.url}])
    page.goto(f"{live_server.url}/me")
    expect(page.locator('[data-stat="hands"] b')).to_have_text("1")
    row = page.locator(f'#hands tr[data-code="{code}"][data-hand="1"]')
    expect(row).to_be_visible()
    net = state.ledger[0]
    expect(row.locator("td.net")).to_have_text(f"+{net}" if net > 0 else str(net))
    expect(page.locator("#me-name")).to_have_value("Ann")
    # the same page in 中文
    page.goto(f"{live_server.url}/me?lang=zh")
    expect(page.locator("h1")).to_have_text("我的牌局")
    outcome = row.locator("td[data-result]")
    expect(outcome).to_have_attribute("data-result", re.compile("won|lost|dealt in|drawn"))
    assert not re.search("[a-z]", outcome.inner_text())  # the outcome in Chinese
    page.goto(f"{live_server.url}/me?lang=en")
    expect(row).to_be_visible()
    row.locator("a").click()
    expect(page.locator("#replay-title")).to_contain_text("Mine, hand 1")
    page.go_back()
    page.on("dialog", lambda d: d.accept())
    page.click("#delete-btn")
    expect(page.locator("#data-status")).to_have_text("Deleted 1 hand.")
    expect(page.locator('[data-stat="hands"] b')).to_have_text("0")
    no_errors(page)


def test_wall_check_reshuffles_the_revealed_secret(live_server: LiveServer, browser: Browser) -> None:
    """A hand dealt from a fresh secret (no test seed): the page recomputes the wall from the revealed
    secret (docs/wall.md) and its hash, both in the browser."""
    code = live_server.create_table("Fresh")["code"]
    ann, _ = seated(live_server, code, "Ann", 0)
    with ann:
        ann.send({"type": "start"})
        ann.until("view")
    wait_status(live_server, code, {"between_hands", "finished"})
    state, _ = replay(live_server.get(f"/api/tables/{code}/hands/1/log").text)
    reveal = (state.result or {})["wall_reveal"]
    assert reveal["scheme"] == "sha256-ctr-v1" and len(reveal["secret"]) == 64
    page = new_page(browser)
    page.goto(f"{live_server.url}/replay/{code}/1")
    check = page.locator("#wall-check")
    expect(check).to_have_attribute("data-match", "true")
    expect(check).to_have_attribute("data-shuffle", "true")
    expect(check).to_contain_text("shuffles to exactly this wall")
    no_errors(page)

"""Browser tests: Playwright drives Debian's Chromium against a live server (``live_server``).

* four browser contexts join one table and play a scripted hand (stacked wall) through a chow, a pong,
  an exposed kong and a win, each page checked for what it shows;
* one human with three bots plays a full hand to its end, then starts the next;
* a reload in the middle of a hand restores the seat.

Never ``playwright install``: the tests use ``/usr/bin/chromium``.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, Page, expect

from sgmahjong.game.testing import deal, play, stack_wall
from sgmahjong.notation import parse_tiles
from tests.conftest import click_and_see_the_table_move

DISCARD_KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "q", "w", "e", "r"]
NAMES = ["Ann", "Bo", "Cy", "Di"]

expect.set_options(timeout=15_000)


def new_page(browser: Browser, *, touch: bool = False) -> Page:
    """A page in a fresh context (its own localStorage), failing the test on a script error; with
    ``touch``, a phone-sized touch screen."""
    if touch:
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    else:
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def take_seat(page: Page, base: str, code: str, name: str, seat: int) -> None:
    page.goto(f"{base}/t/{code}")
    expect(page.locator("#seating")).to_be_visible()
    page.fill("#join-name", name)
    page.locator(f'#seat-list [data-seat="{seat}"] [data-action="join"]').click()
    expect(page.locator("body")).to_have_attribute("data-seat", str(seat))
    expect(page.locator("#seated-controls")).to_be_visible()


def hand_tiles(page: Page) -> list[str]:
    tiles: list[str] = page.eval_on_selector_all("#hand .slot .tile", "els => els.map(e => e.dataset.tile)")
    return tiles


def press_discard(page: Page, tile: str) -> None:
    """Discard ``tile`` with the keyboard: the key of its place in the hand (1-9, 0, Q, W, E, R)."""
    slot = page.locator(f'#hand .slot.can-discard .tile[data-tile="{tile}"]').first
    expect(slot).to_be_visible()
    index = hand_tiles(page).index(tile)
    page.keyboard.press(DISCARD_KEYS[index])


def click_discard(page: Page, tile: str) -> None:
    page.locator(f'#hand .slot.can-discard .tile[data-tile="{tile}"]').first.click()


def meld_tiles(page: Page, seat: int, kind: str) -> list[str]:
    sel = f'.pond[data-pond="{seat}"] .meld[data-meld="{kind}"] .tile'
    expect(page.locator(sel).first).to_be_attached()
    tiles: list[str] = page.eval_on_selector_all(sel, "els => els.map(e => e.dataset.tile || 'back')")
    return tiles


def no_errors(*pages: Page) -> None:
    for page in pages:
        assert page.errors == [], page.errors  # type: ignore[attr-defined]


# The scripted hand (test_scripted_hand_in_the_engine checks it without a browser): E deals and
# discards 5s, S chooses one of three chows (567s) and discards F, W pongs F and discards 1p,
# N kongs 1p (instant payment), takes 2s from the back and discards 9m, on which E wins (red dragon
# pong, 1 tai).
SCRIPT_HANDS = {
    0: "CCC 123m 456p 789s 9m 5s",
    1: "67s F 2468m 28p 34s SN",
    2: "FF 1p 357m 379p 1s 4s WP",
    3: "111p 9m 158m 26p 8s EWN",
}


def scripted_wall() -> str:
    hands = {seat: parse_tiles(text) for seat, text in SCRIPT_HANDS.items()}
    wall = stack_wall(hands, [], parse_tiles("2s"))
    return " ".join(t.notation for t in wall)


SCRIPT_STEPS = ["E discard 5s", "S chow 567s", "S discard F", "W pong", "W discard 1p", "N kong 1p",
                "N discard 9m", "E win"]


def test_scripted_hand_in_the_engine() -> None:
    """The script the browsers play below, straight through the engine: every step legal, the end as
    the pages are expected to show it."""
    state = deal(E=SCRIPT_HANDS[0], S=SCRIPT_HANDS[1], W=SCRIPT_HANDS[2], N=SCRIPT_HANDS[3], back="2s")
    assert stack_wall({s: parse_tiles(t) for s, t in SCRIPT_HANDS.items()}, [], parse_tiles("2s")) == \
        list(state.wall)
    state, _ = play(state, *SCRIPT_STEPS)
    assert state.result is not None
    assert state.result["winner"] == 0 and state.result["shooter"] == 3
    assert state.result["patterns"] == [{"name": "dragon_pong", "tai": 1}]
    assert state.result["payments"] == [4, -1, -1, -2]
    assert list(state.ledger) == [2, -3, -3, 4]


def test_four_players_scripted_hand(live_server: Any, browser: Browser) -> None:
    table = live_server.create_table("Scripted", wall=scripted_wall())
    code = table["code"]
    pages = [new_page(browser) for _ in range(4)]
    for seat, page in enumerate(pages):
        take_seat(page, live_server.url, code, NAMES[seat], seat)
    east, south, west, north = pages
    east.locator("#start-btn").click()

    # -- the deal: own hand face up and sorted, the others as backs; winds, dealer, wall
    for seat, page in enumerate(pages):
        expect(page.locator("#play")).to_be_visible()
        expect(page.locator("#hand .tile")).to_have_count(14 if seat == 0 else 13)
        for other in range(4):
            backs = page.locator(f'.seat[data-seat="{other}"] .hidden .tile.back')
            if other != seat:
                expect(backs).to_have_count(14 if other == 0 else 13)
            expect(page.locator(f'.seat[data-seat="{other}"] .wind-badge')).to_have_text("東南西北"[other])
        expect(page.locator('.seat[data-seat="0"] .dealer')).to_be_visible()
        expect(page.locator(".dealer")).to_have_count(1)
        expect(page.locator("#prevailing")).to_have_text("東")
        expect(page.locator("#wall-count")).to_have_text(re.compile(r"^\d+$"))
    assert hand_tiles(south) == parse_notations("2m 4m 6m 8m 2p 8p 3s 4s 6s 7s S N F")
    wall_before = int(east.locator("#wall-count").inner_text())
    assert wall_before == 148 - 53 - 15
    # only East may act; the turn is shown
    expect(east.locator("#hand .slot.can-discard")).to_have_count(14)
    expect(south.locator("#hand .slot.can-discard")).to_have_count(0)
    expect(east.locator("#turn-status")).to_have_text("Your turn")
    expect(east).to_have_title("● Your move — Scripted — sgmahjong")
    expect(south).to_have_title("Scripted — sgmahjong")
    expect(south.locator("#turn-status")).to_have_text("東 Ann's turn")  # by the wind Ann holds
    expect(south.locator('.seat[data-seat="0"]')).to_have_class(re.compile(r"\bactive\b"))

    # -- East discards 5s with the mouse; South may chow it (Z: the discard is the left tile)
    click_discard(east, "5s")
    for page in pages:
        expect(page.locator('.discards[data-discards="0"] .tile[data-tile="5s"]')).to_be_visible()
    # three ways to chow 5s: a choice of buttons, keyed by where the discard sits in the chow
    chows = south.locator('#actions button[data-action="chow"]')
    expect(chows).to_have_count(3)
    assert chows.evaluate_all("bs => bs.map(b => b.dataset.move + ' ' + b.dataset.key)") == [
        "chow 567s Z", "chow 456s X", "chow 345s C"]
    expect(chows.first.locator(".tile")).to_have_count(3)
    expect(south.locator('#actions button[data-action="pass"] kbd')).to_have_text("Space")
    for page in (east, west, north):
        expect(page.locator("#actions button")).to_have_count(0)
        # who may claim stays private: no seat is highlighted for the others during the claim window
        expect(page.locator(".seat.active")).to_have_count(0)
    expect(south.locator(".seat.active")).to_have_attribute("data-seat", "1")
    south.keyboard.press("z")
    for page in pages:
        assert meld_tiles(page, 1, "chow") == ["5s", "6s", "7s"]
        # the chowed 5s stays in East's pile, marked as taken by South (南)
        expect(page.locator('.discards[data-discards="0"] .tile:not(.taken)')).to_have_count(0)
        expect(page.locator('.discards[data-discards="0"] .tile.taken .taken-by')).to_have_text("南")
    expect(south.locator("#hand .tile")).to_have_count(11)
    for page in (east, west, north):
        expect(page.locator('.seat[data-seat="1"] .hidden .tile.back')).to_have_count(11)

    # -- West reloads its page while South is to play: the same seat, hand and table come back
    before = hand_tiles(west)
    version = west.locator("body").get_attribute("data-version")
    west.reload()
    expect(west.locator("body")).to_have_attribute("data-seat", "2")
    expect(west.locator("body")).to_have_attribute("data-version", version or "")
    expect(west.locator("#hand .tile")).to_have_count(13)
    assert hand_tiles(west) == before
    assert meld_tiles(west, 1, "chow") == ["5s", "6s", "7s"]
    expect(west.locator('.seat[data-seat="1"] .hidden .tile.back')).to_have_count(11)

    # -- South discards the green dragon with the keyboard; West pongs it (button)
    press_discard(south, "F")
    pong = west.locator('#actions button[data-move="pong"]')
    expect(pong).to_be_visible()
    expect(pong.locator("kbd")).to_have_text("P")
    pong.click()
    for page in pages:
        assert meld_tiles(page, 2, "pong") == ["F", "F", "F"]

    # -- West discards 1p; North may pong or kong: G kongs (exposed kong: instant payment)
    click_discard(west, "1p")
    kong = north.locator('#actions button[data-move="kong 1p"]')
    expect(kong).to_be_visible()
    expect(kong.locator("kbd")).to_have_text("G")
    expect(north.locator('#actions button[data-move="pong"] kbd')).to_have_text("P")
    north.keyboard.press("g")
    expect(east.locator(".flash")).to_contain_text("kong")  # the payment flashes on the felt
    for page in pages:
        assert meld_tiles(page, 3, "kong") == ["1p"] * 4
        # the instant payment shows at once: +6 to North, -2 from each other seat
        expect(page.locator('#ledger tr[data-seat="3"] .hand-amount')).to_have_text("+6")
        expect(page.locator('#ledger tr[data-seat="0"] .hand-amount')).to_have_text("-2")
        expect(page.locator("#log li.pay")).to_contain_text(["kong"])
        # plain words with the tiles' names and pictures; West's log is whole after its reload
        expect(page.locator("#log")).to_contain_text("Di kongs 1 Dots")
        expect(page.locator("#log")).to_contain_text("Cy pongs Green dragon")
        expect(page.locator("#log")).to_contain_text("Bo chows 5 Bamboo – 6 Bamboo – 7 Bamboo")
        expect(page.locator('#log li[data-kind="kong"] .log-tiles .tile')).to_have_count(4)
        expect(page.locator("#wall-count")).to_have_text(str(wall_before - 1))
    # North's replacement draw stands apart as the drawn tile
    expect(north.locator("#hand .slot.drawn .tile")).to_have_attribute("data-tile", "2s")

    # -- North discards 9m; East wins on it with H
    press_discard(north, "9m")
    win = east.locator('#actions button[data-move="win"]')
    expect(win).to_be_visible()
    expect(win.locator("kbd")).to_have_text("H")
    east.keyboard.press("h")

    for page in pages:
        result = page.locator("#result")
        expect(result).to_be_visible()
        expect(result.locator("h2").first).to_have_text("東 Ann wins: 1 tai")
        expect(result.locator(".result-how")).to_have_text("On 北 Di's discard")
        expect(result.locator('.patterns tr[data-pattern="dragon_pong"] td.num')).to_have_text("1")
        expect(result.locator('.payments tr.pay-win td[data-seat="0"]')).to_have_text("+4")
        expect(result.locator('.payments tr.pay-win td[data-seat="3"]')).to_have_text("-2")
        expect(result.locator(".winning-hand .winning-tile")).to_have_attribute("data-tile", "9m")
        expect(result.locator(".wall-reveal .tile")).to_have_count(148)
        expect(result.locator(".wall-reveal .verify")).to_have_text(re.compile("matches the hash"))
        expect(page.locator('#ledger tr[data-seat="0"] .hand-amount')).to_have_text("+2")
    no_errors(*pages)


def parse_notations(text: str) -> list[str]:
    return [t.notation for t in parse_tiles(text)]


def autoplay(page: Page, limit: int = 300, *, touch: bool = False) -> None:
    """Play the human seat until the hand ends: win when offered, pass on claims, else discard the
    drawn tile (or the rightmost); with ``touch``, by tapping."""
    ready = "#result:not([hidden]), #actions button:not([disabled]), #hand .slot.can-discard"
    for _ in range(limit):
        page.wait_for_selector(ready, timeout=20_000)
        if page.locator("#result:not([hidden])").count():
            return
        win = page.locator('#actions button[data-action="win"]:not([disabled])')
        pas = page.locator('#actions button[data-action="pass"]:not([disabled])')
        slots = page.locator("#hand .slot.can-discard")
        try:
            target = win.first if win.count() else pas.first if pas.count() else slots.last
            if touch:
                target.tap(timeout=2000)
            else:
                target.click(timeout=2000)
        except Exception:  # the view moved on between the check and the click: look again
            continue
        page.wait_for_timeout(20)
    raise AssertionError("the hand did not end")


def start_with_bots(browser: Browser, live_server: Any, seed: int, *, touch: bool = False,
                    options: dict[str, Any] | None = None) -> tuple[Page, str]:
    table = live_server.create_table("Bots", seed=seed, rules={"rounds": 1}, options=options)
    code = table["code"]
    page = new_page(browser, touch=touch)
    take_seat(page, live_server.url, code, "Ann", 0)
    for seat in (1, 2, 3):
        page.locator(f'#seat-list [data-seat="{seat}"] [data-action="add-bot"]').click()
        expect(page.locator(f'#seat-list [data-seat="{seat}"] [data-action="remove-bot"]')).to_be_visible()
    page.locator("#start-btn").click()
    expect(page.locator("#hand .tile").first).to_be_visible()
    return page, code


def test_one_human_three_bots_full_hand(live_server: Any, browser: Browser) -> None:
    """On a phone-sized touch screen: tiles and buttons are tapped."""
    page, _ = start_with_bots(browser, live_server, seed=7, touch=True)
    expect(page.locator(".seat .plate .name")).to_have_count(4)
    expect(page.locator('.seat[data-seat="1"] .plate .name')).to_contain_text("Bot")
    # the whole table fits the phone's width
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    autoplay(page, touch=True)
    result = page.locator("#result")
    expect(result.locator("h2").first).to_have_text(re.compile(r"wins: .*tai|Drawn hand"))
    expect(result.locator(".payments tfoot tr")).to_have_count(2)  # the hand's and the match's totals
    expect(result.locator(".revealed-row")).to_have_count(4)
    expect(result.locator(".wall-reveal .verify")).to_have_text(re.compile("matches the hash"))
    # the hand's log, for `sgmahjong replay`
    href = result.locator("a.hand-log").get_attribute("href")
    assert href and href.endswith("/hands/1/log")
    log = live_server.get(href)
    assert log.status_code == 200 and '"hand_start"' in log.text.splitlines()[0]
    # the hand's payments add up to nothing, and the ledger shows the same numbers
    amounts = [int(x) for x in page.eval_on_selector_all(
        "#ledger .hand-amount", "els => els.map(e => e.textContent)")]
    assert sum(amounts) == 0
    # the next hand
    next_btn = result.locator('[data-action="next"]')
    expect(next_btn).to_be_visible()
    expect(next_btn.locator("kbd")).to_have_text("N")
    next_btn.tap()
    expect(result).to_be_hidden()
    expect(page.locator("#match-info")).to_contain_text("hand 2")
    expect(page.locator("#hand .tile").first).to_be_visible()
    no_errors(page)


def test_reload_mid_hand_restores_the_seat(live_server: Any, browser: Browser) -> None:
    timers = {"bot_delay": 0, "turn_seconds": 60, "claim_seconds": 60, "next_hand_seconds": 0}
    page, code = start_with_bots(browser, live_server, seed=11, options=timers)
    # play a few turns, then reload in the middle of the hand
    for _ in range(3):
        page.wait_for_selector("#hand .slot.can-discard, #actions [data-action=pass]:not([disabled])")
        if page.locator('#actions [data-action="pass"]:not([disabled])').count():
            click_and_see_the_table_move(page, page.locator('#actions [data-action="pass"]').first)
        else:
            click_and_see_the_table_move(page, page.locator("#hand .slot.can-discard").last)
    page.wait_for_selector("#hand .slot.can-discard, #actions [data-action=pass]:not([disabled])")
    version = page.locator("body").get_attribute("data-version")
    token = page.evaluate(f"localStorage.getItem('sgmahjong:{code}')")
    assert token
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-seat", "0")
    expect(page.locator("#seating")).to_be_hidden()
    expect(page.locator("#hand .tile").first).to_be_visible()
    # while the page was away a bot played the seat (docs/protocol.md), so the hand may have moved on
    assert int(page.locator("body").get_attribute("data-version") or 0) >= int(version or 0)
    assert page.evaluate(f"localStorage.getItem('sgmahjong:{code}')") == token
    melds = page.locator('.pond[data-pond="0"] .meld').count()
    assert len(hand_tiles(page)) + 3 * melds in (13, 14)
    expect(page.locator('.seat[data-seat="0"] .plate .name')).to_have_text("Ann (you)")
    expect(page.locator('.seat[data-seat="0"] .plate .offline')).to_have_count(0)
    expect(page.locator("#conn")).to_have_text("connected")
    # the timer of the seat being waited for counts down on its name plate
    page.wait_for_selector("#hand .slot.can-discard, #actions [data-action=pass]:not([disabled])")
    expect(page.locator('.seat[data-seat="0"] .plate .timer')).to_have_text(re.compile(r"^\d+s$"))
    # the restored seat still plays
    autoplay(page)
    expect(page.locator("#result")).to_be_visible()
    no_errors(page)


def test_match_end_shows_the_standings(live_server: Any, browser: Browser) -> None:
    """A one-round match (rounds=1) played to its end: each hand's result, then the standings."""
    page, _ = start_with_bots(browser, live_server, seed=3)
    for hand in range(1, 30):
        expect(page.locator("#match-info")).to_contain_text(f"hand {hand}")
        autoplay(page)
        if page.locator("#standings").count():
            break
        page.locator('#result [data-action="next"]').click()
        expect(page.locator("#result")).to_be_hidden()
    standings = page.locator("#standings")
    expect(standings).to_be_visible()
    expect(page.locator("#result")).to_contain_text("The match is over")
    rows = standings.locator("tbody tr")
    expect(rows).to_have_count(4)
    amounts = [int(x) for x in rows.locator("td.num").all_inner_texts()]
    assert sum(amounts) == 0
    assert amounts == sorted(amounts, reverse=True)
    totals = [int(x) for x in page.locator("#ledger .total-amount").all_inner_texts()]
    assert sorted(totals, reverse=True) == amounts
    no_errors(page)

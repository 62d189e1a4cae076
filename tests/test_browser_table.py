"""The table page, round two (issue 24): offers at the hand, game keys after a click on an option, every
payment itemised, readable piles (claimed tiles, copies, tracker, no overlap on phones), touch wording,
toasts on screen, names and winds, spectators, the call-out. The page's files come from a real server;
its table messages from engine-made states (tests/table_states.py)."""

from __future__ import annotations

import copy
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from sgmahjong.game import player_view
from sgmahjong.game.testing import deal, play, play_out
from tests.conftest import LiveServer
from tests.table_states import FakeTable, Msg, late_hand, view_message

expect.set_options(timeout=15_000)

DESKTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 768}}
PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 800}, "is_mobile": True, "has_touch": True}
PHONE_390: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
CLAIM_TIMER = {"kind": "claim", "seats": [0], "remaining_ms": 12_000, "seconds": 15}
TURN_TIMER = {"kind": "turn", "seats": [0], "remaining_ms": 25_000, "seconds": 30}

Box = dict[str, float]


@pytest.fixture
def table_page(browser: Browser, live_server: LiveServer) -> Any:
    """open(size, messages, seat=0, **context options) -> (page, fake): the table page of a real table
    whose WebSocket is a :class:`FakeTable` answering ``messages``."""
    contexts: list[Any] = []
    errors: list[str] = []

    def open_(size: dict[str, Any], messages: list[Msg], seat: int | None = 0,
              **extra: Any) -> tuple[Page, FakeTable]:
        ctx = browser.new_context(**size, **extra)
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        fake = FakeTable(page, seat, messages)
        code = live_server.create_table("Stacked")["code"]
        page.goto(f"{live_server.url}/t/{code}")
        expect(page.locator("#felt .seat")).to_have_count(4)
        return page, fake

    yield open_
    for ctx in contexts:
        ctx.close()
    assert errors == []


def fonts_settled(page: Page) -> None:
    """Wait until the page is shown and no font is loading: ``document.fonts.ready`` alone settles at
    once when no font load has started yet, and on a busy machine a bundled font can arrive after the
    first frames and move the layout."""
    expect(page.locator("html[data-drawn]")).to_be_attached()
    page.wait_for_function('() => document.fonts.status === "loaded"')


def box(page: Page, selector: str) -> Box:
    """The first ``selector``'s box, measured in one step in the page: the table redraws its seats on
    every message, so a handle found first and measured after may already be detached."""
    b = page.evaluate("(s) => { const e = document.querySelector(s);"
                      " return e ? e.getBoundingClientRect().toJSON() : null; }", selector)
    assert b is not None and b["width"] > 0 and b["height"] > 0, (selector, b)
    return {k: float(b[k]) for k in ("x", "y", "width", "height")}


def meets(a: Box, b: Box) -> bool:
    return (a["x"] < b["x"] + b["width"] - 0.5 and b["x"] < a["x"] + a["width"] - 0.5
            and a["y"] < b["y"] + b["height"] - 0.5 and b["y"] < a["y"] + a["height"] - 0.5)


def claim_view(version: int = 1) -> Msg:
    """My claim window on North's 5m: pong or pass."""
    v = late_hand()
    v.update(version=version, phase="claim", legal_actions=["pong", "pass"], turn=3,
             last_discard={"seat": 3, "tile": "5m"}, window={"kind": "discard", "seat": 3, "tile": "5m"})
    return v


def turn_view(version: int = 0) -> Msg:
    v = late_hand()
    v["version"] = version
    return v


# -- calls at the hand -------------------------------------------------------------------------------

@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_offers_and_the_claim_timer_sit_just_above_the_hand(table_page: Any,
                                                                size: dict[str, Any]) -> None:
    page, _ = table_page(size, [view_message(claim_view(), CLAIM_TIMER)])
    pong = page.locator('#actions button[data-action="pong"]')
    expect(pong).to_be_visible()
    assert page.locator(".seat.me .my-area #actions button").count() == 2  # pong and pass, at my seat
    assert page.locator(".side #actions").count() == 0  # the side column only informs
    expect(pong.locator(".tiles .tile")).to_have_count(3)
    # counting down from 12 s: a loaded machine may show the first second gone before the check
    expect(page.locator("#call-timer")).to_have_text(re.compile(r"^(1[0-2]|[1-9])s$"))
    hand, bar, timer = box(page, "#hand"), box(page, "#move-bar"), box(page, "#call-timer")
    assert bar["y"] + bar["height"] <= hand["y"] + 1 and hand["y"] - (bar["y"] + bar["height"]) < 24
    assert abs((timer["y"] + timer["height"] / 2) - (bar["y"] + bar["height"] / 2)) < 20  # beside them
    height = size["viewport"]["height"]
    assert box(page, '#actions button[data-action="pass"]')["y"] >= 0 and bar["y"] + bar["height"] <= height


# -- keys always play --------------------------------------------------------------------------------

def test_game_keys_still_play_after_a_click_on_an_option(table_page: Any) -> None:
    page, fake = table_page(DESKTOP, [view_message(turn_view(0), TURN_TIMER)])
    expect(page.locator("#hand .slot.can-discard")).to_have_count(2)
    page.locator("#sheet-btn").click()  # the play options sheet (it stays open: the keys still play)
    box_ = page.locator("#set-autoDiscard")
    box_.click()
    expect(box_).to_be_checked()
    page.keyboard.press("1")
    expect(page.locator("#hand .slot.sent").first).to_be_attached()
    assert fake.actions() == ["discard 5m"]

    fake.push(view_message(claim_view(1), CLAIM_TIMER))
    expect(page.locator('#actions button[data-action="pass"]')).to_be_enabled()
    box_.click()
    expect(box_).not_to_be_checked()
    page.keyboard.press(" ")  # passes; the checkbox stays as it was
    expect(page.locator('#actions button[data-action="pass"]')).to_be_disabled()
    assert fake.actions() == ["discard 5m", "pass"]
    expect(box_).not_to_be_checked()

    win = claim_view(2)
    win["legal_actions"] = ["win", "pass"]
    fake.push(view_message(win, CLAIM_TIMER))
    expect(page.locator('#actions button[data-action="win"]')).to_be_enabled()
    select = page.locator("#set-sort")
    before = select.input_value()
    select.focus()
    page.keyboard.press("h")  # H wins; the hand order stays
    expect(page.locator('#actions button[data-action="win"]')).to_be_disabled()
    assert fake.actions()[-1] == "win" and select.input_value() == before


# -- payments you can follow -------------------------------------------------------------------------

def finished_hand() -> Msg:
    """A hand played by the engine to its end with an instant payment (South's added kong)."""
    st = deal(E="5p 8m9m 3s6s9s 1p2p7p8p 7s E S W", S="5p5p 2s 8s 3p 9p ESWN F P 7m",
              W="123m 456m CCC 11s 49p", N="1p 4p 7p 2m 5m 8m 3s 6s 9s S W N P", draws="F P N 5p")
    st, _ = play(st, "E discard 5p", "S pong", "S discard 2s", "W discard F", "N discard P", "E discard N",
                 "S kong 5p")
    st = play_out(st)
    assert st.result is not None and st.result["instant"]
    view = player_view(st, 0)
    view.update(hand_number=1, match_ledger=list(st.ledger))
    return view


def test_the_result_itemises_every_payment_and_shows_the_table_behind(table_page: Any) -> None:
    view = finished_hand()
    page, _ = table_page(DESKTOP, [view_message(view, None, status="between_hands")])
    table = page.locator("#result .payments")
    expect(table).to_be_visible()
    r = view["result"]
    rows = len(r["instant"]) + (0 if r["drawn_game"] else 1)
    expect(table.locator("tbody tr")).to_have_count(rows)
    expect(table.locator("tbody tr.pay-instant").first).to_contain_text("exposed kong to")
    for seat in range(4):
        cells = table.locator(f'tbody td[data-seat="{seat}"]').all_inner_texts()
        total = table.locator(f'tfoot tr.hand-total th[data-seat="{seat}"]').inner_text()
        assert sum(int(c) for c in cells if c != "·") == int(total) == view["hand_ledger"][seat]
    # a look at the final board behind the result, and back
    page.locator('#result [data-action="peek"]').click()
    expect(page.locator("#result")).to_be_hidden()
    expect(page.locator(".seat.me .plate")).to_be_visible()
    page.locator("#peek-board").click()
    expect(page.locator("#result .payments")).to_be_visible()


# -- readable piles ----------------------------------------------------------------------------------

def test_claimed_discards_stay_marked_copies_light_up_and_the_tracker_counts(table_page: Any) -> None:
    view = late_hand()
    page, _ = table_page(DESKTOP, [view_message(view)])
    south = page.locator('.discards[data-discards="1"]')
    expect(south.locator(".tile")).to_have_count(24)
    taken = south.locator(".tile.taken")
    expect(taken).to_have_count(2)
    taker = view["seats"][1]["taken"][0][2]
    glyph = {"E": "東", "S": "南", "W": "西", "N": "北"}[view["seats"][taker]["wind"]]
    expect(taken.first.locator(".taken-by")).to_have_text(glyph)
    expect(taken.first).to_have_attribute("title", f"{taken.first.get_attribute('aria-label')}")
    assert "taken by" in (taken.first.get_attribute("title") or "")
    # hovering a discard lights up every visible copy of it
    page.locator('.discards[data-discards="0"] .tile[data-tile="1m"]').first.hover()
    visible = page.locator('#felt .tile[data-tile="1m"]').count()
    assert visible >= 2
    expect(page.locator("#felt .tile.same")).to_have_count(visible)
    # the tracker: copies not yet seen from my view
    page.locator("#sheet-btn").click()
    page.locator("#tracker-toggle").check()
    page.keyboard.press("Escape")
    expect(page.locator("#tracker .tracker-cell")).to_have_count(34)
    seen: Counter[str] = Counter()
    for s in view["seats"]:
        seen.update(s["concealed"] or [])
        seen.update([s["drawn"]] if s["drawn"] else [])
        seen.update(s["discards"])
        for m in s["melds"]:
            seen.update(m["tiles"])
    for tile in ("1m", "5m", "E", "C"):
        cell = page.locator(f'#tracker .tracker-cell[data-tile="{tile}"]')
        expect(cell).to_have_attribute("data-unseen", str(max(0, 4 - seen[tile])))


@pytest.mark.parametrize("size", [PHONE, PHONE_390], ids=["360", "390"])
def test_a_stacked_late_hand_has_no_two_seats_tiles_or_piles_overlapping_on_a_phone(
        table_page: Any, size: dict[str, Any], tmp_path: Path) -> None:
    page, _ = table_page(size, [view_message(late_hand(), TURN_TIMER)])
    expect(page.locator("#hand .slot")).to_have_count(2)
    page.screenshot(path=str(tmp_path / f"late-hand-{size['viewport']['width']}.png"), full_page=True)
    width = size["viewport"]["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # each seat's plate, hand, sets and bonus tiles, and each seat's pile: no two of these meet (measured
    # at one moment, once the fonts are in and the side column placed)
    fonts_settled(page)
    expect(page.locator("#settings-panel")).to_be_attached()
    groups: dict[str, list[Box]] = page.evaluate("""() => {
      const out = {};
      const boxes = (sel) => [...document.querySelectorAll(sel)].map((el) => el.getBoundingClientRect())
        .filter((r) => r.width > 0).map((r) => ({x: r.x, y: r.y, width: r.width, height: r.height}));
      for (let s = 0; s < 4; s += 1) {
        out[`seat ${s}`] = boxes(`.seat[data-seat="${s}"] .tile, .seat[data-seat="${s}"] .plate, `
                                 + `.pond[data-pond="${s}"] .exposed .tile`);
        out[`pile ${s}`] = boxes(`.discards[data-discards="${s}"] .tile`);
      }
      return out;
    }""")
    for found in groups.values():
        assert len(found) >= 3
        assert all(b["x"] >= 0 and b["x"] + b["width"] <= width + 0.5 for b in found)
    names = sorted(groups)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            clash = [(x, y) for x in groups[a] for y in groups[b] if meets(x, y)]
            assert not clash, (a, b, clash[:2])
    expect(page.locator("#felt .discards .tile")).to_have_count(96)  # claimed ones too


# -- phone -------------------------------------------------------------------------------------------

def test_a_touch_screen_says_tap_and_shows_no_keys(table_page: Any) -> None:
    page, _ = table_page(PHONE, [view_message(turn_view(), TURN_TIMER)])
    expect(page.locator("#actions .hint")).to_contain_text("tap a tile")
    expect(page.locator("#actions .hint")).not_to_contain_text("key")
    for sel in ("#hand kbd", "#move-bar kbd", "#key-help"):
        for el in page.locator(sel).all():
            expect(el).to_be_hidden()


def test_a_payment_toast_stays_on_a_360_px_screen(table_page: Any) -> None:
    page, fake = table_page(PHONE, [view_message(turn_view(), TURN_TIMER)])
    later = turn_view(1)
    pay = {"kind": "payment", "seat": 1, "reason": "exposed_kong", "amounts": [-1, 3, -1, -1], "liable": None}
    fake.push({**view_message(later, TURN_TIMER), "events": [pay]})
    toasts = page.locator(".pay-toast")
    expect(toasts).to_have_count(4)
    # measured in one step: a toast is removed 3.5 s after it shows, which a loaded machine's round
    # trips to measure each in turn could outlast
    boxes = page.evaluate("() => [...document.querySelectorAll('.pay-toast')]"
                          ".map((e) => e.getBoundingClientRect().toJSON())")
    assert boxes
    for b in boxes:
        assert b["width"] > 0 and b["x"] >= 0 and b["x"] + b["width"] <= 360, b
    assert page.evaluate("Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)") <= 360


def test_a_long_name_shows_whole_at_360_px(table_page: Any) -> None:
    page, _ = table_page(PHONE, [view_message(turn_view(), TURN_TIMER)])
    name = page.locator(".seat.me .plate .name")
    expect(name).to_have_text("Siew Lan Tan-Goh Wei Ming (you)")
    assert name.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
    plate = box(page, ".seat.me .plate")
    assert plate["x"] >= 0 and plate["x"] + plate["width"] <= 360


# -- names, spectators, the call-out -----------------------------------------------------------------

def test_every_seat_label_shows_the_wind_held_this_hand_and_bots_are_named_by_level(table_page: Any) -> None:
    view = late_hand(dealer=2)  # West deals: I (seat 0) hold West this hand
    page, _ = table_page(DESKTOP, [view_message(view)])
    expect(page.locator('.seat[data-seat="0"] .wind-badge')).to_have_text("西")
    expect(page.locator('.seat[data-seat="1"] .wind-badge')).to_have_text("北")
    expect(page.locator('.seat[data-seat="1"] .plate .name')).to_have_text("Bot 1 · Casual")
    expect(page.locator('#ledger tr[data-seat="0"] td').first).to_contain_text("西")
    done = finished_hand()
    page2, _ = table_page(DESKTOP, [view_message(done, None, status="between_hands")])
    for seat in range(4):
        glyph = {"E": "東", "S": "南", "W": "西", "N": "北"}[done["seats"][seat]["wind"]]
        expect(page2.locator(f'#result .payments th.seat-col[data-seat="{seat}"]')).to_contain_text(glyph)


def test_a_spectator_sees_no_move_and_no_play_options(table_page: Any) -> None:
    page, _ = table_page(DESKTOP, [view_message(late_hand(None))], seat=None)
    expect(page.locator("body")).to_have_attribute("data-seat", "spectator")
    expect(page.get_by_text("Your move")).to_have_count(0)
    expect(page.locator("#move-bar")).to_be_hidden()
    expect(page.locator("#set-autoPass")).to_be_hidden()
    expect(page.locator("#sheet-btn")).to_be_hidden()


def test_my_pong_call_out_never_covers_my_name_plate(table_page: Any) -> None:
    page, fake = table_page(PHONE, [view_message(claim_view(1), CLAIM_TIMER)])
    after = copy.deepcopy(turn_view(2))
    pong = {"kind": "pong", "seat": 0, "tile": "5m", "from": 3}
    fake.push({**view_message(after, TURN_TIMER), "events": [pong]})
    callout = page.locator(".callout")
    expect(callout).to_have_count(1)
    plate = box(page, ".seat.me .plate")
    samples = 0
    while samples < 40:  # through its whole animation
        b = page.evaluate("() => { const c = document.querySelector('.callout');"
                          " return c ? c.getBoundingClientRect().toJSON() : null; }")
        if b is None:
            break
        assert not meets(b, plate), (b, plate)
        samples += 1
        page.wait_for_timeout(30)
    assert samples >= 5


# -- pace --------------------------------------------------------------------------------------------

def test_play_vs_bots_offers_the_pace(browser: Browser, live_server: LiveServer) -> None:
    ctx = browser.new_context(**DESKTOP)
    try:
        page = ctx.new_page()
        page.goto(f"{live_server.url}/")
        expect(page.locator("#play-pace")).to_have_value("normal")  # the default
        page.fill("#play-name", "Pat")
        page.select_option("#play-pace", "fast")
        page.click("#play-bots")
        expect(page.locator("#hand .slot").first).to_be_visible()
        code = page.url.rsplit("/", 1)[1]
        assert live_server.get(f"/api/tables/{code}").json()["options"]["pace"] == "fast"
    finally:
        ctx.close()

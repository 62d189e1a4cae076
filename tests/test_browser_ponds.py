"""The table on a phone (portrait 360x800 and 390x844, landscape 800x360 and 844x390) and a desktop: each
seat's pond (its discards, sets and bonus tiles) in front of it and apart from every other seat's, all on
the screen and my own never covered; the play options sheet one tap (or one key) away and on the screen;
call-outs, toasts and my chat bubble never over my hand or sets. The page's files come from a real
server, its table messages from engine-made states (tests/table_states.py)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests import test_browser_table
from tests.table_states import late_hand, view_message
from tests.test_browser_table import TURN_TIMER, Box, fonts_settled, meets

table_page = test_browser_table.table_page  # the fixture: a table page whose WebSocket is a FakeTable

expect.set_options(timeout=15_000)


def size(width: int, height: int, phone: bool = True) -> dict[str, Any]:
    extra: dict[str, Any] = {"is_mobile": True, "has_touch": True} if phone else {}
    return {"viewport": {"width": width, "height": height}, **extra}


SIZES = {"360x800": size(360, 800), "390x844": size(390, 844), "800x360": size(800, 360),
         "844x390": size(844, 390), "1366x768": size(1366, 768, phone=False)}
PHONES = [k for k in SIZES if k != "1366x768"]

# Every seat's boxes, measured in one step (the table redraws on every message): its plate and hidden
# tiles ("seat"), its whole band (".seat"), its pond's tiles, and the centre.
MEASURE = """() => {
  const rects = (sel) => [...document.querySelectorAll(sel)].map((el) => el.getBoundingClientRect())
    .filter((r) => r.width > 0 && r.height > 0)
    .map((r) => ({x: r.x, y: r.y, width: r.width, height: r.height}));
  const out = {centre: rects('#felt .centre .info')[0], seats: {}};
  for (let s = 0; s < 4; s += 1) {
    out.seats[s] = {
      band: rects(`.seat[data-seat="${s}"]`)[0],
      seat: rects(`.seat[data-seat="${s}"] .tile, .seat[data-seat="${s}"] .plate`),
      pond: rects(`.pond[data-pond="${s}"] .tile`),
      discards: rects(`.pond[data-pond="${s}"] .discards .tile`),
      melds: rects(`.pond[data-pond="${s}"] .melds .tile`),
      bonus: rects(`.pond[data-pond="${s}"] .bonus .tile`),
    };
  }
  return out;
}"""

# For each of `sel`'s tiles: whether its centre and four inner corners (4 px in: a neighbour's "taken by"
# mark may overhang by a pixel) show the tile itself, nothing over it.
UNCOVERED = """(sel) => [...document.querySelectorAll(sel)].map((el) => {
  const r = el.getBoundingClientRect();
  const points = [[r.x + r.width / 2, r.y + r.height / 2], [r.x + 4, r.y + 4], [r.right - 4, r.y + 4],
                  [r.x + 4, r.bottom - 4], [r.right - 4, r.bottom - 4]];
  return points.every(([x, y]) => {
    const hit = document.elementFromPoint(x, y);
    return hit && el.contains(hit);
  });
})"""


def centre_of(b: Box) -> tuple[float, float]:
    return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2


def inside(b: Box, width: int, height: int) -> bool:
    return (b["x"] >= -0.5 and b["y"] >= -0.5
            and b["x"] + b["width"] <= width + 0.5 and b["y"] + b["height"] <= height + 0.5)


@pytest.mark.parametrize("name", list(SIZES))
def test_each_seats_pond_is_in_front_of_it_apart_and_on_the_screen(table_page: Any, name: str) -> None:
    view = late_hand()
    view.update(phase="claim", turn=3, last_discard={"seat": 3, "tile": "7m"},
                window={"kind": "discard", "seat": 3, "tile": "7m"}, legal_actions=["pass"])
    page, _ = table_page(SIZES[name], [view_message(view, TURN_TIMER)])
    expect(page.locator("#hand .slot")).to_have_count(2)
    fonts_settled(page)
    expect(page.locator(".pond")).to_have_count(4)
    width, height = SIZES[name]["viewport"]["width"], SIZES[name]["viewport"]["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    m = page.evaluate(MEASURE)
    seats = {int(k): v for k, v in m["seats"].items()}
    # every tile of every seat, and each pond's discards, sets and bonus tiles, on the screen
    for s, g in seats.items():
        assert len(g["discards"]) == 24 and len(g["melds"]) == 12 and len(g["bonus"]) >= 1, (s, g)
        off = [b for b in g["seat"] + g["pond"] if not inside(b, width, height)]
        assert not off, (name, s, off[:2])
    # each pond lies on its owner's side of the centre (I sit at the bottom, seat 1 on my right)
    cx, cy = centre_of(m["centre"])
    where = {0: "bottom", 1: "right", 2: "top", 3: "left"}
    for s, g in seats.items():
        xs = [centre_of(b)[0] for b in g["pond"]]
        ys = [centre_of(b)[1] for b in g["pond"]]
        px, py = sum(xs) / len(xs), sum(ys) / len(ys)
        side = where[s]
        assert {"bottom": py > cy, "top": py < cy, "left": px < cx, "right": px > cx}[side], (name, s, side)
    # no seat's pond, tiles or plate meets another seat's tiles, plate or band
    for s, g in seats.items():
        for o, h in seats.items():
            if o == s:
                continue
            mine = g["pond"] + g["seat"]
            clash = [(a, b) for a in mine for b in h["pond"] + h["seat"] + [h["band"]] if meets(a, b)]
            assert not clash, (name, s, o, clash[:1])
    # my own discards, sets and bonus tiles: whole, nothing over them; the others' bonus tiles too
    for sel in ('.pond[data-pond="0"] .tile', '.pond[data-pond="1"] .bonus .tile',
                '.pond[data-pond="3"] .bonus .tile', "#hand .slot .tile"):
        shown = page.evaluate(UNCOVERED, sel)
        assert shown and all(shown), (name, sel, shown)
    # the latest discard is marked, in its owner's pond
    expect(page.locator(".pond .tile.last")).to_have_count(1)
    expect(page.locator('.pond[data-pond="3"] .discards .tile.last')).to_have_attribute("data-tile", "7m")


@pytest.mark.parametrize(("name", "lang"), [("1366x768", "en"), ("390x844", "zh"), ("800x360", "en")])
def test_the_play_options_sheet_is_one_tap_away_and_all_on_the_screen(table_page: Any, name: str,
                                                                      lang: str) -> None:
    page, _ = table_page(SIZES[name], [view_message(late_hand(), TURN_TIMER)])
    if lang == "zh":
        page.evaluate("localStorage.setItem('sgmahjong:lang', 'zh')")
        page.reload()
        expect(page.locator("#hand .slot")).to_have_count(2)
    btn = page.locator(".topbar #sheet-btn")
    expect(btn).to_be_visible()
    assert page.evaluate("window.scrollY") == 0
    btn.click()
    sheet = page.locator("#options-sheet")
    expect(sheet).to_be_visible()
    assert page.evaluate("document.activeElement.closest('#options-sheet') !== null")  # the focus went in
    width, height = SIZES[name]["viewport"]["width"], SIZES[name]["viewport"]["height"]
    controls = ["#set-autoPass", "#set-autoWin", "#set-autoDiscard", "#set-sort", "#tracker-toggle",
                "#sheet-close"]
    boxes = page.evaluate("(sels) => sels.map((s) => document.querySelector(s).getBoundingClientRect()"
                          ".toJSON())", controls)
    for sel, b in zip(controls, boxes, strict=True):
        assert b["width"] > 0 and inside(b, width, height), (name, sel, b)
        # nothing over it (the sheet is not scrolled to show it)
        hit = page.evaluate("""([s, x, y]) => {
          const el = document.querySelector(s), at = document.elementFromPoint(x, y);
          const label = at.closest('label');
          return el.contains(at) || (label !== null && label === el.closest('label'));
        }""", [sel, b["x"] + b["width"] / 2, b["y"] + b["height"] / 2])
        assert hit, (name, sel)
    if lang == "zh":
        expect(sheet.locator("h2")).to_have_text("出牌选项")
    # an option taken in the sheet plays: the tracker shows beside the table
    page.locator("#tracker-toggle").check()
    expect(page.locator("#tracker .tracker-cell")).to_have_count(34)
    # Escape closes it and the focus returns to the button
    page.keyboard.press("Escape")
    expect(sheet).to_be_hidden()
    assert page.evaluate("document.activeElement && document.activeElement.id") == "sheet-btn"


def test_the_options_key_opens_and_closes_the_sheet(table_page: Any) -> None:
    page, fake = table_page(SIZES["1366x768"], [view_message(late_hand(), TURN_TIMER)])
    expect(page.locator("#hand .slot")).to_have_count(2)
    sheet = page.locator("#options-sheet")
    page.keyboard.press(",")
    expect(sheet).to_be_visible()
    page.keyboard.press(",")
    expect(sheet).to_be_hidden()
    page.keyboard.press(",")
    expect(sheet).to_be_visible()
    page.locator("#sheet-close").click()
    expect(sheet).to_be_hidden()
    assert fake.actions() == []  # the key plays nothing
    # the keys list names it
    page.goto(page.url.split("/t/")[0] + "/keys")
    expect(page.locator("#keys-play kbd", has_text=",")).to_have_count(1)


def test_a_spectator_has_no_options_button(table_page: Any) -> None:
    page, _ = table_page(SIZES["390x844"], [view_message(late_hand(None))], seat=None)
    expect(page.locator("body")).to_have_attribute("data-seat", "spectator")
    expect(page.locator("#sheet-btn")).to_be_hidden()
    page.keyboard.press(",")
    expect(page.locator("#options-sheet")).to_be_hidden()


def mine(page: Page) -> list[Box]:
    """My hand's tiles, my sets and bonus tiles."""
    return page.evaluate("""() => [...document.querySelectorAll(
        '#hand .slot .tile, .pond[data-pond="0"] .melds .tile, .pond[data-pond="0"] .bonus .tile')]
      .map((el) => el.getBoundingClientRect().toJSON())""")  # type: ignore[no-any-return]


FLOATING = """() => [...document.querySelectorAll('.callout, .pay-toast, #toast.show, .chat-bubble')]
  .map((el) => ({cls: (el.id ? `${el.id} ` : '') + el.className, box: el.getBoundingClientRect().toJSON()}))
  .filter((f) => f.box.width > 0)"""


@pytest.mark.parametrize("name", list(SIZES))
def test_my_kong_call_out_and_the_payment_toasts_never_cover_my_hand_or_sets(table_page: Any,
                                                                            name: str) -> None:
    before = late_hand()
    before.update(version=1)
    page, fake = table_page(SIZES[name], [view_message(before, TURN_TIMER)])
    expect(page.locator("#hand .slot")).to_have_count(2)
    after = late_hand()
    after.update(version=2)
    kong = {"kind": "kong", "seat": 0, "tile": "1m", "kong_kind": "added"}
    pay = {"kind": "payment", "seat": 0, "reason": "exposed_kong", "amounts": [3, -1, -1, -1], "liable": None}
    fake.push({**view_message(after, TURN_TIMER), "events": [kong, pay]})
    expect(page.locator(".callout")).to_have_count(1)
    width, height = SIZES[name]["viewport"]["width"], SIZES[name]["viewport"]["height"]
    seen: set[str] = set()

    def check() -> list[Any]:
        """The floating boxes now, each on the screen and over none of my tiles."""
        floating: list[Any] = page.evaluate(FLOATING)
        own = mine(page)
        assert len(own) >= 14
        for f in floating:
            seen.add(f["cls"].split()[0])
            assert inside(f["box"], width, height), (name, f)
            clash = [b for b in own if meets(f["box"], b)]
            assert not clash, (name, f, clash[:1])
        return floating

    for _ in range(30):  # through the call-out's whole animation, from its first frame
        if not any(f["cls"].startswith("callout") for f in check()):
            break
        page.wait_for_timeout(40)
    assert {"callout", "pay-toast"} <= seen
    # the page's own message and my chat bubble
    fake.push({"type": "error", "code": "not_your_turn", "ref": "action"})
    fake.push({"type": "chat", "seat": 0, "name": "Siew Lan", "kind": "text", "body": "Huat ah! " * 4})
    expect(page.locator("#toast.show")).to_have_count(1)
    expect(page.locator(".chat-bubble")).to_have_count(1)
    check()
    assert {"toast", "chat-bubble"} <= seen

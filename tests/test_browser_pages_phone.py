"""Browser tests of the pages around the table on a phone and in 中文 (issue 24's non-table half): a
one-row site header, /me as cards with each hand's seat wind, bots named by level, tile pictures in the
replay and the calculator, dark-mode contrast, the bundled CJK font where no system font has it,
translated server errors, a ready-made guest name."""

from __future__ import annotations

import io
from pathlib import Path
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import CHROMIUM, CHROMIUM_ARGS, LiveServer, free_port

expect.set_options(timeout=15_000)

PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
PHONE_390: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 768}}
PAGES = ["/", "/how-to-play", "/scoring", "/calculator", "/me"]


# -- the site header ------------------------------------------------------------------------------

@pytest.mark.parametrize("size", [PHONE, PHONE_390], ids=["360", "390"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_site_header_is_one_compact_row_on_a_phone(live_server: Any, open_page: Any, size: dict[str, Any],
                                                          lang: str) -> None:
    page = open_page(size, lang)
    for path in PAGES:
        page.goto(live_server.url + path)
        header = page.locator("header.site-header")
        expect(header.locator(".lang-switch")).to_be_visible()
        box = header.bounding_box()
        assert box is not None and box["height"] <= 56, (path, box)
        assert page.evaluate("document.documentElement.scrollWidth") <= size["viewport"]["width"]
        # the links are one tap away, below the header, and close again with Escape
        menu = header.locator(".menu-toggle")
        expect(header.locator("nav a").first).to_be_hidden()
        menu.click()
        expect(menu).to_have_attribute("aria-expanded", "true")
        links = header.locator("nav a")
        expect(links).to_have_count(5)
        for i in range(5):
            expect(links.nth(i)).to_be_visible()
        assert (header.bounding_box() or {}).get("height", 99) <= 56  # the list opens over the page
        page.keyboard.press("Escape")
        expect(links.first).to_be_hidden()
        expect(menu).to_have_attribute("aria-expanded", "false")


def test_the_desktop_header_shows_its_links_without_a_menu(live_server: Any, open_page: Any) -> None:
    page = open_page(DESKTOP, "en")
    page.goto(live_server.url + "/scoring")
    expect(page.locator("header.site-header .menu-toggle")).to_be_hidden()
    expect(page.locator("header.site-header nav a")).to_have_count(5)
    for i in range(5):
        expect(page.locator("header.site-header nav a").nth(i)).to_be_visible()


# -- the bundled CJK font where the system has none -------------------------------------------------

@pytest.fixture(scope="module")
def latin_only_browser(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Chromium that sees only the DejaVu fonts (no system CJK font), as on many a fresh machine."""
    conf = tmp_path_factory.mktemp("fonts") / "fonts.conf"
    conf.write_text('<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
                    "<dir>/usr/share/fonts/truetype/dejavu</dir>"
                    f"<cachedir>{conf.parent / 'cache'}</cachedir></fontconfig>")
    b = browser.browser_type.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, env={
        "FONTCONFIG_FILE": str(conf), "PATH": "/usr/bin:/bin", "HOME": str(conf.parent)})
    try:
        yield b
    finally:
        b.close()


def glyphs_of(page: Page, selector: str) -> bytes:
    return page.locator(selector).screenshot(animations="disabled")


def same_as_a_fresh_layout(page: Page, selector: str) -> float:
    """How different (0..1 of the pixels) an element looks from itself laid out again at a size 0.01 px
    larger: a text shaped before the web font arrived draws as boxes until something lays it out anew."""
    from PIL import Image, ImageChops

    before = Image.open(io.BytesIO(glyphs_of(page, selector))).convert("L")
    page.eval_on_selector(selector, "el => { el.style.fontSize = "
                                    "(parseFloat(getComputedStyle(el).fontSize) + 0.01) + 'px'; }")
    page.wait_for_timeout(100)
    after = Image.open(io.BytesIO(glyphs_of(page, selector))).convert("L").resize(before.size)
    diff = ImageChops.difference(before, after).point(lambda v: 255 if v > 64 else 0)
    return sum(1 for v in diff.getdata() if v) / (before.width * before.height)


def test_the_language_button_draws_chinese_on_a_spectators_page(live_server: Any, latin_only_browser: Any) -> None:
    code = live_server.create_table("Fonts", seed=1)["code"]
    ctx = latin_only_browser.new_context(**DESKTOP)
    try:
        page = ctx.new_page()
        page.goto(f"{live_server.url}/t/{code}?lang=en")  # a spectator: nobody seated here
        button = page.locator(".topbar .lang-switch")
        expect(button).to_have_text("中文")
        page.evaluate("document.fonts.ready")
        page.wait_for_timeout(500)
        assert same_as_a_fresh_layout(page, ".topbar .lang-switch") < 0.02
    finally:
        ctx.close()


# -- contrast (WCAG 2: (L1 + 0.05) / (L2 + 0.05) of the text and the first opaque background behind it) --

CONTRAST_JS = """el => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  let bg = null;
  for (let e = el; e && !bg; e = e.parentElement) {
    const c = rgb(getComputedStyle(e).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] > 0.9)) bg = c.slice(0, 3);
  }
  bg = bg || [255, 255, 255];
  const [a, b] = [lum(rgb(getComputedStyle(el).color).slice(0, 3)), lum(bg)];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


def contrast(page: Page, selector: str) -> float:
    return float(page.eval_on_selector(selector, CONTRAST_JS))


# -- /me ------------------------------------------------------------------------------------------

SECRET = "s" * 40


@pytest.fixture
def history_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server whose database holds four hands of one player at seat 0 of a table, the dealer moving
    on each hand: the seat held (hand 1, recorded before winds were kept: no wind), North, West, South."""
    from sgmahjong.server.seats import hash_token
    from sgmahjong.server.store import PlayerHandRow, open_store

    database = str(tmp_path / "history.sqlite3")
    store = open_store(database, worker="test-history")
    try:
        table_id = store.create_table("HIST0001", "Friday night at Siew Lan's", False, {}, {})
        pid = store.ensure_player(hash_token(SECRET), "Siew Lan")
        store.link_seat_player(table_id, 0, pid)
        for hand, (wind, net) in enumerate([(None, 8), (3, -16), (2, 4), (1, 0)], start=1):
            row = PlayerHandRow(table_id, hand, 0, 1_700_000_000.0 + hand, net > 4, dealt_in=net < 0,
                                drawn=net == 0, tai=2 if net > 4 else 0, net=net, wind=wind)
            store.add_player_hands(table_id, {0: pid}, {0: row})
    finally:
        store.close()
    server = LiveServer(free_port(), database)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def as_player(page: Page) -> None:
    page.context.add_init_script(
        f"localStorage.setItem('sgmj-player', JSON.stringify({{secret: '{SECRET}', name: 'Siew Lan'}}))")


def test_me_lists_each_hand_by_the_wind_held_and_as_cards_on_a_phone(history_server: LiveServer, open_page: Any) -> None:
    live_server = history_server
    page = open_page(PHONE, "en")
    as_player(page)
    page.goto(live_server.url + "/me")
    rows = page.locator("#hands tbody tr")
    expect(rows).to_have_count(4)
    # newest first: hand 4 South, 3 West, 2 North (seat 0 each time), 1 unknown
    assert page.locator("#hands td[data-wind]").evaluate_all("els => els.map(e => e.dataset.wind)") == [
        "S", "W", "N", ""]
    expect(rows.nth(2).locator("td[data-wind]")).to_contain_text("North")
    # a card per hand inside the screen: nothing wider than the phone
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    for i in range(4):
        box = rows.nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, box
    expect(page.locator("#hands thead")).to_have_count(1)
    # each value keeps its label
    label = rows.first.locator('td[data-label="net"]')
    expect(label).to_have_text("0")
    assert page.eval_on_selector('#hands tbody tr td[data-label="net"]',
                                 "el => getComputedStyle(el, '::before').content") == '"net"'


def test_me_totals_read_in_the_dark_theme(history_server: LiveServer, open_page: Any) -> None:
    live_server = history_server
    page = open_page(DESKTOP, "en", color_scheme="dark")
    as_player(page)
    page.goto(live_server.url + "/me")
    expect(page.locator('#totals .stat[data-stat="hands"] b')).to_have_text("4")
    for stat in ("hands", "net"):
        assert contrast(page, f'#totals .stat[data-stat="{stat}"] b') >= 4.5
        assert contrast(page, f'#totals .stat[data-stat="{stat}"]') >= 4.5
    assert contrast(page, "#hands td.won") >= 4.5
    assert contrast(page, "#hands td.dealt-in") >= 4.5


# -- names: bots by level, seats by the wind held that hand ----------------------------------------

def hand_with_a_new_dealer(live_server: LiveServer) -> tuple[str, int, int]:
    """A table where Ann (seat 0) starts each hand and a bot plays her seat, until a hand is dealt by
    another seat: its code, that hand's number and its dealer."""
    from sgmahjong.game.log import replay
    from tests.test_server import seated, wait_status

    code = live_server.create_table("Winds", seed=5, rules={"rounds": 1})["code"]
    ann, token = seated(live_server, code, "Ann", 0)
    ann.close()
    message: dict[str, Any] = {"type": "start"}
    for number in range(1, 5):
        with live_server.ws(code) as ws:
            ws.hello(token)
            ws.send(message)
            ws.until("view", lambda m: m["status"] in ("playing", "finished"))
        wait_status(live_server, code, {"between_hands", "finished"})
        state, _ = replay(live_server.get(f"/api/tables/{code}/hands/{number}/log").text)
        if state.dealer != 0:
            return code, number, state.dealer
        message = {"type": "next"}
    raise AssertionError("the dealer never moved")


def test_replay_names_seats_by_the_wind_held_and_bots_by_level(live_server: LiveServer, open_page: Any) -> None:
    code, number, dealer = hand_with_a_new_dealer(live_server)
    held = "ESWN"[(0 - dealer) % 4]
    names = {"E": "East", "S": "South", "W": "West", "N": "North"}
    page = open_page(DESKTOP, "en")
    page.goto(f"{live_server.url}/replay/{code}/{number}")
    options = page.locator("#pov option")
    expect(options).to_have_count(5)
    texts = options.all_inner_texts()
    assert texts[0].startswith(names[held]) and "Ann" in texts[0], texts
    for seat in (1, 2, 3):
        assert texts[seat].startswith(names["ESWN"[(seat - dealer) % 4]]), texts
        assert f"Bot {seat} · Casual" in texts[seat], texts  # three Casual bots, numbered
    # the lobby's list of tables names the bots the same way (in 中文 too), never by an internal id
    zh = open_page(DESKTOP, "zh")
    zh.goto(f"{live_server.url}/")
    row = zh.locator(f'#tables tr[data-code="{code}"]')
    expect(row).to_contain_text("电脑1 · 普通, 电脑2 · 普通, 电脑3 · 普通")
    assert "greedy" not in row.inner_text() and "Bot" not in row.inner_text()
    # the server's own name (API, CLI) is the level as people know it
    listed = live_server.get("/api/tables/" + code).json()["seats"]
    assert [s["name"] for s in listed[1:]] == ["Bot · Casual"] * 3

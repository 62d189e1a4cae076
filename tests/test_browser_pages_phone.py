"""Browser tests of the pages around the table on a phone and in 中文 (issue 24's non-table half): a
one-row site header, /me as cards with each hand's seat wind, bots named by level, tile pictures in the
replay and the calculator, dark-mode contrast, the bundled CJK font where no system font has it,
translated server errors, a ready-made guest name."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import CHROMIUM, CHROMIUM_ARGS, NEXT_FRAMES, LiveServer, free_port

expect.set_options(timeout=15_000)

PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
PHONE_390: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 768}}
PAGES = ["/", "/how-to-play", "/scoring", "/calculator", "/me", "/leaderboard"]


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
        expect(links).to_have_count(8)
        for i in range(8):
            expect(links.nth(i)).to_be_visible()
        assert (header.bounding_box() or {}).get("height", 99) <= 56  # the list opens over the page
        page.keyboard.press("Escape")
        expect(links.first).to_be_hidden()
        expect(menu).to_have_attribute("aria-expanded", "false")


def test_the_desktop_header_shows_its_links_without_a_menu(live_server: Any, open_page: Any) -> None:
    page = open_page(DESKTOP, "en")
    page.goto(live_server.url + "/scoring")
    expect(page.locator("header.site-header .menu-toggle")).to_be_hidden()
    expect(page.locator("header.site-header nav a")).to_have_count(8)
    for i in range(8):
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
    page.evaluate(NEXT_FRAMES)
    after = Image.open(io.BytesIO(glyphs_of(page, selector))).convert("L").resize(before.size)
    diff = ImageChops.difference(before, after).point(lambda v: 255 if v > 64 else 0)
    return diff.histogram()[255] / (before.width * before.height)


# a bundled CJK face that draws 中文 has arrived and no font is still loading
FONT_ARRIVED = """() => document.fonts.status === "loaded"
  && ['"SGMJ CJK Sans"', '"SGMJ CJK"'].some((f) => document.fonts.check(`1em ${f}`, "中文")
      && [...document.fonts].some((face) => face.family === f.slice(1, -1) && face.status === "loaded"))"""


def test_the_language_button_draws_chinese_on_a_spectators_page(
    live_server: Any, latin_only_browser: Any,
) -> None:
    code = live_server.create_table("Fonts", seed=1)["code"]
    ctx = latin_only_browser.new_context(**DESKTOP)
    try:
        page = ctx.new_page()
        page.goto(f"{live_server.url}/t/{code}?lang=en")  # a spectator: nobody seated here
        button = page.locator(".topbar .lang-switch")
        expect(button).to_have_text("中文")
        expect(page.locator("html[data-drawn]")).to_be_attached()  # the page is shown
        page.wait_for_function(FONT_ARRIVED)  # on a busy machine the font can come after the first frames
        page.evaluate(NEXT_FRAMES)
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
    from sgmahjong.server.store import PlayerHandRow, open_store
    from sgmahjong.server.table.seats import hash_token

    database = str(tmp_path / "history.sqlite3")
    store = open_store(database, worker="test-history")
    try:
        table_id = store.create_table("HIST0001", "Friday night at Siew Lan's", False, {}, {})
        with store._tx():  # a guest of an older release: known by the secret its browser kept
            pid = int(store._run("INSERT INTO players (secret_hash, name, created) VALUES (?, ?, 1)"
                                 " RETURNING id", (hash_token(SECRET), "Siew Lan"))[0][0])
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
    """The browser kept an older release's secret: its first page adopts it (POST /api/me/adopt)."""
    page.context.add_init_script(
        f"localStorage.setItem('sgmj-player', JSON.stringify({{secret: '{SECRET}', name: 'Siew Lan'}}))")


def test_me_lists_each_hand_by_the_wind_held_and_as_cards_on_a_phone(
    history_server: LiveServer, open_page: Any,
) -> None:
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


def test_replay_names_seats_by_the_wind_held_and_bots_by_level(
    live_server: LiveServer, open_page: Any,
) -> None:
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


# -- the calculator: a tile picker in sync with the notation; errors in the page's language --------------

def picked(page: Page) -> list[str]:
    return page.eval_on_selector_all("#picked .picked-group.concealed .tile",
                                     "els => els.map(e => e.dataset.tile)")


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_calculator_builds_a_hand_by_tapping_tiles(
    live_server: Any, open_page: Any, size: dict[str, Any],
) -> None:
    page = open_page(size, "en")
    page.goto(live_server.url + "/calculator")
    expect(page.locator("#picked .picked-tile").first).to_be_visible()
    page.locator("#pick-clear").click()
    expect(page.locator("#hand")).to_have_value("")
    page.locator("#calc-btn").click()  # nothing picked: the page says so in words
    expect(page.locator("#calc-error")).to_contain_text("Pick the tiles of a hand first")

    def tap(tile: str) -> None:
        tabs = page.locator("#palette .palette-tab")
        if tabs.first.is_visible():  # a phone: one group of faces at a time, a tab each
            suited = len(tile) == 2 and tile[-1] in "mps"
            group = "mps".find(tile[-1]) if suited else 4 if len(tile) == 2 else 3
            tabs.nth(group).click()
        button = page.locator(f'#palette .pick-tile[data-tile="{tile}"]')
        box = button.bounding_box()
        assert box is not None and box["width"] >= 40 and box["height"] >= 40
        button.click()

    for tile in ["2s", "3s", "5p", "5p"]:
        tap(tile)
    page.select_option("#pick-mode", "chow")
    tap("1m")
    tap("4m")
    page.select_option("#pick-mode", "pong")
    tap("7p")
    page.select_option("#pick-mode", "winning")
    tap("4s")
    tap("1f")  # a flower goes with the bonus tiles whatever the choice
    expect(page.locator("#hand")).to_have_value("55p 23s [123m] [456m] [777p] +4s /1f")
    # a face whose copies are all used cannot be added again
    page.select_option("#pick-mode", "tile")
    tap("2s")  # then taken out again below
    page.locator('#picked .picked-group.concealed .picked-tile[data-tile="2s"]').first.click()
    expect(page.locator('#palette .pick-tile[data-tile="1f"]')).to_be_disabled()
    expect(page.locator('#palette .pick-tile[data-tile="7p"]')).to_be_enabled()
    page.select_option("#pick-mode", "pong")
    expect(page.locator('#palette .pick-tile[data-tile="7p"]')).to_be_disabled()
    # tap a tile of the hand to take it out; the notation follows
    page.locator('#picked .picked-group.concealed .picked-tile[data-tile="3s"]').click()
    expect(page.locator("#hand")).to_have_value("55p 2s [123m] [456m] [777p] +4s /1f")
    page.locator("#picked .picked-meld").nth(2).click()
    expect(page.locator("#hand")).to_have_value("55p 2s [123m] [456m] +4s /1f")
    # typed notation shows as tiles at once
    page.fill("#hand", "23s55p [123m] [456m] [789p] +4s /1f1a")
    assert picked(page) == ["5p", "5p", "2s", "3s"]
    expect(page.locator("#picked .picked-meld")).to_have_count(3)
    expect(page.locator("#picked .picked-group.winning .tile")).to_have_attribute("data-tile", "4s")
    page.locator("#calc-btn").click()
    expect(page.locator("#calc-result h2")).to_contain_text("tai")
    assert page.evaluate("document.documentElement.scrollWidth") <= size["viewport"]["width"]


def test_the_calculators_errors_are_in_the_pages_language(live_server: Any, open_page: Any) -> None:
    page = open_page(DESKTOP, "zh")
    page.goto(live_server.url + "/calculator")
    expect(page.locator("#picked .picked-tile").first).to_be_visible()
    page.evaluate("""() => { const h = document.getElementById('hand');
        h.value = '23s55p [123m] [456m] [789p] x +4s'; }""")  # past the page's own check: the server's
    page.locator("#calc-btn").click()
    error = page.locator("#calc-error")
    expect(error).to_have_text("没有“x”这张牌。（第 29 个字符）")
    # the API keeps the English message for the command line and other clients, with the code
    body = live_server.post("/api/score", {"hand": "23s55p [123m] [456m] [789p] x +4s"}).json()
    assert body == {"error": "unknown tile 'x' at column 29", "code": "notation.unknown_tile",
                    "params": {"tile": "x", "column": 29}}
    body = live_server.post("/api/score", {"hand": "55555p 23s [123m] [456m] +4s"}).json()
    assert body["code"] == "hand.copies" and body["params"] == {"count": 5, "tile": "5p"}
    page.evaluate("document.getElementById('hand').value = '55555p 23s [123m] [456m] +4s'")
    page.locator("#calc-btn").click()
    expect(error).to_have_text("“5p”有 5 张，整副牌没有这么多。")


# -- the lobby: a guest name, the rules said in words, the house-rules form ----------------------------

def test_a_first_visit_gets_a_ready_made_guest_name(live_server: Any, open_page: Any) -> None:
    page = open_page(PHONE, "en")
    page.goto(live_server.url + "/")
    name = page.locator("#play-name")
    expect(name).to_have_value(re.compile(r"^Guest \d{4}$"))
    guest = name.input_value()
    page.locator("#play-bots").click()
    expect(page).to_have_url(re.compile(r"/t/"))
    expect(page.locator(".seat .plate .name", has_text=guest)).to_have_count(1)
    # the name is remembered and editable; emptied, the page says so in words (not a browser tooltip)
    page.goto(live_server.url + "/")
    expect(name).to_have_value(guest)
    name.fill("")
    page.locator("#play-bots").click()
    expect(page.locator("#play-error")).to_have_text("Type your display name first.")
    zh = open_page(PHONE, "zh")
    zh.goto(live_server.url + "/")
    expect(zh.locator("#play-name")).to_have_value(re.compile(r"^客人\d{4}$"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_seating_page_says_the_rules_in_words(live_server: Any, open_page: Any, lang: str) -> None:
    code = live_server.create_table("Rules")["code"]
    page = open_page(DESKTOP, lang)
    page.goto(f"{live_server.url}/t/{code}")
    summary = page.locator("#rules-summary")
    expect(summary).to_contain_text("5")
    assert "RULES.md" not in summary.inner_text()
    # each seat by its wind's glyph and, in English, its name; in 中文 the glyph alone (not "南 南")
    south = page.locator('#seat-list [data-seat="1"] .wind')
    expect(south).to_have_text("南" if lang == "zh" else "南 South")


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_house_rules_keep_an_options_name_on_one_line(
    live_server: Any, open_page: Any, size: dict[str, Any],
) -> None:
    page = open_page(size, "en")
    page.goto(live_server.url + "/")
    page.locator("#rule-details summary").click()
    name = page.locator('#rule-options label:has([data-option="fresh_tile"]) > span:first-child')
    expect(name).to_be_visible()
    lines = name.evaluate("""el => { const r = document.createRange(); r.selectNodeContents(el.firstChild);
        return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; }""")
    assert name.evaluate("el => el.firstChild.textContent") == "fresh tile" and lines == 1


def test_the_scoring_references_chinese_names_keep_their_words_together_on_a_phone(
    live_server: Any, open_page: Any,
) -> None:
    page = open_page(PHONE, "zh")
    page.goto(live_server.url + "/scoring")
    name = page.locator('#reference tr[data-pattern="full_flush_pong_pong"] td:first-child b')
    expect(name).to_have_text("清一色碰碰胡")
    # every name on at most two lines (one character a line before: 清/一/色/碰/碰/胡)
    lines = page.eval_on_selector_all("#reference table.patterns td:first-child b", """bs => bs.map(b => {
        const r = document.createRange(); r.selectNodeContents(b);
        return [b.textContent, new Set([...r.getClientRects()].map(x => Math.round(x.top))).size]; })""")
    assert lines and all(n <= 2 for _, n in lines), [x for x in lines if x[1] > 2]
    assert dict(lines)["清一色碰碰胡"] == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


# -- the replay: dark theme, pictures, a one-row header on a phone -------------------------------------------

def test_the_replay_reads_in_the_dark_theme_and_on_a_phone(live_server: LiveServer, open_page: Any) -> None:
    from tests.test_browser_replay import WALLS, finished_hand

    code, _, _ = finished_hand(live_server, WALLS["dealer_ready"]())
    page = open_page(DESKTOP, "en", color_scheme="dark")
    page.goto(f"{live_server.url}/replay/{code}/1")
    check = page.locator("#wall-check.ok")
    expect(check).to_have_attribute("data-match", "true")
    assert contrast(page, "#wall-check.ok > span") >= 4.5  # was 2.15:1
    page.select_option("#review-seat", "0")
    page.click("#review-btn")
    expect(page.locator("#review-list tr[data-step]").first).to_be_visible()
    page.locator("#review-list tr[data-step]").first.click()
    assert contrast(page, "#review-list tr.current td") >= 4.5
    # the step's title names the move with its tile as a picture, never notation
    page.locator("#slider").fill("1")  # East's first discard
    expect(page.locator("#step-action .move-tiles .tile").first).to_be_visible()
    assert not re.search(r"\b[1-9][mps]\b", page.locator("#step-action").inner_text())
    phone = open_page(PHONE, "zh")
    phone.goto(f"{live_server.url}/replay/{code}/1")
    expect(phone.locator("#replay")).to_be_visible()
    bar = phone.locator(".topbar")
    assert (bar.bounding_box() or {}).get("height", 99) <= 56
    expect(bar.locator(".lang-switch")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360


def test_the_lobbys_tables_are_cards_on_a_phone(live_server: LiveServer, open_page: Any) -> None:
    for i in range(2):
        live_server.create_table(f"Friday mahjong at Siew Lan's place {i}", rules={"limit": 10})
    page = open_page(PHONE, "en")
    page.goto(live_server.url + "/")
    rows = page.locator("#tables tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(1).locator("a.button")).to_be_visible()
    # measured in one step: the lobby redraws its list every 5 s, so a row found in one round trip may
    # be detached by the next
    boxes = page.evaluate("() => [...document.querySelectorAll('#tables tbody tr')].map((r) => ["
                          "r.getBoundingClientRect().toJSON(),"
                          " r.querySelector('a.button').getBoundingClientRect().toJSON()])")
    assert len(boxes) == 2
    for box, link_box in boxes:
        assert box["width"] > 0 and box["x"] >= 0 and box["x"] + box["width"] <= 360, box
        assert link_box["width"] > 0 and link_box["x"] + link_box["width"] <= 360, link_box
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

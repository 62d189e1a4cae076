"""Browser tests of the pages' look, language and accessibility (issue 10, part B): no sideways
scrolling at 360 px, the 中文 switch, reduced motion, keyboard-only play, the bundled CJK font's
coverage and the side seats' names. Debian's Chromium through Playwright (never ``playwright install``)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.conftest import FAST_OPTIONS, NEXT_FRAMES, click_and_see_the_table_move

expect.set_options(timeout=15_000)

STATIC = Path(__file__).resolve().parent.parent / "sgmahjong" / "server" / "static"
PAGES = ["/", "/how-to-play", "/scoring", "/calculator"]
PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 768}}


def strings(lang: str) -> dict[str, str]:
    """A strings file (its body is JSON after ``export default``)."""
    text = (STATIC / "js" / "strings" / f"{lang}.js").read_text(encoding="utf-8")
    return json.loads(text[text.index("{"):text.rindex("}") + 1])  # type: ignore[no-any-return]


def scroll_width(page: Page) -> int:
    return int(page.evaluate("Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"))


def sit_and_start(page: Page, base: str, code: str, name: str = "Ann") -> None:
    """Take seat 0 at ``code`` (three bots fill the rest) and start the match."""
    page.goto(f"{base}/t/{code}")
    expect(page.locator("#seating")).to_be_visible()
    page.fill("#join-name", name)
    page.locator('#seat-list [data-seat="0"] [data-action="join"]').click()
    expect(page.locator("#seated-controls")).to_be_visible()
    page.locator("#start-btn").click()
    expect(page.locator("#play")).to_be_visible()


def wait_my_discard(page: Page) -> None:
    """Pass every claim offered until it is my turn to discard."""
    for _ in range(40):
        page.wait_for_selector("#hand .slot.can-discard, #actions button[data-action=pass]:not([disabled])")
        if page.locator("#hand .slot.can-discard").count():
            return
        click_and_see_the_table_move(page, page.locator("#actions button[data-action=pass]"))
    raise AssertionError("never my turn")


# -- phone: no sideways scrolling ------------------------------------------------------------------

@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_sideways_scrolling_at_360px(live_server: Any, open_page: Any, lang: str) -> None:
    page = open_page(PHONE, lang)
    for path in PAGES:
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        for summary in page.locator("details summary").all():
            summary.click()  # open every fold: its content must fit too
        assert scroll_width(page) <= 360, (path, scroll_width(page))
    code = live_server.create_table("A table with a rather long name to wrap")["code"]
    page.goto(f"{live_server.url}/t/{code}")
    expect(page.locator("#seating")).to_be_visible()
    assert scroll_width(page) <= 360, ("seating", scroll_width(page))
    sit_and_start(page, live_server.url, code)
    wait_my_discard(page)
    assert scroll_width(page) <= 360, ("play", scroll_width(page))
    # the compact header is one row
    assert page.locator(".topbar").bounding_box()["height"] <= 48  # type: ignore[index]


def test_every_control_is_40px_to_tap_on_a_phone(live_server: Any, open_page: Any) -> None:
    page = open_page(PHONE, "en")
    code = live_server.create_table("Taps")["code"]
    sit_and_start(page, live_server.url, code)
    wait_my_discard(page)
    for path in [f"/t/{code}", *PAGES]:  # the table first, while it is my turn
        if not path.startswith("/t/"):
            page.goto(live_server.url + path)
            page.wait_for_load_state("networkidle")
        small = page.evaluate("""() => [...document.querySelectorAll(
              'button, a[href], select, input:not([type=checkbox]), summary, #hand .slot .tile')]
            .filter(el => el.offsetParent !== null && !el.closest('.skip-link, #log, .hand-log'))
            .map(el => [el, el.getBoundingClientRect()])
            .filter(([el, r]) => r.width > 0 && (r.height < 40 || r.width < 40)
                    && !(el.tagName === 'A' && el.closest('p, li, td')))
            .map(([el, r]) => `${el.tagName}.${el.className} ${el.textContent.trim().slice(0, 20)} `
                              + `${r.width}x${r.height}`)""")
        assert small == [], (path, small)


# -- 中文 ---------------------------------------------------------------------------------------------

# Visible text of the page, less what the check deliberately keeps: the players' own names (they are
# what the players typed), the table's name and code, the wall hash's hex digits, the product name
# "sgmahjong", the language switch (each language's own name), key caps (<kbd>: the keys as printed on
# a keyboard, e.g. Space) and tile notation such as 5s (never 3 letters).
VISIBLE_TEXT = """(names) => {
  const skip = 'script, style, kbd, code, .brand, .lang-switch, #table-name, #table-code, .sr-only, [hidden]';
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest(skip) || !el.checkVisibility()) continue;
    let text = n.textContent;
    for (const name of names) text = text.replaceAll(name, '');
    if (text.trim()) out.push(text.trim());
  }
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder]')) {
    if (el.closest(skip) || !el.checkVisibility()) continue;
    for (const a of ['title', 'aria-label', 'placeholder']) {
      let text = el.getAttribute(a) || '';
      for (const name of names) text = text.replaceAll(name, '');
      if (text.trim()) out.push(text.trim());
    }
  }
  return out;
}"""
ENGLISH = re.compile(r"[A-Za-z]{3,}")
HEX = re.compile(r"[0-9a-f]{12}")  # the start of the wall hash in the log (notation, kept)


def english_left(page: Page, names: list[str]) -> list[str]:
    return [s for s in page.evaluate(VISIBLE_TEXT, names) if ENGLISH.search(HEX.sub("", s))]


def test_chinese_switch_changes_every_visible_string_of_the_table(live_server: Any, open_page: Any) -> None:
    page = open_page(DESKTOP, "en")
    # a reload (the switch) must not hand the seat to a bot: a long takeover time
    code = live_server.create_table("Friday", options={**FAST_OPTIONS, "takeover_seconds": 60})["code"]
    sit_and_start(page, live_server.url, code)
    wait_my_discard(page)
    english = english_left(page, ["Ann"])
    assert len(english) > 20  # the English table has words the check can find
    page.locator(".lang-switch").click()
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    wait_my_discard(page)
    expect(page.locator("#turn-status")).to_have_text("轮到你")
    expect(page.locator("#conn")).to_have_text("已连接")
    left = english_left(page, ["Ann"])
    assert not left, "\n".join(left)
    # remembered: a new page of the same browser opens in Chinese
    page.goto(live_server.url + "/scoring")
    expect(page.locator("h1")).to_have_text("计分参考")
    page.locator(".lang-switch").click()
    expect(page.locator("h1")).to_have_text("Scoring reference")


@pytest.mark.parametrize("path", PAGES)
def test_chinese_pages_have_no_english_words(live_server: Any, open_page: Any, path: str) -> None:
    page = open_page(DESKTOP, "zh")
    page.goto(live_server.url + path)
    page.wait_for_load_state("networkidle")
    page.evaluate(NEXT_FRAMES)
    # kept: the project's file names and API paths mentioned in the texts
    kept = ["RULES.md", "/api/rules", "sgmahjong", "SG Mahjong"]
    left = english_left(page, kept)
    assert not left, "\n".join(left)


def test_scoring_page_has_no_developer_text(live_server: Any, open_page: Any) -> None:
    for lang in ("en", "zh"):
        page = open_page(DESKTOP, lang)
        page.goto(live_server.url + "/scoring")
        expect(page.locator("#reference tr[data-pattern]").first).to_be_visible()
        text = page.locator("main").inner_text()
        for dev in (":func:", "``", "ctx.", "thirteen_wonders=True", "_"):
            assert dev not in text, (lang, dev)
        desc = page.locator('#reference tr[data-pattern="ping_hu"] td.desc').evaluate(
            "el => [...el.childNodes].filter((n) => !n.classList?.contains('pattern-example'))"
            ".map((n) => n.textContent).join('')")  # the example hand's caption aside
        assert desc == strings(lang)["pattern.ping_hu.desc"]


def test_side_seat_names_are_not_cut_at_1366px(live_server: Any, open_page: Any) -> None:
    page = open_page(DESKTOP, "en")
    code = live_server.create_table("Names")["code"]
    sit_and_start(page, live_server.url, code)
    wait_my_discard(page)
    for seat in (1, 3):  # right and left of seat 0
        name = page.locator(f'.seat[data-seat="{seat}"] .plate .name')
        full = name.inner_text()
        assert full.startswith("Bot ") and len(full) > 8
        # nothing of the name is hidden: its box is as wide as its text
        assert name.evaluate("el => el.scrollWidth <= el.clientWidth + 1")


# -- keyboard ------------------------------------------------------------------------------------------

def tab_to(page: Page, selector: str, limit: int = 80) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("sel => !!document.activeElement && document.activeElement.matches(sel)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_keyboard_only_play(live_server: Any, browser: Browser, open_page: Any) -> None:
    """East discards 5s with the mouse; South, with the keyboard only, Tabs to the chow button and
    presses Enter, then Tabs to a tile of the hand and discards it with Enter."""
    from tests.test_browser import scripted_wall

    code = live_server.create_table("Keys", wall=scripted_wall())["code"]
    east, south = open_page(DESKTOP, "en"), open_page(DESKTOP, "en")
    for page, name, seat in ((east, "Ann", 0), (south, "Bo", 1)):
        page.goto(f"{live_server.url}/t/{code}")
        page.fill("#join-name", name)
        page.locator(f'#seat-list [data-seat="{seat}"] [data-action="join"]').click()
        expect(page.locator("#seated-controls")).to_be_visible()
    east.locator("#start-btn").click()
    # East: the tile 5s is focusable too; Tab reaches the hand and Enter discards the focused tile
    expect(east.locator("#hand .slot.can-discard")).to_have_count(14)
    east.locator('#hand .tile[data-tile="5s"]').focus()
    east.keyboard.press("Enter")
    # South: only the keyboard from here on
    expect(south.locator('#actions button[data-action="chow"]').first).to_be_visible()
    south.locator("body").focus()
    tab_to(south, '#actions button[data-action="chow"]')
    move = south.evaluate("document.activeElement.dataset.move")
    south.keyboard.press("Enter")
    expect(south.locator('.pond[data-pond="1"] .meld[data-meld="chow"]')).to_have_count(1)
    assert move.startswith("chow ")
    expect(south.locator("#hand .slot.can-discard").first).to_be_visible()
    before = south.locator("#hand .slot").count()
    tab_to(south, "#hand .slot.can-discard .tile")
    focused = south.evaluate("document.activeElement.dataset.tile")
    # the focus is visible (an outline)
    assert south.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    south.keyboard.press("Enter")
    expect(south.locator("#hand .slot")).to_have_count(before - 1)
    expect(south.locator('.discards[data-discards="1"] .tile').last).to_have_attribute("data-tile", focused)
    # the live region announced it
    expect(south.locator("#announce")).to_contain_text("You discard")


# -- feel: motion, sounds, toasts -----------------------------------------------------------------

# Counts every animation that starts (CSS animations and transitions, and Element.animate) and every
# sound played, from before the page's own scripts run.
COUNTERS = """
window.__anims = 0; window.__sounds = [];
for (const ev of ['animationstart', 'transitionstart'])
  document.addEventListener(ev, () => { window.__anims += 1; }, true);
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) { window.__anims += 1; return animate.apply(this, args); };
HTMLMediaElement.prototype.play = function () { window.__sounds.push(this.src); return Promise.resolve(); };
"""


def play_a_few_turns(page: Page, turns: int = 3) -> None:
    for _ in range(turns):
        wait_my_discard(page)
        click_and_see_the_table_move(page, page.locator("#hand .slot.can-discard .tile").last)
    wait_my_discard(page)


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_reduced_motion_runs_no_animation(live_server: Any, open_page: Any, motion: str) -> None:
    page = open_page(DESKTOP, "en", reduced_motion=motion)
    page.add_init_script(COUNTERS)
    code = live_server.create_table("Motion", seed=11)["code"]
    sit_and_start(page, live_server.url, code)
    play_a_few_turns(page)
    anims = page.evaluate("window.__anims + document.getAnimations().length")
    if motion == "reduce":
        assert anims == 0
    else:
        assert anims > 0  # the same play moves tiles when motion is welcome


# The page's clock stands still until the test moves it; Element.animate is counted.
STILL_CLOCK = """
window.__flights = 0; window.__now = 0;
performance.now = () => window.__now;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) { window.__flights += 1; return animate.apply(this, args); };
"""


def test_no_tile_sets_off_while_another_is_in_the_air(live_server: Any, open_page: Any) -> None:
    """A fast table (bots a moment apart) would have every tile measured and flown, the page laid out
    twice a discard and left far behind the table: while one tile is in the air the next lands at once."""
    page = open_page(DESKTOP, "en")
    page.add_init_script(STILL_CLOCK)
    code = live_server.create_table("Flights", seed=11)["code"]
    sit_and_start(page, live_server.url, code)
    play_a_few_turns(page, 2)  # eight discards or so
    assert page.evaluate("window.__flights") == 1  # the first; the clock has not moved since
    page.evaluate("window.__now = 1000")  # past its landing
    play_a_few_turns(page, 1)
    assert page.evaluate("window.__flights") == 2


def test_sounds_play_and_the_mute_switch_is_remembered(live_server: Any, open_page: Any) -> None:
    for name in ("draw", "discard", "claim", "win", "pay"):
        r = live_server.get(f"/static/sounds/{name}.wav")
        assert r.status_code == 200 and r.content[:4] == b"RIFF" and r.content[8:12] == b"WAVE"
    page = open_page(DESKTOP, "en")
    page.add_init_script(COUNTERS)
    options = {**FAST_OPTIONS, "takeover_seconds": 60}
    code = live_server.create_table("Sounds", seed=5, options=options)["code"]
    sit_and_start(page, live_server.url, code)
    play_a_few_turns(page, 1)
    played = page.evaluate("window.__sounds")
    assert any(s.endswith("/discard.wav") for s in played)
    switch = page.locator(".sound-switch")
    expect(switch).to_have_attribute("aria-pressed", "true")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "false")
    page.reload()
    expect(page.locator(".sound-switch")).to_have_attribute("aria-pressed", "false")
    page.evaluate("window.__sounds = []")
    play_a_few_turns(page, 1)
    assert page.evaluate("window.__sounds") == []


# -- how to play: the walkthrough -----------------------------------------------------------------

@pytest.mark.parametrize("lang", ["en", "zh"])
def test_howto_walkthrough_uses_the_tile_art_and_the_scorer(live_server: Any, open_page: Any,
                                                            lang: str) -> None:
    expected = live_server.post("/api/score", {"hand": "234m 99p 56s [678p] [CCC] +4s /1f", "seat": "E",
                                               "wind": "E", "shooter": "S"}).json()
    page = open_page(DESKTOP, lang)
    page.goto(live_server.url + "/how-to-play")
    steps = page.locator("#walk-steps ol.walk > li")
    expect(steps).to_have_count(6)  # deal, discard, chow, pong, win, tai
    # the walkthrough comes after the tour of the screen and the tile faces (tests/test_browser_learn.py)
    assert page.evaluate("""() => {
        const w = document.getElementById('walkthrough'), g = document.getElementById('gallery');
        return !!(w.compareDocumentPosition(g) & Node.DOCUMENT_POSITION_PRECEDING); }""")
    # the table's own tile art
    chow = page.locator('#walk-steps li[data-step="chow"]')
    expect(chow.locator('.walk-set .tile[data-tile="6p"] svg')).to_have_count(1)
    expect(page.locator('#walk-steps li[data-step="win"] .walk-hand .tile.walk-in')).to_have_attribute(
        "data-tile", "4s")
    # the tai are the scorer's
    score = page.locator("#walk-score")
    expect(score).to_have_attribute("data-tai", str(expected["tai"]))
    for p in expected["patterns"]:
        expect(score.locator(f'tr[data-pattern="{p["name"]}"] td.num')).to_have_text(str(p["tai"]))
        expect(score.locator(f'tr[data-pattern="{p["name"]}"] td').first).to_have_text(
            strings(lang)[f"pattern.{p['name']}"])
    expect(score.locator("tr.total th.num")).to_have_text(str(expected["tai"]))


# -- contrast ------------------------------------------------------------------------------------------

# WCAG 2 contrast of every visible text against the first opaque background behind it (texts over a
# gradient or picture, i.e. the felt's, are measured against the felt's darkest colour stop).
CONTRAST = """() => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = ([r, g, b]) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  const blend = (top, under) => {
    const a = top[3] ?? 1;
    return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a));
  };
  const bgOf = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const cs = getComputedStyle(e);
      const c = rgb(cs.backgroundColor);
      if (cs.backgroundImage !== 'none' && !(c.length === 4 && c[3] === 0)) {
        const stops = (cs.backgroundImage.match(/rgba?\\([^)]*\\)/g) || []).map(rgb);
        if (stops.length) { layers.push(stops.sort((a, b) => lum(b) - lum(a))[0]); break; }
      }
      if (c.length >= 3 && (c.length === 3 || c[3] > 0)) {
        layers.push(c);
        if (c.length === 3 || c[3] === 1) break;
      }
    }
    let out = [255, 255, 255];
    for (const l of layers.reverse()) out = blend(l, out);
    return out;
  };
  const bad = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !el || !el.checkVisibility()) continue;
    if (el.closest('.tile, svg, .sr-only, .skip-link')) continue;
    const cs = getComputedStyle(el);
    if (parseFloat(cs.opacity) < 1) continue;
    const fg = rgb(cs.color), bg = bgOf(el);
    const l1 = lum(blend(fg, bg)), l2 = lum(bg);
    const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
    const size = parseFloat(cs.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(cs.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) bad.push(`${n.textContent.trim().slice(0, 30)}: ${ratio.toFixed(2)}`);
  }
  return bad;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_contrast_meets_wcag_aa(live_server: Any, open_page: Any, scheme: str) -> None:
    page = open_page(DESKTOP, "en", color_scheme=scheme)
    for path in PAGES:
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        assert page.evaluate(CONTRAST) == [], (scheme, path)
    code = live_server.create_table("Contrast")["code"]
    page.goto(f"{live_server.url}/t/{code}")
    expect(page.locator("#seating")).to_be_visible()
    assert page.evaluate(CONTRAST) == [], (scheme, "seating")
    sit_and_start(page, live_server.url, code)
    wait_my_discard(page)
    assert page.evaluate(CONTRAST) == [], (scheme, "table")

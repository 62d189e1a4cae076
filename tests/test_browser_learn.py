"""The tutorial (/learn) in a browser: a new player completes the first hand in English and in 中文,
every step (a wrong tap corrected at each), by mouse and by keyboard, and on a 360 px phone every
target is in view when it is asked for. The positions and the score are the core's
(tests/test_tutorial.py checks the script); here the page must draw them and wait for the right move."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

expect.set_options(timeout=15_000)

STATIC = Path(__file__).resolve().parent.parent / "sgmahjong" / "server" / "static"
_SOURCE = (STATIC / "js" / "tutorial-hand.js").read_text(encoding="utf-8")
HAND: dict[str, Any] = json.loads(_SOURCE[_SOURCE.index("{"):_SOURCE.rindex("}") + 1])
STEP_KEYS = ["discard_n", "chow", "discard_9m", "pong", "discard_1s", "win"]
PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 768}}
WORDS = {
    "en": {"start": "Start", "won": "You won!", "chow": "Chow", "note": "Not the", "pay": "pays double"},
    "zh": {"start": "开始", "won": "你胡了！", "chow": "吃", "note": "不是", "pay": "付双倍"},
}


def target(page: Page) -> Any:
    return page.locator(".learn-target")


def in_view(page: Page, selector: str) -> bool:
    """Measured and judged in one step: the element's box lies inside the viewport."""
    return bool(page.eval_on_selector(selector, """el => { const r = el.getBoundingClientRect();
        return r.top >= -1 && r.left >= -1 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1; }"""))


def wrong_tap(page: Page, step: dict[str, Any]) -> None:
    """Tap something other than the step's move, and see it refused with a note and no progress."""
    kind, _, tile = step["do"].partition(" ")
    key = page.evaluate("document.documentElement.dataset.learnStep")
    wrongs = page.evaluate("Number(document.documentElement.dataset.learnWrong || 0)")
    if kind == "discard":
        other = next(t for t in step["before"]["seats"][0]["concealed"] if t != tile)
        page.locator(f'.learn-hand button[data-tile="{other}"]').first.click()
    else:
        page.locator('.learn-claims button[data-action="pass"]').click()
    expect(page.locator("html")).to_have_attribute("data-learn-wrong", str(wrongs + 1))
    expect(page.locator("#learn-note")).not_to_be_empty()
    expect(page.locator("html")).to_have_attribute("data-learn-step", key)
    assert page.locator("#learn-live").text_content() == page.locator("#learn-note").text_content()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_new_player_completes_the_first_hand(live_server: Any, open_page: Any, lang: str) -> None:
    page = open_page(DESKTOP, lang)
    page.goto(live_server.url + "/")
    expect(page.locator("#learn-invite")).to_be_visible()  # a first-time visitor is offered the tutorial
    page.locator("#learn-invite a").click()
    expect(page).to_have_url(live_server.url + "/learn")
    words = WORDS[lang]
    start = page.locator("#learn-start")
    expect(start).to_have_text(words["start"])
    expect(start).to_have_class(re.compile("learn-target"))
    # the dealt hand is the script's, drawn with the site's tiles
    first = HAND["steps"][0]["before"]
    expect(page.locator(".learn-hand button .tile")).to_have_count(len(first["seats"][0]["concealed"]))
    start.click()
    for i, step in enumerate(HAND["steps"]):
        expect(page.locator("html")).to_have_attribute("data-learn-step", STEP_KEYS[i])
        expect(page.locator("#learn-step")).to_contain_text(str(i + 1))
        say = page.locator("#learn-say").text_content() or ""
        assert say and page.locator("#learn-live").text_content() == say  # announced
        kind, _, tile = step["do"].partition(" ")
        # the buttons offered are the core's legal claims
        offered = page.eval_on_selector_all(".learn-claims button", "bs => bs.map(b => b.dataset.action)")
        claims = {a.split(" ")[0] for a in step["legal"] if not a.startswith("discard")}
        assert sorted(offered) == sorted(claims)
        aim = target(page)
        expect(aim).to_have_count(1)
        expect(aim).to_be_focused()
        if kind == "discard":
            expect(aim).to_have_attribute("data-tile", tile)
        else:
            expect(aim).to_have_attribute("data-action", kind)
        if step["before"].get("discard"):
            expect(page.locator('[data-area="discard"] .tile')).to_have_attribute(
                "data-tile", step["before"]["discard"]["tile"])
        wrong_tap(page, step)
        if i == 0:
            expect(page.locator("#learn-note")).to_contain_text(words["note"])
        if kind == "chow":
            expect(aim).to_contain_text(words["chow"])
        target(page).click()
    expect(page.locator("html")).to_have_attribute("data-learn-step", "done")
    expect(page.locator("#learn-step")).to_have_text(words["won"])
    rows = page.locator("#learn-result tbody tr[data-pattern]")
    expect(rows).to_have_count(2)
    shown = page.eval_on_selector_all("#learn-result tr[data-pattern]",
                                      "rs => rs.map(r => r.dataset.pattern)")
    assert shown == ["dragon_pong", "seat_flower"]
    expect(page.locator("#learn-result tr.total th.num")).to_have_text("2")
    expect(page.locator(".learn-pay")).to_contain_text(words["pay"])
    expect(page.locator(".learn-pay")).to_contain_text("8")
    expect(page.locator('[data-area="scores"]')).to_contain_text("+8")
    # the sets are on the table: a chow and a pong of red dragons
    sets = page.eval_on_selector_all(".learn-you .learn-set", "ss => ss.map(s => s.dataset.meld)")
    assert sets == ["chow", "pong"]
    # finished: the lobby stops offering it on this device
    page.goto(live_server.url + "/")
    expect(page.locator("#play-bots")).to_be_visible()
    expect(page.locator("#learn-invite")).to_be_hidden()


def test_the_tutorial_is_played_with_the_keyboard(live_server: Any, open_page: Any) -> None:
    page = open_page(DESKTOP, "en")
    page.goto(live_server.url + "/learn")
    expect(page.locator("#learn-start")).to_be_visible()
    page.locator("#learn-start").focus()
    page.keyboard.press("Enter")
    keys = {"pong": "p", "win": "h", "chow": "z"}
    for i, step in enumerate(HAND["steps"]):
        expect(page.locator("html")).to_have_attribute("data-learn-step", STEP_KEYS[i])
        kind = step["do"].split(" ")[0]
        if kind == "discard":
            index = int(target(page).get_attribute("data-index") or "-1")
            key = "1234567890qwer"[index]
            page.keyboard.press("Tab")  # focus moves off the target: the table's keys still work
            page.keyboard.press(key)
        elif i == 1:
            page.keyboard.press("Enter")  # the focused target, as any button
        else:
            page.keyboard.press(keys[kind])
    expect(page.locator("html")).to_have_attribute("data-learn-step", "done")
    expect(page.locator("#learn-result tr.total th.num")).to_have_text("2")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_target_is_in_view_at_360_px(live_server: Any, open_page: Any, lang: str) -> None:
    page = open_page(PHONE, lang)
    page.goto(live_server.url + "/learn")
    expect(page.locator("#learn-start")).to_be_visible()
    assert in_view(page, "#learn-start")
    page.locator("#learn-start").tap()
    for i, step in enumerate(HAND["steps"]):
        expect(page.locator("html")).to_have_attribute("data-learn-step", STEP_KEYS[i])
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        assert in_view(page, ".learn-target"), step["do"]
        if i == 2:
            wrong_tap(page, step)
            assert in_view(page, ".learn-target"), "after a wrong tap"
            assert in_view(page, "#learn-note"), "the correction"
        target(page).tap()
    expect(page.locator("html")).to_have_attribute("data-learn-step", "done")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


@pytest.mark.parametrize(("lang", "size"), [("en", DESKTOP), ("zh", PHONE)])
def test_how_to_play_begins_with_the_tour_then_the_tiles(live_server: Any, open_page: Any, lang: str,
                                                          size: dict[str, Any]) -> None:
    page = open_page(size, lang)
    page.goto(live_server.url + "/how-to-play")
    legend = page.locator("#tour-legend li")
    expect(legend).to_have_count(5)
    assert page.eval_on_selector_all("#tour-legend li", "ls => ls.map(l => l.dataset.area)") == [
        "hand", "pond", "wall", "claims", "scores"]
    # the first two sections: the tour, then the tile faces
    firsts = page.eval_on_selector_all("main > section.card", "ss => ss.slice(0, 2).map(s => s.querySelector("
                                       "'#tour-table, #gallery')?.id ?? null)")
    assert firsts == ["tour-table", "gallery"]
    # each number is on its area of the picture, which is drawn with the site's tiles
    for n, where in enumerate([".learn-hand", '[data-area="pond"]', '[data-area="wall"]', ".learn-claims",
                               '[data-area="scores"]'], start=1):
        mark = page.locator(f"#tour-table {where} .tour-mark").first
        expect(mark).to_have_text(str(n))
        expect(mark).to_be_visible()
    expect(page.locator("#tour-table .learn-hand .tile")).to_have_count(10)
    expect(page.locator("#tour-table .learn-claims button")).to_have_count(2)
    # the picture is a picture: not in the tab order, not read out (the list names its parts)
    assert page.get_attribute("#tour-table", "aria-hidden") == "true"
    assert page.evaluate("document.getElementById('tour-table').inert")
    assert page.evaluate("document.documentElement.scrollWidth") <= size["viewport"]["width"]
    expect(page.locator("a[href='/learn']").first).to_be_visible()

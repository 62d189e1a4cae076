"""The end of a hand as a new player reads it: the winning hand drawn in tiles, the tai by pattern name,
who pays whom, a link to watch the replay and no notation or command line; on a 360 px phone the title
on one line, *Next hand* in view and every target at least 40 px; in English and 中文. The page's files
come from a real server, its table messages from an engine-made state (tests/table_states.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from sgmahjong.game import player_view
from sgmahjong.game.testing import deal, play
from tests.conftest import LiveServer
from tests.table_states import FakeTable, Msg, view_message

expect.set_options(timeout=15_000)

DESKTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 768}}
PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}


def won_hand() -> Msg:
    """South wins on West's 6s with a pong of 5 Dots and the seat flower: 1 tai, West pays double."""
    st = deal(E="5p 1m4m7m 2p8p 3s9s E S W N C", S="5p5p 123m 456m 4s5s 8s8s 2f",
              W="1m4m7m 1p4p7p 1s7s E S W N N", draws="6s", back="N")
    st, _ = play(st, "E discard 5p", "S pong", "S discard N", "W discard 6s", "S win")
    assert st.result is not None and st.result["winner"] == 1
    view = player_view(st, 0)
    view.update(hand_number=3, match_ledger=list(st.ledger))
    return view


@pytest.fixture
def result_page(browser: Browser, live_server: LiveServer) -> Any:
    contexts: list[Any] = []
    errors: list[str] = []

    def open_(size: dict[str, Any], lang: str = "en") -> Page:
        ctx = browser.new_context(**size, locale="zh-CN" if lang == "zh" else "en-GB")
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        FakeTable(page, 0, [view_message(won_hand(), None, status="between_hands")])
        code = live_server.create_table("Stacked")["code"]
        page.goto(f"{live_server.url}/t/{code}?lang={lang}")
        expect(page.locator("#result")).to_be_visible()
        return page

    yield open_
    for ctx in contexts:
        ctx.close()
    assert errors == []


TEXTS = {
    "en": {"title": "南 Bot 1 · Casual wins: 1 tai", "how": "On 西 Cy's discard",
           "pays": "西 Cy pays 南 Bot 1 · Casual 2.",
           "replay": "Watch the replay", "next": "Next hand", "pattern": "Seat flower"},
    "zh": {"title": "南 电脑1 · 普通 胡了：1 台", "how": "胡 西 Cy 打的牌",
           "pays": "西 Cy 付给 南 电脑1 · 普通 2。",
           "replay": "看回放", "next": "下一局", "pattern": "正花"},
}
NOTATION = ("123456m", "[555p]", "+6s", "/2f", "sgmahjong replay", "FILE")

TARGETS = """() => [...document.querySelectorAll('#result a, #result button, #result summary')]
  .filter((e) => e.offsetParent !== null)
  .map((e) => { const b = e.getBoundingClientRect(); return [e.textContent.trim(), b.width, b.height]; })"""


def check_words(page: Page, lang: str) -> None:
    """The hand in pictures, the tai by pattern name, who pays whom; no notation, no command line."""
    words = TEXTS[lang]
    result = page.locator("#result")
    expect(result.locator("h2.result-title")).to_have_text(words["title"])
    expect(result.locator(".result-how")).to_have_text(words["how"])
    hand = result.locator(".winning-hand")
    expect(hand.locator(".concealed .tile")).to_have_count(10)
    expect(hand.locator(".sets .meld .tile")).to_have_count(3)
    expect(hand.locator(".winning .winning-tile")).to_have_attribute("data-tile", "6s")
    expect(hand.locator(".bonus .tile")).to_have_attribute("data-tile", "2f")
    expect(result.locator(".patterns tr[data-pattern=seat_flower]")).to_contain_text(words["pattern"])
    expect(result.locator(".who-pays li")).to_have_count(3)
    expect(result.locator(".who-pays")).to_contain_text(words["pays"])
    expect(result.locator("a.replay-link")).to_have_text(words["replay"])
    text = result.inner_text()
    for bit in NOTATION:
        assert bit not in text, bit
    # the payments' column heads in full: every seat's whole name, nothing cut
    for seat in range(4):
        head = result.locator(f'.payments th.seat-col[data-seat="{seat}"]')
        expect(head).to_be_visible()
        assert head.evaluate("(e) => e.scrollWidth <= e.clientWidth + 1"
                             " && e.scrollHeight <= e.clientHeight + 1")
    expect(result.locator('.payments th.seat-col[data-seat="3"]')).to_contain_text(
        "Bot 2 · Casual" if lang == "en" else "电脑2 · 普通")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_result_on_a_phone_fits_and_speaks_plainly(result_page: Any, lang: str) -> None:
    page = result_page(PHONE, lang)
    check_words(page, lang)
    title = page.evaluate("""() => { const h = document.querySelector('#result h2.result-title');
      const lines = new Set([...h.querySelectorAll(':scope > span')].flatMap((s) => [...s.getClientRects()]
        .map((r) => Math.round(r.top))));
      return {lines: lines.size, width: h.getBoundingClientRect().width}; }""")
    assert title["lines"] == 1 and title["width"] <= 360, title
    # Next hand in view without scrolling, measured in one step
    nxt = page.evaluate("""() => { const b = document.querySelector('#result [data-action=next]')
      .getBoundingClientRect(); return [b.top, b.bottom, innerHeight]; }""")
    assert nxt[0] >= 0 and nxt[1] <= nxt[2], nxt
    expect(page.locator("#result [data-action=next]")).to_contain_text(TEXTS[lang]["next"])
    targets = page.evaluate(TARGETS)
    assert len(targets) >= 5  # next, show the table, the replay, the log, two summaries
    for label, width, height in targets:
        assert width >= 40 and height >= 40, (label, width, height)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_result_on_a_desktop_speaks_plainly(result_page: Any, lang: str) -> None:
    page = result_page(DESKTOP, lang)
    check_words(page, lang)
    for label, width, height in page.evaluate(TARGETS):
        assert width >= 40 and height >= 40, (label, width, height)
    page.locator("#result a.replay-link").click()
    expect(page).to_have_url(re.compile(r"/replay/[^/]+/3$"))

"""A first hour without raw errors: a failed fetch or a dropped table connection says what happened in
the page's language and offers to try again (js/trouble.js); the calculator brings its answer into
view. English and 中文; offline is ``context.set_offline(True)``."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.conftest import LiveServer
from tests.table_states import FakeTable, late_hand, view_message
from tests.test_browser_look import strings
from tests.test_browser_offline import installed

expect.set_options(timeout=20_000)

PHONE_390: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 768}}
RAW = re.compile(r"Failed to fetch|NetworkError|TypeError|HTTP \d")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_play_vs_bots_offline_says_so_and_tries_again(live_server: LiveServer, open_page: Any,
                                                      lang: str) -> None:
    words = strings(lang)
    page = open_page(DESKTOP, lang)
    page.goto(live_server.url + "/")
    expect(page.locator("#play-bots")).to_be_enabled()
    page.context.set_offline(True)
    page.locator("#play-bots").click()
    problem = page.locator("#play-error")
    expect(problem.locator(".trouble-text")).to_have_text(words["net.offline"])
    assert not RAW.search(problem.inner_text())
    retry = problem.locator("button[data-action=retry]")
    expect(retry).to_have_text(words["net.retry"])
    box = retry.bounding_box()
    assert box is not None and box["height"] >= 40
    expect(page.locator("#play-bots")).to_be_enabled()
    page.context.set_offline(False)
    retry.click()  # the same request again: a game against bots
    expect(page).to_have_url(re.compile(r"/t/[\w-]+$"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_table_opened_offline_keeps_its_frame_and_says_what_happens(live_server: LiveServer,
                                                                      browser: Browser, lang: str) -> None:
    words = strings(lang)
    code = live_server.post("/api/play", {"name": "Ann", "seed": 5}).json()["code"]
    context, page, errors = installed(browser, f"{live_server.url}/how-to-play?lang={lang}")
    context.set_offline(True)
    page.goto(f"{live_server.url}/t/{code}")
    notice = page.locator("#net-notice")
    expect(notice.locator("strong")).to_have_text(words["net.table.offline_title"])
    expect(notice.locator("p")).to_have_text(words["net.table.what"])
    expect(notice.locator("button")).to_have_text(words["net.table.retry"])
    expect(page.locator("#felt")).to_be_visible()  # the table's frame, not a blank page
    expect(page.locator("#felt .centre")).to_be_visible()
    context.set_offline(False)  # the next try (at most 5 s on) finds the server
    expect(notice).to_be_hidden()
    expect(page.locator("#conn")).to_have_text(words["table.connected"])
    assert errors == []
    context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_dropped_connection_mid_hand_keeps_the_table(live_server: LiveServer, open_page: Any,
                                                       lang: str) -> None:
    words = strings(lang)
    page: Page = open_page(DESKTOP, lang)
    fake = FakeTable(page, 0, [view_message(late_hand())])
    code = live_server.create_table("Stacked")["code"]
    page.goto(f"{live_server.url}/t/{code}")
    expect(page.locator("#felt .seat")).to_have_count(4)
    expect(page.locator("#net-notice")).to_be_hidden()
    page.route_web_socket("**/ws/**", lambda ws: ws.close())  # the next tries are dropped at once
    fake.ws.close()
    notice = page.locator("#net-notice")
    expect(notice.locator("strong")).to_have_text(words["net.table.title"])
    expect(notice.locator("p")).to_have_text(words["net.table.what"])
    expect(page.locator("#felt .seat")).to_have_count(4)  # the hand stays on the table
    expect(page.locator("#hand .tile").first).to_be_visible()
    back = FakeTable(page, 0, [view_message(late_hand())])  # the server answers again
    notice.locator("button").dispatch_event("click")  # "Try now": a new connection at once
    expect(notice).to_be_hidden()
    expect(page.locator("#conn")).to_have_text(words["table.connected"])
    assert any(m.get("type") == "hello" for m in back.sent)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_calculators_answer_comes_into_view(live_server: LiveServer, open_page: Any, lang: str) -> None:
    page = open_page(PHONE_390, lang)
    page.goto(live_server.url + "/calculator")
    page.fill("#hand", "23s55p [123m] [456m] [789p] +4s /1f1a")
    page.check("#self_drawn")
    page.locator("#calc-btn").click()
    expect(page.locator("#calc-result h2")).to_contain_text("台" if lang == "zh" else "tai")
    page.wait_for_function("""() => {
      const b = document.querySelector('#calc-result h2').getBoundingClientRect();
      return b.top >= 0 && b.bottom <= innerHeight; }""")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_me_with_no_wins_shows_no_average_tai(live_server: LiveServer, open_page: Any, lang: str) -> None:
    words = strings(lang)
    page = open_page(DESKTOP, lang)
    page.goto(live_server.url + "/me")
    stat = page.locator('#totals [data-stat="no_wins"]')
    expect(stat).to_have_text(f"–{words['me.stat.no_wins']}")
    expect(page.locator('#totals [data-stat="average_win_tai"]')).to_have_count(0)


def test_a_vs_bots_table_is_named_in_the_pages_language(live_server: LiveServer, open_page: Any) -> None:
    page = open_page(DESKTOP, "zh")
    page.goto(live_server.url + "/")
    page.fill("#play-name", "Ann")
    page.locator("#play-bots").click()
    expect(page.locator("#table-name")).to_have_text("Ann 对电脑")
    expect(page).to_have_title(re.compile("Ann 对电脑 — sgmahjong$"))

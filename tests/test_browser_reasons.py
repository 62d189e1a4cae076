"""Browser tests: the server's reasons in the page's language. The calculator's not-a-win reason and the
review's flags come with a ``reason_code`` + ``reason_params`` beside the English ``reason``; the pages
say them with the strings files (中文 and English) and fall back to the English text for a code they do
not know. Debian's Chromium through Playwright (never ``playwright install``)."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Page, Route, expect

from tests.conftest import LiveServer
from tests.test_browser import scripted_wall
from tests.test_browser_look import DESKTOP, ENGLISH, english_left, strings
from tests.test_browser_replay import finished_hand

expect.set_options(timeout=15_000)


def fill(template: str, **params: Any) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(params[m.group(1)]), template)


def score(page: Page, hand: str) -> str:
    page.fill("#hand", hand)
    page.locator("#calc-btn").click()
    head = page.locator("#calc-result h2")
    expect(head).to_be_visible()
    return head.inner_text()


def test_the_calculator_says_why_a_hand_is_not_a_win(live_server: LiveServer, open_page: Any) -> None:
    zh = strings("zh")
    cases = [
        ("123m456m789p1288s +3s", "calc.reason.under_min", {"tai": 0, "min": 1}),
        ("123m456m789p1288s +9s", "calc.reason.not_sets_and_pair", {}),
    ]
    page = open_page(DESKTOP, "zh")
    page.goto(live_server.url + "/calculator")
    expect(page.locator("h1")).to_have_text(zh["calc.h1"])
    for hand, key, params in cases:
        text = score(page, hand)
        assert text == fill(zh["calc.not_a_win"], reason=fill(zh[key], **params))
        assert not ENGLISH.search(text), text
    # circumstances that cannot go together: the server's code, said in Chinese
    page.fill("#hand", "123m456m789p4588s +6s")
    page.check("#self_drawn")
    page.select_option("#shooter", "S")
    page.locator("#calc-btn").click()
    expect(page.locator("#calc-error")).to_have_text(zh["error.score.self_drawn_shooter"])
    page.uncheck("#self_drawn")
    page.select_option("#shooter", "")
    # the client's notation errors too
    page.fill("#hand", "123x")
    expect(page.locator("#hand-preview")).to_have_text(fill(zh["calc.bad_tile"], ch="x"))
    # English reads as the server's text, as before
    page = open_page(DESKTOP, "en")
    page.goto(live_server.url + "/calculator")
    for hand, _, _ in cases:
        server = live_server.post("/api/score", {"hand": hand}).json()
        assert score(page, hand) == f"Not a win: {server['reason']}"
    # a code the page does not know: the server's English text
    def unknown(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(
            {"valid": False, "tai": 0, "limit": False, "patterns": [], "reason": "a new reason",
             "reason_code": "brand_new", "reason_params": {}}))

    page = open_page(DESKTOP, "zh", service_workers="block")  # routes do not see a service worker's fetches
    page.route("**/api/score", unknown)
    page.goto(live_server.url + "/calculator")
    assert score(page, "123m456m789p1288s +3s") == fill(zh["calc.not_a_win"], reason="a new reason")


FLAGS: list[tuple[str, dict[str, Any]]] = [
    ("broke_ready", {"tile": "5p", "bot_tile": "E", "shanten": 1, "bot_useful": 6}),
    ("further_from_ready", {"tile": "C", "bot_tile": "9m", "shanten": 3, "bot_shanten": 2}),
    ("fewer_useful", {"tile": "2s", "bot_tile": "8s", "shanten": 2, "useful": 4, "bot_useful": 20}),
    ("dealt_in", {"tile": "9m", "bot_tile": "1p", "winner": 0, "risk": 3.5, "bot_risk": 0.25}),
    ("passed_up_win", {}),
    ("undeclared_self_drawn", {}),
    ("brand_new", {}),  # unknown to the page: the English reason
]


def test_the_review_says_its_flags_in_chinese(live_server: LiveServer, open_page: Any) -> None:
    code, _, _ = finished_hand(live_server, scripted_wall())
    real = live_server.get(f"/api/tables/{code}/hands/1/review?seat=1").json()
    assert real["decisions"]
    base = real["decisions"][0]
    decisions = [{**base, "agree": False, "flagged": True, "player": "discard 5p", "bot": "chow 345p",
                  "reason": f"English reason {i}", "reason_code": c, "reason_params": p}
                 for i, (c, p) in enumerate(FLAGS)]
    crafted = {**real, "decisions": decisions}

    def review(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(crafted))

    replay = live_server.get(f"/api/tables/{code}/hands/1/replay").json()
    names = [s["name"] for s in replay["seats"] if s.get("name")]
    east = replay["seats"][0]["name"]  # Ann, who left: a bot played her seat
    zh = strings("zh")
    page = open_page(DESKTOP, "zh", service_workers="block")  # routes do not see a service worker's fetches
    page.route(re.compile(r".*/review\?seat=1$"), review)
    page.goto(f"{live_server.url}/replay/{code}/1")
    page.select_option("#review-seat", "1")
    page.click("#review-btn")
    rows = page.locator("#review-list tr.reason")
    expect(rows).to_have_count(len(FLAGS))
    texts = [t.strip() for t in rows.all_inner_texts()]
    assert texts[0] == fill(zh["replay.reason.broke_ready"], tile="5筒", bot_tile="东风",
                            away=zh["replay.away.one"], bot_useful=6)
    assert texts[3] == fill(zh["replay.reason.dealt_in"], tile="9万", bot_tile="1筒", winner=east,
                            risk="3.50", bot_risk="0.25")
    assert texts[4] == zh["replay.reason.passed_up_win"]
    assert texts[6] == "English reason 6"
    for text in texts[:6]:
        for name in names:
            text = text.replace(name, "")
        assert not ENGLISH.search(text), text
    # the moves in the page's language too, their tiles as pictures (as in the table log)
    first = page.locator("#review-list tr[data-step]").first
    expect(first.locator("td").nth(1)).to_have_text(fill(zh["replay.act.discard"], tile="").strip())
    expect(first.locator("td").nth(2)).to_have_text(fill(zh["replay.act.chow"], tile="").strip())
    pictures = "els => els.map(e => e.dataset.tile)"
    assert first.locator("td").nth(1).locator(".tile").evaluate_all(pictures) == ["5p"]
    assert first.locator("td").nth(2).locator(".tile").evaluate_all(pictures) == ["3p", "4p", "5p"]
    first.click()
    expect(page.locator(".review-mark")).to_contain_text(texts[0])
    expect(page.locator("#step-action")).not_to_contain_text("discard")
    # nothing else of the replay page is English: the bots are named as on the table page
    kept = [east, "sgmahjong", "Replayed", "Home", "End", "English reason 6"]
    expect(page.locator('#pov option[value="1"]')).to_contain_text(fill(zh["pages.bot_name_n"], n="1",
                                                                          level=zh["bot.greedy"]))
    left = english_left(page, kept)
    assert not left, "\n".join(left)

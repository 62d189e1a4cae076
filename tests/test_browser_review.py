"""The replay's review as a learner reads it: plain words (no "±", "≈", "shanten" or "expected net
payment"; the exact numbers folded away in a details line), tile pictures at a readable size, a
progress bar from the first second of the expert's review, and a click on a decision brings its
options into view. The expert runs at a small deal count; English and 中文, desktop and phone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from sgmahjong.server.settings import ServerSettings
from tests.conftest import LiveServer, serving
from tests.test_expert_http import finished_table

expect.set_options(timeout=60_000)
DESKTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 768}}
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
JARGON = ("±", "≈", "shanten", "Shanten", "expected net payment", "expected loss", "向听", "预期", "净收支")

# records whether the review's bar was ever shown moving without a value (the expert getting ready)
WATCH_BAR = """() => { window.sawBar = false; const bar = document.getElementById('review-progress');
  const look = () => { if (!bar.hidden && !bar.hasAttribute('value')) window.sawBar = true; };
  new MutationObserver(look).observe(bar, {attributes: true}); }"""
IN_VIEW = """(sel) => { const e = document.querySelector(sel); if (!e) return false;
  const b = e.getBoundingClientRect(); return b.height > 0 && b.top >= 0 && b.bottom <= innerHeight; }"""


@pytest.fixture
def expert_server(tmp_path: Path) -> Iterator[LiveServer]:
    with serving(tmp_path / "test.sqlite3", settings=ServerSettings(analysis_deals=4)) as server:
        yield server


def visible_text(page: Any) -> str:
    return str(page.evaluate("() => ['#step-panel', '#review-panel', '#board-panel']"
                             ".map((s) => document.querySelector(s).innerText).join('\\n')"))


@pytest.mark.parametrize(("size", "lang"), [(DESKTOP, "en"), (PHONE, "zh")], ids=["desktop-en", "phone-zh"])
def test_the_expert_review_speaks_to_a_learner(expert_server: LiveServer, open_page: Any,
                                               size: dict[str, Any], lang: str) -> None:
    code = finished_table(expert_server)
    page = open_page(size, lang)
    page.goto(f"{expert_server.url}/replay/{code}/1?seat=1")
    expect(page.locator("#replay")).to_be_visible()
    page.select_option("#review-seat", "1")
    page.select_option("#review-mode", "expert")
    page.evaluate(WATCH_BAR)
    page.click("#review-btn")
    rows = page.locator("#review-list .expert-table tr[data-step]")
    expect(rows.first).to_be_visible()
    assert page.evaluate("window.sawBar")  # the bar moved before the expert had counted anything
    review = expert_server.get(f"/api/tables/{code}/hands/1/expert?seat=1").json()["review"]
    decisions = review["decisions"]
    expect(rows).to_have_count(len(decisions))
    summary = page.locator("#review-summary")
    expect(summary).to_contain_text("chose as the expert would" if lang == "en" else "和大师一样")
    # the list's last discard: its options (tiles) come into view on a click
    discards = [d for d in decisions if str(d["chosen"]).startswith("discard")]
    last = max(discards, key=lambda d: int(d["number"]))
    row = page.locator(f"#review-list tr[data-step='{last['number'] - 1}']")
    row.scroll_into_view_if_needed()
    row.click()
    expect(page.locator("#step-number")).to_have_text(str(last["number"] - 1))
    options = page.locator(".expert-mark .expert-options li")
    expect(options).to_have_count(len(last["options"]))
    page.wait_for_function(IN_VIEW, arg=".expert-mark .expert-options")
    # readable pictures: the options' tiles at least 24 px wide
    widths = page.eval_on_selector_all(".expert-mark .expert-options .tile",
                                       "els => els.map((e) => e.getBoundingClientRect().width)")
    assert widths and min(widths) >= 24, widths
    # the exact numbers are there, folded away
    numbers = page.locator(".expert-mark details.numbers")
    expect(numbers).to_have_count(1)
    assert not numbers.evaluate("(e) => e.open")
    text = visible_text(page)
    for word in JARGON:
        assert word not in text, word
    numbers.locator("summary").click()
    expect(numbers.locator("p")).to_contain_text("give or take" if lang == "en" else "误差约")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_strong_bots_review_speaks_plainly(expert_server: LiveServer, open_page: Any, lang: str) -> None:
    code = finished_table(expert_server)
    page = open_page(PHONE, lang)
    page.goto(f"{expert_server.url}/replay/{code}/1?seat=1")
    expect(page.locator("#replay")).to_be_visible()
    page.select_option("#review-seat", "1")
    page.click("#review-btn")
    rows = page.locator("#review-list tr[data-step]")
    expect(rows.first).to_be_visible()
    review = expert_server.get(f"/api/tables/{code}/hands/1/review?seat=1").json()
    differ = [d for d in review["decisions"] if not d["agree"]] or review["decisions"]
    d = differ[-1]
    row = page.locator(f"#review-list tr[data-step='{d['number'] - 1}']")
    row.scroll_into_view_if_needed()
    row.click()
    expect(page.locator("#step-number")).to_have_text(str(d["number"] - 1))
    # the mark's words (that a click brings a decision's options into view is the expert test's)
    expect(page.locator(".review-mark").first).to_be_visible()
    text = visible_text(page)
    for word in JARGON:
        assert word not in text, word
    heads = page.locator("#review-list th").all_inner_texts()
    assert ("to ready" if lang == "en" else "离听牌") in heads


def test_a_step_where_nobody_claims_says_so(expert_server: LiveServer, open_page: Any) -> None:
    code = finished_table(expert_server)
    data = expert_server.get(f"/api/tables/{code}/hands/1/replay").json()
    step = next(f["number"] for f in data["frames"] if str(f.get("action", "")).startswith("close"))
    page = open_page(DESKTOP, "en")
    page.goto(f"{expert_server.url}/replay/{code}/1?seat=0&step={step}")
    expect(page.locator("#step-action")).to_have_text("Nobody claims the discard")

"""Browser test of the replay's expert (replay-expert.js): the review by the expert at a small deal
count (its progress, then each decision's cost where it exceeds its error, the options with their
values) and the analysis board at a step. Debian's Chromium (``open_page`` fixture in conftest)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from sgmahjong.server.settings import ServerSettings
from tests.conftest import LiveServer, serving
from tests.test_expert_http import finished_table

expect.set_options(timeout=60_000)
VALUE = re.compile(r"^[+−]?\d+\.\d points$")
DESKTOP = {"viewport": {"width": 1366, "height": 768}}


@pytest.fixture
def expert_server(tmp_path: Path) -> Iterator[LiveServer]:
    with serving(tmp_path / "test.sqlite3", settings=ServerSettings(analysis_deals=4)) as server:
        yield server


def test_the_expert_review_and_the_analysis_board(expert_server: LiveServer, open_page: Any) -> None:
    code = finished_table(expert_server)
    page = open_page(DESKTOP, "en")
    page.goto(f"{expert_server.url}/replay/{code}/1?seat=1")
    expect(page.locator("#replay")).to_be_visible()
    page.select_option("#review-seat", "1")
    page.select_option("#review-mode", "expert")
    page.click("#review-btn")
    rows = page.locator("#review-list .expert-table tr[data-step]")
    expect(rows.first).to_be_visible()
    expect(page.locator("#review-progress")).to_be_hidden()
    review = expert_server.get(f"/api/tables/{code}/hands/1/expert?seat=1").json()["review"]
    decisions = review["decisions"]
    expect(rows).to_have_count(len(decisions))
    costly = sorted((d for d in decisions if d["costly"]), key=lambda d: -d["cost"])
    # a cost is shown exactly where it exceeds its error, the costliest first
    expect(page.locator("#review-list td.cost")).to_have_count(len(costly))
    for i, d in enumerate(costly):
        expect(rows.nth(i)).to_have_attribute("data-step", str(d["number"] - 1))
        expect(rows.nth(i).locator("td.cost")).to_have_text(f"{d['cost']:.1f}")
    summary = page.locator("#review-summary")
    expect(summary).to_contain_text(f"of {len(decisions)} decisions")
    # a row leads to its step, where the expert's options are listed with their values
    first = decisions[0]
    page.locator(f"#review-list tr[data-step='{first['number'] - 1}']").click()
    expect(page.locator("#step-number")).to_have_text(str(first["number"] - 1))
    options = page.locator(".expert-mark .expert-options li")
    expect(options).to_have_count(len(first["options"]))
    for value in options.locator(".value").all_inner_texts():
        assert VALUE.match(value), value
    # the analysis board at that step, for South: the same decision, asked of the expert
    page.select_option("#board-seat", "1")
    page.click("#board-btn")
    board = page.locator("#board-result .expert-options li")
    expect(board.first).to_be_visible()
    assert board.count() >= 2
    expect(page.locator("#board-result li.best")).to_have_count(1)
    expect(page.locator("#board-result li.chosen .tag")).to_have_text("played")
    # another step clears the board's answer (it would mislead)
    page.keyboard.press("ArrowRight")
    expect(page.locator("#board-result .expert-options")).to_have_count(0)

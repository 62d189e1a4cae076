"""The Scoring page draws an example hand for every pattern with the site's tiles (the hands are
checked against the core in tests/test_pattern_examples.py), in English and 中文, without widening a
360 px phone's page."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from sgmahjong.notation import parse_tiles

expect.set_options(timeout=15_000)

SOURCE = (Path(__file__).resolve().parent.parent / "sgmahjong" / "server" / "static" / "js"
          / "pattern-examples.js").read_text(encoding="utf-8")
EXAMPLES: dict[str, dict[str, Any]] = json.loads(SOURCE[SOURCE.index("{"):SOURCE.rindex("}") + 1])


def tiles_of(hand: str) -> int:
    """How many tiles the example draws: every tile its notation names."""
    return len(parse_tiles(re.sub(r"[\[\]{}+/ ]", "", hand)))


@pytest.mark.parametrize(("lang", "size"), [("en", {"width": 1366, "height": 768}),
                                            ("zh", {"width": 360, "height": 740})])
def test_every_pattern_has_its_picture(live_server: Any, open_page: Any, lang: str,
                                       size: dict[str, int]) -> None:
    page = open_page({"viewport": size}, lang)
    page.goto(live_server.url + "/scoring")
    rows = page.locator("#reference tr[data-pattern]")
    expect(rows.first).to_be_visible()
    ids = page.eval_on_selector_all("#reference tr[data-pattern]", "rs => rs.map(r => r.dataset.pattern)")
    assert len(ids) >= 36
    expect(page.locator("#reference .pattern-example")).to_have_count(len(ids))
    for pid in set(ids):
        row = page.locator(f'#reference tr[data-pattern="{pid}"]').first
        expect(row.locator(".pattern-example code")).to_have_text(EXAMPLES[pid]["hand"])
        expect(row.locator(".pattern-example .tile")).to_have_count(tiles_of(EXAMPLES[pid]["hand"]))
    ping = page.locator('#reference tr[data-pattern="ping_hu"] .pattern-example')
    assert ping.locator(".ex-win .tile").get_attribute("data-tile") == "4s"
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]

"""Words players read: the leaderboard says rating, games played and rank (no μ, σ or "OpenSkill"),
with "How ratings work" opening a short explanation, in English and 中文; and a count's plural form
(i18n.js: Intl.PluralRules and a key's "#one" text) reads right at 1."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.test_font_coverage import strings

expect.set_options(timeout=15_000)
DESKTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
JARGON = ("μ", "σ", "OpenSkill", "Plackett", "sigma")


@pytest.mark.parametrize(("lang", "size", "how"), [("en", DESKTOP, "How ratings work"),
                                                  ("zh", PHONE, "评分是怎么算的")])
def test_the_leaderboard_speaks_players_words(live_server: Any, open_page: Any, lang: str,
                                              size: dict[str, Any], how: str) -> None:
    page: Page = open_page(size, lang)
    page.goto(f"{live_server.url}/leaderboard")
    expect(page.locator("#ladder table.ladder")).to_be_visible()
    text = page.locator("main").inner_text()
    assert not [w for w in JARGON if w in text], text
    assert ("How ratings work" if lang == "en" else "评分是怎么算的") in text
    if lang == "zh":  # the ranked rule names the preset as the lobby does (网站规则), not by its English key
        assert "site" not in text and "“网站规则”预设" in text
    page.locator("#rating-help-open").click()
    dialog = page.locator("#rating-help")
    expect(dialog).to_be_visible()
    expect(dialog.locator("h2")).to_have_text(how)
    said = dialog.inner_text()
    assert not [w for w in JARGON if w in said] and len(said) > 150
    box = dialog.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size["viewport"]["width"]
    dialog.locator("#rating-help-close").click()
    expect(dialog).to_be_hidden()
    page.locator("#ladder [data-rating-help]").click()  # the link beside the rating rule opens it too
    expect(dialog).to_be_visible()


def test_no_board_or_rating_text_names_the_model() -> None:
    for lang in ("en", "zh"):
        for key, text in strings(lang).items():
            if key.startswith(("board.", "rank.", "ranked.")):
                assert not [w for w in JARGON if w in text], (lang, key)
    assert strings("en")["board.col.matches"] == "games played"


@pytest.mark.parametrize(("lang", "one", "two"), [("en", "1 hand", "2 hands"), ("zh", "1 局", "2 局")])
def test_a_count_of_one_reads_right(live_server: Any, open_page: Any, lang: str, one: str, two: str) -> None:
    page: Page = open_page(DESKTOP, lang)
    page.goto(f"{live_server.url}/leaderboard")
    got = page.evaluate("""async () => {
      const { t } = await import('/static/js/i18n.js');
      return [t('club.hands_n', {n: 1}), t('club.hands_n', {n: 2}), t('club.hands_n', {n: 0}),
              t('board.rule.seasons', {months: 1}), t('me.deleted', {n: 1})];
    }""")
    assert got[0] == one and got[1] == two
    if lang == "en":
        assert got[2] == "0 hands" and "lasts 1 month;" in got[3] and got[4] == "Deleted 1 hand."

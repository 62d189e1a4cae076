"""Browser tests of the pages' look, language and accessibility (issue 10, part B): no sideways
scrolling at 360 px, the 中文 switch, reduced motion, keyboard-only play, the bundled CJK font's
coverage and the side seats' names. Debian's Chromium through Playwright (never ``playwright install``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

expect.set_options(timeout=15_000)

STATIC = Path(__file__).resolve().parent.parent / "sgmahjong" / "server" / "static"
PAGES = ["/", "/how-to-play", "/scoring", "/calculator"]
PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 768}}


def strings(lang: str) -> dict[str, str]:
    """A strings file (its body is JSON after ``export default``)."""
    text = (STATIC / "js" / "strings" / f"{lang}.js").read_text(encoding="utf-8")
    return json.loads(text[text.index("{"):text.rindex("}") + 1])  # type: ignore[no-any-return]


@pytest.fixture
def open_page(browser: Browser) -> Iterator[Any]:
    """open_page(size, lang=None, **context options) -> a page failing the test on a script error."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(size: dict[str, Any], lang: str | None = None, **extra: Any) -> Page:
        ctx = browser.new_context(**size, **extra)
        if lang:
            ctx.add_init_script(f"localStorage.setItem('sgmahjong:lang', '{lang}')")
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    yield make
    for ctx in contexts:
        ctx.close()
    assert errors == []


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
        page.locator("#actions button[data-action=pass]").click()
        page.wait_for_timeout(100)
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

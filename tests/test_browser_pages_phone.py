"""Browser tests of the pages around the table on a phone and in 中文 (issue 24's non-table half): a
one-row site header, /me as cards with each hand's seat wind, bots named by level, tile pictures in the
replay and the calculator, dark-mode contrast, the bundled CJK font where no system font has it,
translated server errors, a ready-made guest name."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import CHROMIUM, CHROMIUM_ARGS

expect.set_options(timeout=15_000)

PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
PHONE_390: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 768}}
PAGES = ["/", "/how-to-play", "/scoring", "/calculator", "/me"]


# -- the site header ------------------------------------------------------------------------------

@pytest.mark.parametrize("size", [PHONE, PHONE_390], ids=["360", "390"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_site_header_is_one_compact_row_on_a_phone(live_server: Any, open_page: Any, size: dict[str, Any],
                                                          lang: str) -> None:
    page = open_page(size, lang)
    for path in PAGES:
        page.goto(live_server.url + path)
        header = page.locator("header.site-header")
        expect(header.locator(".lang-switch")).to_be_visible()
        box = header.bounding_box()
        assert box is not None and box["height"] <= 56, (path, box)
        assert page.evaluate("document.documentElement.scrollWidth") <= size["viewport"]["width"]
        # the links are one tap away, below the header, and close again with Escape
        menu = header.locator(".menu-toggle")
        expect(header.locator("nav a").first).to_be_hidden()
        menu.click()
        expect(menu).to_have_attribute("aria-expanded", "true")
        links = header.locator("nav a")
        expect(links).to_have_count(5)
        for i in range(5):
            expect(links.nth(i)).to_be_visible()
        assert (header.bounding_box() or {}).get("height", 99) <= 56  # the list opens over the page
        page.keyboard.press("Escape")
        expect(links.first).to_be_hidden()
        expect(menu).to_have_attribute("aria-expanded", "false")


def test_the_desktop_header_shows_its_links_without_a_menu(live_server: Any, open_page: Any) -> None:
    page = open_page(DESKTOP, "en")
    page.goto(live_server.url + "/scoring")
    expect(page.locator("header.site-header .menu-toggle")).to_be_hidden()
    expect(page.locator("header.site-header nav a")).to_have_count(5)
    for i in range(5):
        expect(page.locator("header.site-header nav a").nth(i)).to_be_visible()


# -- the bundled CJK font where the system has none -------------------------------------------------

@pytest.fixture(scope="module")
def latin_only_browser(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Chromium that sees only the DejaVu fonts (no system CJK font), as on many a fresh machine."""
    conf = tmp_path_factory.mktemp("fonts") / "fonts.conf"
    conf.write_text('<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
                    "<dir>/usr/share/fonts/truetype/dejavu</dir>"
                    f"<cachedir>{conf.parent / 'cache'}</cachedir></fontconfig>")
    b = browser.browser_type.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, env={
        "FONTCONFIG_FILE": str(conf), "PATH": "/usr/bin:/bin", "HOME": str(conf.parent)})
    try:
        yield b
    finally:
        b.close()


def glyphs_of(page: Page, selector: str) -> bytes:
    return page.locator(selector).screenshot(animations="disabled")


def same_as_a_fresh_layout(page: Page, selector: str) -> float:
    """How different (0..1 of the pixels) an element looks from itself laid out again at a size 0.01 px
    larger: a text shaped before the web font arrived draws as boxes until something lays it out anew."""
    from PIL import Image, ImageChops

    before = Image.open(io.BytesIO(glyphs_of(page, selector))).convert("L")
    page.eval_on_selector(selector, "el => { el.style.fontSize = "
                                    "(parseFloat(getComputedStyle(el).fontSize) + 0.01) + 'px'; }")
    page.wait_for_timeout(100)
    after = Image.open(io.BytesIO(glyphs_of(page, selector))).convert("L").resize(before.size)
    diff = ImageChops.difference(before, after).point(lambda v: 255 if v > 64 else 0)
    return sum(1 for v in diff.getdata() if v) / (before.width * before.height)


def test_the_language_button_draws_chinese_on_a_spectators_page(live_server: Any, latin_only_browser: Any) -> None:
    code = live_server.create_table("Fonts", seed=1)["code"]
    ctx = latin_only_browser.new_context(**DESKTOP)
    try:
        page = ctx.new_page()
        page.goto(f"{live_server.url}/t/{code}?lang=en")  # a spectator: nobody seated here
        button = page.locator(".topbar .lang-switch")
        expect(button).to_have_text("中文")
        page.evaluate("document.fonts.ready")
        page.wait_for_timeout(500)
        assert same_as_a_fresh_layout(page, ".topbar .lang-switch") < 0.02
    finally:
        ctx.close()

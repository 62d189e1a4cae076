"""Screenshots of the pages as a player sees them (Debian's Chromium through Playwright).

    .venv/bin/python tools/screenshots.py OUTDIR [--readme]

Starts a server on a free port with a temporary database, seats one player ("Ann") with three bots at
a table with a fixed seed, and saves the lobby, the reference pages and the table (seating and in play)
at 1366x768 and at 360 px, in English and 中文. With --readme it saves only the README's four pictures
(docs/table-{desktop,phone}-{en,zh}.png) into OUTDIR, reduced to 256 colours (Pillow) to stay small.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import Browser, Page, sync_playwright

from tests.conftest import CHROMIUM, CHROMIUM_ARGS, LiveServer, free_port

DESKTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 360, "height": 800}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 1}


def page_for(browser: Browser, size: dict, lang: str, *, dark: bool = False) -> Page:
    ctx = browser.new_context(**size, color_scheme="dark" if dark else "light",
                              locale="zh-CN" if lang == "zh" else "en-GB")
    return ctx.new_page()


def seated_table(server: LiveServer, page: Page, lang: str) -> str:
    table = server.create_table("Friday night", seed=7, options={"bot_delay": 0.2, "turn_seconds": 0,
                                                                 "claim_seconds": 0, "next_hand_seconds": 0})
    code = table["code"]
    page.goto(f"{server.url}/t/{code}?lang={lang}")
    page.fill("#join-name", "Ann")
    page.locator('#seat-list [data-seat="0"] [data-action="join"]').click()
    page.wait_for_selector("#seated-controls:not([hidden])")
    return code


def play_until_my_turn(page: Page) -> None:
    page.locator("#start-btn").click()
    page.wait_for_selector("#hand .slot.can-discard", timeout=30_000)
    # a few discards so the pools are not empty
    for _ in range(4):
        page.locator("#hand .slot.can-discard").last.click()
        page.wait_for_selector("#hand .slot.can-discard, #actions button[data-action=pass]", timeout=30_000)
        if page.locator("#actions button[data-action=pass]").count():
            page.locator("#actions button[data-action=pass]").click()
            page.wait_for_selector("#hand .slot.can-discard", timeout=30_000)
    page.wait_for_timeout(600)


def shrink(path: Path) -> None:
    """256 colours, no dithering: the pictures stay sharp and small (a README picture <= 300 KB)."""
    from PIL import Image

    im = Image.open(path).convert("RGB")
    small = im.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    small.save(path, optimize=True)


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    readme = "--readme" in sys.argv
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        server = LiveServer(free_port(), str(Path(tmp) / "shots.sqlite3"))
        server.start()
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for lang in ("en", "zh"):
                for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
                    page = page_for(browser, size, lang)
                    if not readme:
                        for path, name in (("/", "lobby"), ("/how-to-play", "howto"), ("/scoring", "scoring"),
                                           ("/calculator", "calculator")):
                            page.goto(f"{server.url}{path}?lang={lang}")
                            page.wait_for_timeout(700)
                            page.screenshot(path=str(out / f"{name}-{label}-{lang}.png"), full_page=True)
                    seated_table(server, page, lang)
                    if not readme:
                        page.screenshot(path=str(out / f"seating-{label}-{lang}.png"), full_page=True)
                    play_until_my_turn(page)
                    page.evaluate("window.scrollTo(0, 0)")
                    page.wait_for_timeout(200)
                    shot = out / f"table-{label}-{lang}.png"
                    page.screenshot(path=str(shot), full_page=not readme)
                    if readme:
                        shrink(shot)
                    page.context.close()
            if not readme:
                page = page_for(browser, DESKTOP, "en", dark=True)
                seated_table(server, page, "en")
                play_until_my_turn(page)
                page.screenshot(path=str(out / "table-desktop-dark.png"))
                page.context.close()
        finally:
            browser.close()
            server.stop()


if __name__ == "__main__":
    main()

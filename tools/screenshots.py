"""Screenshots of the pages as a player sees them (Debian's Chromium through Playwright).

    .venv/bin/python tools/screenshots.py OUTDIR [--readme | --history | --coach | --late]

Starts a server on a free port with a temporary database, seats one player ("Ann") with three bots at
a table with a fixed seed, and saves the lobby, the reference pages and the table (seating and in play)
at 1366x768 and at 360 px, in English and 中文. With --readme (or --late) it saves only the table
pictures of the README and docs/playing.md into OUTDIR, reduced to 256 colours (Pillow) to stay small.
With --history it saves the README's pictures of a player's history instead (docs/me.png, replay.png,
review.png at 1366x768): Ann plays two hands of "Evening game" (a bot plays her seat), then her /me page,
the replay of hand 1 from South's point of view at the last discard up to step 30, and South's review
with a row chosen. With --coach it saves the expert's review and analysis board in the replay
(docs/coach-review-*.png, coach-board-*.png; see :func:`coach`). The table pictures show the table late in
a hand (an engine-made state, every seat with four sets and 24 discards) on a desktop, a phone upright
and a phone on its side, in English and 中文, and the play options sheet on a phone
(docs/table-{desktop,phone,landscape}-{en,zh}.png, table-sheet-phone-en.png; see :func:`late`).
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Required, TypedDict

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright

from tests.conftest import CHROMIUM, CHROMIUM_ARGS, LiveServer, serving


class Size(TypedDict, total=False):
    """A page's size: some of ``Browser.new_context``'s options."""

    viewport: Required[ViewportSize]
    is_mobile: bool
    has_touch: bool
    device_scale_factor: float
    timezone_id: str


DESKTOP: Size = {"viewport": {"width": 1366, "height": 768}}
PHONE: Size = {"viewport": {"width": 360, "height": 800}, "is_mobile": True, "has_touch": True,
               "device_scale_factor": 1}


def page_for(browser: Browser, size: Size, lang: str, *, dark: bool = False) -> Page:
    ctx = browser.new_context(**size, color_scheme="dark" if dark else "light",
                              locale="zh-CN" if lang == "zh" else "en-GB")
    return ctx.new_page()


def seated_table(server: LiveServer, page: Page, lang: str) -> str:
    table = server.create_table("Friday night", seed=7, options={"bot_delay": 0.2, "turn_seconds": 0,
                                                                 "claim_seconds": 0, "next_hand_seconds": 0})
    code: str = table["code"]
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


def evening_game(server: LiveServer, messages: tuple[dict[str, Any], ...], cookie: str | None = None) -> str:
    """"Evening game" (greedy bots, seed 21): Ann joins at East (with the session ``cookie``, if given,
    else as a new visitor); for each of ``messages`` she connects, sends it and leaves (a bot plays her
    seat) and the hand is played to its end. The table's code."""
    import time

    code: str = server.create_table("Evening game", seed=21, options={
        "bot_delay": 0, "turn_seconds": 0, "claim_seconds": 0, "next_hand_seconds": 0, "takeover_seconds": 0,
        "claim_pause": 0, "bot_level": "greedy"})["code"]
    token = server.post(f"/api/tables/{code}/join", {"name": "Ann", "seat": 0}, cookie).json()["token"]
    for message in messages:
        with server.ws(code) as ws:
            ws.hello(token)
            ws.send(message)
            ws.until("view", lambda m: m["status"] in ("playing", "finished"))
        end = time.monotonic() + 120
        while server.get(f"/api/tables/{code}").json()["status"] not in ("between_hands", "finished"):
            if time.monotonic() > end:
                raise TimeoutError("the hand never ended")
            time.sleep(0.1)
    return code


def history(server: LiveServer, browser: Browser, out: Path) -> None:
    """docs/me.png, replay.png and review.png: Ann's two hands at "Evening game", as she sees them."""
    from tests.conftest import session_cookie

    cookie = session_cookie(server.post("/api/players", {"name": "Ann"}))
    assert cookie is not None
    code = evening_game(server, ({"type": "start"}, {"type": "next"}), cookie)
    ctx = browser.new_context(**DESKTOP, locale="en-GB")
    ctx.add_cookies([{"name": "sg_session", "value": cookie.split("=", 1)[1], "url": server.url}])
    page = ctx.new_page()
    page.goto(f"{server.url}/me")
    page.wait_for_selector("#hands tbody tr")
    page.wait_for_timeout(400)
    page.screenshot(path=str(out / "me.png"), full_page=True)
    page.goto(f"{server.url}/replay/{code}/1?seat=1&step=30")
    page.wait_for_selector("#wall-check[data-match]")
    for _ in range(10):  # back to a discard, the step's move and events in tile pictures
        if page.locator("#step-action .move-tiles .tile").count() and page.locator("#step-events li").count():
            break
        page.keyboard.press("ArrowLeft")
    page.wait_for_timeout(400)
    page.screenshot(path=str(out / "replay.png"))
    page.select_option("#review-seat", "1")
    page.click("#review-btn")
    rows = page.locator("#review-list tr[data-step]")
    rows.first.wait_for()
    flagged = page.locator("#review-list tr.flagged[data-step]")
    (flagged.first if flagged.count() else rows.nth(min(3, rows.count() - 1))).click()
    page.locator("#review-list tr.current").scroll_into_view_if_needed()
    page.wait_for_timeout(400)
    page.screenshot(path=str(out / "review.png"))
    ctx.close()
    for name in ("me", "replay", "review"):
        shrink(out / f"{name}.png")


def coach(server: LiveServer, browser: Browser, out: Path) -> None:
    """docs/coach-review-*.png and coach-board-*.png: a hand of greedy bots reviewed by the expert (at
    its default budget, computed once and then served from the store) for the seat that lost the most
    by its mistakes, the costliest decision chosen; then the analysis board at that step. Desktop
    1366x768 and phone 360 px, en and zh."""
    import time

    code = evening_game(server, ({"type": "start"},))
    losses = {}
    for seat in range(4):  # each seat reviewed (computed once, stored): the picture shows the costliest
        path = f"/api/tables/{code}/hands/1/expert?seat={seat}"
        answer = server.post(path, {}).json()
        while answer["status"] != "done":
            time.sleep(0.5)
            answer = server.get(path).json()
        losses[seat] = answer["review"]["summary"]["expected_loss"]
    seat = max(losses, key=lambda s: losses[s])
    for lang in ("en", "zh"):
        for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page = page_for(browser, size, lang)
            page.goto(f"{server.url}/replay/{code}/1?seat={seat}&review=expert&lang={lang}")
            page.wait_for_selector("#wall-check[data-match]")
            page.select_option("#review-seat", str(seat))
            page.click("#review-btn")
            page.locator("#review-list .expert-table tr[data-step]").first.wait_for(timeout=600_000)
            page.locator("#review-list .expert-table tr[data-step]").first.click()
            # desktop: the step's priced options above the review; a phone: the review's top
            top = "#step-panel" if label == "desktop" else "#review-panel"
            page.eval_on_selector(top, "el => el.scrollIntoView({block: 'start'})")
            page.wait_for_timeout(400)
            page.screenshot(path=str(out / f"coach-review-{label}-{lang}.png"))
            page.select_option("#board-seat", str(seat))
            page.click("#board-btn")
            page.locator("#board-result .expert-options li").first.wait_for(timeout=600_000)
            page.eval_on_selector("#board-panel", "el => el.scrollIntoView({block: 'start'})")
            page.wait_for_timeout(400)
            page.screenshot(path=str(out / f"coach-board-{label}-{lang}.png"))
            page.context.close()
            for kind in ("review", "board"):
                shrink(out / f"coach-{kind}-{label}-{lang}.png")


def late(server: LiveServer, browser: Browser, out: Path) -> None:
    """The table late in a hand, as seat 0 sees it on its turn (tests/table_states.py's ``late_hand``,
    served by a stand-in for the table's WebSocket): desktop 1366x768, phone 360x800 and phone on its
    side 800x360, en and zh; then the play options sheet open on a 390 px phone."""
    from tests.table_states import FakeTable, late_hand, view_message

    landscape: Size = {"viewport": {"width": 800, "height": 360}, "is_mobile": True, "has_touch": True,
                       "device_scale_factor": 1}
    sheet: Size = {**PHONE, "viewport": {"width": 390, "height": 844}}
    timer = {"kind": "turn", "seats": [0], "remaining_ms": 25_000, "seconds": 30}
    shots = [(label, size, lang) for lang in ("en", "zh")
             for label, size in (("desktop", DESKTOP), ("phone", PHONE), ("landscape", landscape))]
    for label, size, lang in [*shots, ("sheet-phone", sheet, "en")]:
        page = page_for(browser, size, lang)
        FakeTable(page, 0, [view_message(late_hand(), timer)])
        code = server.create_table("Friday night")["code"]
        page.goto(f"{server.url}/t/{code}?lang={lang}")
        page.wait_for_selector("#hand .slot.can-discard")
        page.evaluate("document.fonts.ready")
        if label == "sheet-phone":
            page.click("#sheet-btn")
            page.wait_for_selector("#options-sheet[open]")
        page.wait_for_timeout(400)
        shot = out / f"table-{label}-{lang}.png"
        page.screenshot(path=str(shot))
        shrink(shot)
        page.context.close()


@contextmanager
def shooting(out: Path) -> Iterator[tuple[LiveServer, Browser]]:
    """For the screenshot tools: ``out`` made, a test server on a free port with a temporary database,
    and Debian's Chromium; the browser is closed and the server stopped afterwards."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p, \
            serving(Path(tmp) / "shots.sqlite3") as server:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield server, browser
        finally:
            browser.close()


def shrink(path: Path) -> None:
    """256 colours, no dithering: the pictures stay sharp and small (a README picture <= 300 KB)."""
    from PIL import Image

    im = Image.open(path).convert("RGB")
    small = im.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    small.save(path, optimize=True)


def main() -> None:
    out = Path(sys.argv[1])
    readme = "--readme" in sys.argv
    with shooting(out) as (server, browser):
        if "--history" in sys.argv:
            history(server, browser, out)
            return
        if "--coach" in sys.argv:
            coach(server, browser, out)
            return
        if readme or "--late" in sys.argv:
            late(server, browser, out)
            return
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


if __name__ == "__main__":
    main()

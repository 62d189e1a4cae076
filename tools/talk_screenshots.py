"""Screenshots of chat at the table (docs/talk.md), as a player sees them.

    .venv/bin/python tools/talk_screenshots.py OUTDIR

Starts a server on a free port with a temporary database; Ann (the page photographed) and Bo sit at a
table with two bots, talk, send a quick phrase and an emote, and a named spectator (Dee) says hello;
Ann has the mute list open (the other players by name, no bots) and sees who watches. Saves
talk-table-{desktop,phone}-{en,zh}.png (1366x768 and 360 px; the phone picture is the whole page, the
chat being under the felt there), reduced to 256 colours.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools.screenshots import DESKTOP, PHONE, page_for, shooting, shrink

LINES = {"en": ("Evening all, 20c/40c ok?", "Steady lah"), "zh": ("大家好，开打！", "好牌！")}


def main() -> None:
    out = Path(sys.argv[1])
    with shooting(out) as (server, browser):
        for lang in ("en", "zh"):
            for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
                code = server.create_table("Friday kaki", seed=7, options={
                    "bot_delay": 0.2, "turn_seconds": 0, "claim_seconds": 0,
                    "next_hand_seconds": 0})["code"]
                pages = []
                for seat, name, avatar in ((0, "Ann", "orchid"), (1, "Bo", "rooster")):
                    page = page_for(browser, size if seat == 0 else DESKTOP, lang)
                    page.goto(f"{server.url}/me?lang={lang}")
                    page.fill("#me-name", name)
                    page.locator("#name-form button[type=submit]").click()
                    page.locator(f'#avatar-picker button[data-avatar="{avatar}"]').click()
                    chosen = f'#avatar-picker button[data-avatar="{avatar}"][aria-pressed="true"]'
                    page.wait_for_selector(chosen)
                    if seat == 0 and label == "desktop":
                        page.screenshot(path=str(out / f"talk-me-avatar-{lang}.png"))
                    page.goto(f"{server.url}/t/{code}?lang={lang}")
                    page.fill("#join-name", name)
                    page.locator(f'#seat-list [data-seat="{seat}"] [data-action="join"]').click()
                    page.wait_for_selector("#seated-controls:not([hidden])")
                    pages.append(page)
                ann, bo = pages
                watcher = page_for(browser, DESKTOP, lang)
                watcher.goto(f"{server.url}/me?lang={lang}")
                watcher.fill("#me-name", "Dee")
                with watcher.expect_response(lambda r: r.request.method == "POST"):
                    watcher.locator("#name-form button[type=submit]").click()
                watcher.goto(f"{server.url}/t/{code}?lang={lang}")
                ann.wait_for_selector("#chat-watchers:not([hidden])")
                ann.locator("#start-btn").click()
                ann.wait_for_selector("#hand .slot.can-discard", timeout=30_000)
                ann.fill("#chat-input", LINES[lang][0])
                ann.press("#chat-input", "Enter")
                bo.wait_for_selector("#chat-phrases [data-phrase]")
                bo.locator('#chat-phrases [data-phrase="huat"]').click()
                watcher.fill("#chat-input", LINES[lang][1])
                watcher.press("#chat-input", "Enter")
                ann.wait_for_timeout(300)
                bo.locator("#chat-emote-btn").click()
                bo.locator('#chat-emotes button[data-emote="rooster"]').click()
                ann.locator("#chat-panel .chat-mutes summary").click()
                ann.wait_for_selector('#chat-mutes [data-mute-seat="1"]')
                ann.wait_for_timeout(700)
                ann.evaluate("window.scrollTo(0, 0)")
                shot = out / f"talk-table-{label}-{lang}.png"
                ann.screenshot(path=str(shot), full_page=label == "phone")
                shrink(shot)
                for page in (ann, bo, watcher):
                    page.context.close()


if __name__ == "__main__":
    main()

"""Screenshots of the end of a hand on a phone, as a player sees it (Debian's Chromium, Playwright).

    .venv/bin/python tools/result_screenshots.py OUTDIR

Starts a server on a free port with a temporary database and opens a table page whose table messages
come from an engine-made finished hand (tests/table_states.py's stand-in for the WebSocket): South wins
on West's discard with a pong and the seat flower. Saves docs/result-phone-{en,zh}.png (360x740), reduced
to 256 colours.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.table_states import FakeTable, view_message
from tests.test_browser_result import PHONE, won_hand
from tools.screenshots import shooting, shrink


def main() -> None:
    out = Path(sys.argv[1])
    with shooting(out) as (server, browser):
        for lang in ("en", "zh"):
            ctx = browser.new_context(**PHONE, locale="zh-CN" if lang == "zh" else "en-GB")
            page = ctx.new_page()
            FakeTable(page, 0, [view_message(won_hand(), None, status="between_hands")])
            code = server.create_table("Friday night")["code"]
            page.goto(f"{server.url}/t/{code}?lang={lang}")
            page.wait_for_selector("#result .who-pays li")
            page.wait_for_function("document.fonts.status === 'loaded'")
            page.wait_for_timeout(300)  # the panel's scroll to its top, in the next frame
            path = out / f"result-phone-{lang}.png"
            page.screenshot(path=str(path))
            shrink(path)
            ctx.close()


if __name__ == "__main__":
    main()

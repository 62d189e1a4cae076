"""Screenshots of sharing a table's link on a phone without a share sheet (docs/playing.md, clubs.md).

    .venv/bin/python tools/share_screenshots.py OUTDIR

Starts a server on a free port with a temporary database; "Friday night" has Siew Mei and Ah Beng
seated; a third friend opens its link on a 360 px phone whose browser has no share sheet and presses
Share: WhatsApp, Telegram and Copy. Saves share-phone-{en,zh}.png (the seating card), 256 colours.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools.screenshots import PHONE, page_for, shooting, shrink


def main() -> None:
    out = Path(sys.argv[1])
    with shooting(out) as (server, browser):
        code = server.create_table("Friday night")["code"]
        server.join(code, "Siew Mei", seat=0)
        server.join(code, "Ah Beng", seat=1)
        for lang in ("en", "zh"):
            page = page_for(browser, PHONE, lang)
            page.context.add_init_script("delete Navigator.prototype.share;")
            page.goto(f"{server.url}/t/{code}?lang={lang}")
            page.locator("#table-share .share-btn").click()
            page.wait_for_selector("#table-share .share-fallback:not([hidden])")
            shot = out / f"share-phone-{lang}.png"
            page.locator("#seating").screenshot(path=str(shot))
            shrink(shot)
            page.context.close()


if __name__ == "__main__":
    main()

"""Draw the web app's PNG icons from static/icons/icon.svg (the red dragon tile of static/favicon.svg on
the site's green) with Debian's Chromium: icon-192.png and icon-512.png (also used as "maskable": the
tile stays inside the middle 80 %).

    .venv/bin/python tools/make_icons.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parent.parent / "sgmahjong" / "server" / "static" / "icons"
SIZES = (192, 512)


def main() -> int:
    svg = (ICONS / "icon.svg").read_text(encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        try:
            for size in SIZES:
                page = browser.new_page(viewport={"width": size, "height": size})
                sized = svg.replace("<svg ", f"<svg width={size} height={size} ", 1)
                page.set_content(f'<body style="margin:0">{sized}')
                page.screenshot(path=str(ICONS / f"icon-{size}.png"), omit_background=True)
                page.close()
                print(f"icon-{size}.png")
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Draw the link-preview cards (static/icons/card-*.png, 1200x630: what a messenger shows beside a pasted
link; messengers do not show SVG) with Debian's Chromium: one card per kind of link (an invite, a club,
a table, a replay, an event), each naming its kind in English and 中文 beside the red dragon tile of the icon.
The words of a card are fixed; what the link is (the club, the table, who won) is in the page's tags.

    .venv/bin/python tools/make_cards.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tools.screenshots import shrink

ICONS = Path(__file__).resolve().parent.parent / "sgmahjong" / "server" / "static" / "icons"
WIDTH, HEIGHT = 1200, 630
CARDS = {
    "invite": ("Join the club", "牌友会邀请"),
    "club": ("A Singapore Mahjong club", "新加坡麻将牌友会"),
    "table": ("Take a seat at the table", "入座开打"),
    "replay": ("Watch the hand again", "回放这一局"),
    "event": ("A tournament: see the standings", "比赛：看看排名"),
}
TILE = ('<svg viewBox="0 0 60 80" width="240" height="320"><rect x="2" y="2" width="56" height="76" rx="8" '
        'fill="#fffdf5" stroke="#2f855a" stroke-width="4"/><rect x="27" y="14" width="6" height="52" '
        'fill="#c0262d"/><rect x="12" y="28" width="36" height="22" rx="2" fill="none" stroke="#c0262d" '
        'stroke-width="6"/></svg>')
PAGE = """<!doctype html><meta charset="utf-8"><style>
body {{ margin: 0; width: {w}px; height: {h}px; background: #065f46; color: #fffdf5; display: flex;
  align-items: center; gap: 72px; padding: 0 96px; box-sizing: border-box;
  font-family: "Noto Sans CJK SC", "Noto Sans", "DejaVu Sans", sans-serif; }}
.site {{ font-size: 40px; opacity: .85; letter-spacing: .02em; }}
.en {{ font-size: 64px; font-weight: 700; line-height: 1.15; margin: 24px 0 16px; }}
.zh {{ font-size: 60px; font-family: "Noto Serif CJK SC", serif; font-weight: 700; }}
.sub {{ font-size: 34px; opacity: .85; margin-top: 36px; }}
</style><body>{tile}<div><div class="site">sgmahjong</div><div class="en">{en}</div>
<div class="zh">{zh}</div><div class="sub">Singapore Mahjong · 新加坡麻将</div></div></body>"""


def main() -> int:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
            for kind, (en, zh) in CARDS.items():
                page.set_content(PAGE.format(w=WIDTH, h=HEIGHT, tile=TILE, en=en, zh=zh))
                page.evaluate("document.fonts.ready")
                page.screenshot(path=str(ICONS / f"card-{kind}.png"))
                shrink(ICONS / f"card-{kind}.png")
                print(f"card-{kind}.png")
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

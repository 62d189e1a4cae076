"""Remake the bundled CJK fonts from every Chinese character the static pages use.

    .venv/bin/python tools/subset_font.py

Reads every .html and .js file under sgmahjong/server/static (the strings files included), collects
the CJK characters and CJK punctuation, writes them to static/fonts/sgmj-cjk-chars.txt and cuts
Debian's Noto CJK fonts (fonts-noto-cjk, SIL Open Font License 1.1) down to them with fontTools:

* sgmj-cjk.woff2      Noto Serif CJK TC Bold: the tile faces and the bold glyphs ("SGMJ CJK");
* sgmj-cjk-sans.woff2 Noto Sans CJK SC Regular: the pages' Chinese text ("SGMJ CJK Sans").

tests/test_font_coverage.py checks that both cover every character the pages use, so a new string
with a new character fails the tests until this script is run again.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "sgmahjong" / "server" / "static"
FONTS = STATIC / "fonts"
NOTO = Path("/usr/share/fonts/opentype/noto")
OUTPUTS = [
    # (output, source collection, face index in it)
    ("sgmj-cjk.woff2", NOTO / "NotoSerifCJK-Bold.ttc", 3),  # Noto Serif CJK TC Bold
    ("sgmj-cjk-sans.woff2", NOTO / "NotoSansCJK-Regular.ttc", 2),  # Noto Sans CJK SC Regular
]


def is_cjk(ch: str) -> bool:
    """CJK ideographs, CJK symbols and punctuation, and full-width forms."""
    o = ord(ch)
    return (0x3000 <= o <= 0x303F or 0x3400 <= o <= 0x4DBF or 0x4E00 <= o <= 0x9FFF
            or 0xF900 <= o <= 0xFAFF or 0xFF00 <= o <= 0xFFEF)


def used_characters(static: Path = STATIC) -> set[str]:
    """Every CJK character in the static pages and scripts."""
    chars: set[str] = set()
    for path in sorted(static.rglob("*")):
        if path.suffix in {".html", ".js", ".css"} and path.is_file():
            chars.update(ch for ch in path.read_text(encoding="utf-8") if is_cjk(ch))
    return chars


def main() -> int:
    chars = "".join(sorted(used_characters()))
    (FONTS / "sgmj-cjk-chars.txt").write_text(chars + "\n", encoding="utf-8")
    for name, source, index in OUTPUTS:
        options = subset.Options()
        options.flavor = "woff2"
        options.layout_features = []
        options.hinting = False
        options.desubroutinize = True
        options.font_number = index
        options.name_IDs = ["*"]
        font = subset.load_font(str(source), options)
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=chars)
        subsetter.subset(font)
        subset.save_font(font, str(FONTS / name), options)
        print(f"{name}: {len(chars)} characters, {(FONTS / name).stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())

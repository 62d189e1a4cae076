"""Remake the bundled CJK fonts from every Chinese character the static pages use.

    .venv/bin/python tools/subset_font.py [--noto FOLDER]

Reads every .html, .js and .css file under sgmahjong/server/static (the strings files included),
collects the CJK characters and CJK punctuation, writes them to static/fonts/sgmj-cjk-chars.txt and
cuts Debian's Noto CJK fonts (fonts-noto-cjk, SIL Open Font License 1.1; --noto: the folder holding
NotoSerifCJK-Bold.ttc and NotoSansCJK-Regular.ttc) down to them with fontTools, each face in two files:

* the characters an English page may show (tile faces, winds, "中文", the Chinese names in en.js and
  the scoring patterns' Chinese names the server sends):
  sgmj-cjk.woff2 (Noto Serif CJK TC Bold, "SGMJ CJK": tile faces and bold glyphs) and
  sgmj-cjk-sans.woff2 (Noto Sans CJK SC Regular, "SGMJ CJK Sans": the pages' Chinese text);
* the characters only the 中文 strings use: sgmj-cjk-zh.woff2 and sgmj-cjk-sans-zh.woff2.

It writes static/fonts/fonts.css, the @font-face rules with each file's unicode-range: a browser
downloads a file only when the page shows one of its characters (an English table page: the small
serif file for the tiles and the small sans one for "中文"), with font-display: swap.

Then it cuts the same sans face into unicode-range slices of every other common CJK character
(tools/slice_font.py: players' names, chat), added to fonts.css after the subsets' rules.

tests/test_font_coverage.py checks that the files cover every character the pages use, so a new string
with a new character fails the tests until this script is run again.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from pathlib import Path

from fontTools import subset

try:
    from tools import slice_font
except ImportError:  # run as a script: tools/ is on the path, not the checkout
    slice_font = importlib.import_module("slice_font")

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "sgmahjong" / "server" / "static"
FONTS = STATIC / "fonts"
NOTO = Path("/usr/share/fonts/opentype/noto")
FACES = [
    # (file stem, family, weight, source collection, face index in it)
    ("sgmj-cjk", "SGMJ CJK", 700, "NotoSerifCJK-Bold.ttc", 3),  # Noto Serif CJK TC Bold
    ("sgmj-cjk-sans", "SGMJ CJK Sans", 400, "NotoSansCJK-Regular.ttc", 2),  # Noto Sans CJK SC Regular
]
ZH_ONLY = "js/strings/zh.js"  # characters found only here go to the "-zh" files


def is_cjk(ch: str) -> bool:
    """CJK ideographs, CJK symbols and punctuation, and full-width forms."""
    o = ord(ch)
    return (0x3000 <= o <= 0x303F or 0x3400 <= o <= 0x4DBF or 0x4E00 <= o <= 0x9FFF
            or 0xF900 <= o <= 0xFAFF or 0xFF00 <= o <= 0xFFEF)


def used_characters(static: Path = STATIC, *, skip: str | None = None) -> set[str]:
    """Every CJK character in the static pages, styles and scripts (but the file ``skip``)."""
    chars: set[str] = set()
    for path in sorted(static.rglob("*")):
        if path.suffix in {".html", ".js", ".css"} and path.is_file() \
                and path.relative_to(static).as_posix() != skip:
            chars.update(ch for ch in path.read_text(encoding="utf-8") if is_cjk(ch))
    return chars


def server_characters() -> set[str]:
    """The CJK characters of the texts the server sends to every page: the scoring patterns' Chinese
    names (GET /api/reference, results), under every preset and optional rule."""
    from sgmahjong.rules import PRESETS, RuleSet
    from sgmahjong.scoring import pattern_reference

    rule_sets = [RuleSet.preset(name) for name in PRESETS]
    rule_sets.append(RuleSet(pure_green=True, fully_concealed="on", declare_three_dragons=True,
                             declare_four_winds=True))
    return {ch for rules in rule_sets for pattern in pattern_reference(rules) for value in pattern.values()
            if isinstance(value, str) for ch in value if is_cjk(ch)}


def split(static: Path = STATIC) -> tuple[str, str]:
    """(characters an English page may show, characters only the 中文 strings use), each sorted."""
    shared = used_characters(static, skip=ZH_ONLY) | server_characters()
    every = used_characters(static) | shared
    return "".join(sorted(shared)), "".join(sorted(every - shared))


def unicode_range(chars: str) -> str:
    """A CSS unicode-range of exactly ``chars`` (runs of consecutive code points joined)."""
    points = sorted(map(ord, chars))
    runs: list[list[int]] = []
    for p in points:
        if runs and p == runs[-1][1] + 1:
            runs[-1][1] = p
        else:
            runs.append([p, p])
    return ", ".join(f"U+{a:X}" if a == b else f"U+{a:X}-{b:X}" for a, b in runs)


def font_css(shared: str, zh_only: str, slices: Sequence[tuple[str, Sequence[int]]] = ()) -> str:
    """The @font-face rules of the four files (the shared file of a family is declared last: where
    ranges overlap the browser tries the last rule first), then the sans face's slices (which overlap
    nothing: tools/slice_font.py)."""
    rules = ["/* Made by tools/subset_font.py: the bundled CJK fonts (fonts/README.md). */"]
    for stem, family, weight, _source, _index in FACES:
        for suffix, chars in (("-zh", zh_only), ("", shared)):
            rules.append(
                f'@font-face {{\n  font-family: "{family}";\n  src: url("/static/fonts/{stem}{suffix}.woff2")'
                f' format("woff2");\n  font-weight: {weight};\n  font-display: swap;\n'
                f"  unicode-range: {unicode_range(chars)};\n}}")
    rules.append("/* The slices of every other character (tools/slice_font.py): not preloaded. */")
    for name, points in slices:
        rules.append(
            f'@font-face {{\n  font-family: "{slice_font.FAMILY}";\n  src: url("/static/fonts/{name}")'
            f' format("woff2");\n  font-weight: 400;\n  font-display: swap;\n'
            f"  unicode-range: {unicode_range(''.join(map(chr, points)))};\n}}")
    return "\n".join(rules) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--noto", type=Path, default=NOTO,
                        help=f"folder of the Noto CJK fonts (default {NOTO})")
    args = parser.parse_args(argv)
    shared, zh_only = split()
    (FONTS / "sgmj-cjk-chars.txt").write_text(shared + zh_only + "\n", encoding="utf-8")
    for stem, _family, _weight, source, index in FACES:
        for suffix, chars in (("", shared), ("-zh", zh_only)):
            options = subset.Options()
            options.flavor = "woff2"
            options.layout_features = []
            options.hinting = False
            options.desubroutinize = True
            options.font_number = index
            options.name_IDs = ["*"]
            font = subset.load_font(str(args.noto / source), options)
            subsetter = subset.Subsetter(options)
            subsetter.populate(text=chars)
            subsetter.subset(font)
            out = FONTS / f"{stem}{suffix}.woff2"
            subset.save_font(font, str(out), options)
            print(f"{out.name}: {len(chars)} characters, {out.stat().st_size / 1024:.1f} KiB")
    slices = slice_font.write(args.noto, FONTS, exclude=map(ord, shared + zh_only))
    (FONTS / "fonts.css").write_text(font_css(shared, zh_only, slices), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

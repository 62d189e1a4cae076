"""Cut Noto Sans CJK SC Regular into unicode-range slices for the CJK text the pages do not know in
advance (players' and clubs' names, chat), so that it draws on a device with no CJK font.

    .venv/bin/python tools/subset_font.py [--noto FOLDER]     # remakes the subsets, then the slices

Called by tools/subset_font.py after the subsets: the slices hold every character of the covered
blocks that the font has and the subsets (sgmj-cjk-sans*.woff2) do not, so the two never overlap and a
page's own Chinese strings never fetch a slice. Covered: CJK Symbols and Punctuation (U+3000-303F),
Hiragana and Katakana (U+3040-30FF), CJK Unified Ideographs (U+4E00-9FFF), Halfwidth and Fullwidth
Forms (U+FF00-FFEF).

Common characters share slices (a name of three common characters fetches few, small files): the
characters are taken in tiers, each cut into slices of a fixed count, in this order:

1. punctuation and full-width forms; kana;
2. GB 2312 level 1 (the 3,755 common simplified characters), 150 a slice;
3. Big5 level 1 (the 5,401 common traditional characters) not yet placed, 200 a slice;
4. GB 2312 level 2 not yet placed, 200 a slice;
5. every other ideograph, in code point order, 300 a slice.

The slices are ``fonts/slices/sgmj-cjk-sans-NNN.woff2`` (family "SGMJ CJK Sans", weight 400); their
@font-face rules go into fonts/fonts.css with each slice's exact unicode-range. A slice's content only
changes when one of its characters moves into the subsets (a new string), so a rerun rewrites few files.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

FAMILY = "SGMJ CJK Sans"
STEM = "sgmj-cjk-sans"
SOURCE, INDEX = "NotoSansCJK-Regular.ttc", 2  # Noto Sans CJK SC Regular
FOLDER = "slices"  # under static/fonts
PUNCTUATION = [*range(0x3000, 0x3040), *range(0xFF00, 0xFFF0)]
KANA = list(range(0x3040, 0x3100))
IDEOGRAPHS = range(0x4E00, 0xA000)


def _double_byte(codec: str, first: int, last: int) -> Callable[[int], bool]:
    """Whether a code point encodes in ``codec`` with a lead byte from ``first`` to ``last``."""
    def test(point: int) -> bool:
        try:
            data = chr(point).encode(codec)
        except UnicodeEncodeError:
            return False
        return len(data) == 2 and first <= data[0] <= last
    return test


GB2312_LEVEL1 = _double_byte("gb2312", 0xB0, 0xD7)
GB2312_LEVEL2 = _double_byte("gb2312", 0xD8, 0xF7)
BIG5_LEVEL1 = _double_byte("big5", 0xA4, 0xC6)


def _chunks(points: list[int], size: int) -> list[list[int]]:
    return [points[i:i + size] for i in range(0, len(points), size)]


def plan(available: Iterable[int], exclude: Iterable[int]) -> list[list[int]]:
    """The slices' code points: every covered point in ``available`` (the font's) but ``exclude``
    (the subsets'), grouped in tiers of decreasing use; a slice may be empty (no file then)."""
    left = set(available)
    excluded = set(exclude)
    slices: list[list[int]] = []

    def take(points: Iterable[int], size: int, keep: Callable[[int], bool] = lambda _p: True) -> None:
        # cut before leaving out the subsets' characters: a character that moves into a subset (a new
        # string) changes its own slice only
        picked = [p for p in points if p in left and keep(p)]
        left.difference_update(picked)
        slices.extend([p for p in chunk if p not in excluded] for chunk in _chunks(picked, size))

    take(PUNCTUATION, 1000)
    take(KANA, 1000)
    # in the encodings' order (GB 2312: by pinyin; Big5: by strokes), which keeps similar together
    take(sorted(IDEOGRAPHS, key=lambda p: chr(p).encode("gb2312", "replace")), 150, GB2312_LEVEL1)
    take(sorted(IDEOGRAPHS, key=lambda p: chr(p).encode("big5", "replace")), 200, BIG5_LEVEL1)
    take(sorted(IDEOGRAPHS, key=lambda p: chr(p).encode("gb2312", "replace")), 200, GB2312_LEVEL2)
    take(IDEOGRAPHS, 300)
    return [sorted(s) for s in slices]


def slice_name(number: int) -> str:
    """The slice's path under static/fonts."""
    return f"{FOLDER}/{STEM}-{number:03d}.woff2"


def write(noto: Path, fonts: Path, exclude: Iterable[int]) -> list[tuple[str, list[int]]]:
    """Write the slices under ``fonts/slices`` (removing any left from an earlier cut) and return
    (path under fonts, code points) of each."""
    available = TTFont(str(noto / SOURCE), fontNumber=INDEX, lazy=True).getBestCmap()
    folder = fonts / FOLDER
    folder.mkdir(exist_ok=True)
    for old in folder.glob("*.woff2"):
        old.unlink()
    out = []
    for number, points in enumerate(plan(available, exclude)):
        if not points:
            continue
        options = subset.Options()
        options.flavor = "woff2"
        options.layout_features = []
        options.hinting = False
        options.desubroutinize = True
        options.font_number = INDEX
        options.name_IDs = ["*"]
        font = subset.load_font(str(noto / SOURCE), options)
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=points)
        subsetter.subset(font)
        name = slice_name(number)
        subset.save_font(font, str(fonts / name), options)
        out.append((name, points))
    total = sum((fonts / name).stat().st_size for name, _ in out)
    print(f"{len(out)} slices, {sum(len(p) for _, p in out)} characters, {total / 2**20:.2f} MiB")
    return out

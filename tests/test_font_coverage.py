"""The bundled CJK fonts cover every Chinese character of the pages and strings files, and the strings
files give every key and every scoring pattern in both languages (issue 10: the font lacked
新 坡 麻 将 动 物 自 摸; /scoring showed the scorer's docstrings)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from sgmahjong.rules import PRESETS, RuleSet
from sgmahjong.scoring import pattern_reference
from sgmahjong.server.options import TableOptions
from tools.subset_font import server_characters

STATIC = Path(__file__).resolve().parent.parent / "sgmahjong" / "server" / "static"
FACES = ["sgmj-cjk", "sgmj-cjk-sans"]  # each in two files: "<face>.woff2" and "<face>-zh.woff2"


def is_cjk(ch: str) -> bool:
    o = ord(ch)
    return (0x3000 <= o <= 0x303F or 0x3400 <= o <= 0x4DBF or 0x4E00 <= o <= 0x9FFF
            or 0xF900 <= o <= 0xFAFF or 0xFF00 <= o <= 0xFFEF)


def page_characters() -> dict[str, set[Path]]:
    """CJK character -> the static files using it."""
    out: dict[str, set[Path]] = {}
    for path in STATIC.rglob("*"):
        if path.suffix in {".html", ".js", ".css"} and path.is_file():
            for ch in path.read_text(encoding="utf-8"):
                if is_cjk(ch):
                    out.setdefault(ch, set()).add(path.relative_to(STATIC))
    return out


def strings(lang: str) -> dict[str, str]:
    text = (STATIC / "js" / "strings" / f"{lang}.js").read_text(encoding="utf-8")
    return json.loads(text[text.index("{"):text.rindex("}") + 1])  # type: ignore[no-any-return]


@pytest.mark.parametrize("face", FACES)
def test_bundled_font_covers_every_cjk_character_of_the_pages(face: str) -> None:
    """The face's two files cover every character; the one an English page loads covers every
    character outside the 中文 strings (so an English page never downloads the larger file)."""
    shared = set(TTFont(str(STATIC / "fonts" / f"{face}.woff2")).getBestCmap())
    zh_only = set(TTFont(str(STATIC / "fonts" / f"{face}-zh.woff2")).getBestCmap())
    used = page_characters()
    assert set("新坡麻将动物自摸") <= set(used)  # the characters of the bug report are used...
    missing = {ch: sorted(map(str, files)) for ch, files in used.items() if ord(ch) not in shared | zh_only}
    assert missing == {}, f"run tools/subset_font.py: {face} lacks {missing}"  # ...and covered
    english = {ch for ch, files in used.items() if files != {Path("js/strings/zh.js")}} | server_characters()
    assert {ch for ch in english if ord(ch) not in shared} == set(), f"run tools/subset_font.py ({face})"


def test_font_css_ranges_name_each_file_s_characters() -> None:
    """fonts/fonts.css gives each file the unicode-range of exactly its characters."""
    css = (STATIC / "fonts" / "fonts.css").read_text(encoding="utf-8")
    for rule in re.findall(r"@font-face \{(.*?)\}", css, re.S):
        name = re.search(r"fonts/([\w/-]+\.woff2)", rule)
        assert name is not None
        points = set()
        for a, b in re.findall(r"U\+([0-9A-F]+)(?:-([0-9A-F]+))?", rule):
            points |= set(range(int(a, 16), int(b or a, 16) + 1))
        assert points == set(TTFont(str(STATIC / "fonts" / name.group(1))).getBestCmap()), name.group(1)
        assert "font-display: swap" in rule


def test_slices_cover_every_ideograph_once_and_are_not_preloaded() -> None:
    """The sans face's slices and subsets together hold every character of CJK Unified Ideographs
    (U+4E00-9FEF, all Noto CJK draws), CJK punctuation, kana and full-width forms, each in one file;
    about a hundred slices under 10 MB in all, none preloaded by a page."""
    fonts = STATIC / "fonts"
    slices = sorted((fonts / "slices").glob("*.woff2"))
    assert 60 <= len(slices) <= 150
    assert sum(f.stat().st_size for f in slices) < 10 * 2**20
    seen: dict[int, str] = {}
    for f in [fonts / "sgmj-cjk-sans.woff2", fonts / "sgmj-cjk-sans-zh.woff2", *slices]:
        for point in TTFont(str(f)).getBestCmap():
            if 0x3000 <= point <= 0x30FF or 0x4E00 <= point <= 0x9FFF or 0xFF00 <= point <= 0xFFEF:
                assert point not in seen, f"U+{point:X} in {seen.get(point)} and {f.name}"
                seen[point] = f.name
    assert set(range(0x4E00, 0x9FF0)) <= set(seen)
    assert {0x3002, 0x300C, 0x3042, 0x30AB, 0xFF08, 0xFF0C} <= set(seen)  # 。「 あ カ （ ，
    css = (fonts / "fonts.css").read_text(encoding="utf-8")
    assert all(f"fonts/slices/{f.name}" in css for f in slices)
    for page in STATIC.glob("*.html"):
        assert "slices/" not in page.read_text(encoding="utf-8"), page.name


def test_strings_files_have_the_same_keys_and_placeholders() -> None:
    en, zh = strings("en"), strings("zh")
    assert set(en) == set(zh)
    for key, text in en.items():
        assert set(re.findall(r"\{(\w+)\}", zh[key])) <= set(re.findall(r"\{(\w+)\}", text)), key
        assert zh[key].strip(), key


def test_every_pattern_rule_and_option_has_player_texts_in_both_languages() -> None:
    """/scoring shows these, never the scorer's docstrings (":func:", "``...``", "ctx.")."""
    ids = {p["id"] for preset in PRESETS for p in pattern_reference(RuleSet.preset(preset))}
    ids |= {p["id"] for p in pattern_reference(RuleSet(**{
        "pure_green": True, "fully_concealed": "on", "declare_three_dragons": True,
        "declare_four_winds": True})) if "id" in p}
    for lang in ("en", "zh"):
        s = strings(lang)
        for pid in ids:
            assert s.get(f"pattern.{pid}"), (lang, pid)
            desc = s.get(f"pattern.{pid}.desc", "")
            assert desc and not re.search(r":func:|``|ctx\.|_", desc), (lang, pid, desc)
        for opt in [*RuleSet.describe(), *TableOptions.describe()]:
            assert s.get(f"rule.{opt['name']}"), (lang, opt["name"])
            assert s.get(f"optname.{opt['name']}"), (lang, opt["name"])
            for choice in opt.get("choices") or []:
                assert s.get(f"choice.{choice}"), (lang, choice)

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

STATIC = Path(__file__).resolve().parent.parent / "sgmahjong" / "server" / "static"
FONTS = ["sgmj-cjk.woff2", "sgmj-cjk-sans.woff2"]


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


@pytest.mark.parametrize("font", FONTS)
def test_bundled_font_covers_every_cjk_character_of_the_pages(font: str) -> None:
    cmap = TTFont(str(STATIC / "fonts" / font)).getBestCmap()
    used = page_characters()
    assert set("新坡麻将动物自摸") <= set(used)  # the characters of the bug report are used...
    missing = {ch: sorted(map(str, files)) for ch, files in used.items() if ord(ch) not in cmap}
    assert missing == {}, f"run tools/subset_font.py: {font} lacks {missing}"  # ...and covered


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

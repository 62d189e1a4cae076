"""What a player may type that others see (server/text.py): one line, nothing invisible, a few marks on a
letter at most, emoji whole; the same rule for chat and every name (a seat's, an account's, a club's, a
table's), each refusal with a code the pages say in English and 中文."""

from __future__ import annotations

import pytest

from sgmahjong.server.protocol import ProtocolError
from sgmahjong.server.settings import ServerSettings
from sgmahjong.server.table.seats import clean_name
from sgmahjong.server.text import MAX_MARKS, text_problem
from tests.conftest import LiveServer
from tests.test_clubs import call, player
from tests.test_font_coverage import strings

CODES = ("text_control", "text_invisible", "text_unknown", "text_marks")


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("one\u2028two", "text_control"),  # a line separator (Zl)
        ("one\u2029two", "text_control"),  # a paragraph separator (Zp)
        ("tab\there", "text_control"),
        ("zero\u200bwidth", "text_invisible"),
        ("no\u200cjoin", "text_invisible"),  # the zero-width non-joiner
        ("a\u200db", "text_invisible"),  # a joiner between letters hides
        ("\u200d\U0001f525", "text_invisible"),  # ... and at the start
        ("\U0001f525\u200d", "text_invisible"),  # ... and at the end
        ("\ufeffbom", "text_invisible"),
        ("soft\u00adhyphen", "text_invisible"),
        ("rtl\u202eoverride", "text_invisible"),
        ("hidden\U000e0068\U000e0069", "text_invisible"),  # tag characters (invisible ASCII)
        ("flag \U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f", "text_invisible"),
        ("\u3164", "text_invisible"),  # a Hangul filler: a letter that draws nothing
        ("Ben\ufe0f", "text_invisible"),  # a variation selector after a Latin letter only hides
        ("\u2764\ufe0f\ufe0f", "text_invisible"),  # two selectors on one base
        ("private \ue000", "text_unknown"),
        ("unassigned \u0378", "text_unknown"),
        ("Z" + "\u0301" * 199, "text_marks"),
        ("q\u0300\u0301\u0302", "text_marks"),  # three on one letter
        ("\u0301\u0302\u0303", "text_marks"),  # three on nothing
    ],
)
def test_text_that_breaks_the_line_hides_or_stacks_is_refused(text: str, code: str) -> None:
    problem = text_problem(text)
    assert problem is not None and problem.code == code, (text, problem)


@pytest.mark.parametrize(
    "text",
    [
        "Huat ah! 加油", "مرحبا", "नमस्ते", "வணக்கம்", "ที่นี่", "Zürich", "Tiếng Việt",
        "e\u0323\u0302",  # ệ typed as a letter and two marks (composed: one letter)
        "a\u0300\u0301",  # two marks on one letter: the most by default
        "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # a family: joiners between pictographs
        "\U0001f3f3\ufe0f\u200d\U0001f308",  # a rainbow flag: selector, joiner
        "\u2764\ufe0f\u200d\U0001f525",  # a heart on fire
        "\U0001f9d1\U0001f3fd\u200d\U0001f4bb",  # a skin tone before the joiner
        "\U0001f408\u200d\u2b1b",  # a black cat
        "1\ufe0f\u20e3 #\ufe0f\u20e3",  # keycaps
        "\U0001f44d\U0001f3fd \U0001f1f8\U0001f1ec",  # a skin tone; Singapore's flag
        "\u845b\U000e0100",  # an ideograph's variant (an ideographic variation selector)
        "\U0001fae8",  # an emoji newer than this Python's Unicode database
        "<b>not markup</b>",
    ],
)
def test_real_writing_and_emoji_pass(text: str) -> None:
    assert text_problem(text) is None, text_problem(text)


def test_the_marks_limit_is_the_setting() -> None:
    assert ServerSettings().text_max_marks == MAX_MARKS  # a name checked without the settings agrees
    three = "q\u0300\u0301\u0302"
    assert text_problem(three, 3) is None
    problem = text_problem(three, MAX_MARKS)
    assert problem is not None and problem.params == {"most": MAX_MARKS}
    assert text_problem("q\u0300", 0) is not None and text_problem("q", 0) is None


def test_a_seat_name_is_checked_by_the_same_rule() -> None:
    assert clean_name("  Ann\n  Lee ") == "Ann Lee"  # white space, new lines included, made one space
    for name, code in [("Ann\u200b", "text_invisible"), ("Q\u0301\u0301\u0301", "text_marks"),
                       ("Ben\ufe0f", "text_invisible")]:
        with pytest.raises(ProtocolError) as info:
            clean_name(name)
        assert info.value.code == code and info.value.params
    assert clean_name("Q\u0301\u0301\u0301", 3) == "Q\u0301\u0301\u0301"


def test_every_name_others_see_is_refused_with_a_code(live_server: LiveServer) -> None:
    bad = "Ann\u200b"  # looks like "Ann"
    r = live_server.post("/api/tables", {"name": "Friday\u2060night"})
    assert r.status_code == 400 and r.json()["code"] == "text_invisible"
    assert r.json()["params"] == {"char": "U+2060"}
    code = live_server.create_table()["code"]
    r = live_server.post(f"/api/tables/{code}/join", {"name": bad})
    assert r.status_code == 400 and r.json()["code"] == "text_invisible"
    for path in ("/api/play", "/api/quick"):
        r = live_server.post(path, {"name": bad})
        assert r.status_code == 400 and r.json()["code"] == "text_invisible", (path, r.text)
    r = live_server.post("/api/account/passkeys/begin", {"name": bad})
    assert r.status_code == 400 and r.json()["code"] == "text_invisible"
    owner = player(live_server, "Ann")
    r = call(live_server, "POST", "/api/clubs", owner, {"name": "Kaki" + "\u0301" * 5})
    assert r.status_code == 400 and r.json()["code"] == "text_marks" and r.json()["params"] == {"most": 2}


def test_the_pages_say_each_refusal_in_both_languages() -> None:
    for lang in ("en", "zh"):
        texts = strings(lang)
        for code in CODES:
            assert texts.get(f"error.{code}"), (lang, code)
        assert "{most}" in texts["error.text_marks"] and "{char}" in texts["error.text_invisible"]

"""What a player may type that other people see: chat messages and every name (a seat's display name,
an account's, a club's, a table's). One check, :func:`text_problem`, for all of them.

Refused (docs/talk.md, "What the server refuses"):

- ``text_control``: control characters (Cc, Cs) and line or paragraph separators (Zl, Zp, e.g.
  U+2028): a message or a name is one line.
- ``text_invisible``: format characters (Cf: zero-width spaces and joiners, text-direction controls,
  soft hyphens, ...), the tag characters (U+E0000-E007F) and the Hangul fillers (blank letters):
  each is invisible, so two texts that look the same could differ, or one could restyle or reorder
  the text around it. Two exceptions keep emoji whole: the zero-width joiner (U+200D) between two
  pictographs (a family, a rainbow flag), and a variation selector after a pictograph, a symbol, an
  ideograph (Lo) or a keycap's digit, ``#`` or ``*`` (after a Latin letter it would only hide).
- ``text_unknown``: private-use and unassigned characters (unassigned in this Python's Unicode
  database: its version is ``unicodedata.unidata_version``), which have no agreed look; except in the
  emoji planes (U+1F000-1FFFF), where newer emoji are.
- ``text_marks``: more combining marks (Mn, Me) on one letter than ``max_marks`` (the setting
  ``text_max_marks``), counted on the text's composed form (NFC), so that é or ệ typed as a letter
  and its accents counts as the one letter it is. Marks stacked by the dozen grow a line over the
  lines around it.

The module is pure (no I/O): it reads only the Unicode database of Python's :mod:`unicodedata`.
"""

from __future__ import annotations

import unicodedata
from typing import NamedTuple

from .protocol import ProtocolError

MAX_MARKS = 2  # the default of the setting text_max_marks
ZWJ = 0x200D
_CONTROL = frozenset(("Cc", "Cs", "Zl", "Zp"))
_MARKS = frozenset(("Mn", "Me"))
_FILLERS = frozenset((0x115F, 0x1160, 0x3164, 0xFFA0))  # Hangul fillers: letters that draw nothing
_KEYCAP_BASES = frozenset("0123456789#*")


class TextProblem(NamedTuple):
    """Why a text is refused: a stable ``code`` (the client shows its own text for it), a reason in
    English, and the ``params`` the client's text takes."""

    code: str
    message: str
    params: dict[str, object]


def _pictograph(ch: str) -> bool:
    """An emoji's base: a symbol (So), or anything in the emoji planes (U+1F000-1FFFF; newer emoji may
    be unassigned in this Python's Unicode database)."""
    return unicodedata.category(ch) == "So" or 0x1F000 <= ord(ch) <= 0x1FFFF


def _variation_selector(code: int) -> bool:
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF


def _emoji_end(text: str, i: int) -> bool:
    """The character before index ``i`` ends a pictograph (skipping its variation selectors and skin
    tone modifiers, U+1F3FB-1F3FF)."""
    j = i - 1
    while j >= 0 and (_variation_selector(ord(text[j])) or 0x1F3FB <= ord(text[j]) <= 0x1F3FF):
        j -= 1
    return j >= 0 and _pictograph(text[j])


def _selectable(ch: str) -> bool:
    """A character a variation selector may follow."""
    return _pictograph(ch) or unicodedata.category(ch) in ("Lo", "Sm") or ch in _KEYCAP_BASES


def _char(code: int) -> str:
    return f"U+{code:04X}"


def text_problem(text: str, max_marks: int = MAX_MARKS) -> TextProblem | None:
    """Why ``text`` cannot be shown to other players (see the module), or None when it can."""
    previous = ""
    for i, ch in enumerate(text):
        code = ord(ch)
        category = unicodedata.category(ch)
        if category in _CONTROL:
            kind = "a line break" if category in ("Zl", "Zp") or ch in "\n\r" else "a control character"
            return TextProblem("text_control", f"the text holds {kind} ({_char(code)})",
                               {"char": _char(code)})
        if code == ZWJ:
            allowed = _emoji_end(text, i) and i + 1 < len(text) and _pictograph(text[i + 1])
        elif _variation_selector(code):
            allowed = previous != "" and _selectable(previous)  # one selector, right after its base
        else:
            allowed = category != "Cf" and code not in _FILLERS and not 0xE0000 <= code <= 0xE007F
        if allowed and category in ("Co", "Cn") and not 0x1F000 <= code <= 0x1FFFF:
            return TextProblem("text_unknown", f"the text holds a character with no agreed look"
                               f" ({_char(code)})", {"char": _char(code)})
        if not allowed:
            return TextProblem("text_invisible", f"the text holds an invisible character ({_char(code)})",
                               {"char": _char(code)})
        previous = ch
    marks = 0
    for ch in unicodedata.normalize("NFC", text):
        if _variation_selector(ord(ch)):  # a glyph's variant, not a mark drawn over it
            continue
        if unicodedata.category(ch) in _MARKS:
            marks += 1
            if marks > max_marks:
                return TextProblem("text_marks", f"more than {max_marks} accents or marks on one letter",
                                   {"most": max_marks})
        else:
            marks = 0
    return None


def check_text(text: str, max_marks: int = MAX_MARKS, ref: str | None = None) -> None:
    """Raise the :class:`~.protocol.ProtocolError` of :func:`text_problem`'s refusal, if any."""
    problem = text_problem(text, max_marks)
    if problem is not None:
        raise ProtocolError(problem.code, problem.message, ref, problem.params)

"""The pattern registry: one descriptor per scoring pattern of RULES.md §4.

Each pattern is a small function registered with :func:`pattern`. It returns the tai it is worth
for the hand (0 when the pattern is absent). The descriptor says how that value combines:

* ``ADD`` — added to the total (most patterns);
* ``FIXED`` — a fixed-value hand (10 or 13 at most the limit) that *absorbs* the patterns named in
  ``absorbs`` (the patterns made of its own sets); other points still add, and the total is capped;
* ``LIMIT`` — a limit hand: the total is the limit.

``scope`` is ``"hand"`` for patterns that do not depend on how the concealed tiles are split into
sets (honours, flushes, bonus tiles, the circumstances of the win), evaluated once per hand, and
``"decomposition"`` for those that do (sequence hand, triplets hand, hidden treasure...), evaluated
for every decomposition; the best decomposition wins.

``gate`` names a cheap :class:`~sgmahjong.scoring.facts.HandFacts` attribute that must be true for
the pattern to be possible (``has_bonus``, ``has_honours``...): the scorer skips the pattern function
otherwise. It is only a shortcut; each function checks its own conditions.

``extra`` marks the "additional points" (the last rows of the table, except kong on kong): they do
not count toward ``min_tai`` unless ``extras_count_toward_min`` is set.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal

if TYPE_CHECKING:
    from ..rules import RuleSet

Value = Literal["add", "fixed", "limit"]
ADD: Final = "add"
FIXED: Final = "fixed"
LIMIT: Final = "limit"

Scope = Literal["hand", "decomposition"]


@dataclass(frozen=True, slots=True)
class Pattern:
    """A scoring pattern: its id (as reported), English and Chinese names, a tai description for the
    reference table and the function that scores it."""

    id: str
    name: str
    chinese: str
    tai_text: str
    value: Value
    scope: Scope
    fn: Callable[..., int]
    extra: bool = False
    absorbs: tuple[str, ...] = ()
    option: str | None = None  # the rule option that enables it, if any
    gate: str | None = None  # a HandFacts attribute that must be true for the pattern to be possible
    family: str = ""
    doc: str = field(default="", compare=False)


PATTERNS: list[Pattern] = []
BY_ID: dict[str, Pattern] = {}


def pattern(
    id: str,
    name: str,
    chinese: str,
    tai_text: str,
    *,
    value: Value = ADD,
    scope: Scope = "hand",
    extra: bool = False,
    absorbs: tuple[str, ...] = (),
    option: str | None = None,
    gate: str | None = None,
) -> Callable[[Callable[..., int]], Callable[..., int]]:
    """Register the decorated function as pattern ``id`` (in registry order)."""

    def register(fn: Callable[..., int]) -> Callable[..., int]:
        if id in BY_ID:
            raise ValueError(f"pattern {id!r} registered twice")
        family = fn.__module__.rsplit(".", 1)[-1]
        p = Pattern(id, name, chinese, tai_text, value, scope, fn, extra, absorbs, option, gate, family,
                    (fn.__doc__ or "").strip())
        PATTERNS.append(p)
        BY_ID[id] = p
        return fn

    return register


FAMILY_ORDER = ("shapes", "flushes", "terminals", "honours", "bonus", "circumstances")


def sort_registry() -> None:
    """Put the registry in report order: by family (``FAMILY_ORDER``), then definition order."""
    order = {f: i for i, f in enumerate(FAMILY_ORDER)}
    PATTERNS.sort(key=lambda p: order.get(p.family, len(order)))


def tai_for_reference(p: Pattern, rules: RuleSet) -> int | None:
    """The tai a pattern is worth under ``rules`` when it is a single number (``None`` for "1 each",
    "+1 per set" and the like, whose text says it)."""
    if p.value == LIMIT:
        return rules.limit
    if p.value == FIXED:
        return min(_FIXED_VALUES.get(p.id, rules.limit), rules.limit)
    return _ADD_VALUES.get(p.id)


_FIXED_VALUES = {"full_flush_ping_hu": 10, "big_three_dragons": 10, "kong_on_kong": 10,
                 "thirteen_wonders": 13}
_ADD_VALUES = {"ping_hu": 4, "lesser_ping_hu": 1, "pong_pong": 2, "half_flush": 2, "full_flush": 4,
               "full_flush_pong_pong": 2, "mixed_terminals": 2, "small_three_dragons": 1,
               "small_four_winds": 2, "all_animals": 1, "win_on_flower_replacement": 1,
               "win_on_kong_replacement": 1, "robbing_the_kong": 1, "last_tile": 1, "pure_green": 4,
               "fully_concealed": 1}


def enabled(p: Pattern, rules: RuleSet) -> bool:
    """False when the pattern's rule option is off."""
    if p.option is None:
        return True
    v: Any = getattr(rules, p.option)
    return v not in (False, "off")

"""Computer players (issue 5): ``make_bot(level, seed)`` gives a :class:`Bot` whose
``choose(view, legal)`` returns one of the legal actions, seeing only the seat's player view.

Levels: ``random`` (any legal action), ``beginner`` (misses claims, no defence), ``greedy`` (tile
efficiency), ``strong`` (value and defence), ``expert`` (``strong`` checked by a determinised search
under a time budget per decision). :data:`STYLES` (``defensive``, ``reckless``: :mod:`.styles`;
``silent``, ``ordered``, ``flush``: :mod:`.outsiders`) are opponent styles for measuring the bots
against tables they do not model; ``make_bot`` accepts them, the server does not offer them.
"""

from __future__ import annotations

from typing import TypedDict

from ..errors import SgMahjongError
from ..rules import RuleSet
from .base import ActionLike, Bot, View
from .beginner import BeginnerBot
from .expert import BUDGET_MS, CLOCKS, ExpertBot
from .greedy import GreedyBot
from .random_bot import RandomBot
from .strong import StrongBot
from .styles import STYLES

LEVELS: tuple[str, ...] = ("random", "beginner", "greedy", "strong", "expert")


class ExpertOptions(TypedDict, total=False):
    """Options of :class:`ExpertBot` a variant turns on."""

    tells: bool
    base: str
    veto: float
    blend: float
    z: float
    candidates: int
    claims: bool
    ready: bool


# expert+NAME: the expert with an option that is off by default on (for measuring it: simulate --compare)
EXPERT_VARIANTS: dict[str, ExpertOptions] = {
    "told": {"tells": True}, "wary": {"base": "wary"}, "advised": {"base": "advised"},
    "vetoed": {"veto": 1.0}, "blended": {"blend": 1.0, "z": 1.5},
    "combined": {"candidates": 4, "veto": 1.0, "claims": False}, "ready": {"ready": True},
}


def known_level(name: str) -> bool:
    """Whether :func:`make_bot` makes ``name``: a level, a test style or ``expert+VARIANT``."""
    level, plus, variant = name.strip().lower().partition("+")
    if plus:
        return level == "expert" and variant in EXPERT_VARIANTS
    return level in LEVELS or level in STYLES


class UnknownBotLevelError(SgMahjongError, ValueError):
    """A bot level that does not exist."""


def make_bot(level: str, seed: int = 0, rules: RuleSet | None = None, *, budget_ms: float | None = BUDGET_MS,
             max_rounds: int | None = None, budget_clock: str = "wall") -> Bot:
    """A new bot of ``level`` (one of :data:`LEVELS`, or a test style of :data:`STYLES`), its randomness
    seeded by ``seed``. ``rules`` (the table's rule set, default rules if omitted) lets it know the
    minimum tai, limit and 包. ``budget_ms`` (the time budget per decision) and ``max_rounds`` (deals
    searched per decision; with ``budget_ms=None`` the expert is deterministic) and ``budget_clock``
    (``wall``: the wall clock, what a person waits; ``cpu``: the deciding thread's CPU time, what the
    search gets on a busy machine) concern only the expert; ``expert+VARIANT`` is the expert with the
    options of :data:`EXPERT_VARIANTS` (``expert+told``: deals by what the discards tell)."""
    if not known_level(level):
        raise UnknownBotLevelError(unknown_level_message(level))
    name, _, variant = level.strip().lower().partition("+")
    if name == "random":
        return RandomBot(seed, rules)
    if name == "greedy":
        return GreedyBot(seed, rules)
    if name == "strong":
        return StrongBot(seed, rules)
    if name == "beginner":
        return BeginnerBot(seed, rules)
    if name == "expert":
        return ExpertBot(seed, rules, budget_ms=budget_ms, max_rounds=max_rounds, clock=CLOCKS[budget_clock],
                         **EXPERT_VARIANTS.get(variant, ExpertOptions()))
    return STYLES[name](seed, rules)


def variant_levels() -> list[str]:
    """The expert's variants as bot names: ``expert+told``, ..."""
    return [f"expert+{v}" for v in EXPERT_VARIANTS]


def unknown_level_message(level: str) -> str:
    return (f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}; test styles: {', '.join(STYLES)}; "
            f"expert variants: {', '.join(variant_levels())}")


__all__ = ["BUDGET_MS", "EXPERT_VARIANTS", "LEVELS", "STYLES", "ActionLike", "Bot", "UnknownBotLevelError",
           "View", "known_level", "make_bot", "unknown_level_message", "variant_levels"]

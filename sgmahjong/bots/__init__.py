"""Computer players (issue 5): ``make_bot(level, seed)`` gives a :class:`Bot` whose
``choose(view, legal)`` returns one of the legal actions, seeing only the seat's player view.

Levels: ``random`` (any legal action), ``greedy`` (tile efficiency), ``strong`` (value and defence).
"""

from __future__ import annotations

from ..errors import SgMahjongError
from ..rules import RuleSet
from .base import ActionLike, Bot, View
from .greedy import GreedyBot
from .random_bot import RandomBot
from .strong import StrongBot

LEVELS: tuple[str, ...] = ("random", "greedy", "strong")


class UnknownBotLevelError(SgMahjongError, ValueError):
    """A bot level that does not exist."""


def make_bot(level: str, seed: int = 0, rules: RuleSet | None = None) -> Bot:
    """A new bot of ``level`` (one of :data:`LEVELS`), its randomness seeded by ``seed``. ``rules``
    (the table's rule set, default rules if omitted) lets it know the minimum tai, limit and 包."""
    name = level.strip().lower()
    if name == "random":
        return RandomBot(seed, rules)
    if name == "greedy":
        return GreedyBot(seed, rules)
    if name == "strong":
        return StrongBot(seed, rules)
    raise UnknownBotLevelError(f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}")


__all__ = ["LEVELS", "ActionLike", "Bot", "UnknownBotLevelError", "View", "make_bot"]

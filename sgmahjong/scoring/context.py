"""What the scorer needs to know besides the tiles, and what it answers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Replacement = Literal["flower", "kong", "kong_on_kong"]
Special = Literal["heavenly", "earthly", "humanly"]


@dataclass(frozen=True, slots=True)
class WinContext:
    """The circumstances of a win. Seats and winds are 0-3 (East, South, West, North)."""

    seat_wind: int = 0
    prevailing_wind: int = 0
    self_drawn: bool = False
    replacement: Replacement | None = None
    flower_replacements: int = 1  # consecutive bonus replacements before the win (flower_on_flower)
    robbed_kong: bool = False
    last_tile: bool = False
    special: Special | None = None


@dataclass(frozen=True, slots=True)
class PatternScore:
    name: str  # the pattern id of RULES.md §4
    tai: int


REASON_CODES: dict[str, tuple[str, ...]] = {
    # code: the names of its params
    "no_winning_tile": (),  # the hand has no winning tile
    "not_sets_and_pair": (),  # the tiles are not four sets and a pair (nor thirteen wonders)
    "under_min": ("tai", "min"),  # scores ``tai``; the minimum is ``min``
    "under_min_extras": ("tai", "min"),  # the same, without the additional points (they don't count)
    "rule_off": ("rule",),  # a special win whose rule option ``rule`` is off
}


@dataclass(frozen=True, slots=True)
class ScoreResult:
    """``tai`` is capped at the limit; ``valid`` is false (with a ``reason``) when the tiles are not a
    winning hand or the hand scores under ``min_tai``. ``reason`` is English text (the CLI); the same
    reason for a program (the pages show it in their language) is ``reason_code``, one of
    :data:`REASON_CODES`, with the values it names in ``reason_params``."""

    valid: bool
    tai: int
    limit: bool
    patterns: tuple[PatternScore, ...] = ()
    reason: str | None = None
    thirteen_wonders: bool = False
    reason_code: str | None = None
    reason_params: dict[str, int | str] = field(default_factory=dict, hash=False)

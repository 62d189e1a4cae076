"""What the scorer needs to know besides the tiles, and what it answers."""

from __future__ import annotations

from dataclasses import dataclass
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


@dataclass(frozen=True, slots=True)
class ScoreResult:
    """``tai`` is capped at the limit; ``valid`` is false (with a ``reason``) when the tiles are not a
    winning hand or the hand scores under ``min_tai``."""

    valid: bool
    tai: int
    limit: bool
    patterns: tuple[PatternScore, ...] = ()
    reason: str | None = None
    thirteen_wonders: bool = False

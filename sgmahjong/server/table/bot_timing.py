"""How long a table's bot waits before it acts: a short, human-like pause (issue 15), at the table's
pace (issue 24).

A bot waits ``bot_delay`` seconds, longer on a harder decision: on its turn, by up to ``bot_think``
times ``bot_delay`` more as the number of different moves grows; every pause varies by ±15% (seeded
by the table and the version, so a replay of the server's schedule is the same). In a claim window the
pause does not depend on what the bot may claim (that would tell the others what it holds).

The table option ``pace`` scales both (:data:`PACES`) and sets how long a claim window lasts when only
one human is seated (:func:`lone_pause`): the no-tells pause (RULES.md §3) protects one human from
another, so against bots alone a window closes once the bots have decided, after a short pause that is
the same whether or not any bot could claim, and in such a window the bots decide at once.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

JITTER = 0.15
HARDEST = 13  # different moves at which a decision counts as the hardest


@dataclass(frozen=True)
class Pace:
    """One choice of the ``pace`` table option."""

    delay: float  # times the table's ``bot_delay``
    think: float  # times the table's ``bot_think``
    window: float | None  # seconds a claim window lasts with one human seated (None: ``claim_pause``)


PACES: dict[str, Pace] = {
    "relaxed": Pace(1.0, 1.0, None),  # the pace of a table of people: bot_delay 0.8 s, claim_pause 1 s
    "normal": Pace(0.5, 0.5, 0.25),
    "fast": Pace(0.25, 0.25, 0.1),
}


def pace_of(name: str) -> Pace:
    return PACES.get(name, PACES["normal"])


def lone_pause(pace: str, claim_pause: float) -> float:
    """Seconds a claim window lasts at a table with one human seated: the pace's short pause (never
    longer than the table's ``claim_pause``)."""
    window = pace_of(pace).window
    return claim_pause if window is None else min(window, claim_pause)


def hardness(phase: str, choices: int) -> float:
    """0 (nothing to think about) .. 1 (the most different moves on a turn)."""
    if phase != "turn" or choices <= 1:
        return 0.0
    return min(1.0, (choices - 1) / (HARDEST - 1))


def human_delay(base: float, think: float, phase: str, choices: int, rng: random.Random) -> float:
    """Seconds to wait: ``base`` (0 = act at once), longer for a harder decision, with some jitter."""
    if base <= 0:
        return 0.0
    return base * (1.0 + think * hardness(phase, choices)) * rng.uniform(1.0 - JITTER, 1.0 + JITTER)

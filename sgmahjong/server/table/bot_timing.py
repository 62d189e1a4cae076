"""How long a table's bot waits before it acts: a short, human-like pause (issue 15).

A bot waits ``bot_delay`` seconds, longer on a harder decision: on its turn, by up to ``bot_think``
times ``bot_delay`` more as the number of different moves grows; every pause varies by ±15% (seeded
by the table and the version, so a replay of the server's schedule is the same). In a claim window the
pause does not depend on what the bot may claim (that would tell the others what it holds).
"""

from __future__ import annotations

import random

JITTER = 0.15
HARDEST = 13  # different moves at which a decision counts as the hardest


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

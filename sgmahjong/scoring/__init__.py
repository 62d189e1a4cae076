"""Scoring (RULES.md §4): ``score`` a winning hand, ``score_special`` an instant win, and the
pattern registry behind them (``PATTERNS``, ``pattern_reference``).

>>> from sgmahjong.notation import parse_hand
>>> r = score(parse_hand("123m456m789p4588s +6s"), WinContext(), RuleSet())
>>> (r.valid, r.tai, [p.name for p in r.patterns])
(True, 4, ['ping_hu'])
"""

from __future__ import annotations

from ..rules import RuleSet
from .context import PatternScore, ScoreResult, WinContext
from .reference import pattern_reference
from .registry import BY_ID, PATTERNS, Pattern
from .scorer import check_context, score
from .special import SPECIAL_WINS, score_special

__all__ = [
    "BY_ID",
    "PATTERNS",
    "SPECIAL_WINS",
    "Pattern",
    "PatternScore",
    "RuleSet",
    "ScoreResult",
    "WinContext",
    "check_context",
    "pattern_reference",
    "score",
    "score_special",
]

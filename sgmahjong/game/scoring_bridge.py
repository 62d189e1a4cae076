"""The one place the engine meets scoring, payments and 包 (owned by the scoring helper).

Until those modules exist, minimal stand-ins keep the engine playable: a complete hand scores
``max(1, min_tai)`` tai and payments follow the default doubling all-pay rule. They are replaced
automatically as soon as :mod:`sgmahjong.scoring`, :mod:`sgmahjong.payments` and
:mod:`sgmahjong.bao` provide the functions.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from ..errors import InvalidHandError
from ..hand import Hand
from ..rules import RuleSet
from ..scoring.context import PatternScore, ScoreResult, WinContext


def _lookup(module: str, name: str) -> Callable[..., Any] | None:
    try:
        mod = importlib.import_module(module)
    except ImportError:
        return None
    fn = getattr(mod, name, None)
    return fn if callable(fn) else None


_SCORE = _lookup("sgmahjong.scoring", "score")
_SCORE_SPECIAL = _lookup("sgmahjong.scoring", "score_special")


def score(hand: Hand, ctx: WinContext, rules: RuleSet) -> ScoreResult:
    """Score a complete hand (the caller checked the shape)."""
    if _SCORE is not None:
        try:
            result: ScoreResult = _SCORE(hand, ctx, rules)
        except InvalidHandError as exc:
            return ScoreResult(False, 0, False, reason=str(exc))
        return result
    tai = max(1, rules.min_tai)
    return ScoreResult(True, tai, False, (PatternScore("unscored", tai),))


def score_special(kind: str, rules: RuleSet) -> ScoreResult:
    """Score a special win that needs no complete hand (eight flowers, robbing the eighth,
    declared three dragons / four winds)."""
    if _SCORE_SPECIAL is not None:
        result: ScoreResult = _SCORE_SPECIAL(kind, rules)
        return result
    tai = {"declare_three_dragons": 5, "declare_four_winds": 10}.get(kind, rules.limit)
    tai = min(tai, rules.limit)
    return ScoreResult(True, tai, tai >= rules.limit, (PatternScore(kind, tai),))


def win_payments(*, tai: int, winner: int, shooter: int | None, self_drawn: bool, liable: int | None,
                 thirteen_wonders: bool, rules: RuleSet) -> list[int]:
    """The four seats' gains (+) and losses (-) for a win; zero-sum."""
    fn = _lookup("sgmahjong.payments", "win_payments")
    if fn is not None:
        out: list[int] = list(fn(tai=tai, winner=winner, shooter=shooter, self_drawn=self_drawn,
                                 liable=liable, thirteen_wonders=thirteen_wonders, rules=rules))
        return out
    unit = rules.base * 2 ** (max(tai, 1) - 1)
    pay = [0, 0, 0, 0]
    everyone_double = self_drawn or thirteen_wonders
    for s in range(4):
        if s == winner:
            continue
        pay[s] = -(2 * unit if everyone_double or s == shooter else unit)
    if liable is not None:
        total = -sum(pay)
        pay = [0, 0, 0, 0]
        pay[liable] = -total
    pay[winner] = -sum(pay)
    return pay

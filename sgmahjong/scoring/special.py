"""Special wins that need no complete hand (RULES.md §3): eight flowers, robbing the eighth, and
the declared three dragons / four winds."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InvalidHandError
from ..rules import RuleSet
from .context import PatternScore, ScoreResult


@dataclass(frozen=True, slots=True)
class SpecialWin:
    id: str
    name: str
    chinese: str
    tai_text: str
    value: int | None  # None: the limit
    option: str
    doc: str


SPECIAL_WINS: dict[str, SpecialWin] = {
    s.id: s
    for s in (
        SpecialWin("eight_flowers", "Eight flowers", "八仙过海", "limit", None, "eight_flowers",
                   "All eight flowers: an instant win at the limit, the hand unseen."),
        SpecialWin("robbing_the_eighth", "Robbing the eighth", "七抢一", "limit", None,
                   "robbing_the_eighth",
                   "A player with seven flowers wins when another draws the eighth (the drawer is the "
                   "shooter)."),
        SpecialWin("declare_three_dragons", "Declared three dragons", "大三元 (declared)",
                   "5 (at most the limit)", 5, "declare_three_dragons",
                   "Three dragon sets declared without a full hand."),
        SpecialWin("declare_four_winds", "Declared four winds", "大四喜 (declared)",
                   "10 (at most the limit)", 10, "declare_four_winds",
                   "Four wind sets declared without a full hand."),
    )
}


def score_special(kind: str, rules: RuleSet) -> ScoreResult:
    """Score a special win: ``eight_flowers``, ``robbing_the_eighth`` (the limit),
    ``declare_three_dragons`` (5) or ``declare_four_winds`` (10), capped at the limit. The points of
    the hand's other tiles are not added (the hand is not shown). ``valid=False`` when the rule
    option is off; an unknown kind raises :class:`InvalidHandError`."""
    try:
        s = SPECIAL_WINS[kind]
    except KeyError:
        raise InvalidHandError(
            f"unknown special win {kind!r}; one of {', '.join(SPECIAL_WINS)}") from None
    if not getattr(rules, s.option):
        return ScoreResult(False, 0, False, reason=f"rule {s.option} is off", reason_code="rule_off",
                           reason_params={"rule": s.option})
    tai = rules.limit if s.value is None else min(s.value, rules.limit)
    return ScoreResult(True, tai, tai >= rules.limit, (PatternScore(s.id, tai),))

"""The one place the engine meets scoring, payments and 包 (owned by the scoring helper):
:mod:`sgmahjong.scoring`, :mod:`sgmahjong.payments`, :mod:`sgmahjong.bao`."""

from __future__ import annotations

from .. import payments
from ..errors import InvalidHandError
from ..hand import Hand
from ..rules import RuleSet
from ..scoring import score as _score
from ..scoring import score_special as _score_special
from ..scoring.context import ScoreResult, WinContext
from ..tiles import Tile


def score(hand: Hand, ctx: WinContext, rules: RuleSet) -> ScoreResult:
    """Score a complete hand (the caller checked the shape); an impossible context is not a win."""
    try:
        return _score(hand, ctx, rules)
    except InvalidHandError as exc:
        return ScoreResult(False, 0, False, reason=str(exc))


def score_special(kind: str, rules: RuleSet) -> ScoreResult:
    """Score a special win that needs no complete hand (eight flowers, robbing the eighth,
    declared three dragons / four winds)."""
    return _score_special(kind, rules)


def win_payments(*, tai: int, winner: int, shooter: int | None, self_drawn: bool, liable: int | None,
                 thirteen_wonders: bool, robbed_kong: bool, rules: RuleSet) -> list[int]:
    """The four seats' gains (+) and losses (-) for a win; zero-sum."""
    return payments.win_payments(tai, winner=winner, shooter=shooter, self_drawn=self_drawn, rules=rules,
                                 liable=liable, thirteen_wonders=thirteen_wonders,
                                 robbed_kong=robbed_kong)


def liability_applies(rules: RuleSet, self_drawn: bool) -> bool:
    return payments.liability_applies(rules, self_drawn)


def bonus_payment_kinds(bonus_before: tuple[Tile, ...], new: tuple[Tile, ...], seat: int,
                        *, dealt: bool) -> list[str]:
    """Instant-payment events completed by laying out ``new`` after ``bonus_before``."""
    if dealt:
        return payments.bonus_events(new, seat)
    kinds: list[str] = []
    before = list(bonus_before)
    for t in new:
        kinds.extend(payments.instant_events_for_bonus(before, t, seat))
        before.append(t)
    return kinds


def instant_payment(kind: str, seat: int, rules: RuleSet, *, dealt: bool = False,
                    liable: int | None = None) -> list[int]:
    return payments.instant_payment(kind, seat, rules, dealt=dealt, liable=liable)

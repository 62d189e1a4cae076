"""Payments (RULES.md §5): what a win is worth to each seat, and the instant payments.

Every function returns a list of four ints indexed by seat (0 East .. 3 North) that sums to zero:
the receiver positive, payers negative.

Win payments
    A hand of *t* tai (capped at the limit) is worth ``base × 2^(t-1)`` per loser (``doubling``).
    ``all_pay``: each loser pays that, the shooter double, and all three double on a self-drawn win.
    ``shooter_pays``: the shooter pays what all three would have paid (4 units); a self-drawn win is
    paid by all three, doubled. ``chart_3_6`` (``shooter_pays`` only) replaces the doubling by the
    3/6 chart: the shooter pays 4, 7, 11, 20, 40 and each pays 2, 3, 5, 10, 20 on a self-drawn win
    (times ``base``; above 5 tai, where the chart stops, each tai doubles). ``zimo_bonus`` is paid
    on top by each loser on a self-drawn win.

    A 0-tai hand (a chicken hand, with ``min_tai`` 0) is paid as a 1-tai hand: the smallest stake.

    Thirteen wonders: everyone pays as on a self-drawn win (``zimo_bonus`` included), whoever
    discarded; no liability (包) applies to it.

    Liability (包): the liable player pays the whole win (what the three losers would pay) and the
    others pay nothing. Under ``shooter_pays`` a liability only matters on a self-drawn win: on a
    discard the shooter pays the whole win anyway.

Instant payments (:func:`instant_payment`)
    Kinds and units (paid by each other player): ``cat_rat``, ``rooster_centipede``,
    ``seat_flowers`` (咬到) 1; ``all_animals`` 2 (on top of both pairs); ``flower_set`` 2;
    ``exposed_kong`` 1; ``concealed_kong`` 2. A unit is ``rules.instant_unit`` (2 × base by default).
    Bonus events present in the dealt hand before any replacement (暗咬) pay double — all of them,
    as RULES.md says (the article's note 1.4 example doubles only the pairs; RULES.md decides).
    ``instant_payments``: ``all``; ``animals_only`` (only the animal events); ``none``.
    包杠: a liable player pays the whole kong payment. A robbed kong pays nothing (the engine does
    not call this for it).
"""

from __future__ import annotations

from collections.abc import Iterable

from .rules import RuleSet
from .tiles import Tile

CHART_3_6_SHOOTER = (4, 7, 11, 20, 40)
CHART_3_6_EACH = (2, 3, 5, 10, 20)


def _check_seat(name: str, seat: int) -> None:
    if not isinstance(seat, int) or not 0 <= seat <= 3:
        raise ValueError(f"{name} must be a seat 0-3; got {seat!r}")


def hand_value(tai: int, rules: RuleSet) -> int:
    """``base × 2^(t-1)`` for ``t`` = tai capped at the limit (at least 1): what one loser pays on a
    discard under ``all_pay`` doubling."""
    t = max(1, min(tai, rules.limit))
    return rules.base << (t - 1)


def _chart(tai: int, rules: RuleSet) -> tuple[int, int]:
    """(shooter pays, each pays self-drawn) of the 3/6 chart, times base."""
    t = max(1, min(tai, rules.limit))
    if t <= 5:
        return CHART_3_6_SHOOTER[t - 1] * rules.base, CHART_3_6_EACH[t - 1] * rules.base
    extra = t - 5
    return (CHART_3_6_SHOOTER[-1] << extra) * rules.base, (CHART_3_6_EACH[-1] << extra) * rules.base


def loser_shares(tai: int, *, winner: int, shooter: int | None, self_drawn: bool, rules: RuleSet,
                 thirteen_wonders: bool = False) -> list[int]:
    """What each seat pays (positive numbers; 0 for the winner) before any liability."""
    zimo = self_drawn or thirteen_wonders
    shares = [0, 0, 0, 0]
    losers = [s for s in range(4) if s != winner]
    if rules.stakes == "chart_3_6":
        shooter_amount, each_amount = _chart(tai, rules)
    else:
        unit = hand_value(tai, rules)
        shooter_amount, each_amount = 4 * unit, 2 * unit
        if rules.payout == "all_pay":
            shooter_amount = 2 * unit
    if zimo:
        for s in losers:
            shares[s] = each_amount + rules.zimo_bonus
        return shares
    assert shooter is not None
    if rules.payout == "shooter_pays":
        shares[shooter] = shooter_amount
        return shares
    unit = hand_value(tai, rules)
    for s in losers:
        shares[s] = shooter_amount if s == shooter else unit
    return shares


def win_payments(
    tai: int,
    *,
    winner: int,
    shooter: int | None,
    self_drawn: bool,
    rules: RuleSet,
    liable: int | None = None,
    thirteen_wonders: bool = False,
    robbed_kong: bool = False,
) -> list[int]:
    """The four seats' gains from a win of ``tai`` (capped at the limit). ``shooter`` is the
    discarder (the robbed player for a robbed kong, the drawer of the eighth flower for robbing the
    eighth); ``None`` on a self-drawn win. ``liable`` is a player liable (包) for the whole win.

    >>> win_payments(1, winner=0, shooter=1, self_drawn=False, rules=RuleSet())
    [4, -2, -1, -1]
    >>> win_payments(5, winner=0, shooter=None, self_drawn=True, rules=RuleSet())
    [96, -32, -32, -32]
    """
    _check_seat("winner", winner)
    if self_drawn:
        if shooter is not None:
            raise ValueError("a self-drawn win has no shooter")
        if robbed_kong:
            raise ValueError("robbing the kong is not a self-drawn win")
    elif shooter is None:
        raise ValueError("a win on a discard needs the shooter")
    else:
        _check_seat("shooter", shooter)
        if shooter == winner:
            raise ValueError("the winner cannot be the shooter")
    if liable is not None:
        _check_seat("liable", liable)
        if liable == winner:
            raise ValueError("the winner cannot be liable")
    shares = loser_shares(tai, winner=winner, shooter=shooter, self_drawn=self_drawn, rules=rules,
                          thirteen_wonders=thirteen_wonders)
    if liable is not None and not thirteen_wonders and liability_applies(rules, self_drawn):
        total = sum(shares)
        shares = [0, 0, 0, 0]
        shares[liable] = total
    out = [-x for x in shares]
    out[winner] = sum(shares)
    return out


def liability_applies(rules: RuleSet, self_drawn: bool) -> bool:
    """Whether a liability (包) changes who pays: always under ``all_pay``; under ``shooter_pays``
    only on a self-drawn win."""
    return rules.payout == "all_pay" or self_drawn


# -- instant payments -----------------------------------------------------------------------------

INSTANT_UNITS: dict[str, int] = {
    "cat_rat": 1,
    "rooster_centipede": 1,
    "seat_flowers": 1,
    "all_animals": 2,
    "flower_set": 2,
    "exposed_kong": 1,
    "concealed_kong": 2,
}
ANIMAL_EVENTS = frozenset({"cat_rat", "rooster_centipede", "all_animals"})
BONUS_EVENTS = frozenset({"cat_rat", "rooster_centipede", "seat_flowers", "all_animals", "flower_set"})


def bonus_events(bonus: Iterable[Tile], seat: int) -> list[str]:
    """Every instant-payment event present in a set of bonus tiles held by ``seat`` (a kind may
    appear twice: ``flower_set`` for both colours)."""
    have = {int(t) for t in bonus}
    out: list[str] = []
    if {42, 43} <= have:
        out.append("cat_rat")
    if {44, 45} <= have:
        out.append("rooster_centipede")
    if {42, 43, 44, 45} <= have:
        out.append("all_animals")
    if {34 + seat, 38 + seat} <= have:
        out.append("seat_flowers")
    if {34, 35, 36, 37} <= have:
        out.append("flower_set")
    if {38, 39, 40, 41} <= have:
        out.append("flower_set")
    return out


def instant_events_for_bonus(bonus_before: Iterable[Tile], new_tile: Tile, seat: int) -> list[str]:
    """The events that laying out ``new_tile`` completes for ``seat``, who already has
    ``bonus_before`` laid out. For the dealt hand (暗咬) call :func:`bonus_events` on the dealt bonus
    tiles and pay each with ``dealt=True``.

    >>> instant_events_for_bonus([Tile.CAT, Tile.ROOSTER, Tile.CENTIPEDE], Tile.RAT, 0)
    ['cat_rat', 'all_animals']
    """
    before = list(bonus_before)
    if new_tile in before:
        return []
    old = bonus_events(before, seat)
    new = bonus_events([*before, new_tile], seat)
    for e in old:
        new.remove(e)
    return new


def instant_enabled(kind: str, rules: RuleSet) -> bool:
    """Whether ``instant_payments`` pays this kind."""
    if kind not in INSTANT_UNITS:
        raise ValueError(f"unknown instant payment {kind!r}; one of {', '.join(INSTANT_UNITS)}")
    mode = rules.instant_payments
    if mode == "none":
        return False
    return mode == "all" or kind in ANIMAL_EVENTS


def instant_amount(kind: str, rules: RuleSet, *, dealt: bool = False) -> int:
    """What each other player pays for one event (0 when the rules do not pay it)."""
    if not instant_enabled(kind, rules):
        return 0
    amount = INSTANT_UNITS[kind] * rules.instant_unit
    if dealt and kind in BONUS_EVENTS:
        amount *= 2
    return amount


def instant_payment(kind: str, seat: int, rules: RuleSet, *, dealt: bool = False,
                    liable: int | None = None) -> list[int]:
    """The four seats' gains from one instant-payment event of ``seat``: each other player pays
    :func:`instant_amount`; with ``liable`` (包杠) that player pays the whole of it.

    >>> instant_payment("concealed_kong", 2, RuleSet())
    [-4, -4, 12, -4]
    """
    _check_seat("seat", seat)
    amount = instant_amount(kind, rules, dealt=dealt)
    out = [-amount] * 4
    out[seat] = 0
    if liable is not None:
        _check_seat("liable", liable)
        if liable == seat:
            raise ValueError("a player cannot be liable for his own kong")
        out = [0, 0, 0, 0]
        out[liable] = -3 * amount
    out[seat] = 3 * amount
    return out

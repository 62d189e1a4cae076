"""Payments: the article's payout tables, the 1/2 and 3/6 charts, RULES.md's worked check, 包,
instant payments, and zero-sum as a property."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sgmahjong.payments import (
    bonus_events,
    hand_value,
    instant_amount,
    instant_events_for_bonus,
    instant_payment,
    win_payments,
)
from sgmahjong.rules import RuleSet
from sgmahjong.tiles import Tile

ALL_PAY = RuleSet()
SHOOTER = RuleSet(payout="shooter_pays")
CHART = RuleSet(payout="shooter_pays", stakes="chart_3_6")


def discard(tai: int, rules: RuleSet, winner: int = 0, shooter: int = 1, **kw: object) -> list[int]:
    return win_payments(tai, winner=winner, shooter=shooter, self_drawn=False, rules=rules, **kw)  # type: ignore[arg-type]


def zimo(tai: int, rules: RuleSet, winner: int = 0, **kw: object) -> list[int]:
    return win_payments(tai, winner=winner, shooter=None, self_drawn=True, rules=rules, **kw)  # type: ignore[arg-type]


# the article's two tables (base S$1): points -> (losers each pay, guilty pays, winner gains)
DISCARD_TABLE = {1: (1, 2, 4), 2: (2, 4, 8), 3: (4, 8, 16), 4: (8, 16, 32), 5: (16, 32, 64)}
SELF_PICK_TABLE = {1: (2, 6), 2: (4, 12), 3: (8, 24), 4: (16, 48), 5: (32, 96)}


@pytest.mark.parametrize(("tai", "row"), DISCARD_TABLE.items())
def test_article_discard_table(tai: int, row: tuple[int, int, int]) -> None:
    each, guilty, gain = row
    assert discard(tai, ALL_PAY, winner=2, shooter=3) == [-each, -each, gain, -guilty]


@pytest.mark.parametrize(("tai", "row"), SELF_PICK_TABLE.items())
def test_article_self_pick_table(tai: int, row: tuple[int, int]) -> None:
    each, gain = row
    assert zimo(tai, ALL_PAY, winner=1) == [-each, gain, -each, -each]


def test_rules_worked_check() -> None:
    assert discard(1, ALL_PAY) == [4, -2, -1, -1]
    assert zimo(1, ALL_PAY) == [6, -2, -2, -2]
    assert discard(5, ALL_PAY) == [64, -32, -16, -16]
    assert zimo(5, ALL_PAY) == [96, -32, -32, -32]


# the article's charts: points -> (shooter pays, zi mo each pays, with $2 zi mo)
CHART_1_2 = {1: (4, 2, 4), 2: (8, 4, 6), 3: (16, 8, 10), 4: (32, 16, 18), 5: (64, 32, 34)}
CHART_3_6 = {1: (4, 2, 4), 2: (7, 3, 5), 3: (11, 5, 7), 4: (20, 10, 12), 5: (40, 20, 22)}


@pytest.mark.parametrize(("tai", "row"), CHART_1_2.items())
def test_one_two_chart_is_shooter_pays_doubling(tai: int, row: tuple[int, int, int]) -> None:
    shooter, each, each_bonus = row
    assert discard(tai, SHOOTER, winner=0, shooter=2) == [shooter, 0, -shooter, 0]
    assert zimo(tai, SHOOTER) == [3 * each, -each, -each, -each]
    bonus = SHOOTER.with_options(zimo_bonus=2)
    assert zimo(tai, bonus) == [3 * each_bonus, -each_bonus, -each_bonus, -each_bonus]
    assert discard(tai, bonus, winner=0, shooter=2) == [shooter, 0, -shooter, 0]  # no bonus on a discard


@pytest.mark.parametrize(("tai", "row"), CHART_3_6.items())
def test_three_six_chart(tai: int, row: tuple[int, int, int]) -> None:
    shooter, each, each_bonus = row
    assert discard(tai, CHART, winner=3, shooter=1) == [0, -shooter, 0, shooter]
    assert zimo(tai, CHART, winner=3) == [-each, -each, -each, 3 * each]
    bonus = CHART.with_options(zimo_bonus=2)
    assert zimo(tai, bonus, winner=3) == [-each_bonus, -each_bonus, -each_bonus, 3 * each_bonus]


def test_base_cap_and_site_preset() -> None:
    site = RuleSet.preset("site")
    assert discard(1, site) == [40, -20, -10, -10]
    assert discard(9, ALL_PAY) == discard(5, ALL_PAY)  # capped at the limit
    assert hand_value(13, RuleSet(limit=13)) == 4096
    assert discard(0, RuleSet(min_tai=0)) == discard(1, ALL_PAY)  # chicken hand paid as 1 tai
    assert zimo(6, CHART.with_options(limit=6)) == [120, -40, -40, -40]  # the chart doubles on


def test_thirteen_wonders_everyone_pays_as_self_drawn() -> None:
    assert discard(5, ALL_PAY, thirteen_wonders=True) == zimo(5, ALL_PAY)
    assert discard(5, SHOOTER, thirteen_wonders=True) == zimo(5, SHOOTER)
    # no liability applies to it
    assert discard(5, ALL_PAY, thirteen_wonders=True, liable=2) == zimo(5, ALL_PAY)


def test_liable_player_pays_for_all() -> None:
    assert discard(1, ALL_PAY, shooter=1, liable=2) == [4, 0, -4, 0]
    assert discard(5, ALL_PAY, shooter=1, liable=1) == [64, -64, 0, 0]
    assert zimo(2, ALL_PAY, liable=3) == [12, 0, 0, -12]
    # shooter pays: a liability only matters on a self-drawn win
    assert discard(2, SHOOTER, shooter=1, liable=2) == [8, -8, 0, 0]
    assert zimo(2, SHOOTER, liable=2) == [12, 0, -12, 0]


def test_robbed_kong_is_paid_like_a_discard_by_the_robbed_player() -> None:
    assert discard(2, ALL_PAY, shooter=3, robbed_kong=True) == [8, -2, -2, -4]


@pytest.mark.parametrize("kw", [
    {"winner": 0, "shooter": 0, "self_drawn": False},
    {"winner": 0, "shooter": None, "self_drawn": False},
    {"winner": 0, "shooter": 1, "self_drawn": True},
    {"winner": 4, "shooter": 1, "self_drawn": False},
    {"winner": 0, "shooter": 1, "self_drawn": False, "liable": 0},
])
def test_bad_arguments_raise(kw: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        win_payments(1, rules=ALL_PAY, **kw)  # type: ignore[arg-type]


RULESETS = [ALL_PAY, SHOOTER, CHART, RuleSet.preset("site"), RuleSet(limit=13, zimo_bonus=3),
            CHART.with_options(zimo_bonus=2, base=5)]


@settings(max_examples=150, deadline=None)
@given(tai=st.integers(0, 20), winner=st.integers(0, 3), other=st.integers(0, 3),
       self_drawn=st.booleans(), liable=st.one_of(st.none(), st.integers(0, 3)),
       thirteen=st.booleans(), rules=st.sampled_from(RULESETS))
def test_win_payments_sum_to_zero(tai: int, winner: int, other: int, self_drawn: bool,
                                  liable: int | None, thirteen: bool, rules: RuleSet) -> None:
    shooter = None if self_drawn else (winner + 1 + other % 3) % 4
    if liable == winner:
        liable = None
    out = win_payments(tai, winner=winner, shooter=shooter, self_drawn=self_drawn, rules=rules,
                       liable=liable, thirteen_wonders=thirteen)
    assert sum(out) == 0
    assert out[winner] > 0
    assert all(out[s] <= 0 for s in range(4) if s != winner)


# -- instant payments ------------------------------------------------------------------------------

def test_instant_amounts_default_unit_is_two_base() -> None:
    assert instant_payment("cat_rat", 0, ALL_PAY) == [6, -2, -2, -2]
    assert instant_payment("exposed_kong", 1, ALL_PAY) == [-2, 6, -2, -2]
    assert instant_payment("concealed_kong", 2, ALL_PAY) == [-4, -4, 12, -4]
    assert instant_payment("flower_set", 3, ALL_PAY) == [-4, -4, -4, 12]
    assert instant_payment("all_animals", 0, ALL_PAY) == [12, -4, -4, -4]
    # base 10 alone makes the unit 2 x 10 = 20; the site preset pays 10 a unit (咬到 10, 暗杠 20).
    assert instant_payment("cat_rat", 0, RuleSet(base=10)) == [60, -20, -20, -20]
    assert instant_payment("cat_rat", 0, RuleSet.preset("site")) == [30, -10, -10, -10]
    assert instant_payment("concealed_kong", 1, RuleSet.preset("site")) == [-20, 60, -20, -20]
    assert instant_payment("cat_rat", 0, RuleSet(instant=5)) == [15, -5, -5, -5]


def test_article_all_four_animals_pays_2_plus_2_plus_4() -> None:
    events = instant_events_for_bonus([Tile.CAT, Tile.ROOSTER, Tile.CENTIPEDE], Tile.RAT, 0)
    assert events == ["cat_rat", "all_animals"]
    allfour = bonus_events([Tile.CAT, Tile.RAT, Tile.ROOSTER, Tile.CENTIPEDE], 2)
    assert sorted(instant_amount(e, ALL_PAY) for e in allfour) == [2, 2, 4]


def test_dealt_all_four_animals_rules_reading() -> None:
    # RULES.md: every bonus event already in the dealt hand (暗咬) pays double, so all four animals
    # dealt pay 4 + 4 + 8 per player (the article's note 1.4 would say 4 + 4 + 4).
    dealt = bonus_events([Tile.CAT, Tile.RAT, Tile.ROOSTER, Tile.CENTIPEDE], 0)
    assert sorted(instant_amount(e, ALL_PAY, dealt=True) for e in dealt) == [4, 4, 8]


def test_dealt_bonus_events_pay_double() -> None:
    assert instant_payment("cat_rat", 0, ALL_PAY, dealt=True) == [12, -4, -4, -4]
    assert instant_amount("seat_flowers", ALL_PAY, dealt=True) == 4
    assert instant_amount("exposed_kong", ALL_PAY, dealt=True) == 2  # kongs are never dealt


def test_instant_payment_options() -> None:
    animals = RuleSet(instant_payments="animals_only")
    assert instant_payment("concealed_kong", 0, animals) == [0, 0, 0, 0]
    assert instant_payment("seat_flowers", 0, animals) == [0, 0, 0, 0]
    assert instant_payment("rooster_centipede", 0, animals) == [6, -2, -2, -2]
    none = RuleSet(instant_payments="none")
    assert all(instant_payment(k, 1, none) == [0, 0, 0, 0]
               for k in ("cat_rat", "all_animals", "exposed_kong", "flower_set"))


def test_bao_kong_liable_pays_the_whole_kong() -> None:
    assert instant_payment("exposed_kong", 0, ALL_PAY, liable=2) == [6, 0, -6, 0]
    with pytest.raises(ValueError):
        instant_payment("exposed_kong", 0, ALL_PAY, liable=0)
    with pytest.raises(ValueError):
        instant_payment("seven_pairs", 0, ALL_PAY)


def test_bonus_events_by_seat() -> None:
    # seat flowers: n and n+4 for seat n-1
    assert instant_events_for_bonus([Tile.ORCHID], Tile.SUMMER, 1) == ["seat_flowers"]
    assert instant_events_for_bonus([Tile.ORCHID], Tile.SUMMER, 0) == []
    assert instant_events_for_bonus([Tile.PLUM, Tile.ORCHID, Tile.CHRYSANTHEMUM], Tile.BAMBOO, 2) == [
        "flower_set"]
    # the eighth flower: the seat pair and the second set
    seven = [Tile(t) for t in range(34, 41)]
    assert instant_events_for_bonus(seven, Tile.WINTER, 3) == ["seat_flowers", "flower_set"]
    assert bonus_events([Tile(t) for t in range(34, 42)], 0) == ["seat_flowers", "flower_set", "flower_set"]
    assert instant_events_for_bonus([Tile.CAT], Tile.CAT, 0) == []

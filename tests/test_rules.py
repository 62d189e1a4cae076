"""The rule set: defaults, presets, validation with clear errors."""

from __future__ import annotations

import pytest

from sgmahjong.errors import RuleSetError
from sgmahjong.rules import PRESETS, RuleSet, parse_rule_assignment


def test_defaults_follow_rules_md() -> None:
    r = RuleSet()
    assert (r.limit, r.min_tai, r.base) == (5, 1, 1)
    assert (r.payout, r.stakes, r.zimo_bonus) == ("all_pay", "doubling", 0)
    assert r.instant_unit == 2
    assert r.declare_three_dragons and r.declare_four_winds
    assert r.bao_kong_tiles == 7 and r.bao_fresh_tiles == 5
    assert r.fresh_tile == "discards" and r.flower_on_flower == "one" and r.rounds == 4


def test_presets() -> None:
    assert set(PRESETS) >= {"default", "site", "shooter_pays"}
    assert RuleSet.preset("site").base == 10
    assert RuleSet.preset("site").instant_unit == 10
    assert RuleSet.preset("shooter_pays").payout == "shooter_pays"
    with pytest.raises(RuleSetError, match="unknown preset 'nope'"):
        RuleSet.preset("nope")


def test_frozen() -> None:
    with pytest.raises(AttributeError):
        RuleSet().limit = 10  # type: ignore[misc]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"limt": 5}, "unknown rule 'limt'"),
        ({"limit": 2}, "rule limit must be between 3 and 20; got 2"),
        ({"limit": "5"}, "rule limit must be a whole number"),
        ({"payout": "winner_takes"}, "rule payout must be one of all_pay, shooter_pays"),
        ({"pure_green": 1}, "rule pure_green must be true or false"),
        ({"stakes": "chart_3_6"}, "needs payout=shooter_pays"),
        ({"min_tai": 6}, "cannot exceed limit"),
        ({"rounds": 5}, "rule rounds must be between 1 and 4"),
    ],
)
def test_bad_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(RuleSetError, match=message):
        RuleSet().with_options(**options)


def test_with_strings_coerces() -> None:
    r = RuleSet().with_strings({"limit": "10", "payout": "shooter_pays", "pure_green": "on",
                                "stakes": "chart_3_6"})
    assert (r.limit, r.payout, r.pure_green, r.stakes) == (10, "shooter_pays", True, "chart_3_6")
    with pytest.raises(RuleSetError, match="whole number"):
        RuleSet().with_strings({"limit": "ten"})
    assert parse_rule_assignment("limit=10") == ("limit", "10")
    with pytest.raises(RuleSetError, match="KEY=VALUE"):
        parse_rule_assignment("limit")


def test_round_trip_through_dict_and_describe() -> None:
    r = RuleSet(limit=10, payout="shooter_pays")
    assert RuleSet.from_dict(r.to_dict()) == r
    assert r.changed_from_default() == {"limit": 10, "payout": "shooter_pays"}
    described = {d["name"]: d for d in RuleSet.describe()}
    assert described["payout"]["choices"] == ["all_pay", "shooter_pays"]
    assert described["limit"]["minimum"] == 3
    assert set(described) == set(RuleSet().to_dict())

"""Scoring: every hand example of the source texts that states its points, and the RULES.md table."""

from __future__ import annotations

from typing import Any

import pytest

from sgmahjong.errors import InvalidHandError
from sgmahjong.notation import parse_hand
from sgmahjong.rules import RuleSet
from sgmahjong.scoring import (
    PATTERNS,
    ScoreResult,
    WinContext,
    pattern_reference,
    score,
    score_special,
)

SEATS = "ESWN"


def sc(hand: str, *, seat: str = "E", wind: str = "E", rules: RuleSet | None = None,
       **ctx: Any) -> ScoreResult:
    context = WinContext(seat_wind=SEATS.index(seat), prevailing_wind=SEATS.index(wind), **ctx)
    return score(parse_hand(hand), context, rules or RuleSet())


def pats(r: ScoreResult) -> dict[str, int]:
    return {p.name: p.tai for p in r.patterns}


L13 = RuleSet(limit=13)
L10 = RuleSet(limit=10)


# -- the guide's and the article's sequence-hand (平胡) wait examples ----------------------------------

@pytest.mark.parametrize("hand", [
    "123m456m789p4588s +6s",   # guide: 4588 waits on 3 or 6
    "123m456m789p4588s +3s",
    "123m456m789s6789p +6p",   # article: 6789 of dots waits on 6 and 9
    "123m456m789s6789p +9p",
])
def test_two_sided_waits_score_ping_hu_on_a_discard(hand: str) -> None:
    r = sc(hand)
    assert r.valid and r.tai == 4 and pats(r) == {"ping_hu": 4}


@pytest.mark.parametrize("hand", [
    "123m456m789p1288s +3s",   # guide: 1288 waits on 3 only (edge)
    "123m456m789p1179s +8s",   # guide: 1179 waits on 8 (closed)
    "123m456m789p2347s +7s",   # guide: 2347 waits on 7 for the pair
    "123m456m789s79p55s +8p",  # article: 7 and 9 of dots waiting on 8
])
def test_single_waits_are_not_ping_hu_on_a_discard_but_are_self_drawn(hand: str) -> None:
    r = sc(hand)
    assert not r.valid and r.tai == 0
    assert r.reason == "scores 0 tai; the minimum is 1"
    drawn = sc(hand, self_drawn=True)
    assert drawn.valid and drawn.tai == 4 and pats(drawn) == {"ping_hu": 4}


def test_single_wait_wins_on_other_points_without_ping_hu() -> None:
    # the article: "He can, however, still win the game by virtue of other points ... animals"
    r = sc("123m456m789s79p55s +8p /1a")
    assert r.valid and pats(r) == {"animal": 1}


def test_ping_hu_pair_rule() -> None:
    base = "123m456m789p234s {} +{}"
    # pair of a wind that is neither seat nor prevailing: fine (self-drawn, any wait)
    assert pats(sc(base.format("W", "W"), seat="S", wind="E", self_drawn=True)) == {"ping_hu": 4}
    # seat wind, prevailing wind, dragon: never
    assert not sc(base.format("S", "S"), seat="S", wind="E", self_drawn=True).valid
    assert not sc(base.format("E", "E"), seat="S", wind="E", self_drawn=True).valid
    assert not sc(base.format("C", "C"), seat="S", wind="E", self_drawn=True).valid


def test_four_exposed_chows_single_wait_is_never_ping_hu() -> None:
    r = sc("5s [123m] [456m] [789p] [234s] +5s", self_drawn=True)
    assert not r.valid and r.tai == 0


def test_exposed_chows_allowed_in_ping_hu() -> None:
    r = sc("4588s [123m] [456m] [789p] +6s")
    assert r.valid and pats(r) == {"ping_hu": 4}


def test_lesser_ping_hu_with_any_bonus_tile() -> None:
    r = sc("123m456m789p4588s +6s /2f")  # 2f is not East's flower
    assert r.valid and pats(r) == {"lesser_ping_hu": 1}
    # same wait condition: a single wait on a discard is no lesser sequence hand either
    assert not sc("123m456m789p1288s +3s /2f").valid
    # the example hand string of RULES.md §1
    r = sc("23s55p [123m] [456m] [789p] +4s /1f1a")
    assert pats(r) == {"lesser_ping_hu": 1, "animal": 1, "seat_flower": 1} and r.tai == 3


def test_robbing_the_kong_with_ping_hu_article_examples() -> None:
    # "waiting for 2 tiles to form 平胡, a 抢杠 will give him 5 points (4 for 平胡 and 1 for 抢杠)"
    r = sc("123m456m789p4588s +6s", robbed_kong=True)
    assert r.valid and r.tai == 5 and pats(r) == {"ping_hu": 4, "robbing_the_kong": 1}
    # an edge wait (1m 2m waiting 3m) robbed: "抢杠 will only give the winning player 1 point"
    edge = "12m456m789p234s55s +3m"
    assert sc(edge, robbed_kong=True, rules=RuleSet(extras_count_toward_min=True)).tai == 1
    # RULES.md default: the additional point alone does not reach min_tai
    r = sc(edge, robbed_kong=True)
    assert not r.valid and r.tai == 1 and r.reason is not None
    assert r.reason.startswith("scores 0 tai") and "minimum is 1" in r.reason


# -- the seeds' site list and the article's combinations ------------------------------------------

def test_triplets_hand_2() -> None:
    r = sc("111m222p555s88m 99s +9s")
    assert r.valid and pats(r) == {"pong_pong": 2} and r.tai == 2


def test_half_flush_2() -> None:
    r = sc("123456m 789m 22m SS +S", seat="E", wind="E")
    assert pats(r) == {"half_flush": 2}


def test_full_flush_plain() -> None:
    r = sc("111m 234m 678m 99m 55m +5m")
    assert r.valid and pats(r) == {"full_flush": 4}


def test_full_flush_with_triplets_is_8() -> None:
    r = sc("111333555777m9m +9m", rules=L10)
    assert pats(r) == {"pong_pong": 2, "full_flush": 4, "full_flush_pong_pong": 2} and r.tai == 8
    assert sc("111333555777m9m +9m").tai == 5  # capped at the default limit


def test_full_flush_sequence_hand_is_10_at_most_the_limit() -> None:
    hand = "1234567896722m +8m"  # 123 456 789 678 + 22, waiting on 5/8
    assert pats(sc(hand, rules=L13)) == {"full_flush_ping_hu": 10}
    assert sc(hand, rules=L13).tai == 10
    r = sc(hand)
    assert r.tai == 5 and r.limit
    # full flush lesser sequence hand: 1 + 4 = 5 (the article)
    r = sc(hand + " /2f", rules=L13)
    assert pats(r) == {"lesser_ping_hu": 1, "full_flush": 4} and r.tai == 5


def test_mixed_terminals_is_4_with_triplets() -> None:
    r = sc("111m999p999s SSS N +N", seat="E", wind="E")
    assert pats(r) == {"pong_pong": 2, "mixed_terminals": 2} and r.tai == 4


def test_pure_terminals_is_the_limit() -> None:
    r = sc("111m999m111p999p 9s +9s", rules=L13)
    assert r.valid and r.tai == 13 and r.limit and pats(r) == {"pure_terminals": 13}


def test_all_honours_is_the_limit() -> None:
    r = sc("EEE SSS WWW CC FF +F", seat="N", wind="N")
    assert r.tai == 5 and "all_honours" in pats(r)


def test_thirteen_wonders_13_at_most_the_limit() -> None:
    r = sc("19m19p19s ESWNCFP +1m")
    assert r.valid and r.tai == 5 and r.thirteen_wonders and pats(r) == {"thirteen_wonders": 5}
    r = sc("19m19p19s ESWNCFP +C", rules=RuleSet(limit=20))
    assert r.tai == 13 and not r.limit
    r = sc("19m19p19s ESWNCFP +C /1a", rules=RuleSet(limit=20))
    assert r.tai == 14 and pats(r) == {"thirteen_wonders": 13, "animal": 1}


def test_dragon_and_wind_pongs() -> None:
    r = sc("CCC 123m 456p 789s 5s +5s")
    assert pats(r) == {"dragon_pong": 1}
    # double wind: seat and prevailing both East, one pong scores 2
    assert pats(sc("EEE 123m 456p 789s 5s +5s", seat="E", wind="E")) == {
        "seat_wind": 1, "prevailing_wind": 1}
    # seat South, prevailing East: a pong of each, 2 in all
    r = sc("EEE SSS 456p 789s 5s +5s", seat="S", wind="E")
    assert pats(r) == {"seat_wind": 1, "prevailing_wind": 1} and r.tai == 2
    # other winds score nothing
    assert not sc("WWW 123m 456p 789s 5s +5s", seat="S", wind="E").valid


def test_three_lesser_scholars_is_3() -> None:
    r = sc("CCC FFF PP 123m 55s +5s")
    assert pats(r) == {"dragon_pong": 2, "small_three_dragons": 1} and r.tai == 3


def test_three_great_scholars_is_10_at_most_the_limit() -> None:
    r = sc("CCC FFF PPP 123m 5s +5s", rules=L13)
    assert pats(r) == {"big_three_dragons": 10} and r.tai == 10
    assert sc("CCC FFF PPP 123m 5s +5s").tai == 5
    # other points add, the total is capped
    r = sc("CCC FFF PPP 123m 5s +5s /1a2a", rules=L13)
    assert r.tai == 12


def test_four_lesser_blessings_2_plus_wind_pongs() -> None:
    r = sc("EEE SSS WWW 123m N +N", seat="N", wind="N", rules=L13)
    assert pats(r) == {"half_flush": 2, "small_four_winds": 2}
    r = sc("EEE SSS WWW 123m N +N", seat="N", wind="E", rules=L13)
    assert pats(r) == {"prevailing_wind": 1, "half_flush": 2, "small_four_winds": 2}  # "3 or 4"
    r = sc("EEE SSS WWW 123m N +N", seat="S", wind="E", rules=L13)
    assert pats(r)["small_four_winds"] == 2 and r.tai == 6


def test_four_great_blessings_is_the_limit() -> None:
    r = sc("EEE SSS WWW NNN 5m +5m", seat="S", wind="S")
    assert r.tai == 5 and "big_four_winds" in pats(r)


def test_animals_each_1_all_four_5() -> None:
    assert sc("123m456m789p1288s +3s /1a").tai == 1
    r = sc("123m456m789p1288s +3s /1a2a3a4a")
    assert pats(r) == {"animal": 4, "all_animals": 1} and r.tai == 5


def test_seat_flowers_and_flower_sets() -> None:
    # East's flowers are 1f and 5f; others score nothing
    assert pats(sc("123m456m789p1288s +3s /1f5f")) == {"seat_flower": 2}
    assert not sc("123m456m789p1288s +3s /2f6f").valid
    assert pats(sc("123m456m789p1288s +3s /2f6f", seat="S")) == {"seat_flower": 2}
    # a complete set of one colour: 1 for the seat flower + 1 for the set = 2
    r = sc("123m456m789p1288s +3s /1f2f3f4f")
    assert pats(r) == {"seat_flower": 1, "flower_set": 1} and r.tai == 2
    r = sc("123m456m789p1288s +3s /5f6f7f8f", seat="N")
    assert r.tai == 2


def test_nine_gates() -> None:
    assert pats(sc("1112345678999m +5m")) == {"nine_gates": 5}
    assert "nine_gates" in pats(sc("1112345678999p +9p", self_drawn=True))
    # exposed sets allowed, as the article says
    assert "nine_gates" in pats(sc("2345678999m [111m] +1m"))
    # the 14 tiles less the winning tile must be 1112345678999
    r = sc("1123455678999m +1m")
    assert "nine_gates" not in pats(r) and pats(r)["full_flush"] == 4


def test_hidden_treasure() -> None:
    hand = "111m222p333s555m9p +9p"
    assert pats(sc(hand, self_drawn=True)) == {"hidden_treasure": 5}
    assert pats(sc(hand)) == {"pong_pong": 2}
    assert pats(sc(hand, rules=RuleSet(hidden_treasure_on_discard=True))) == {"hidden_treasure": 5}
    # a pong completed by a discard is not concealed, even with the option
    shanpon = "111m222p333s55m99p +9p"
    assert pats(sc(shanpon, rules=RuleSet(hidden_treasure_on_discard=True))) == {"pong_pong": 2}
    assert pats(sc(shanpon, self_drawn=True)) == {"hidden_treasure": 5}
    # concealed kongs allowed, an exposed pong is not
    assert "hidden_treasure" in pats(sc("222p333s555m9p {1111m} +9p", self_drawn=True))
    assert "hidden_treasure" not in pats(sc("222p333s555m9p [111m] +9p", self_drawn=True))


def test_eighteen_arhats() -> None:
    r = sc("9p [1111m] [2222p] {3333s} [5555m] +9p")
    assert r.valid and pats(r) == {"eighteen_arhats": 5}


def test_heavenly_earthly_humanly() -> None:
    hand = "123m456m789p1288s +3s"
    assert pats(sc(hand, self_drawn=True, special="heavenly")) == {"heavenly_hand": 5}
    assert pats(sc(hand, seat="S", special="earthly")) == {"earthly_hand": 5}
    assert pats(sc(hand, seat="W", special="humanly")) == {"humanly_hand": 5}
    with pytest.raises(InvalidHandError):
        sc(hand, seat="S", self_drawn=True, special="heavenly")
    with pytest.raises(InvalidHandError):
        sc(hand, seat="E", special="earthly")
    with pytest.raises(InvalidHandError):
        sc(hand, seat="S", self_drawn=True, special="humanly")
    # a heavenly hand still needs a winning hand
    assert not sc("123m456m789p1288s +9s", self_drawn=True, special="heavenly").valid


def test_replacement_wins_and_flower_on_flower() -> None:
    hand = "CCC 123m 456p 789s 5s +5s"
    r = sc(hand, self_drawn=True, replacement="flower")
    assert pats(r) == {"dragon_pong": 1, "win_on_flower_replacement": 1} and r.tai == 2
    r = sc(hand, self_drawn=True, replacement="flower", flower_replacements=3,
           rules=RuleSet(flower_on_flower="per_replacement"))
    assert pats(r)["win_on_flower_replacement"] == 3
    r = sc(hand, self_drawn=True, replacement="flower", flower_replacements=2,
           rules=RuleSet(flower_on_flower="five", limit=13))
    assert pats(r)["win_on_flower_replacement"] == 5
    r = sc(hand, self_drawn=True, replacement="flower", flower_replacements=2)
    assert pats(r)["win_on_flower_replacement"] == 1
    # 杠上
    r = sc("123m 456p 789p 5s [7777s] +5s /1a", self_drawn=True, replacement="kong")
    assert pats(r) == {"animal": 1, "win_on_kong_replacement": 1}


def test_kong_on_kong_is_10_and_counts_toward_the_minimum() -> None:
    r = sc("123m 456p 5s [7777s] [8888p] +5s", self_drawn=True, replacement="kong_on_kong", rules=L13)
    assert r.valid and pats(r) == {"kong_on_kong": 10} and r.tai == 10
    with pytest.raises(InvalidHandError):
        sc("123m456p789p 5s [7777s] +5s", self_drawn=True, replacement="kong_on_kong")


def test_extras_do_not_count_toward_min_tai_unless_the_option() -> None:
    hand = "123m456m789p1288s +3s"
    for extra in ({"last_tile": True}, {"replacement": "flower"}):
        r = sc(hand, self_drawn=True, **extra)  # self-drawn edge wait: ping hu 4 + 1
        assert r.valid and r.tai == 5
    r = sc("111m456m789p1288s +3s", self_drawn=True, last_tile=True)
    assert not r.valid and r.tai == 1
    r = sc("111m456m789p1288s +3s", self_drawn=True, last_tile=True,
           rules=RuleSet(extras_count_toward_min=True))
    assert r.valid and pats(r) == {"last_tile": 1}


def test_min_tai_zero_allows_the_chicken_hand() -> None:
    r = sc("111m456m789p1288s +3s", rules=RuleSet(min_tai=0))
    assert r.valid and r.tai == 0 and r.patterns == ()
    r = sc("111m456m789p1288s +3s", rules=RuleSet(min_tai=2, limit=5))
    assert not r.valid


def test_not_a_winning_hand() -> None:
    r = sc("123m456m789p1288s +9s")
    assert not r.valid and r.reason is not None and r.reason.startswith("not a winning hand")
    r = score(parse_hand("123m456m789p1288s"), WinContext(), RuleSet())
    assert not r.valid and r.reason is not None and r.reason.startswith("not a winning hand")


def test_best_decomposition_wins() -> None:
    # 111222333m read as three chows (sequence hand 4) beats three pongs (nothing)
    r = sc("111222333m4567p +7p")
    assert pats(r) == {"ping_hu": 4}
    # with an exposed pong the pong reading (triplets hand) is best
    r = sc("111222333m9p [555s] +9p")
    assert pats(r) == {"pong_pong": 2}


def test_fully_concealed_option() -> None:
    hand = "111m456m789p1288s +3s"
    assert not sc(hand).valid
    r = sc(hand, rules=RuleSet(fully_concealed="on"))
    assert r.valid and pats(r) == {"fully_concealed": 1}
    assert not sc(hand, rules=RuleSet(fully_concealed="self_drawn_only")).valid
    assert sc(hand, self_drawn=True, rules=RuleSet(fully_concealed="self_drawn_only")).valid
    assert not sc("456m789p1288s [111m] +3s", rules=RuleSet(fully_concealed="on")).valid


def test_pure_green_option() -> None:
    hand = "234s666s888s FFF 2s +2s"
    assert pats(sc(hand)) == {"half_flush": 2, "dragon_pong": 1}
    r = sc(hand, rules=RuleSet(pure_green=True))
    assert pats(r) == {"pure_green": 4, "dragon_pong": 1} and r.tai == 5


def test_eight_flowers_in_a_hand() -> None:
    r = sc("123m456m789p1288s +3s /1f2f3f4f5f6f7f8f")
    assert r.tai == 5 and pats(r) == {"eight_flowers": 5}


def test_impossible_contexts_raise() -> None:
    hand = "123m456m789p4588s +6s"
    with pytest.raises(InvalidHandError):
        sc(hand, robbed_kong=True, self_drawn=True)
    with pytest.raises(InvalidHandError):
        sc(hand, replacement="flower")  # replacements are self-drawn
    with pytest.raises(InvalidHandError):
        sc(hand, last_tile=True)


def test_last_tile_drawn_as_a_replacement_is_not_haidi() -> None:
    r = sc("CCC 123m 456p 789s 5s +5s", self_drawn=True, last_tile=True, replacement="flower")
    assert pats(r) == {"dragon_pong": 1, "win_on_flower_replacement": 1}
    r = sc("CCC 123m 456p 789s 5s +5s", self_drawn=True, last_tile=True)
    assert pats(r) == {"dragon_pong": 1, "last_tile": 1}
    with pytest.raises(InvalidHandError):
        sc("123m456m789p4566s +6s", robbed_kong=True)  # two 6s held: the fourth cannot be robbed


def test_score_special() -> None:
    r = score_special("eight_flowers", RuleSet())
    assert r.valid and r.tai == 5 and r.limit
    assert score_special("robbing_the_eighth", L13).tai == 13
    assert score_special("declare_three_dragons", RuleSet()).tai == 5
    assert score_special("declare_three_dragons", L10).tai == 5
    assert score_special("declare_four_winds", L13).tai == 10
    assert score_special("declare_four_winds", RuleSet()).tai == 5
    off = score_special("declare_four_winds", RuleSet(declare_four_winds=False))
    assert not off.valid and off.reason == "rule declare_four_winds is off"
    with pytest.raises(InvalidHandError):
        score_special("seven_pairs", RuleSet())


def test_every_rules_table_id_is_registered() -> None:
    ids = {p.id for p in PATTERNS}
    table = {
        "dragon_pong", "seat_wind", "prevailing_wind", "animal", "all_animals", "seat_flower",
        "flower_set", "ping_hu", "lesser_ping_hu", "pong_pong", "half_flush", "full_flush",
        "full_flush_pong_pong", "full_flush_ping_hu", "mixed_terminals", "pure_terminals",
        "all_honours", "small_three_dragons", "big_three_dragons", "small_four_winds",
        "big_four_winds", "thirteen_wonders", "nine_gates", "hidden_treasure", "eighteen_arhats",
        "heavenly_hand", "earthly_hand", "humanly_hand", "eight_flowers",
        "win_on_flower_replacement", "win_on_kong_replacement", "kong_on_kong", "robbing_the_kong",
        "last_tile",
    }
    assert table <= ids


def test_pattern_reference_follows_the_rules() -> None:
    ref = pattern_reference(RuleSet())
    by_id = {d["id"]: d for d in ref}
    assert by_id["half_flush"]["tai"] == 2 and by_id["half_flush"]["chinese"] == "半色"
    assert by_id["big_three_dragons"]["tai"] == 5
    assert by_id["pure_terminals"]["tai"] == 5
    assert "pure_green" not in by_id and "fully_concealed" not in by_id
    assert by_id["robbing_the_eighth"]["kind"] == "special"
    assert by_id["last_tile"]["extra"] is True
    ref13 = {d["id"]: d for d in pattern_reference(RuleSet(limit=13, pure_green=True,
                                                            declare_four_winds=False))}
    assert ref13["big_three_dragons"]["tai"] == 10 and ref13["thirteen_wonders"]["tai"] == 13
    assert ref13["pure_terminals"]["tai"] == 13 and "pure_green" in ref13
    assert "declare_four_winds" not in ref13


def test_each_reason_has_its_code_and_params() -> None:
    from sgmahjong.scoring.context import REASON_CODES

    def check(r: ScoreResult, code: str, params: dict[str, int | str]) -> None:
        assert not r.valid and r.reason is not None
        assert r.reason_code == code and r.reason_params == params
        assert set(r.reason_params) == set(REASON_CODES[code])

    check(score(parse_hand("123m456m789p1288s"), WinContext(), RuleSet()), "no_winning_tile", {})
    check(sc("123m456m789p1288s +9s"), "not_sets_and_pair", {})
    check(sc("123m456m789p1288s +3s"), "under_min", {"tai": 0, "min": 1})
    check(sc("123m456m789p1288s +3s", rules=RuleSet(min_tai=2, limit=5)), "under_min", {"tai": 0, "min": 2})
    r = sc("12m456m789p234s55s +3m", robbed_kong=True)
    check(r, "under_min_extras", {"tai": 0, "min": 1})
    assert r.tai == 1  # the additional point is scored but does not count toward the minimum
    check(score_special("declare_four_winds", RuleSet(declare_four_winds=False)), "rule_off",
          {"rule": "declare_four_winds"})
    # a win has neither
    ok = sc("123m456m789p4588s +6s")
    assert ok.valid and ok.reason is None and ok.reason_code is None and ok.reason_params == {}
    assert score_special("eight_flowers", RuleSet()).reason_code is None

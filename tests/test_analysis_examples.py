"""Fixed examples for hand analysis, many from the source texts of the rules (docs/rules.md names them)."""

from __future__ import annotations

import pytest

from sgmahjong.analysis.decompose import CHOW, PONG, Decomposition, decompositions, is_standard_complete
from sgmahjong.analysis.shanten import (
    best_discards,
    discard_shanten,
    shanten,
    shanten_standard,
    shanten_thirteen,
    useful_tiles,
)
from sgmahjong.analysis.special import (
    is_nine_gates,
    is_nine_gates_wait,
    is_thirteen_wonders,
    is_thirteen_wonders_wait,
    nine_gates_winning_tiles,
)
from sgmahjong.analysis.waits import live_waits, waits
from sgmahjong.notation import parse_tiles
from sgmahjong.tiles import Tile, counts34


def c(text: str) -> list[int]:
    return counts34(parse_tiles(text))


def names(tiles: list[int]) -> str:
    return " ".join(str(Tile(t)) for t in tiles)


# -- waits: the guide's sequence-hand examples and Wikipedia's ------------------------------------
@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("4588s", "3s 6s"),  # guide: 4588 of Bamboo wins with 3 or 6
        ("1288s", "3s"),  # guide: 1288 wins only with 3
        ("1179s", "8s"),  # guide: 1179 waiting for 8
        ("2347s", "7s"),  # guide: 2347 waiting for 7 to form the pair
        ("6789p", "6p 9p"),  # Wikipedia: 6,7,8 & 9 of Dots waiting for 6 & 9
        ("79s55m", "8s"),  # 79 waiting for 8
        ("123m456m789m23p55s", "1p 4p"),
        ("123m456m789m55p55s", "5p 5s"),
        ("123m456m789m1234p", "1p 4p"),
        ("EEE123m456m789mC", "C"),
        ("123m456m789mEECC", "E C"),
        ("123m456m789m1357p", ""),
    ],
)
def test_waits_examples(hand: str, expected: str) -> None:
    assert names(waits(c(hand))) == expected


def test_thirteen_wonders_waits() -> None:
    all13 = c("19m19p19sESWNCFP")
    assert waits(all13) == [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
    assert names(waits(c("19m19p19sESWNCCF"))) == "P"
    assert waits(c("19m19p19sESWNCCC")) == []


def test_nine_gates_waits_all_nine() -> None:
    assert names(waits(c("1112345678999p"))) == "1p 2p 3p 4p 5p 6p 7p 8p 9p"


def test_waits_include_fourth_copy_and_live_waits_exclude_it() -> None:
    hand = c("1111m234p567p789p")
    assert waits(hand) == [Tile.M1]
    assert live_waits(hand) == []
    hand = c("123m456m789m11pEE")
    assert names(waits(hand)) == "1p E"
    visible = [0] * 34
    visible[Tile.EAST] = 2
    assert names(live_waits(hand, visible)) == "1p"


def test_waits_with_melds_pass_fewer_tiles() -> None:
    assert names(waits(c("4588s"), n_melds=3)) == "3s 6s"
    with pytest.raises(ValueError):
        waits(c("4588s"), n_melds=2)
    with pytest.raises(ValueError):
        waits(c("45888s"))


# -- complete hands and decompositions ----------------------------------------------------------
def test_decompositions_of_a_full_flush() -> None:
    ds = decompositions(c("11122233344455m"))
    assert ds == sorted(ds)
    assert Decomposition(4, ((PONG, 0), (PONG, 1), (PONG, 2), (PONG, 3))) in ds
    assert Decomposition(4, ((CHOW, 0), (CHOW, 0), (CHOW, 0), (PONG, 3))) in ds
    assert Decomposition(1, ((CHOW, 1), (CHOW, 2), (CHOW, 2), (PONG, 0))) in ds
    assert len(ds) == 4
    for d in ds:
        assert list(d.sets) == sorted(d.sets)


def test_decompositions_mixed() -> None:
    assert decompositions(c("123m456p789sEEECC")) == [
        Decomposition(Tile.RED, ((CHOW, Tile.M1), (CHOW, Tile.P4), (CHOW, Tile.S7), (PONG, Tile.EAST)))
    ]
    assert decompositions(c("123m456p789sEEEC")) == []
    assert decompositions(c("123m456p789sEECC")) == []
    assert decompositions(c("22m")) == [Decomposition(Tile.M2, ())]
    assert is_standard_complete(c("22m"))
    assert not is_standard_complete(c("23m"))
    assert not is_standard_complete(c("19m19p19sESWNCFPP"))


def test_more_than_four_sets_take_the_slow_path() -> None:
    hand = c("111222333m444555p66s")  # 17 tiles: impossible in play, still a shape
    assert is_standard_complete(hand)
    assert len(decompositions(hand)) == 2


# -- special shapes -------------------------------------------------------------------------------
def test_thirteen_wonders() -> None:
    assert is_thirteen_wonders(c("19m19p19sESWNCFPP"))
    assert is_thirteen_wonders(c("119m19p19sESWNCFP"))
    assert not is_thirteen_wonders(c("19m19p19sESWNCFP"))
    assert not is_thirteen_wonders(c("19m19p19sESWNCF2m"))
    assert not is_thirteen_wonders(c("19m19p19sESWNCCFF"))
    assert is_thirteen_wonders_wait(c("19m19p19sESWNCFP"))
    assert is_thirteen_wonders_wait(c("19m19p19sESWNCFF"))
    assert not is_thirteen_wonders_wait(c("19m19p19sESWNCCC"))


def test_nine_gates() -> None:
    assert is_nine_gates_wait(c("1112345678999s"))
    assert not is_nine_gates_wait(c("1112345678899s"))
    for extra in "123456789":
        hand = c(f"1112345678999s{extra}s")
        assert is_nine_gates(hand)
        assert nine_gates_winning_tiles(hand) == [Tile.S1 + int(extra) - 1]
    assert not is_nine_gates(c("1112345678999s9m"))
    assert not is_nine_gates(c("11123345678899s"))
    assert not is_nine_gates(c("1112345678999s"))
    assert nine_gates_winning_tiles(c("11123345678899s")) == []


# -- shanten --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("123m456m789m123p44p", -1),
        ("123m456m789m123p4p", 0),
        ("123m456m789m12p4p", 1),  # 12 tiles: a ValueError
        ("19m19p19sESWNCFPP", -1),
        ("19m19p19sESWNCFP", 0),
        ("19m19p19sESWNCF", 1),
        ("1357m2468p159sEW", 4),
        ("147m258p369sESWN", 7),  # thirteen wonders: 6 of 13 held
        ("4588s", 0),
        ("1s", 0),
        ("11s", -1),
        ("19s", 0),
        ("19s5p", 1),
    ],
)
def test_shanten_examples(hand: str, expected: int) -> None:
    counts = c(hand)
    if sum(counts) % 3 == 0:
        with pytest.raises(ValueError):
            shanten(counts)
        return
    assert shanten(counts) == expected


def test_shanten_parts() -> None:
    hand = c("19m19p19sESWNCFP")
    assert shanten_thirteen(hand) == 0
    assert shanten_standard(hand) == 8  # thirteen isolated tiles
    with pytest.raises(ValueError):
        shanten_thirteen(c("4588s"))


def test_useful_tiles_and_discards() -> None:
    hand = c("123m456m789m23p5sE")
    assert shanten(hand) == 1
    assert names(useful_tiles(hand)) == "1p 4p 5s E"
    hand14 = c("123m456m789m23p5sEW")
    assert names(best_discards(hand14)) == "5s E W"
    assert discard_shanten(hand14)[Tile.M1] == 2
    assert discard_shanten(hand14)[Tile.P2] == 2


def test_full_memos_are_emptied_and_results_stay_right(monkeypatch: pytest.MonkeyPatch) -> None:
    from sgmahjong.analysis import shanten as shanten_module
    from sgmahjong.analysis import tables

    monkeypatch.setattr(tables, "MEMO_LIMIT", 3)
    for module, memo in [(tables, "_SUFFIX"), (tables, "_SUIT_OPTIONS"), (shanten_module, "_SUIT_FAST")]:
        monkeypatch.setattr(module, memo, {})  # fresh, empty memos for this test only
    for hand, expected in [("1357m2468p159sEW", 4), ("123m456m789m123p4p", 0), ("4588s", 0)]:
        assert shanten(c(hand)) == expected
    assert names(waits(c("4588s"))) == "3s 6s"
    assert names(waits(c("1112345678999p"))) == "1p 2p 3p 4p 5p 6p 7p 8p 9p"
    assert len(decompositions(c("11122233344455m"))) == 4
    assert 0 < len(tables._SUFFIX) <= 3
    assert 0 < len(tables._SUIT_OPTIONS) <= 3
    assert 0 < len(shanten_module._SUIT_FAST) <= 3


def test_shanten_with_melds_and_checks() -> None:
    assert shanten(c("4588s"), n_melds=3) == 0
    assert shanten(c("45889s"), n_melds=3) == 0
    assert shanten(c("4589s"), n_melds=3) == 1
    with pytest.raises(ValueError):
        shanten(c("4588s"), n_melds=1)
    with pytest.raises(ValueError):
        useful_tiles(c("45889s"))
    with pytest.raises(ValueError):
        best_discards(c("4588s"))


def test_bench_hands_are_what_the_bench_says() -> None:
    from bench.bench_analysis import make_hands

    h14, h13 = make_hands(seed=1, n=40)
    assert len(h14) == len(h13) == 40
    assert all(sum(h) == 14 and max(h) <= 4 for h in h14)
    assert all(sum(h) == 13 and max(h) <= 4 for h in h13)
    assert all(is_standard_complete(h) for h in h14[20:])
    assert all(waits(h) for h in h13[20:])
    assert make_hands(seed=1, n=40) == (h14, h13)

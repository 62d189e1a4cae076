"""Tiles, tile lists, melds and hand strings: parsers and formatters round-trip; errors say where."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgmahjong.errors import NotationError
from sgmahjong.hand import Hand
from sgmahjong.melds import MeldKind, chow, kong, pong
from sgmahjong.notation import (
    format_hand,
    format_meld,
    format_tiles,
    parse_hand,
    parse_meld,
    parse_tile,
    parse_tiles,
)
from sgmahjong.tiles import ALL_TILES, NUM_FACES, PLAYING_TILES, Tile, full_set


def test_all_faces_have_distinct_notation_that_parses_back() -> None:
    assert len(ALL_TILES) == NUM_FACES == 46
    names = [t.notation for t in ALL_TILES]
    assert len(set(names)) == 46
    for t in ALL_TILES:
        assert parse_tile(t.notation) is t
        assert repr(t) == t.notation


def test_full_set_has_148_tiles() -> None:
    tiles = full_set()
    assert len(tiles) == 148
    assert tiles.count(Tile.M1) == 4
    assert tiles.count(Tile.PLUM) == 1 and tiles.count(Tile.CAT) == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("123m", [Tile.M1, Tile.M2, Tile.M3]),
        ("EEE", [Tile.EAST] * 3),
        ("C F P", [Tile.RED, Tile.GREEN, Tile.WHITE]),
        ("RdGdWd", [Tile.RED, Tile.GREEN, Tile.WHITE]),
        ("19p9s", [Tile.P1, Tile.P9, Tile.S9]),
        ("18f4a", [Tile.PLUM, Tile.WINTER, Tile.CENTIPEDE]),
        ("SWN", [Tile.SOUTH, Tile.WEST, Tile.NORTH]),
    ],
)
def test_parse_tiles(text: str, expected: list[Tile]) -> None:
    assert parse_tiles(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("123x", "unknown tile 'x' at column 4"),
        ("12", "digits '12' have no suit letter at column 1"),
        ("0m", "unknown tile '0m' at column 1"),
        ("9f", "unknown tile '9f' at column 1"),
        ("5a", "unknown tile '5a' at column 1"),
        ("m", "suit letter 'm' has no digits before it at column 1"),
    ],
)
def test_parse_tiles_errors_say_what_and_where(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_tiles(text)


def test_format_tiles_is_compact() -> None:
    assert format_tiles(parse_tiles("1m 2m 3m 5p E E 1f 2f 1a")) == "123m5pEE12f1a"


def test_melds() -> None:
    assert parse_meld("[123m]") == chow(Tile.M1)
    assert parse_meld("[555p]") == pong(Tile.P5)
    assert parse_meld("[5555p]") == kong(Tile.P5)
    assert parse_meld("{5555p}") == kong(Tile.P5, concealed=True)
    assert format_meld(kong(Tile.P5, concealed=True)) == "{5555p}"
    assert parse_meld("[312m]").kind is MeldKind.CHOW
    with pytest.raises(NotationError, match="not a chow, pong or kong"):
        parse_meld("[124m]")
    with pytest.raises(NotationError, match="not a chow, pong or kong"):
        parse_meld("[EFC]")
    with pytest.raises(NotationError, match="concealed kong"):
        parse_meld("{555p}")


def test_hand_example_from_rules() -> None:
    h = parse_hand("23s55p [123m] [456m] [789p] +4s /1f1a")
    assert h.concealed == (Tile.P5, Tile.P5, Tile.S2, Tile.S3)
    assert h.melds == (chow(Tile.M1), chow(Tile.M4), chow(Tile.P7))
    assert h.winning_tile is Tile.S4
    assert h.bonus == (Tile.PLUM, Tile.CAT)
    assert format_hand(h) == "55p23s [123m] [456m] [789p] +4s /1f1a"
    assert parse_hand(format_hand(h)) == h


def test_hand_with_concealed_kong_and_no_winning_tile() -> None:
    h = parse_hand("123m456p78s99s {EEEE}")
    assert h.winning_tile is None
    assert h.concealed_kongs == (kong(Tile.EAST, concealed=True),)
    assert h.is_closed


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("11111m22m33m44m5m +5m", "five copies of 1m"),
        ("123m456m789m1122p +3p3p", "'\\+' takes exactly one winning tile, got 2 at column 19"),
        ("123m456m789m11223p +3p", "a winning hand needs 14 tiles, got 15"),
        ("123m456m789m1p +3p", "a winning hand needs 14 tiles, got 11"),
        ("123m456m789m11p2X +3p", "unknown tile 'X' at column 17"),
        ("123m456m789m1f1p +1p", "bonus tile 1f belongs after '/' at column 13"),
        ("123m456m789m112p +3p /1f1f", "two copies of 1f"),
        ("123m456m789m112p +3p /5m", "5m is not a bonus tile at column 23"),
        ("123m456m789m112p +1f", "bonus tile"),
        ("123m456m789m112p [123m", "unclosed"),
    ],
)
def test_hand_errors(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_hand(text)


_tile = st.sampled_from(PLAYING_TILES)


@st.composite
def hands(draw: st.DrawFn) -> Hand:
    """Random valid hands: some melds, concealed tiles, maybe a winning tile and bonus tiles."""
    pool = {t: 4 for t in PLAYING_TILES}
    melds = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["chow", "pong", "kong", "ckong"]))
        if kind == "chow":
            start = draw(st.sampled_from([t for t in PLAYING_TILES if t.is_suited and t.rank <= 7]))
            need = [start, Tile(start + 1), Tile(start + 2)]
            if all(pool[t] >= 1 for t in need):
                for t in need:
                    pool[t] -= 1
                melds.append(chow(start))
        else:
            t = draw(_tile)
            n = 3 if kind == "pong" else 4
            if pool[t] >= n:
                pool[t] -= n
                melds.append(pong(t) if kind == "pong" else kong(t, concealed=kind == "ckong"))
    concealed = []
    while len(concealed) + 3 * len(melds) < 13:
        t = draw(_tile)
        if pool[t]:
            pool[t] -= 1
            concealed.append(t)
    winning = None
    if draw(st.booleans()):
        choices = [t for t in PLAYING_TILES if pool[t]]
        winning = draw(st.sampled_from(choices))
    bonus = draw(st.lists(st.sampled_from(ALL_TILES[34:]), unique=True, max_size=6))
    return Hand(tuple(concealed), tuple(melds), winning, tuple(bonus))


@settings(max_examples=300, suppress_health_check=[HealthCheck.large_base_example, HealthCheck.too_slow])
@given(hands())
def test_hand_notation_round_trips(hand: Hand) -> None:
    text = format_hand(hand)
    assert parse_hand(text) == hand
    assert format_hand(parse_hand(text)) == text
    assert parse_hand(text.replace(" ", "")) == hand


@settings(max_examples=300)
@given(st.lists(st.sampled_from(ALL_TILES), max_size=20))
def test_tile_list_round_trips(tiles: list[Tile]) -> None:
    assert parse_tiles(format_tiles(tiles)) == tiles
    assert parse_tiles(" ".join(t.notation for t in tiles)) == tiles

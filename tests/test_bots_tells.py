"""What a seat's discards tell (``bots/tells.py``): the features of a face, a deal by the tells that
keeps every tile and gives each seat its count, and that gives a seat the faces its discards rule
nearly out far less often than a uniform deal does."""

from __future__ import annotations

import random
from typing import Any

from sgmahjong.bots.determinise import deal_hidden, knowledge, table
from sgmahjong.bots.expert import ExpertBot
from sgmahjong.bots.tells import FACTORS, FLOOR, feature, seat_weights, stage
from sgmahjong.game import Action, HandState
from sgmahjong.rules import RuleSet
from sgmahjong.tiles import NUM_PLAYING, Tile
from tests.test_bots_expert import _play

RULES = RuleSet()


def test_the_features_of_a_face() -> None:
    assert [stage(n) for n in (0, 2, 3, 5, 6, 9, 10, 30)] == [0, 0, 1, 1, 2, 2, 3, 3]
    thrown = [Tile.EAST, Tile.P5, Tile.M1]
    # East for South's seat (seat wind 1) in an East round: it scores, the seat threw one, 2 unseen
    assert feature(thrown, Tile.EAST, 2, 1, 0) == (0, 1, 1, 2, 1)
    assert feature(thrown, Tile.NORTH, 4, 1, 0) == (0, 0, 0, 4, 1)  # neither its wind nor the round's
    assert feature(thrown, Tile.RED, 3, 1, 0) == (0, 1, 0, 3, 1)  # a dragon always scores
    assert feature(thrown, Tile.P6, 3, 1, 0) == (1, 2, 1, 1)  # a middle tile, one rank from the 5p thrown
    assert feature(thrown, Tile.M2, 3, 1, 0) == (1, 1, 1, 1)  # a 2, one rank from the 1m
    assert feature(thrown, Tile.S9, 3, 1, 0) == (1, 0, 3, 1)  # no bamboo thrown: as far as it gets
    assert feature(thrown, Tile.P1, 3, 1, 0) == (1, 0, 3, 1)  # four ranks from the 5p


def test_the_factors_read_as_a_player_plays() -> None:
    """The measured table says what a player's discards mean: an honour a seat threw, with one copy
    left unseen, is hardly ever in its hand; a middle tile far from its discards late in the hand is
    more likely there than a uniform deal says. Every factor is at least the floor."""
    assert FACTORS[(0, 1, 1, 1, 2)] < 0.1
    assert FACTORS[(1, 2, 3, 3)] > 1.2
    assert min(FACTORS.values()) >= FLOOR
    weights = seat_weights([Tile.RED] * 1, [4 if t != Tile.RED else 1 for t in range(46)], 0, 0)
    assert len(weights) == NUM_PLAYING and weights[Tile.RED] == FACTORS[(0, 1, 1, 1, 0)]


def test_a_told_deal_keeps_every_tile_and_gives_the_faces_a_seat_threw_less_often() -> None:
    """At decisions of strong hands a deal by the tells deals every unseen tile once, each seat as many
    as it hides; over many deals a seat holds faces its tells weigh at most 0.2 under half as often as
    in uniform deals of the same tiles. The expert with ``tells`` decides on such deals."""
    held = {False: 0, True: 0}
    checked = 0

    def check(state: HandState, seat: int, view: dict[str, Any], legal: list[Action]) -> None:
        nonlocal checked
        if checked >= 8 or len(state.seats[seat].discards) < 6 or not any(a.kind == "discard" for a in legal):
            return
        checked += 1
        k = knowledge(view)
        told = table(k, RULES, tells=True).tells
        for tells in (False, True):
            tb = table(k, RULES, tells=tells)
            rng = random.Random(checked)
            for _ in range(200):
                hands, wall = deal_hidden(tb, rng)
                assert sorted([*(t for h in hands for t in h), *wall]) == sorted([*tb.playing, *tb.bonus])
                assert [len(h) for h in hands] == list(k.hidden)
                held[tells] += sum(1 for o in range(4) if k.hidden[o] for t in hands[o] if told[o][t] <= 0.2)
        if checked == 1:
            bot = ExpertBot(checked, RULES, budget_ms=None, max_rounds=8, tells=True)
            assert bot.choose(view, legal) in legal

    for seed in (401, 402, 403):
        _play(seed, check, ("strong",) * 4)
    assert checked == 8
    assert held[False] > 100
    assert held[True] < held[False] / 2

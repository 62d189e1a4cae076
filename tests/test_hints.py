"""Properties of the beginner hints (``sgmahjong.hints``): the waits are exactly the tiles completing
the hand, each scored by the scorer itself, and the unseen counts never go below zero."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from sgmahjong.analysis.shanten import shanten
from sgmahjong.hand import Hand
from sgmahjong.hints import seat_hints, visible_counts
from sgmahjong.rules import RuleSet
from sgmahjong.scoring import WinContext, score
from sgmahjong.tiles import NUM_PLAYING, Tile, full_set


def counts_of(tiles: list[Tile]) -> list[int]:
    counts = [0] * NUM_PLAYING
    for t in tiles:
        counts[t] += 1
    return counts


def ready_hand(rng: random.Random) -> list[Tile]:
    """Four sets and a pair, less one tile: a ready hand (its waits include the tile taken out)."""
    counts = [0] * NUM_PLAYING
    tiles: list[Tile] = []
    while len(tiles) < 12:
        if rng.random() < 0.5:
            start = rng.choice([s * 9 + r for s in range(3) for r in range(7)])
            group = [start, start + 1, start + 2]
        else:
            group = [rng.randrange(NUM_PLAYING)] * 3
        if all(counts[t] + group.count(t) <= 4 for t in group):
            for t in group:
                counts[t] += 1
            tiles.extend(Tile(t) for t in group)
    pair = rng.choice([t for t in range(NUM_PLAYING) if counts[t] <= 2])
    tiles += [Tile(pair), Tile(pair)]
    tiles.pop(rng.randrange(len(tiles)))
    return tiles


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.booleans(), st.integers(0, 3), st.integers(0, 3))
def test_waits_are_the_completing_tiles_scored_by_the_scorer(
    seed: int, ready: bool, seat_wind: int, prevailing: int
) -> None:
    rng = random.Random(seed)
    playing = [t for t in full_set() if t < NUM_PLAYING]
    rng.shuffle(playing)
    concealed = ready_hand(rng) if ready else playing[:13]
    pool = counts_of(concealed)  # the copies still free to be seen elsewhere
    seen: list[Tile] = []
    for t in playing:
        if len(seen) < 27 and pool[t] < 4:
            pool[t] += 1
            seen.append(t)
    visible = visible_counts([seen], [])
    rules = RuleSet()
    h = seat_hints(concealed, (), (), seat_wind, prevailing, visible, rules)
    counts = counts_of(concealed)
    assert h["shanten"] == shanten(counts)
    assert not ready or h["shanten"] == 0
    completing = set()
    if h["shanten"] == 0:
        for t in range(NUM_PLAYING):
            if counts[t] < 4:
                counts[t] += 1
                if shanten(counts) == -1:
                    completing.add(Tile(t).notation)
                counts[t] -= 1
    assert {w["tile"] for w in h["waits"]} == completing
    for w in h["waits"]:
        tile = next(Tile(i) for i in range(NUM_PLAYING) if Tile(i).notation == w["tile"])
        assert w["unseen"] == max(0, 4 - counts[tile] - visible[tile]) >= 0
        hand = Hand(tuple(concealed), (), tile, ())
        for self_drawn, key in ((False, "discard"), (True, "self_drawn")):
            ctx = WinContext(seat_wind=seat_wind, prevailing_wind=prevailing, self_drawn=self_drawn)
            r = score(hand, ctx, rules)
            assert (w[key]["valid"], w[key]["tai"]) == (r.valid, r.tai)

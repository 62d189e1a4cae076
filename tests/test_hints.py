"""Properties of the beginner hints (``sgmahjong.hints``): the waits are exactly the tiles completing
the hand, each scored by the scorer itself, the unseen counts never go below zero, and a wait with no
copy left unseen (all four in the seat's own tiles and sets, or visible elsewhere) is dead, not offered."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from sgmahjong.analysis.shanten import shanten
from sgmahjong.hand import Hand
from sgmahjong.hints import ready_hints, seat_hints, visible_counts
from sgmahjong.melds import Meld, chow, kong, pong
from sgmahjong.notation import parse_hand, parse_tile, parse_tiles
from sgmahjong.rules import RuleSet
from sgmahjong.scoring import WinContext, score
from sgmahjong.tiles import NUM_PLAYING, Tile, full_set


def counts_of(tiles: list[Tile]) -> list[int]:
    counts = [0] * NUM_PLAYING
    for t in tiles:
        counts[t] += 1
    return counts


def completing_tiles(counts: list[int]) -> list[int]:
    """The tiles (of which the hand holds fewer than four) that complete a 3n+1 hand."""
    return [t for t in range(NUM_PLAYING)
            if counts[t] < 4 and shanten([c + (i == t) for i, c in enumerate(counts)]) == -1]


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
    completing = {Tile(t).notation for t in completing_tiles(counts)} if h["shanten"] == 0 else set()
    four = {Tile(t).notation for t in range(NUM_PLAYING) if counts[t] == 4}  # a shape wait, but dead
    assert ({w["tile"] for w in h["waits"]} | set(h["dead"])) - four == completing
    for d in h["dead"]:  # every copy seen: dead
        assert counts[parse_tile(d)] + visible[parse_tile(d)] == 4
    for w in h["waits"]:
        tile = parse_tile(w["tile"])
        assert w["unseen"] == 4 - counts[tile] - visible[tile] > 0
        hand = Hand(tuple(concealed), (), tile, ())
        for self_drawn, key in ((False, "discard"), (True, "self_drawn")):
            ctx = WinContext(seat_wind=seat_wind, prevailing_wind=prevailing, self_drawn=self_drawn)
            r = score(hand, ctx, rules)
            assert (w[key]["valid"], w[key]["tai"]) == (r.valid, r.tai)


def test_a_wait_the_seat_holds_all_four_of_is_dead_not_offered() -> None:
    """The repro of a live table's crash: ready on 7p with a pong of 7p (a fifth 7p cannot be built)."""
    h = parse_hand("333444555m7p[777p]")
    ready = ready_hints(h.concealed, h.melds, h.bonus, 0, 0, RuleSet())
    assert (ready["shanten"], ready["waits"], ready["dead"]) == (0, [], ["7p"])
    seat = seat_hints(h.concealed, h.melds, h.bonus, 0, 0, visible_counts([], [h.melds]), RuleSet())
    assert (seat["waits"], seat["dead"]) == ([], ["7p"])


def test_a_wait_every_copy_of_which_is_seen_elsewhere_is_dead() -> None:
    concealed = parse_tiles("123m456m789p4588s")  # waits on 3s and 6s
    visible = visible_counts([parse_tiles("3s3s3s3s")], [[pong(parse_tile("6s"))]])  # discards, a set
    h = seat_hints(concealed, (), (), 0, 0, visible, RuleSet())
    assert [(w["tile"], w["unseen"]) for w in h["waits"]] == [("6s", 1)]
    assert h["dead"] == ["3s"]
    visible[parse_tile("6s")] += 1
    h = seat_hints(concealed, (), (), 0, 0, visible, RuleSet())
    assert (h["waits"], h["dead"]) == ([], ["3s", "6s"])


def _seat_state(rng: random.Random) -> tuple[list[Tile], list[Meld], list[Tile], Tile | None, list[int]]:
    """A seat's reachable tiles: sets (chows, pongs, exposed and concealed kongs), a concealed part of
    13 - 3 per set tiles (ready half the time, and then often with a set of one of its waits, the shape
    that crashed), perhaps a drawn tile, bonus tiles, and what the seat sees: its own sets, the other
    seats' sets and the discards (never more than four copies of a tile in all)."""
    pool = [4] * NUM_PLAYING
    n_sets = rng.randrange(5)
    concealed: list[Tile] = []
    if rng.random() < 0.5:
        concealed = ready_hand(rng)[: 13 - 3 * n_sets - 1] if n_sets else ready_hand(rng)
    for t in concealed:
        pool[t] -= 1
    counts = counts_of(concealed)
    shape = completing_tiles(counts) if len(concealed) % 3 == 1 else []
    melds: list[Meld] = []
    while len(melds) < n_sets:
        face = rng.choice(shape) if shape and rng.random() < 0.5 else rng.randrange(NUM_PLAYING)
        kind = rng.choice(("chow", "pong", "kong", "concealed kong"))
        if kind == "chow" and face < 27 and face % 9 <= 6:
            m, need = chow(Tile(face)), [face, face + 1, face + 2]
        elif kind == "pong":
            m, need = pong(Tile(face)), [face] * 3
        elif kind in ("kong", "concealed kong"):
            m, need = kong(Tile(face), concealed=kind == "concealed kong"), [face] * 4
        else:
            continue
        if all(pool[x] >= need.count(x) for x in need):
            for x in need:
                pool[x] -= 1
            melds.append(m)
    free = [Tile(t) for t in range(NUM_PLAYING) for _ in range(pool[t])]
    rng.shuffle(free)
    while len(concealed) < 13 - 3 * len(melds):
        concealed.append(free.pop())
    drawn = free.pop() if rng.random() < 0.5 else None
    if drawn is not None:
        concealed.append(drawn)
    others: list[Meld] = []  # the other seats' sets
    for _ in range(rng.randrange(6)):
        face = rng.choice(free)
        m = rng.choice((pong(face), kong(face), kong(face, concealed=True)))
        if free.count(face) >= len(m.tiles):
            for t in m.tiles:
                free.remove(t)
            others.append(m)
    discards = [free.pop() for _ in range(rng.randrange(min(60, len(free)) + 1))]
    bonus = rng.sample([t for t in full_set() if t >= NUM_PLAYING], rng.randrange(5))
    return sorted(concealed), melds, bonus, drawn, visible_counts([discards], [melds, others])


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 3), st.integers(0, 3))
def test_seat_hints_never_raise_and_offer_only_waits_with_an_unseen_copy(
    seed: int, seat_wind: int, prevailing: int
) -> None:
    concealed, melds, bonus, drawn, visible = _seat_state(random.Random(seed))
    h = seat_hints(concealed, melds, bonus, seat_wind, prevailing, visible, RuleSet(), drawn=drawn)
    before = list(concealed)
    if drawn is not None:
        before.remove(drawn)
    counts = counts_of(before)
    held = counts_of(concealed)
    completing = set()
    if h["shanten"] == 0 and len(before) % 3 == 1:
        completing = {Tile(t).notation for t in completing_tiles(counts)}
    four = {Tile(t).notation for t in range(NUM_PLAYING) if counts[t] == 4}  # a shape wait, but dead
    assert ({w["tile"] for w in h["waits"]} | set(h["dead"])) - four == completing
    assert not {w["tile"] for w in h["waits"]} & set(h["dead"])
    for w in h["waits"]:
        tile = parse_tile(w["tile"])
        assert w["unseen"] == 4 - held[tile] - visible[tile] >= 1
        parse_hand(w["hand"])  # a hand the scorer takes
    for d in h["dead"]:
        tile = parse_tile(d)
        assert held[tile] + visible[tile] >= 4

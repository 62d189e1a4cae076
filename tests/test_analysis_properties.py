"""Hypothesis properties: the table-driven analysis against slow brute-force references written here."""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement

from hypothesis import given, settings
from hypothesis import strategies as st

from sgmahjong.analysis.decompose import CHOW, PONG, decompositions, is_standard_complete
from sgmahjong.analysis.shanten import (
    best_discards,
    discard_shanten,
    shanten,
    shanten_standard,
    shanten_thirteen,
    useful_tiles,
)
from sgmahjong.analysis.special import ORPHANS, is_thirteen_wonders
from sgmahjong.analysis.waits import live_waits, waits

# -- brute-force references -----------------------------------------------------------------------


def ref_decompositions(counts: list[int]) -> set[tuple[int, tuple[tuple[int, int], ...]]]:
    """Every (pair, sorted sets): pick the pair, then peel sets off the lowest remaining tile."""
    out: set[tuple[int, tuple[tuple[int, int], ...]]] = set()
    if sum(counts) % 3 != 2:
        return out

    def peel(c: list[int], acc: list[tuple[int, int]], pair: int) -> None:
        i = next((k for k in range(34) if c[k]), -1)
        if i < 0:
            out.add((pair, tuple(sorted(acc))))
            return
        if c[i] >= 3:
            c[i] -= 3
            peel(c, [*acc, (PONG, i)], pair)
            c[i] += 3
        if i < 27 and i % 9 < 7 and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            peel(c, [*acc, (CHOW, i)], pair)
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1

    for p in range(34):
        if counts[p] >= 2:
            work = list(counts)
            work[p] -= 2
            peel(work, [], p)
    return out


def ref_complete(counts: list[int]) -> bool:
    return bool(ref_decompositions(counts))


def ref_thirteen(counts: list[int]) -> bool:
    return sum(counts) == 14 and all(counts[i] >= 1 for i in ORPHANS) and sum(
        counts[i] for i in ORPHANS
    ) == 14


def ref_waits(counts: list[int]) -> list[int]:
    out = []
    for t in range(34):
        work = list(counts)
        work[t] += 1
        if ref_complete(work) or ref_thirteen(work):
            out.append(t)
    return out


def ref_shanten_blocks(counts: list[int]) -> int:
    """Classic block formula over the whole hand: 2n - max(2m + t + p), m + t <= n."""
    n = sum(counts) // 3
    best = 0

    def go(c: list[int], i: int, m: int, t: int, p: int) -> None:
        nonlocal best
        while i < 34 and c[i] == 0:
            i += 1
        if i == 34:
            v = 2 * m + min(t, n - m) + p
            best = max(best, v)
            return
        suited = i < 27
        r = i % 9
        if c[i] >= 3:
            c[i] -= 3
            go(c, i, m + 1, t, p)
            c[i] += 3
        if suited and r < 7 and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            go(c, i, m + 1, t, p)
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1
        if c[i] >= 2:
            c[i] -= 2
            go(c, i, m, t + 1, p)
            if not p:
                go(c, i, m, t, 1)
            c[i] += 2
        for d in (1, 2):
            if suited and r + d < 9 and c[i + d]:
                c[i] -= 1
                c[i + d] -= 1
                go(c, i, m, t + 1, p)
                c[i] += 1
                c[i + d] += 1
        c[i] -= 1
        go(c, i, m, t, p)
        c[i] += 1

    go(list(counts), 0, 0, 0, 0)
    return 2 * n - best


@cache
def _targets(universe: tuple[int, ...], n: int) -> list[tuple[tuple[int, int], ...]]:
    """Every complete hand of n sets and a pair over ``universe`` (copies unlimited), sparse."""
    uni = set(universe)
    shapes = [(t, t, t) for t in universe]
    shapes += [(t, t + 1, t + 2) for t in universe if t < 27 and t % 9 < 7 and {t + 1, t + 2} <= uni]
    out = []
    for combo in combinations_with_replacement(shapes, n):
        for pair in universe:
            c: dict[int, int] = {pair: 2}
            for shape in combo:
                for t in shape:
                    c[t] = c.get(t, 0) + 1
            out.append(tuple(c.items()))
    return out


def ref_shanten_swaps(counts: list[int], universe: tuple[int, ...]) -> int:
    """The definition: min over complete hands T of |T - H|, less one. ``universe`` must hold whole
    suits and every honour of the hand (then some best T lies inside it)."""
    n = sum(counts) // 3
    return min(sum(max(0, k - counts[t]) for t, k in target) for target in _targets(universe, n)) - 1


# -- strategies -----------------------------------------------------------------------------------

ALL = tuple(range(34))
ONE_SUIT_AND_HONOURS = (*range(9), 27, 31)
TWO_SUITS_AND_HONOURS = (*range(18), 27, 31)
SHAPES = [(PONG, t) for t in range(34)] + [(CHOW, t) for t in range(27) if t % 9 < 7]


@st.composite
def random_hand(draw: st.DrawFn, size: int, universe: tuple[int, ...] = ALL) -> list[int]:
    """A random multiset of ``size`` tiles from ``universe``, at most four copies each."""
    pool = [t for t in universe for _ in range(4)]
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size, unique=True))
    counts = [0] * 34
    for i in picks:
        counts[pool[i]] += 1
    return counts


@st.composite
def complete_hand(draw: st.DrawFn, n_sets: int = 4, suits: int = 3) -> list[int]:
    """n sets and a pair (at most four copies), drawn from ``suits`` suits (plus honours)."""
    allowed = [s for s in SHAPES if s[1] >= 27 or s[1] < 9 * suits]
    while True:
        counts = [0] * 34
        for kind, t in draw(st.lists(st.sampled_from(allowed), min_size=n_sets, max_size=n_sets)):
            for x in (t, t, t) if kind == PONG else (t, t + 1, t + 2):
                counts[x] += 1
        pair = draw(st.sampled_from([t for t in range(34) if t >= 27 or t < 9 * suits]))
        counts[pair] += 2
        if max(counts) <= 4:
            return counts


@st.composite
def hand_14(draw: st.DrawFn) -> list[int]:
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return draw(random_hand(14))
    if kind == 1:
        return draw(random_hand(14, ONE_SUIT_AND_HONOURS))
    return draw(complete_hand(4, draw(st.integers(1, 3))))


@st.composite
def hand_13(draw: st.DrawFn) -> list[int]:
    """Thirteen tiles: random, or a complete hand less one tile (mostly ready)."""
    if draw(st.booleans()):
        return draw(random_hand(13, draw(st.sampled_from([ALL, ONE_SUIT_AND_HONOURS]))))
    counts = draw(hand_14())
    held = [t for t in range(34) if counts[t]]
    counts[draw(st.sampled_from(held))] -= 1
    return counts


# -- properties -----------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(hand_14())
def test_complete_and_decompositions_agree(counts: list[int]) -> None:
    ref = ref_decompositions(counts)
    got = decompositions(counts)
    assert {(d.pair, d.sets) for d in got} == ref
    assert len(got) == len(ref)  # each once
    assert got == sorted(got)
    assert is_standard_complete(counts) == bool(ref)
    assert is_thirteen_wonders(counts) == ref_thirteen(counts)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([2, 5, 8, 11]).flatmap(lambda n: random_hand(n, ONE_SUIT_AND_HONOURS)))
def test_decompositions_agree_with_melds(counts: list[int]) -> None:
    """Hands with exposed melds pass fewer concealed tiles."""
    ref = ref_decompositions(counts)
    assert {(d.pair, d.sets) for d in decompositions(counts)} == ref
    assert is_standard_complete(counts) == bool(ref)
    assert (shanten(counts) == -1) == bool(ref)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 4).flatmap(lambda n: complete_hand(n, 1)))
def test_small_complete_hands(counts: list[int]) -> None:
    assert is_standard_complete(counts)
    assert {(d.pair, d.sets) for d in decompositions(counts)} == ref_decompositions(counts)
    assert shanten(counts) == -1


@settings(max_examples=200, deadline=None)
@given(hand_13())
def test_waits_agree(counts: list[int]) -> None:
    got = waits(counts)
    assert got == ref_waits(counts)
    assert live_waits(counts) == [t for t in got if counts[t] < 4]
    assert (shanten(counts) == 0) == bool(got)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from([1, 4, 7, 10]).flatmap(lambda n: random_hand(n, ONE_SUIT_AND_HONOURS)))
def test_waits_agree_small(counts: list[int]) -> None:
    assert waits(counts) == ref_waits(counts)


@settings(max_examples=120, deadline=None)
@given(
    st.sampled_from([2, 4, 5, 7, 8]).flatmap(lambda n: random_hand(n, TWO_SUITS_AND_HONOURS))
)
def test_shanten_is_min_swaps_two_suits(counts: list[int]) -> None:
    assert shanten(counts) == ref_shanten_swaps(counts, TWO_SUITS_AND_HONOURS)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([10, 11]).flatmap(lambda n: random_hand(n, ONE_SUIT_AND_HONOURS)))
def test_shanten_is_min_swaps_one_suit(counts: list[int]) -> None:
    assert shanten(counts) == ref_shanten_swaps(counts, ONE_SUIT_AND_HONOURS)


def ref_shanten_thirteen(counts: list[int]) -> int:
    """min |T - H| - 1 over the 13 thirteen-wonders hands T (one per doubled tile)."""
    best = 99
    for pair in ORPHANS:
        need = sum(max(0, (2 if t == pair else 1) - counts[t]) for t in ORPHANS)
        best = min(best, need)
    return best - 1


NEAR_ORPHANS = (*ORPHANS, 1, 7, 13, 25)


@settings(max_examples=150, deadline=None)
@given(
    st.one_of(
        hand_13(),
        hand_14(),
        st.sampled_from([13, 14]).flatmap(lambda n: random_hand(n, NEAR_ORPHANS)),
    )
)
def test_shanten_matches_block_formula_and_thirteen(counts: list[int]) -> None:
    std = ref_shanten_blocks(counts)
    assert shanten_standard(counts) == std
    assert shanten_thirteen(counts) == ref_shanten_thirteen(counts)
    assert shanten(counts) == min(std, ref_shanten_thirteen(counts))


@settings(max_examples=150, deadline=None)
@given(hand_14())
def test_shanten_minus_one_iff_complete(counts: list[int]) -> None:
    assert (shanten(counts) == -1) == (ref_complete(counts) or ref_thirteen(counts))


@settings(max_examples=60, deadline=None)
@given(st.one_of(hand_13(), random_hand(13, NEAR_ORPHANS), random_hand(7, ONE_SUIT_AND_HONOURS)))
def test_draws_and_discards(counts: list[int]) -> None:
    s = shanten(counts)
    useful = useful_tiles(counts)
    for t in range(34):
        work = list(counts)
        work[t] += 1
        after = shanten(work)
        # a draw lowers shanten by one (a useful tile) or leaves it
        assert after == (s - 1 if t in useful else s)
        # after draw and discard the hand is never more than one step better than before
        by_tile = discard_shanten(work)
        assert min(by_tile.values()) >= s - 1
        assert min(by_tile.values()) == max(after, 0)
        assert all(by_tile[d] == min(by_tile.values()) for d in best_discards(work))

"""The bots' distance arithmetic agrees with brute force on complete and waiting hands."""

from __future__ import annotations

import random
from collections.abc import Callable

from sgmahjong.analysis.decompose import is_standard_complete
from sgmahjong.bots import efficiency as ef
from sgmahjong.bots.tactics import acceptance, discard_distances, waits
from sgmahjong.notation import parse_tiles
from sgmahjong.tiles import counts34


def _c(text: str) -> list[int]:
    return counts34(parse_tiles(text))


def _random_near_complete(rng: random.Random, n_tiles: int) -> list[int]:
    """A random hand built mostly from sets (so that waiting and complete hands are common)."""
    counts = [0] * 34
    while sum(counts) < n_tiles:
        left = n_tiles - sum(counts)
        kind = rng.random()
        t = rng.randrange(34)
        if left >= 3 and kind < 0.4 and t < 27 and t % 9 <= 6:
            block = [t, t + 1, t + 2]
        elif left >= 3 and kind < 0.6:
            block = [t] * 3
        elif left >= 2 and kind < 0.8:
            block = [t, t]
        else:
            block = [t]
        if all(counts[x] + block.count(x) <= 4 for x in block):
            for x in block:
                counts[x] += 1
    return counts


def test_known_shanten_values() -> None:
    assert ef.shanten(_c("123m456m789m123p55s")) == -1
    assert ef.shanten(_c("123m456m789m123p5s")) == 0
    assert ef.shanten(_c("13m456m789m123p5s")) == 1
    assert ef.shanten(_c("19m19p19sESWNCFP")) == 0
    assert ef.shanten(_c("19m19p19sESWNCFPP")) == -1
    assert ef.shanten(_c("1m"), 4) == 0
    assert ef.shanten(_c("11m"), 4) == -1
    assert ef.shanten(_c("123m456m789m11p22p")) == 0


def test_distance_zero_iff_complete() -> None:
    rng = random.Random(5)
    for _ in range(400):
        counts = _random_near_complete(rng, 14)
        assert (ef.distance(counts) == 0) == is_standard_complete(counts), counts


def test_distance_one_iff_some_tile_completes() -> None:
    rng = random.Random(6)
    seen_waiting = 0
    for _ in range(300):
        counts = _random_near_complete(rng, 13)
        brute = False
        for t in range(34):
            if counts[t] < 4:
                counts[t] += 1
                brute = brute or is_standard_complete(counts)
                counts[t] -= 1
        seen_waiting += brute
        d = ef.distance(counts)
        assert (d == 1) == brute or (d == 1 and any(c == 4 for c in counts)), counts
    assert seen_waiting > 20


def test_discard_distances_match_full_recomputation() -> None:
    rng = random.Random(7)
    for _ in range(100):
        counts = _random_near_complete(rng, 14)
        dd = discard_distances(counts, 0)
        for t, d in dd.items():
            counts[t] -= 1
            assert d == ef.distance(counts)
            counts[t] += 1


def test_waits_and_acceptance() -> None:
    counts = _c("123m456m789m23p55s")
    assert sorted(waits(counts, 0)) == [9, 12]  # 1p and 4p
    d, acc = acceptance(counts, 0, lambda t: 4 - counts[t])
    assert d == 1 and acc == 8
    pong_wait = _c("123m456m789m55p55s")
    d, acc = acceptance(pong_wait, 0, lambda t: 4 - pong_wait[t])
    assert d == 1 and acc == 4


def test_fast_waits_match_brute_force() -> None:
    from sgmahjong.bots.tactics import fast_waits

    rng = random.Random(8)
    for _ in range(200):
        counts = _random_near_complete(rng, 13)
        assert sorted(fast_waits(counts, 0)) == sorted(waits(counts, 0)), counts
    assert sorted(fast_waits(_c("19m19p19sESWNCFP"), 0)) == [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]


def _random_terminal_heavy(rng: random.Random, n_tiles: int) -> list[int]:
    """A hand drawn mostly from terminals and honours (thirteen wonders is often the nearer shape)."""
    counts = [0] * 34
    pool = list(ef._TERMINALS)
    while sum(counts) < n_tiles:
        t = rng.choice(pool) if rng.random() < 0.8 else rng.randrange(34)
        if counts[t] < 4:
            counts[t] += 1
    return counts


def test_discard_table_matches_distances_and_acceptance() -> None:
    from sgmahjong.bots.tactics import discard_table, hand_acceptance

    rng = random.Random(9)
    for i in range(600):
        n_melds = rng.choice((0, 0, 0, 1, 2))
        size = 14 - 3 * n_melds
        counts = (_random_terminal_heavy if i % 4 == 0 else _random_near_complete)(rng, size)
        live = [rng.randrange(5) for _ in range(34)]
        held = [t for t in range(34) if counts[t]]
        cands = set(rng.sample(held, rng.randrange(1, len(held) + 1))) if i % 3 == 0 else None
        thirteen = n_melds == 0 and i % 5 != 0
        dist, acc = discard_table(counts, n_melds, live, thirteen, cands)
        ref = discard_distances(counts, n_melds)
        if thirteen:
            for t in ref:
                counts[t] -= 1
                ref[t] = min(ref[t], ef.thirteen_distance(counts))
                counts[t] += 1
        assert dist == ref
        pool = [t for t in ref if cands is None or t in cands]
        best = min(ref[t] for t in pool)
        want = {}
        for t in pool:
            if ref[t] == best:
                counts[t] -= 1
                # acceptance considers thirteen wonders exactly when no set is exposed
                if thirteen or n_melds:
                    want[t] = acceptance(counts, n_melds, live.__getitem__)[1]
                counts[t] += 1
        if thirteen or n_melds:
            assert acc == want, counts
        assert discard_table(counts, n_melds, live, thirteen, cands, limit=best - 1)[1] == {}
        counts13 = list(counts)
        counts13[held[0]] -= 1
        assert hand_acceptance(counts13, n_melds, live) == acceptance(counts13, n_melds, live.__getitem__)


def _suit_and_honours(lo: int) -> Callable[[int], bool]:
    return lambda t: lo <= t < lo + 9 or t >= 27


def test_discard_distances_by_mode_and_usable_tiles() -> None:
    rng = random.Random(10)
    for i in range(300):
        counts = _random_near_complete(rng, 14)
        mode = (ef.ALL, ef.PONGS, ef.CHOWS)[i % 3]
        lo = 9 * rng.randrange(3)
        usable = _suit_and_honours(lo) if i % 2 else None
        dd = discard_distances(counts, 0, mode, usable)
        assert set(dd) == {t for t in range(34) if counts[t]}
        for t, d in dd.items():
            counts[t] -= 1
            work = [c if usable is None or usable(x) else 0 for x, c in enumerate(counts)]
            assert d == ef.distance(work, 0, mode)
            counts[t] += 1

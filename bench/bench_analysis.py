"""Hand-analysis speed: complete-hand detection, decompositions, shanten and waits, in hands/s.

A fixed seeded set of hands: 14-tile hands (half random draws from a full set, half complete hands
built from random sets and a pair) and 13-tile hands (half random, half a complete hand less one
tile, mostly ready). Each figure is the best of a few passes after a first, cold pass (the cold pass
fills the lazily memoised tables; its rate is printed too). The same standard-hand work is timed
with the ``mahjong`` PyPI package (riichi rules) when it is installed; its Agari also accepts seven
pairs and its regular shanten treats a fourth held copy specially, so agreement is reported, not
assumed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from sgmahjong.analysis.decompose import decompositions, is_standard_complete
from sgmahjong.analysis.shanten import best_discards, shanten, shanten_standard, useful_tiles
from sgmahjong.analysis.waits import waits

N_HANDS = 20_000
SEED = 20260522
PASSES = 2

Hand = list[int]

_SHAPES = [(t, t, t) for t in range(34)] + [(t, t + 1, t + 2) for t in range(27) if t % 9 < 7]


def _random_hand(rng: random.Random, size: int) -> Hand:
    wall = [t for t in range(34) for _ in range(4)]
    counts = [0] * 34
    for t in rng.sample(wall, size):
        counts[t] += 1
    return counts


def _complete_hand(rng: random.Random) -> Hand:
    while True:
        counts = [0] * 34
        for shape in rng.choices(_SHAPES, k=4):
            for t in shape:
                counts[t] += 1
        counts[rng.randrange(34)] += 2
        if max(counts) <= 4:
            return counts


def make_hands(seed: int = SEED, n: int = N_HANDS) -> tuple[list[Hand], list[Hand]]:
    """(14-tile hands, 13-tile hands), each half random and half built around complete hands."""
    rng = random.Random(seed)
    h14 = [_random_hand(rng, 14) for _ in range(n // 2)] + [_complete_hand(rng) for _ in range(n // 2)]
    h13 = [_random_hand(rng, 13) for _ in range(n // 2)]
    for _ in range(n // 2):
        counts = _complete_hand(rng)
        held = [t for t in range(34) if counts[t]]
        counts[rng.choice(held)] -= 1
        h13.append(counts)
    return h14, h13


def _rate(fn: Callable[[Hand], object], hands: list[Hand]) -> tuple[float, float]:
    """(cold rate, best warm rate) in hands per second."""
    rates = []
    for _ in range(PASSES + 1):
        start = time.perf_counter()
        for h in hands:
            fn(h)
        rates.append(len(hands) / (time.perf_counter() - start))
    return rates[0], max(rates[1:])


def _line(name: str, ours: tuple[float, float], theirs: float | None) -> None:
    cold, warm = ours
    text = f"   {name:<34} {warm:>10,.0f}/s  (cold {cold:>10,.0f}/s)"
    if theirs is not None:
        text += f"   mahjong {theirs:>9,.0f}/s   ours/theirs {warm / theirs:5.1f}x"
    print(text, flush=True)


def main() -> None:
    h14, h13 = make_hands()
    print(f"   {len(h14)} hands of 14 tiles, {len(h13)} of 13 (seed {SEED}), best of {PASSES} warm passes")
    try:
        from mahjong.agari import Agari
        from mahjong.shanten import Shanten
    except ImportError:  # pragma: no cover - bench extra not installed
        Agari = Shanten = None  # type: ignore[assignment,misc]

    theirs: dict[str, float] = {}
    if Agari is not None:
        agari = Agari()
        theirs["complete"] = _rate(agari.is_agari, h14)[1]
        regular = Shanten.calculate_shanten_for_regular_hand
        theirs["shanten14"] = _rate(regular, h14)[1]
        theirs["shanten13"] = _rate(regular, h13)[1]

    _line("complete hand (14 tiles)", _rate(is_standard_complete, h14), theirs.get("complete"))
    _line("decompositions (14 tiles)", _rate(decompositions, h14), None)
    _line("shanten_standard (14 tiles)", _rate(shanten_standard, h14), theirs.get("shanten14"))
    _line("shanten_standard (13 tiles)", _rate(shanten_standard, h13), theirs.get("shanten13"))
    _line("shanten incl. thirteen (13 tiles)", _rate(shanten, h13), None)
    _line("waits (13 tiles)", _rate(waits, h13), None)
    _line("useful_tiles (13 tiles)", _rate(useful_tiles, h13[::4]), None)
    _line("best_discards (14 tiles)", _rate(best_discards, h14[::4]), None)

    n_complete = sum(1 for h in h14 if is_standard_complete(h))
    n_ready = sum(1 for h in h13 if waits(h))
    print(f"   complete 14-tile hands: {n_complete}; ready 13-tile hands: {n_ready}")
    if Agari is not None:
        agree_c = sum(1 for h in h14 if is_standard_complete(h) == agari.is_agari(h))
        agree_s = sum(1 for h in h13 + h14 if shanten_standard(h) == regular(h))
        print(
            f"   agreement with mahjong: complete {agree_c}/{len(h14)} (it also takes seven pairs); "
            f"regular shanten {agree_s}/{len(h13) + len(h14)} (it discounts fourth copies)"
        )


if __name__ == "__main__":
    main()

"""Scoring speed: full scorings per second on a fixed seeded set of winning hands, and the same
concealed standard hands scored by the ``mahjong`` package (riichi rules) side by side.

Run with ``python -m bench scoring``. One core, pure Python; rates are per CPU second of the process
(``time.process_time``), so that other load on a shared machine does not distort them.
"""

from __future__ import annotations

import random
import time
from typing import Any

from sgmahjong.hand import Hand
from sgmahjong.melds import Meld, MeldKind
from sgmahjong.rules import RuleSet
from sgmahjong.scoring import WinContext, score
from sgmahjong.tiles import Tile

SEED = 20261122
N_HANDS = 2000


def _random_hand(rng: random.Random) -> tuple[Hand, WinContext] | None:
    """A random complete hand: four sets and a pair, some sets exposed, some bonus tiles."""
    counts = [0] * 34
    sets: list[tuple[str, int]] = []
    for _ in range(4):
        if rng.random() < 0.6:
            suit = rng.randrange(3)
            t = suit * 9 + rng.randrange(7)
            if any(counts[t + i] >= 4 for i in range(3)):
                return None
            for i in range(3):
                counts[t + i] += 1
            sets.append(("chow", t))
        else:
            t = rng.randrange(34)
            if counts[t] > 1:
                return None
            counts[t] += 3
            sets.append(("pong", t))
    pair = rng.randrange(34)
    if counts[pair] > 2:
        return None
    counts[pair] += 2
    n_exposed = rng.choice((0, 0, 1, 1, 2, 3))
    melds: list[Meld] = []
    concealed: list[Tile] = [Tile(pair), Tile(pair)]
    for i, (kind, t) in enumerate(sets):
        if i < n_exposed:
            if kind == "pong" and counts[t] == 3 and rng.random() < 0.2:
                counts[t] += 1
                melds.append(Meld(MeldKind.KONG, Tile(t), rng.random() < 0.5))
            else:
                melds.append(Meld(MeldKind.CHOW if kind == "chow" else MeldKind.PONG, Tile(t)))
        elif kind == "chow":
            concealed.extend((Tile(t), Tile(t + 1), Tile(t + 2)))
        else:
            concealed.extend((Tile(t),) * 3)
    winning = concealed.pop(rng.randrange(len(concealed)))
    bonus = rng.sample(range(34, 46), rng.choice((0, 0, 1, 2, 3)))
    self_drawn = rng.random() < 0.4
    ctx = WinContext(seat_wind=rng.randrange(4), prevailing_wind=rng.randrange(4), self_drawn=self_drawn)
    return Hand(tuple(concealed), tuple(melds), winning, tuple(Tile(b) for b in bonus)), ctx


def winning_hands(n: int = N_HANDS, seed: int = SEED) -> list[tuple[Hand, WinContext]]:
    """``n`` random winning hands with their contexts, the same for a given seed."""
    rng = random.Random(seed)
    out: list[tuple[Hand, WinContext]] = []
    while len(out) < n:
        got = _random_hand(rng)
        if got is not None:
            out.append(got)
    return out


def _rate(fn: Any, items: list[Any], seconds: float) -> tuple[float, int]:
    """Calls per CPU second of this process (``time.process_time``: the machine may be shared, and
    CPU time is what one core spends), running over ``items`` for about ``seconds`` of CPU."""
    done = 0
    start = time.process_time()
    while True:
        for item in items:
            fn(item)
        done += len(items)
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return done / elapsed, done


def _to_136(hand: Hand) -> tuple[list[int], int]:
    """The 14 tiles in the riichi package's 136 format (tile index x 4 + copy) and the winning tile."""
    used = [0] * 34
    ids: list[int] = []
    win_id = -1
    tiles = list(hand.concealed)
    assert hand.winning_tile is not None
    for t in [*tiles, hand.winning_tile]:
        ids.append(t * 4 + used[t])
        used[t] += 1
    win_id = ids[-1]
    return ids, win_id


def main() -> None:
    rules = RuleSet()
    hands = winning_hands()
    results = [score(h, c, rules) for h, c in hands]
    valid = sum(r.valid for r in results)
    print(f"   {len(hands)} seeded winning hands ({valid} valid at min_tai 1)")
    ours, n = _rate(lambda hc: score(hc[0], hc[1], rules), hands, 3.0)
    print(f"   sgmahjong score(): {ours:,.0f} scorings per CPU second ({n:,} scorings)")

    concealed = [(h, c) for h, c in hands if not h.melds and not h.bonus]
    ours_c, _ = _rate(lambda hc: score(hc[0], hc[1], rules), concealed, 2.0)
    print(f"   concealed standard hands only ({len(concealed)}): sgmahjong {ours_c:,.0f}/s")
    try:
        from mahjong.hand_calculating.hand import HandCalculator
        from mahjong.hand_calculating.hand_config import HandConfig
    except ImportError:
        print("   mahjong package not installed: no comparison")
        return
    calc = HandCalculator()
    config_ron = HandConfig(is_tsumo=False)
    config_tsumo = HandConfig(is_tsumo=True)
    items = [(*_to_136(h), config_tsumo if c.self_drawn else config_ron) for h, c in concealed]

    def theirs(item: tuple[list[int], int, Any]) -> None:
        calc.estimate_hand_value(item[0], item[1], config=item[2])

    rate_m, _ = _rate(theirs, items, 2.0)
    print(f"   mahjong HandCalculator.estimate_hand_value: {rate_m:,.0f}/s on the same hands")
    print(f"   ratio sgmahjong / mahjong: {ours_c / rate_m:.1f}x")


if __name__ == "__main__":
    main()

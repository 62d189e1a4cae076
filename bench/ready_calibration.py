"""How often a seat is ready, by the sum of its learned chances of winning on each face (bots/ready.py).

Plays seeded hands of four ``strong``. At every turn, for every other seat holding 3n+1 concealed
tiles, it sums that seat's learned chance of winning on each playing face (:func:`.ready.wait_chances`,
read from the turn's player view) and asks the engine, from the true hand, whether the seat can win on
a discard of some face now (its shape waits, each checked for a valid win). It prints, by bands of the
sum, the share of seats ready and the mean sum: the points of ``bots/ready.py``'s ``READY_AT`` table,
and how the table reads each band now.

    python -m bench.ready_calibration --hands 2000 --seed 555 --workers 2
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Sequence
from typing import Any

from bench.hands_pool import gather
from sgmahjong.bots import make_bot
from sgmahjong.bots.arena import play_hand
from sgmahjong.bots.ready import ready_chance, wait_chances
from sgmahjong.errors import InvalidHandError
from sgmahjong.game.builder import seat_waits
from sgmahjong.game.wins import hand_win
from sgmahjong.rules import RuleSet
from sgmahjong.tiles import Tile

BANDS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1.2, 2.0, float("inf"))
Row = tuple[float, int]  # (the sum of the seat's chances, 1 if it can win on a discard now)


def true_waits(state: Any, opp: int, chances: Sequence[float], rules: RuleSet) -> set[int]:
    """The faces seat ``opp`` of the true ``state`` can win on by a discard now (its shape waits, each
    checked for a valid win; none that ``chances`` bars, a 0)."""
    st = state.seats[opp]
    out = set()
    for t in seat_waits(st.concealed):
        if chances[t] == 0.0:  # barred: the seat may not win on it now
            continue
        try:
            w = hand_win(st, Tile(t), self_drawn=False, seat_wind=(opp - state.dealer) % 4,
                         prevailing=state.prevailing, rules=rules)
        except InvalidHandError:  # a wait on a fifth copy: the seat holds all four
            continue
        if w is not None and w.valid:
            out.add(t)
    return out


def hand_rows(args: tuple[int, int]) -> list[Row]:
    """The rows of hand ``h`` of the run seeded ``seed``."""
    seed, h = args
    rules = RuleSet()
    bots = [make_bot("strong", seed * 100_003 + h * 4 + s, rules) for s in range(4)]
    rows: list[Row] = []

    def watch(state: Any, seat: int, view: dict[str, Any], legal: list[Any]) -> None:
        if not any(a.kind == "discard" for a in legal):
            return
        chances = wait_chances(view)
        for opp, ch in enumerate(chances):
            if ch:
                rows.append((sum(ch), int(bool(true_waits(state, opp, ch, rules)))))

    play_hand(rules, bots, seed=seed * 1_000_003 + h, dealer=h % 4, prevailing=(h // 4) % 4, watch=watch)
    return rows


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=555)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    if args.hands < 1 or args.workers < 1:
        ap.error("--hands and --workers must be at least 1")
    rows = gather(hand_rows, [(args.seed, h) for h in range(args.hands)], workers=args.workers, what="seats")
    print(f"{len(rows):,} seats at turns of {args.hands} hands (seed {args.seed}); "
          f"ready {sum(r for _, r in rows) / len(rows):.3f}")
    print("| sum of the chances | seats | mean sum | ready | READY_AT reads |")
    print("|---|---|---|---|---|")
    for lo, hi in itertools.pairwise(BANDS):
        band = [(x, r) for x, r in rows if lo <= x < hi]
        if band:
            mean = sum(x for x, _ in band) / len(band)
            share = sum(r for _, r in band) / len(band)
            print(f"| {lo:g}–{hi:g} | {len(band):,} | {mean:.3f} | {share:.3f} | {ready_chance(mean):.3f} |")


if __name__ == "__main__":
    main()

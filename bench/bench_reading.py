"""How the expert reads the opponents (bots/reading.py): for each opponent level or test style, how
often a seat of it is read as quick, cautious or eager, early, mid-hand and late.

    .venv/bin/python -m bench reading
    .venv/bin/python -m bench.bench_reading --hands 400 --seed 7

Seat 0 is ``strong``; the three others are the style measured. At each of seat 0's decisions its view
is read, and each opponent's reading is counted in the stage of the hand (drawable tiles left: early
above 50, mid 30 to 50, late below 30). Bots only, no search: a few seconds per hundred hands.
"""

from __future__ import annotations

import argparse
from collections import Counter

from sgmahjong.bots import make_bot
from sgmahjong.bots.reading import STYLE_NAMES, read_styles
from sgmahjong.game import apply, awaiting, legal_actions, new_hand, player_view
from sgmahjong.rules import RuleSet

OPPONENTS = ("strong", "greedy", "beginner", "defensive", "reckless")
STAGES = (("early", 50, 999), ("mid", 30, 50), ("late", -1, 30))


def tally(level: str, hands: int, seed: int) -> dict[str, Counter[str]]:
    """stage -> Counter of style names read for the opponents of ``level``."""
    rules = RuleSet()
    out: dict[str, Counter[str]] = {name: Counter() for name, _, _ in STAGES}
    for h in range(hands):
        bots = [make_bot("strong", seed * 1000 + h * 4, rules),
                *(make_bot(level, seed * 1000 + h * 4 + s, rules) for s in (1, 2, 3))]
        state, _ = new_hand(rules, seed=seed * 100_000 + h, dealer=h % 4)
        while not state.ended:
            seat = awaiting(state)[0]
            legal = legal_actions(state, seat)
            view = player_view(state, seat)
            if seat == 0 and len(legal) > 1:
                styles = read_styles(view)
                left = int(view.get("wall_remaining") or 0)
                stage = next(name for name, lo, hi in STAGES if lo < left <= hi)
                for s in (1, 2, 3):
                    out[stage][STYLE_NAMES[styles[s]]] += 1
            state, _ = apply(state, bots[seat].choose(view, legal))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="how the expert reads each opponent style")
    parser.add_argument("--hands", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", action="append", help="an opponent level or style (default all)")
    args = parser.parse_args(argv if argv is not None else [])
    print(f"   {args.hands} hands per opponent, seed {args.seed}: "
          "share of readings (quick / cautious / eager)")
    for level in args.level or OPPONENTS:
        counts = tally(level, args.hands, args.seed)
        cells = []
        for stage, _, _ in STAGES:
            c = counts[stage]
            n = sum(c.values()) or 1
            cells.append(f"{stage} " + " / ".join(f"{100 * c[s] / n:3.0f}%" for s in STYLE_NAMES))
        print(f"   {level:10s} " + "   ".join(cells))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])

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
from typing import Any

from sgmahjong.bots import make_bot
from sgmahjong.bots.arena import Watch, play_hand
from sgmahjong.bots.reading import STYLE_NAMES, read_styles
from sgmahjong.game import Action, HandState
from sgmahjong.rules import RuleSet

OPPONENTS = ("strong", "greedy", "beginner", "defensive", "reckless")
STAGES = (("early", 50, 999), ("mid", 30, 50), ("late", -1, 30))


def tally(level: str, hands: int, seed: int) -> dict[str, Counter[str]]:
    """stage -> Counter of style names read for the opponents of ``level``."""
    rules = RuleSet()
    out: dict[str, Counter[str]] = {name: Counter() for name, _, _ in STAGES}
    count = _counter(out)
    for h in range(hands):
        bots = [make_bot("strong", seed * 1000 + h * 4, rules),
                *(make_bot(level, seed * 1000 + h * 4 + s, rules) for s in (1, 2, 3))]
        play_hand(rules, bots, seed=seed * 100_000 + h, dealer=h % 4, watch=count)
    return out


def _counter(out: dict[str, Counter[str]]) -> Watch:
    """A watch for :func:`play_hand` that counts, at each of seat 0's decisions with a choice, the
    style each opponent is read as, by stage of the hand, into ``out``."""

    def count(state: HandState, seat: int, view: dict[str, Any], legal: list[Action]) -> None:
        if seat != 0 or len(legal) < 2:
            return
        styles = read_styles(view)
        left = int(view.get("wall_remaining") or 0)
        stage = next(name for name, lo, hi in STAGES if lo < left <= hi)
        for s in (1, 2, 3):
            out[stage][STYLE_NAMES[styles[s]]] += 1

    return count


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

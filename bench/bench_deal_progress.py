"""How far along the other seats' hands are, at the table and in the expert's deals.

Plays hands of four ``strong`` bots and, at every ``--every``-th decision, for each other seat holding
a 13-tile hand (sets aside), compares the distance from a winning hand (1: one tile from winning) of
its real concealed tiles with that of the tiles the deciding seat's deals give it: uniform (the
expert's default), told by the discards (``tells``), and worked forward for the turns the seat has
played (``progress``, with the barred and passed discards: :mod:`sgmahjong.bots.progress`). Prints the
share of hands at each distance by the stage of the hand (the tiles left in the wall), and the CPU a
deal takes each way.

    python -m bench.bench_deal_progress --hands 40 --seed 0
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from collections.abc import Sequence

from sgmahjong.bots import efficiency as ef
from sgmahjong.bots import make_bot
from sgmahjong.bots.determinise import DealOptions, deal_hidden, knowledge, table
from sgmahjong.game import Action, HandState, player_view
from sgmahjong.review import bot_hand_log
from sgmahjong.rules import RuleSet
from sgmahjong.tiles import Tile

NONE = DealOptions(weigh=False, tells=False, barred=False, passed=False, progress=False)
DEALS: dict[str, DealOptions] = {"uniform": NONE, "told": {**NONE, "tells": True},
                                 "worked": {**NONE, "progress": True, "barred": True, "passed": True}}
STAGES = (("early", 60), ("middle", 30), ("late", -1))  # a stage: more than this many tiles left


def _distance(hand: tuple[Tile, ...] | list[Tile], n_melds: int) -> int:
    counts = [0] * 34
    for t in hand:
        counts[t] += 1
    return min(ef.distance(counts, n_melds), 4)


def run(hands: int, seed: int, every: int) -> tuple[dict[tuple[str, str, int], int], dict[str, float], int]:
    """(hands at each (kind, stage, distance), CPU seconds dealing each way, decisions sampled)."""
    rules = RuleSet()
    counts: dict[tuple[str, str, int], int] = collections.Counter()
    cpu = dict.fromkeys(DEALS, 0.0)
    step = sampled = 0
    rng = random.Random()

    def visit(state: HandState, me: int, legal: Sequence[Action], choice: Action) -> Action:
        nonlocal step, sampled
        step += 1
        if (step - 1) % every:
            return choice
        sampled += 1
        stage = next(name for name, above in STAGES if state.wall_remaining > above)
        k = knowledge(player_view(state, me))
        dealt = {}
        for kind, options in DEALS.items():
            start = time.process_time()
            dealt[kind] = deal_hidden(table(k, rules, **options), rng)[0]
            cpu[kind] += time.process_time() - start
        for s, st in enumerate(state.seats):
            if s == me or len(st.concealed) % 3 != 1:
                continue
            n = len(st.melds)
            counts["real", stage, _distance(st.concealed, n)] += 1
            for kind, hs in dealt.items():
                counts[kind, stage, _distance(hs[s], n)] += 1
        return choice

    for h in range(hands):
        bots = [make_bot("strong", (seed + h) * 4 + s, rules) for s in range(4)]
        rng.seed(seed + h)
        step = 0
        bot_hand_log(rules, bots, seed=seed + h, dealer=h % 4, tamper=visit)
    return counts, cpu, sampled


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m bench.bench_deal_progress",
                                description=__doc__.split("\n")[0])
    p.add_argument("--hands", type=int, default=40)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--every", type=int, default=5, help="sample every N-th decision")
    args = p.parse_args([] if argv is None else argv)
    if args.hands < 1 or args.every < 1:
        p.error("--hands and --every: at least 1")
    counts, cpu, sampled = run(args.hands, args.seed, args.every)
    print(f"deal progress: {args.hands} hands of four strong from seed {args.seed}, every {args.every}th "
          f"decision ({sampled} sampled); the share of other seats' hands by distance from winning")
    for stage, _ in STAGES:
        for kind in ("real", *DEALS):
            n = sum(v for (k, s, _), v in counts.items() if k == kind and s == stage) or 1
            cells = "  ".join(f"{d}: {counts[kind, stage, d] / n:4.0%}" for d in range(1, 5))
            print(f"   {stage:7s} {kind:8s} {cells}   ({n} hands)")
    for kind in DEALS:
        print(f"   a deal, {kind}: {cpu[kind] / max(1, sampled) * 1000:.3f} ms of CPU")


if __name__ == "__main__":
    main(sys.argv[1:])

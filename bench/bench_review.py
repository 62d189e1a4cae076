"""Review speed: decisions reviewed per second (``sgmahjong.review``; aim: 500/s or more).

A fixed seeded set of hands played by strong, greedy and random bots (so the reviewed seats agree
and disagree with the strong bot); every seat of every hand is reviewed: the engine replays the log,
builds the seat's view at each decision, asks the strong bot and, for discards, measures shanten,
live useful tiles, value and risk of both choices. The first pass is cold (the analysis memo tables
fill); the figure is the best of the warm passes. The machine is shared: figures are noisy.
"""

from __future__ import annotations

import time

from sgmahjong.bots import make_bot
from sgmahjong.review import bot_hand_log, review_log
from sgmahjong.rules import RuleSet

N_HANDS = 24
SEED = 20261123
PASSES = 3
LEVELS = ("strong", "greedy", "random", "strong")


def _pass(logs: list[str]) -> tuple[int, float, float]:
    """(decisions, wall seconds, CPU seconds of this process) of one review of every seat."""
    n = 0
    start, cpu = time.perf_counter(), time.process_time()
    for log in logs:
        for seat in range(4):
            n += len(review_log(log, seat).decisions)
    return n, time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    rules = RuleSet()
    logs = []
    for i in range(N_HANDS):
        seed = SEED + i
        bots = [make_bot(level, seed * 4 + s, rules) for s, level in enumerate(LEVELS)]
        logs.append(bot_hand_log(rules, bots, seed=seed, dealer=i % 4))
    n, cold, _ = _pass(logs)
    print(f"review: {N_HANDS} hands x 4 seats, {n} decisions")
    print(f"   cold pass      {n / cold:8.0f} decisions/s")
    runs = [_pass(logs) for _ in range(PASSES)]
    best = min(r[1] for r in runs)
    cpu = min(r[2] for r in runs)
    print(f"   warm (best of {PASSES}) {n / best:8.0f} decisions/s  ({1e6 * best / n:.0f} us per decision)"
          f"  aim >= 500/s")
    print(f"   per CPU second {n / cpu:8.0f} decisions/CPU-s (without the waits of a shared machine)")


if __name__ == "__main__":
    main()

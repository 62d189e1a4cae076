"""Self-play speed: full hands per second with four greedy bots and with four strong bots (by the wall
clock and by this process's CPU time, which another busy process on the machine disturbs less), the
median decision time of each level, and how much of the time the engine (not the bots) takes."""

from __future__ import annotations

import statistics
import time

from sgmahjong.bots import make_bot
from sgmahjong.bots.arena import play_hand
from sgmahjong.rules import RuleSet

BUDGET_S = 9.0  # per level


def _run(level: str) -> None:
    rules = RuleSet()
    bots = [make_bot(level, i, rules) for i in range(4)]
    times: list[float] = []
    hands = 0
    decisions = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    seed = 0
    while time.perf_counter() - start < BUDGET_S:
        rec = play_hand(rules, bots, seed=seed, dealer=seed % 4, clock=time.perf_counter)
        seed += 1
        hands += 1
        decisions += rec.decisions
        for seat in rec.decision_times:
            times.extend(seat)
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    bot_time = sum(times)
    times.sort()
    p90 = times[int(0.9 * (len(times) - 1))]
    print(f"   four {level:<6}: {hands / elapsed:6.1f} full hands/s ({hands / cpu:.1f}/s of CPU; {hands} "
          f"hands, {decisions / hands:.0f} decisions/hand); "
          f"decision median {1000 * statistics.median(times):.3f} ms, "
          f"p90 {1000 * p90:.3f} ms, max {1000 * times[-1]:.1f} ms; bots {100 * bot_time / elapsed:.0f}% "
          f"of the time, engine and views {1000 * (elapsed - bot_time) / hands:.2f} ms/hand")


def main() -> None:
    for level in ("random", "greedy", "strong"):
        _run(level)


if __name__ == "__main__":
    main()

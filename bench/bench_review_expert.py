"""The expert's review (``sgmahjong.coach``): CPU time per decision and per whole hand at the default
number of deals (aim: a hand in 10 s or less on one core, under 15 s on a busy one), the deals the
sequential stop spent and the flags checked on fresh deals, and the analysis of one state.

A fixed seeded set of hands played by strong, greedy and beginner bots; one seat of each is reviewed
(the seats rotate over the hands) with ``review_by_expert`` at ``DEFAULT_DEALS``. Times are this
process's CPU time (one core; the other processes of a shared machine disturb it less than the wall
clock), with the wall clock beside. Whether a review is already stored (the cache-hit path) is the
server's and is measured with it.
"""

from __future__ import annotations

import itertools
import statistics
import time

from sgmahjong.bots import make_bot
from sgmahjong.coach import DEFAULT_DEALS, analyse, review_by_expert
from sgmahjong.review import bot_hand_log
from sgmahjong.rules import RuleSet

N_HANDS = 8
SEED = 20261126
LEVELS = ("strong", "greedy", "beginner", "strong")


def _quantile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> None:
    rules = RuleSet()
    per_decision: list[float] = []
    per_hand: list[tuple[int, float, float]] = []  # decisions, CPU s, wall s
    deals: list[int] = []  # each decision's first deals (the sequential stop's)
    rechecked = kept = 0
    first_log = ""
    for i in range(N_HANDS):
        seed = SEED + i
        bots = [make_bot(level, seed * 4 + s, rules) for s, level in enumerate(LEVELS)]
        log = bot_hand_log(rules, bots, seed=seed, dealer=i % 4)
        first_log = first_log or log
        marks = [time.process_time()]

        def progress(done: int, total: int, marks: list[float] = marks) -> None:
            marks.append(time.process_time())

        wall, cpu = time.perf_counter(), time.process_time()
        review = review_by_expert(log, i % 4, progress=progress)
        per_hand.append((len(review.decisions), time.process_time() - cpu, time.perf_counter() - wall))
        per_decision.extend(b - a for a, b in itertools.pairwise(marks))
        deals.extend(d.options[0].deals for d in review.decisions)
        rechecked += sum(1 for d in review.decisions if d.recheck_deals)
        kept += sum(1 for d in review.decisions if d.costly)
    n = sum(h[0] for h in per_hand)
    cpu_total = sum(h[1] for h in per_hand)
    print(f"review by the expert: {N_HANDS} hands, one seat each, {n} decisions, "
          f"at most {DEFAULT_DEALS} deals per decision")
    print(f"   deals per decision: mean {statistics.mean(deals):.0f}, median {statistics.median(deals):.0f} "
          f"(the sequential stop); {rechecked} costs checked on fresh deals, {kept} confirmed")
    print(f"   per decision (CPU) median {1000 * statistics.median(per_decision):6.0f} ms  "
          f"p90 {1000 * _quantile(per_decision, 0.9):6.0f} ms  max {1000 * max(per_decision):6.0f} ms")
    hands = [h[1] for h in per_hand]
    print(f"   per hand (CPU)     mean {statistics.mean(hands):6.2f} s   "
          f"median {statistics.median(hands):6.2f} s   "
          f"max {max(hands):6.2f} s  (hands of {min(h[0] for h in per_hand)} to "
          f"{max(h[0] for h in per_hand)} decisions)  aim <= 10 s (CPU), < 15 s (wall, busy)")
    walls = [h[2] for h in per_hand]
    print(f"   per hand (wall)    mean {statistics.mean(walls):6.2f} s   "
          f"median {statistics.median(walls):6.2f} s   max {max(walls):6.2f} s")
    print(f"   {sum(deals) / cpu_total:8.0f} first-stage decision-deals per CPU second")
    cpu = time.process_time()
    a = analyse(first_log, 0, 0, deals=DEFAULT_DEALS)  # hand 0's dealer is seat 0
    print(f"   analyse (the dealer's first turn, {len(a.options)} options): "
          f"{1000 * (time.process_time() - cpu):.0f} ms CPU")


if __name__ == "__main__":
    main()

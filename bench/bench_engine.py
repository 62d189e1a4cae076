"""Engine speed: random-legal full hands per second (the engine's own cost, one core).

A seeded random driver picks, at each step, a random awaited seat and a random legal action
(taking a win when one is offered 90% of the time), so every hand is played to its end: a win or
a drawn hand. Reference: a Rust riichi engine driven from Python by random agents does 369 hands/s
on this machine; the aim here is >= 500 hands/s.
"""

from __future__ import annotations

import time

from sgmahjong.game.testing import random_hand
from sgmahjong.rules import RuleSet

BUDGET_S = 12.0


def main() -> None:
    rules = RuleSet()
    random_hand(rules, 0)  # warm the analysis tables
    hands = actions = wins = 0
    wall_start = time.perf_counter()
    cpu_start = time.process_time()
    seed = 1
    while time.perf_counter() - wall_start < BUDGET_S and hands < 5000:
        state, n = random_hand(rules, seed, dealer=seed % 4)
        hands += 1
        actions += n
        wins += state.result is not None and not state.result["drawn_game"]
        seed += 1
    cpu = time.process_time() - cpu_start
    wall = time.perf_counter() - wall_start
    print(f"random-legal full hands: {hands} hands, {actions} actions "
          f"({actions / hands:.0f} per hand), {wins} won, {hands - wins} drawn")
    print(f"   {hands / cpu:8.0f} hands/s   {actions / cpu:8.0f} actions/s   (CPU time, one core)")
    print(f"   {hands / wall:8.0f} hands/s   {actions / wall:8.0f} actions/s   (wall clock, shared machine)")


if __name__ == "__main__":
    main()

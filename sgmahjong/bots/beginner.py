"""The ``beginner`` level (issue 15): ``greedy`` with a new player's mistakes, so new players can win.

Its mistakes, each drawn from the bot's seeded ``rng``:

* it misses claims: a pong, chow or kong ``greedy`` would make is passed up ``MISS_CLAIM`` of the time,
  and a win on another seat's discard ``MISS_WIN`` of the time (a self-drawn win is always taken);
* it discards loosely: ``LOOSE`` of the time any discard that keeps the hand as close to winning
  (ignoring how many tiles help it), and ``BLUNDER`` of the time one that sets the hand back a step;
* no defence at all (like ``greedy``), and no plan for value.
"""

from __future__ import annotations

from collections.abc import Sequence

from .base import A, View
from .greedy import GreedyBot
from .perception import perceive
from .tactics import discard_table

MISS_CLAIM = 0.5
MISS_WIN = 0.25
LOOSE = 0.35
BLUNDER = 0.1


class BeginnerBot(GreedyBot):
    """``greedy`` with seeded mistakes (see the module docstring)."""

    level = "beginner"

    def decide(self, view: View, legal: Sequence[A]) -> A:
        rng = self.rng
        passing = next((a for a in legal if a.kind == "pass"), None)
        for a in legal:
            if a.kind == "win":
                if passing is not None and rng.random() < MISS_WIN:
                    return passing
                return a
        p = perceive(view)
        discards = [a for a in legal if a.kind == "discard"]
        if discards:
            roll = rng.random()
            if roll < LOOSE + BLUNDER:
                live = [4 - v for v in p.visible]
                dist, _ = discard_table(p.hand, p.n_melds, live, p.n_melds == 0,
                                        {int(a.tile) for a in discards if a.tile is not None})
                best = min(dist.values())
                step = 1 if roll >= LOOSE else 0
                pick = [a for a in discards if a.tile is not None and dist.get(int(a.tile)) == best + step]
                if pick:
                    return pick[rng.randrange(len(pick))]
            return self.decide_perceived(p, legal)
        choice = self.decide_perceived(p, legal)
        if passing is not None and choice is not passing and rng.random() < MISS_CLAIM:
            return passing
        return choice

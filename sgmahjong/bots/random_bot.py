"""The ``random`` level: any legal action, uniformly (for tests and fuzzing)."""

from __future__ import annotations

from collections.abc import Sequence

from .base import A, Bot, View


class RandomBot(Bot):
    """Picks a legal action uniformly at random with its seeded ``rng``."""

    level = "random"

    def decide(self, view: View, legal: Sequence[A]) -> A:
        return legal[self.rng.randrange(len(legal))]

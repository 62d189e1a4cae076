"""The ``greedy`` level (placeholder until the engine lands: plays like ``random``)."""

from __future__ import annotations

from .random_bot import RandomBot


class GreedyBot(RandomBot):
    level = "greedy"

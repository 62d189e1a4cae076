"""The ``strong`` level (placeholder until the engine lands: plays like ``greedy``)."""

from __future__ import annotations

from .greedy import GreedyBot


class StrongBot(GreedyBot):
    level = "strong"

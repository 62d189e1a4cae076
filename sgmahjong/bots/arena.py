"""Self-play: the referee side that drives the engine with bots (used by ``simulate`` and the bench).

This module holds the game state; the bots never do. For each awaited decision it builds the seat's
``player_view`` and ``legal_actions`` and passes only those to the bot, then applies the answer. It is
pure (no I/O): timing is injected as a clock function so the CLI can measure decision times.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..game import Action, HandState, apply, awaiting, legal_actions, new_hand, player_view
from ..rules import RuleSet
from .base import Bot


@dataclass(slots=True)
class HandRecord:
    """The outcome of one hand, seat by seat (seat 0 is East)."""

    winner: int | None
    shooter: int | None
    self_drawn: bool
    tai: int
    net: list[int]  # the hand ledger: instant payments plus the win payments
    liable: int | None = None
    decisions: int = 0
    decision_times: list[list[float]] = field(default_factory=lambda: [[], [], [], []])


Watch = Callable[[HandState, int, dict[str, Any], list[Action]], object]


def play_hand(rules: RuleSet, bots: Sequence[Bot], *, seed: int, dealer: int = 0, prevailing: int = 0,
              clock: Callable[[], float] | None = None, max_steps: int = 2000,
              watch: Watch | None = None) -> HandRecord:
    """Play one hand between four bots (``bots[seat]``) to its end and return its record. ``watch``,
    if given, sees each decision (the state, the seat, its view and legal actions) before the bot
    answers it (for measuring what the bots see: tests and benchmarks)."""
    state, _ = new_hand(rules, seed=seed, dealer=dealer, prevailing=prevailing)
    decisions = 0
    times: list[list[float]] = [[], [], [], []]
    steps = 0
    while not state.ended:
        steps += 1
        if steps > max_steps:
            raise RuntimeError(f"hand with seed {seed} did not end after {max_steps} decisions")
        seats = awaiting(state)
        if not seats:
            raise RuntimeError(f"hand with seed {seed} awaits nobody but has not ended")
        seat = seats[0]
        legal = legal_actions(state, seat)
        view = player_view(state, seat)
        if watch is not None:
            watch(state, seat, view, legal)
        if clock is not None:
            t0 = clock()
            action = bots[seat].choose(view, legal)
            times[seat].append(clock() - t0)
        else:
            action = bots[seat].choose(view, legal)
        decisions += 1
        state, _ = apply(state, action)
    res = state.result or {}
    return HandRecord(
        winner=res.get("winner"),
        shooter=res.get("shooter"),
        self_drawn=bool(res.get("self_drawn")),
        tai=int(res.get("tai") or 0),
        net=list(state.ledger),
        liable=res.get("liable"),
        decisions=decisions,
        decision_times=times,
    )

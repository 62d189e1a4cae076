"""Perft: count the distinct action sequences from a state to a depth (a regression fingerprint of
the move generator and the state machine, like chess engines' perft)."""

from __future__ import annotations

from .actions import format_action
from .engine import apply, awaiting, legal_actions
from .state import HandState


def perft(state: HandState, depth: int) -> int:
    """Distinct action sequences of length ``depth`` (shorter where the hand ends: an ended hand
    counts 1). In a claim window each awaited seat's decision is a separate step."""
    if depth == 0 or state.ended:
        return 1
    total = 0
    for seat in awaiting(state):
        for a in legal_actions(state, seat):
            total += perft(apply(state, a)[0], depth - 1)
    return total


def divide(state: HandState, depth: int) -> dict[str, int]:
    """Perft per first action (``"S pong"``, ``"E discard 5p"``): where a mismatch comes from."""
    out: dict[str, int] = {}
    for seat in awaiting(state):
        for a in legal_actions(state, seat):
            out[f"{'ESWN'[seat]} {format_action(a)}"] = perft(apply(state, a)[0], depth - 1)
    return out

"""Terminals: mixed terminals (混老头) and pure terminals (清老头)."""

from __future__ import annotations

from ..facts import HandFacts
from ..registry import LIMIT, pattern


@pattern("mixed_terminals", "Mixed terminals", "混老头", "+2 (with pong pong: 4)",
         gate="all_terminal_or_honour")
def mixed_terminals(h: HandFacts) -> int:
    """Only 1s, 9s and honours, both present, as four sets and a pair (so always a triplets hand,
    which scores its own 2). Thirteen wonders is not mixed terminals."""
    if h.thirteen or not h.all_terminal_or_honour:
        return 0
    return 2 if h.has_terminals and h.has_honours else 0


@pattern("pure_terminals", "Pure terminals", "清老头", "limit", value=LIMIT, gate="all_terminal_or_honour")
def pure_terminals(h: HandFacts) -> int:
    """Only 1s and 9s of the suits."""
    return h.rules.limit if h.all_terminal_or_honour and not h.has_honours else 0

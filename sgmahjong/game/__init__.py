"""The game of Singapore Mahjong as a pure, deterministic state machine (RULES.md §2-§5).

See docs/CONTRACTS.md (engine section). No I/O; randomness only from the seed given to
:func:`new_hand` / :func:`new_match`.
"""

from __future__ import annotations

from .actions import Action, IllegalActionError, format_action, parse_action
from .claims import closable
from .engine import apply, awaiting, legal_actions, new_hand
from .events import Event, redact_event
from .match import MatchState, apply_match, match_view, new_match, next_hand, standings
from .state import HandState, SeatState, SetRec, Window
from .view import SeatViews, player_view

__all__ = [
    "Action",
    "Event",
    "HandState",
    "IllegalActionError",
    "MatchState",
    "SeatState",
    "SeatViews",
    "SetRec",
    "Window",
    "apply",
    "apply_match",
    "awaiting",
    "closable",
    "format_action",
    "legal_actions",
    "match_view",
    "new_hand",
    "new_match",
    "next_hand",
    "parse_action",
    "player_view",
    "redact_event",
    "standings",
]

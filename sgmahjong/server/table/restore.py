"""A table's match rebuilt from the store after a restart (or on another worker after a hand-over)."""

from __future__ import annotations

from typing import Any

from ...errors import SgMahjongError
from ...rules import RuleSet
from ..store import Store
from . import engine


def stored_match(store: Store, table_id: int, rules: RuleSet, first_wall: str | None,
                 match_seed: int) -> tuple[engine.Match, int, int, int] | None:
    """The match of a table in play as stored, with its hand number and the next action and event
    numbers (None: no hand stored). It starts from the latest hand stored with a snapshot of the match
    at its start (``store.last_snapshot``), replaying only that hand's actions and those of any later
    hand; hands stored without one (before migration 0006) are replayed from the match's first hand.
    Each hand must replay to its stored wall."""
    point = store.last_snapshot(table_id)
    since = point[0] if point is not None else 1
    stored: list[dict[str, Any]] = []
    match: engine.Match | None = None
    hand_number = action_seq = 0
    for h in store.hands(table_id, since):
        secret = engine.stored_secret(h.seed)  # each hand's own secret (old hands: None)
        stored = store.events(table_id, h.number)
        if point is not None and h.number == point[0]:
            match, _ = engine.resume_match(rules, point[1], match_seed, secret)
        elif h.number == 1:
            wall = engine.parse_wall(first_wall) if first_wall else None
            paused = bool(stored and stored[0].get("pause_windows"))  # older matches: not paused
            match, _ = engine.start_match(rules, match_seed, wall, secret, pause_windows=paused)
        elif match is not None:
            match, _ = engine.next_hand(match, secret)
        else:
            raise SgMahjongError(f"hand {h.number} is stored without the hands before it")
        if engine.hand_of(match).wall_hash != h.wall_hash:
            raise SgMahjongError(f"hand {h.number} does not replay to its stored wall")
        hand_number = h.number
        action_seq = 0
        for a in store.actions(table_id, h.number):
            match, _ = engine.apply(match, a.seat, a.action)
            action_seq = a.seq + 1
    if match is None:
        return None
    return match, hand_number, action_seq, len(stored)

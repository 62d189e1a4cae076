"""What a seat (or a spectator) may see of a hand: the only state the server sends."""

from __future__ import annotations

from typing import Any

from .actions import format_action
from .engine import awaiting, legal_actions
from .state import CLAIM, ENDED, HandState, SeatState

_WINDS = "ESWN"


def _seat_view(state: HandState, i: int, st: SeatState, viewer: int | None) -> dict[str, Any]:
    own = viewer == i
    ended = state.phase == ENDED
    concealed: list[str] | None = None
    if own or ended:
        tiles = list(st.concealed)
        if own and not ended and st.drawn is not None and st.drawn in tiles:
            tiles.remove(st.drawn)
        concealed = [t.notation for t in tiles]
    return {
        "seat": i,
        "wind": _WINDS[(i - state.dealer) % 4],
        "concealed": concealed,
        "concealed_count": len(st.concealed),
        "drawn": st.drawn.notation if own and not ended and st.drawn is not None else None,
        "melds": [{"kind": m.kind.value, "tiles": [t.notation for t in m.meld.tiles],
                   "concealed": m.concealed, "from": m.source} for m in st.melds],
        "bonus": [t.notation for t in st.bonus],
        "discards": [t.notation for t in st.discards],
    }


def _visible_awaiting(state: HandState, seat: int | None) -> list[int]:
    """Whose decision is awaited, as ``seat`` may know it: in a claim window only the viewer itself
    (who else may claim would tell which seats hold a pair or a wait)."""
    seats = awaiting(state)
    if state.phase == CLAIM:
        return [s for s in seats if s == seat]
    return seats


def player_view(state: HandState, seat: int | None, *, private_awaiting: bool = True) -> dict[str, Any]:
    """The JSON-able view of ``seat`` (``None`` = spectator): own concealed tiles (and drawn tile),
    everyone's sets, bonus tiles, discards and tile counts, and nothing else.

    ``awaiting`` lists the awaited seats, but in a claim window only the viewer (the full list would
    tell which seats may claim, hence hold a pair or a wait). ``private_awaiting=False`` shows the
    full list (for replays and tests; the engine itself has it from :func:`awaiting`)."""
    phase = "ended" if state.phase == ENDED else ("claim" if state.phase == CLAIM else "turn")
    last = None
    if state.last_discard is not None and state.phase == CLAIM and state.window is not None \
            and state.window.kind == "discard":
        last = {"seat": state.last_discard[0], "tile": state.last_discard[1].notation}
    window = None
    if state.phase == CLAIM and state.window is not None:
        window = {"kind": state.window.kind, "seat": state.window.source,
                  "tile": state.window.tile.notation}
    return {
        "version": state.version,
        "seat": seat,
        "phase": phase,
        "dealer": state.dealer,
        "prevailing": state.prevailing,
        "turn": state.turn,
        "wall_remaining": max(0, state.wall_remaining),
        "wall_hash": state.wall_hash,
        "awaiting": _visible_awaiting(state, seat) if private_awaiting else awaiting(state),
        "seats": [_seat_view(state, i, st, seat) for i, st in enumerate(state.seats)],
        "last_discard": last,
        "window": window,
        "legal_actions": [format_action(a) for a in legal_actions(state, seat)] if seat is not None else [],
        "hand_ledger": list(state.ledger),
        "result": state.result,
    }

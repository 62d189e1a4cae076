"""Why an action is refused: the message of :class:`IllegalActionError` (slow path only)."""

from __future__ import annotations

from .actions import Action, format_action
from .state import CLAIM, ENDED, TURN, HandState

_SEATS = "ESWN"


def reason(state: HandState, a: Action) -> str:
    """A one-line reason why ``a`` is not among the legal actions."""
    text = format_action(a)
    if not 0 <= a.seat < 4:
        return f"no seat {a.seat}"
    if state.phase == ENDED:
        return "the hand has ended"
    if a.kind == "close":
        w = state.window
        if state.phase != CLAIM or w is None or not state.pause_windows or w.kind == "eighth":
            return "no paused claim window to close"
        if a.seat != w.source:
            return f"the window is closed for its source seat {_SEATS[w.source]}"
        return "the claim window cannot close before every asked seat has decided"
    who = _SEATS[a.seat]
    if state.phase == TURN:
        if a.seat != state.turn:
            return f"not your turn ({_SEATS[state.turn]} is to play)"
        st = state.seats[a.seat]
        if a.kind in ("pass", "pong", "chow"):
            return f"nothing to {a.kind} on your own turn"
        if a.kind == "discard":
            return f"{a.tile!r} is not in {who}'s hand"
        if a.kind == "kong":
            return f"no kong of {a.tile!r} possible"
        if a.kind == "win":
            if state.draw_source == "claim":
                return "no win after claiming a discard for a set; discard a tile"
            win = state.turn_win
            if win is not None and win.result.reason:
                return f"not a win: {win.result.reason}"
            return "not a winning hand"
        del st
        return f"{text} is not possible now"
    assert state.phase == CLAIM and state.window is not None
    w = state.window
    if not w.options[a.seat]:
        return "nothing for you to decide now"
    if w.decisions[a.seat] is not None:
        return "you already decided on this tile"
    if a.kind == "discard":
        return "not your turn to discard"
    st = state.seats[a.seat]
    tile = w.tile
    if a.kind in ("win", "pong") and tile in st.barred and w.kind == "discard":
        return f"sacred or missed discard: you may not {a.kind} {tile!r} before your next turn"
    if a.kind == "win":
        win = state.window_wins[a.seat]
        if win is not None and win.result.reason:
            return f"not a win: {win.result.reason}"
        return "not a winning hand"
    if a.kind == "chow":
        if a.seat != (w.source + 1) % 4:
            return "chow only from the player on your left"
        return f"no {text} possible with {tile!r}"
    if a.kind in ("pong", "kong"):
        return f"not enough {tile!r} to {a.kind}"
    return f"{text} is not possible now"

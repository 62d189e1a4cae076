"""The hand as a pure state machine: :func:`new_hand`, :func:`legal_actions`, :func:`awaiting`,
:func:`apply`. Draws and bonus replacements happen inside ``apply``; seats only decide.

The work is split by what it owns: :mod:`.deal`, :mod:`.draws`, :mod:`.turn`, :mod:`.kongs`,
:mod:`.claims`, :mod:`.ending`, over the :class:`~.builder.Builder` of :mod:`.builder`.
"""

from __future__ import annotations

from . import claims, deal, turn
from .actions import Action, IllegalActionError, format_action
from .builder import Builder
from .events import Event
from .state import CLAIM, TURN, HandState


def awaiting(state: HandState) -> list[int]:
    """Seats whose decision is awaited now (the seat on turn, or the undecided seats of a window)."""
    if state.phase == TURN:
        return [state.turn]
    if state.phase == CLAIM and state.window is not None:
        return list(state.window.waiting)
    return []


def _options(state: HandState, seat: int) -> tuple[Action, ...]:
    if state.phase == TURN:
        return state.turn_options if seat == state.turn else ()
    if state.phase == CLAIM and state.window is not None:
        w = state.window
        return w.options[seat] if w.decisions[seat] is None else ()
    return ()


def legal_actions(state: HandState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now, in a deterministic order; [] when it has nothing to decide."""
    return list(_options(state, seat))


def apply(state: HandState, action: Action) -> tuple[HandState, list[Event]]:
    """Play ``action``; return the new state and the events it caused. Raises
    :class:`IllegalActionError` saying why an action is refused."""
    options = _options(state, action.seat)
    for a in options:  # callers usually pass one of the legal objects back: no __eq__ calls then
        if a is action:
            break
    else:
        if action not in options:
            raise IllegalActionError(_why(state, action))
    b = Builder(state)
    b.f["actions"] = (*state.actions, action)
    b.emit("action", action.seat, action=format_action(action))
    if state.phase == TURN:
        turn.do_turn(b, action)
    else:
        claims.do_decision(b, action)
    return b.freeze(state.version + 1), b.events


def _why(state: HandState, action: Action) -> str:
    """Why an action not in ``legal_actions`` is refused."""
    from .refusal import reason

    return reason(state, action)


new_hand = deal.new_hand


"""The hand as a pure state machine: :func:`new_hand`, :func:`legal_actions`, :func:`awaiting`,
:func:`apply`. Draws and bonus replacements happen inside ``apply``; seats only decide.

The work is split by what it owns, in layers that call only downwards (no import cycle): over the
:class:`~.builder.Builder` of :mod:`.builder`, :mod:`.wins` and :mod:`.ending`; then :mod:`.turn`
(a seat's turn begins: its options), :mod:`.draws` (draws, bonus tiles, then the turn), :mod:`.kongs`
and :mod:`.deal`; :mod:`.claims` (the claim windows: a claim, a kong completed or the next draw);
:mod:`.turn_action` (a discard opens a window, a kong is declared); and this dispatcher on top.

**No tells** (``new_hand(..., pause_windows=True)``, live tables): every discard, added kong and
concealed kong opens its claim window, even when nobody may claim (no seat asked). A decision in the
window keeps the version and emits only a ``decision`` event its own seat sees. When :func:`closable`
(every asked seat decided), the table applies ``Action(window source, "close")`` after its pause: that
resolves the claims or lets the next seat draw, one version later. So a seat that is not asked sees
the discard at version v+1 and its resolution at v+2, whether or not anyone could claim.
"""

from __future__ import annotations

from . import claims, deal, turn_action
from .actions import Action, IllegalActionError, format_action
from .builder import Builder
from .claims import closable
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
    if action.kind == "close":
        return _close(state, action)
    options = _options(state, action.seat)
    for a in options:  # callers usually pass one of the legal objects back: no __eq__ calls then
        if a is action:
            break
    else:
        if action not in options:
            raise IllegalActionError(_why(state, action))
    b = Builder(state)
    b.f["actions"] = (*state.actions, action)
    if state.phase == TURN:
        b.emit("action", action.seat, action=format_action(action))
        turn_action.do_turn(b, action)
    elif claims.paused(state):  # private, and the version stays: nothing public changed
        b.emit("decision", action.seat, action=format_action(action))
        claims.do_decision(b, action)
        return b.freeze(state.version), b.events
    else:
        b.emit("action", action.seat, action=format_action(action))
        claims.do_decision(b, action)
    return b.freeze(state.version + 1), b.events


def _close(state: HandState, action: Action) -> tuple[HandState, list[Event]]:
    """The table closes a paused claim window: the claims made resolve, or the next seat draws."""
    w = state.window
    if not closable(state) or w is None or action.seat != w.source:
        raise IllegalActionError(_why(state, action))
    b = Builder(state)
    b.f["actions"] = (*state.actions, action)
    claims.resolve(b, w)
    return b.freeze(state.version + 1), b.events


def _why(state: HandState, action: Action) -> str:
    """Why an action not in ``legal_actions`` is refused."""
    from .refusal import reason

    return reason(state, action)


new_hand = deal.new_hand


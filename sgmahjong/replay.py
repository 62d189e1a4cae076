"""A finished hand, step by step, for the replay viewer: every state's open view (all hands shown).

Pure (no I/O): :func:`replay_frames` folds the engine over a hand log (:mod:`sgmahjong.game.log`) and
gives, after the deal and after each action, one *frame*: the spectator's view with every seat's own
concealed tiles and drawn tile filled in (what that seat saw), and the events the step produced. A
viewer shows a seat's point of view by hiding the other seats' concealed tiles. Only a hand that has
ended is replayed: before that its tiles are secret.
"""

from __future__ import annotations

from typing import Any

from .errors import SgMahjongError
from .game import HandState, apply, format_action, player_view
from .game.log import LogError, parse_log, start

MAX_ACTIONS = 2000  # a hand has a few hundred actions at most; longer logs are refused


class ReplayError(SgMahjongError):
    """A log that cannot be replayed for the viewer (for example, the hand has not ended)."""


def open_view(state: HandState) -> dict[str, Any]:
    """The spectator's view with each seat's concealed and drawn tiles as that seat saw them."""
    view = player_view(state, None, private_awaiting=False)
    for seat in range(4):
        own = player_view(state, seat)["seats"][seat]
        view["seats"][seat] = own
    return view


def replay_frames(text: str) -> dict[str, Any]:
    """``{"header", "wall_hash", "result", "frames": [{"number", "seat", "action", "events", "view"}]}``:
    frame 0 is the deal, frame ``n`` the state after the ``n``-th action."""
    head, actions = parse_log(text)
    if len(actions) > MAX_ACTIONS:
        raise ReplayError(f"a hand log of more than {MAX_ACTIONS} actions is not replayed")
    state, events = start(head)
    frames: list[dict[str, Any]] = [{"number": 0, "seat": None, "action": None,
                                     "events": [e.to_json() for e in events], "view": open_view(state)}]
    for number, action in enumerate(actions, start=1):
        try:
            state, evs = apply(state, action)
        except SgMahjongError as exc:
            raise LogError(f"line {number + 1}: {format_action(action)!r} refused: {exc}") from None
        frames.append({"number": number, "seat": action.seat, "action": format_action(action),
                       "events": [e.to_json() for e in evs], "view": open_view(state)})
    if not state.ended:
        raise ReplayError("the hand has not ended; it is replayed once it has")
    return {"header": head, "wall_hash": state.wall_hash, "result": state.result, "frames": frames}

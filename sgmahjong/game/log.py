"""The event log of a hand: JSON lines from which the hand replays exactly.

Line 1 holds what rebuilds the hand (``rules``, ``seed``, ``dealer``, ``prevailing``, the stacked
``wall`` if any and ``pause_windows`` when on); each further line one applied action (``seat``,
``action`` in notation, ``version`` after it). :func:`replay` folds :func:`apply` over the actions.
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import SgMahjongError
from ..notation import parse_tiles
from ..rules import RuleSet
from .actions import Action, format_action, parse_action
from .engine import apply, new_hand
from .events import Event
from .state import HandState


class LogError(SgMahjongError):
    """A log that cannot be read or replayed; the message names the line."""


def header(state: HandState) -> dict[str, Any]:
    head: dict[str, Any] = {"kind": "hand_start", "rules": state.rules.changed_from_default(),
                            "seed": state.seed, "dealer": state.dealer, "prevailing": state.prevailing}
    if state.stacked:
        head["wall"] = " ".join(t.notation for t in state.wall)
    if state.pause_windows:
        head["pause_windows"] = True
    return head


def to_lines(state: HandState) -> list[str]:
    """The log of a hand so far (any state of it), one JSON text per line."""
    lines = [json.dumps(header(state), sort_keys=True)]
    for version, a in enumerate(state.actions, start=1):
        lines.append(json.dumps({"seat": a.seat, "action": format_action(a), "version": version},
                                sort_keys=True))
    return lines


def to_log(state: HandState) -> str:
    return "\n".join(to_lines(state)) + "\n"


def parse_log(text: str) -> tuple[dict[str, Any], list[Action]]:
    """Read a log: its header and its actions. Raises :class:`LogError` naming the bad line."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        raise LogError("empty log")
    records: list[dict[str, Any]] = []
    for n, line in enumerate(lines, start=1):
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise LogError(f"line {n}: not JSON ({exc.msg})") from None
        if not isinstance(rec, dict):
            raise LogError(f"line {n}: expected a JSON object")
        records.append(rec)
    head = records[0]
    if head.get("kind") != "hand_start":
        raise LogError("line 1: expected the hand_start header")
    actions: list[Action] = []
    for n, rec in enumerate(records[1:], start=2):
        seat, act = rec.get("seat"), rec.get("action")
        if not isinstance(seat, int) or not 0 <= seat < 4 or not isinstance(act, str):
            raise LogError(f"line {n}: expected {{\"seat\": 0-3, \"action\": TEXT}}")
        try:
            actions.append(parse_action(act, seat))
        except SgMahjongError as exc:
            raise LogError(f"line {n}: {exc}") from None
    return head, actions


def start(head: dict[str, Any]) -> tuple[HandState, list[Event]]:
    """The initial state a header describes."""
    try:
        rules = RuleSet.from_dict(dict(head.get("rules") or {}))
        wall = parse_tiles(head["wall"]) if head.get("wall") else None
        seed = head.get("seed")
        return new_hand(rules, seed=seed, dealer=int(head.get("dealer", 0)),
                        prevailing=int(head.get("prevailing", 0)), wall=wall,
                        pause_windows=bool(head.get("pause_windows", False)))
    except SgMahjongError as exc:
        raise LogError(f"line 1: {exc}") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise LogError(f"line 1: bad header ({exc})") from None


def replay(text: str) -> tuple[HandState, list[Event]]:
    """Replay a log: the final state and every event, in order."""
    head, actions = parse_log(text)
    state, events = start(head)
    for n, a in enumerate(actions, start=2):
        try:
            state, evs = apply(state, a)
        except SgMahjongError as exc:
            raise LogError(f"line {n}: {format_action(a)!r} refused: {exc}") from None
        events.extend(evs)
    return state, events

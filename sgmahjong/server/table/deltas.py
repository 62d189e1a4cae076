"""View deltas (docs/protocol.md, ``delta``): what changed between two views of one seat, and its merge.

A view is the engine's ``match_view`` (a JSON object). A delta holds the top-level keys whose value
changed, except ``seats``, which (when any seat changed) is an object from the seat's index as a string
to that seat's whole new entry. Merging a delta into the previous view gives the new view exactly;
a view that lost a key has no delta (the server sends the whole view then).
"""

from __future__ import annotations

from typing import Any

View = dict[str, Any]


def view_delta(old: View, new: View) -> View | None:
    """The delta from ``old`` to ``new`` (empty when equal); None when ``new`` lost a key of ``old``
    or its seats do not line up. A seat entry is taken as unchanged only when it is the very same
    object (the table's views share unchanged entries: game.view.SeatViews); any other entry is sent
    whole, which is always correct (merging it gives the same view)."""
    if len(old) > len(new) and any(k not in new for k in old):
        return None
    out: View = {}
    get = old.get
    for key, value in new.items():
        before = get(key, _MISSING)
        if before is value:
            continue
        if key == "seats":
            if not isinstance(value, list) or not isinstance(before, list) or len(before) != len(value):
                if before != value:
                    return None
                continue
            seats = {str(i): s for i, (b, s) in enumerate(zip(before, value, strict=True)) if b is not s}
            if seats:
                out["seats"] = seats
        elif before != value:
            out[key] = value
    return out


_MISSING = object()


def merge_delta(view: View, delta: View) -> View:
    """A new view: ``view`` with ``delta`` applied (``view`` itself is left as it was)."""
    out = dict(view)
    for key, value in delta.items():
        if key == "seats":
            seats = list(out["seats"])
            for index, entry in value.items():
                seats[int(index)] = entry
            out["seats"] = seats
        else:
            out[key] = value
    return out


class ClientViews:
    """What a client does with ``view`` and ``delta`` messages (Python twin of static/js/viewstate.js):
    keeps the last whole view and expands each message into its ``event`` messages, in order, then one
    whole ``view`` message (status, view, timer)."""

    def __init__(self) -> None:
        self.view: View | None = None

    def expand(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        kind = message.get("type")
        if kind not in ("view", "delta"):
            return [message]
        if kind == "delta":
            if self.view is None:
                return []  # nothing to build on (the server always sends a whole view first)
            view = merge_delta(self.view, message["view"])
        else:
            view = message["view"]
        self.view = view
        out: list[dict[str, Any]] = [
            {"type": "event", "event": e, "version": view.get("version")} for e in message.get("events") or ()
        ]
        out.append({"type": "view", "status": message.get("status"), "view": view,
                    "timer": message.get("timer")})
        return out

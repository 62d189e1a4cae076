"""Finished hands for everyone: the log, the replay frames, the review, and the /replay page.

Nothing of a hand is served before it has ended (409, and no tile in the answer): its tiles are
secret until then. A club table's hands are served only to whom may see the table
(:func:`.clubs.may_see`: its members, or anyone once the owner made it public; else 403
``club_only``). The replay and review are computed from the stored log off the event loop.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import OrderedDict
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from ...errors import SgMahjongError
from ...replay import replay_frames
from ...review import SEATS, review_log
from ...rules import RuleSet
from ..store import Store, TableRow
from ..table.chat import row_json
from ..tables import TableServer
from . import identity
from .clubs import CLUB_ONLY, may_see
from .common import error

REPLAY_CHAT = 500  # chat messages of one hand served with its replay

CODE_RE = re.compile(r"^[A-Za-z0-9_-]{4,32}$")
NOT_ENDED = "the log of a hand is published when the hand ends"
BAD_SEAT = "seat is E, S, W, N or 0-3"
REVIEW_CACHE = 128  # reviews kept (a finished hand never changes); the oldest is dropped beyond this


class HandNotServed(Exception):
    """A hand that is not (yet) served: the HTTP status, the message and the error code if any."""

    def __init__(self, status: int, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _not_served(exc: HandNotServed) -> JSONResponse:
    return error(exc.status, exc.message, exc.code)


def ended_hand_log(server: TableServer, code: str, number_text: str,
                   viewer: Request | None = None) -> tuple[TableRow, int, str]:
    """(table row, hand number, log text) of an ended hand, from the store (any worker may answer),
    for the asker of ``viewer`` (who must be allowed to see the table); raises :class:`HandNotServed`
    otherwise."""
    store = server.store
    table = store.table_by_code(code) if CODE_RE.match(code) else None
    if table is None:
        raise HandNotServed(404, "no such table")
    if viewer is not None and not may_see(server, identity.player_ids_of(server, viewer), table):
        raise HandNotServed(403, CLUB_ONLY, "club_only")
    try:
        number = int(number_text)
    except ValueError:
        raise HandNotServed(400, "the hand number is a whole number") from None
    hands = {h.number: h for h in store.hands(table.id)}
    if number not in hands:
        raise HandNotServed(404, f"no hand {number} at this table")
    if hands[number].ended is None:
        raise HandNotServed(409, NOT_ENDED)
    events = store.events(table.id, number)
    lines = [json.dumps(events[0], sort_keys=True)]
    lines += [
        json.dumps({"seat": a.seat, "action": a.action, "version": i}, sort_keys=True)
        for i, a in enumerate(store.actions(table.id, number), start=1)
    ]
    return table, number, "\n".join(lines) + "\n"


def query_seat(request: Request) -> int | None:
    """The ``seat`` query parameter (E, S, W, N or 0-3) as 0-3; None when it is not one."""
    text = request.query_params.get("seat", "").strip().upper()
    if len(text) == 1 and text in SEATS:
        return SEATS.index(text)
    return int(text) if text in ("0", "1", "2", "3") else None


def _seats(store: Store, table_id: int) -> list[dict[str, Any]]:
    return [{"seat": s.seat, "name": s.name, "kind": s.kind, "bot_level": s.bot_level}
            for s in store.seats(table_id)]


def routes(server: TableServer) -> list[Route]:
    """The routes of finished hands, for ``server`` (the app's TableServer)."""
    reviews: OrderedDict[tuple[int, int, int], dict[str, Any]] = OrderedDict()

    async def hand_log(request: Request) -> Response:
        try:
            table, number, text = ended_hand_log(server, request.path_params["code"],
                                                 request.path_params["number"], request)
        except HandNotServed as exc:
            return _not_served(exc)
        return PlainTextResponse(
            text, media_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="{table.code}-hand{number}.jsonl"'},
        )

    async def hand_replay(request: Request) -> Response:
        try:
            table, number, text = ended_hand_log(server, request.path_params["code"],
                                                 request.path_params["number"], request)
            data = await asyncio.to_thread(replay_frames, text)
        except HandNotServed as exc:
            return _not_served(exc)
        except SgMahjongError as exc:
            return _error(409, str(exc))
        rules = RuleSet.from_dict(dict(table.rules))
        data.update({"code": table.code, "name": table.name, "hand_number": number,
                     "hands": len(server.store.hands(table.id)), "seats": _seats(server.store, table.id),
                     "rules": rules.to_dict(), "changed_rules": rules.changed_from_default(),
                     "chat": [row_json(r) for r in server.store.hand_chat(table.id, number, REPLAY_CHAT)]})
        return JSONResponse(data)

    async def hand_review(request: Request) -> Response:
        seat = query_seat(request)
        if seat is None:
            return _error(400, BAD_SEAT)
        try:
            table, number, text = ended_hand_log(server, request.path_params["code"],
                                                 request.path_params["number"], request)
            key = (table.id, number, seat)
            data = reviews.get(key)
            if data is None:
                data = (await asyncio.to_thread(review_log, text, seat)).to_json()
                data.update({"code": table.code, "hand_number": number, "seat": seat})
                reviews[key] = data
                while len(reviews) > REVIEW_CACHE:
                    reviews.popitem(last=False)
            else:
                reviews.move_to_end(key)
        except HandNotServed as exc:
            return _not_served(exc)
        except SgMahjongError as exc:
            return _error(409, str(exc))
        return JSONResponse(data)

    return [
        Route("/api/tables/{code}/hands/{number}/log", hand_log),
        Route("/api/tables/{code}/hands/{number}/replay", hand_replay),
        Route("/api/tables/{code}/hands/{number}/review", hand_review),
    ]

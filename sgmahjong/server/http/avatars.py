"""Avatars: a player picks one of the drawn avatars (static/js/avatars.js draws them from the tile set's
animals and flowers); it is kept with the visitor's player (identity.py) and shown at the seats the
player takes.

``GET /api/me/avatar`` and ``POST /api/me/avatar`` {"avatar": ID or null} (the visitor's session);
``GET /api/tables/{code}/avatars``
gives seat -> avatar of the table's players who chose one (bots have their own, drawn by the client).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..protocol import ProtocolError
from . import clubs, identity
from .common import error, json_body, refused

#: the players' avatars: the four animals and the eight flowers of the tile set
AVATARS: tuple[str, ...] = (
    "cat", "rat", "rooster", "centipede", "plum", "orchid", "chrysanthemum", "bamboo",
    "spring", "summer", "autumn", "winter",
)


def routes(server: Any) -> list[Route]:
    """The avatar routes, for ``server`` (the app's TableServer)."""

    async def get_mine(request: Request) -> Response:
        who = identity.visitor(server, request)
        mine = None if who is None else server.store.avatar(who.player_id)
        return JSONResponse({"avatar": mine, "choices": list(AVATARS)})

    async def set_mine(request: Request) -> Response:
        try:
            body = await json_body(request)
        except ProtocolError as exc:
            return refused(exc)
        avatar = body.get("avatar", "") if isinstance(body, dict) else ""
        if avatar is not None and avatar not in AVATARS:
            return error(400, f"avatar is one of {', '.join(AVATARS)} (or null for none)")
        try:
            who = identity.ensure(server, request)
        except ProtocolError as exc:
            return refused(exc)
        if not server.store.set_avatar(who.player_id, avatar):
            return error(404, "this player was deleted", "no_player")
        return JSONResponse({"avatar": avatar})

    async def of_table(request: Request) -> Response:
        table = await server.find(request.path_params["code"])
        if table is None:
            return error(404, "no such table")
        if not clubs.may_see(server, identity.player_ids_of(server, request), table):
            return error(403, clubs.CLUB_ONLY, "club_only")
        seats = server.store.table_avatars(table.id)
        humans = {s.seat for s in table.seats if s.kind == "human"}
        return JSONResponse({"seats": {str(k): v for k, v in seats.items() if k in humans}})

    return [
        Route("/api/me/avatar", get_mine, methods=["GET"]),
        Route("/api/me/avatar", set_mine, methods=["POST"]),
        Route("/api/tables/{code}/avatars", of_table),
    ]

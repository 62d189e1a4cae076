"""The live club page's routes (docs/clubs.md, "The live club page"): the club's live summary (who is
online, who sits at which open table, the ledger's stamp), answered 304 when the page has it already
(``If-None-Match``) and asked for by each member at most ``club_polls_per_minute`` (by identity and
by address); the owner's defaults for the club's tables; and, for the table page, which club a table
is of (its name, link and stakes: the members' alone).

A member's poll records them as seen (at most once every few seconds per worker: :class:`SeenWrites`),
so "online" is the same on every worker of a cluster: it is read from the database."""

from __future__ import annotations

import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..clubs.choices import ClubChoices, merged, parse_choices
from ..clubs.live import SeenWrites, etag, live_summary
from ..clubs.opening import club_defaults
from ..clubs.view import club_summary
from ..protocol import ProtocolError
from ..store.clubs_sql import OWNER
from ..tables import TableServer
from . import identity
from .clubs import NO_CLUB, acting_player
from .common import error, json_body, refused
from .limits import PersonLimits


def routes(server: TableServer) -> list[BaseRoute]:
    settings = server.settings
    polls = PersonLimits(settings.club_polls_per_minute / 60, settings.club_poll_burst,
                         settings.club_address_polls_per_minute / 60, settings.club_poll_burst * 4,
                         settings.tracked_addresses)
    seen = SeenWrites(max(1.0, settings.club_online_seconds / 3), settings.tracked_addresses)

    def member_of(request: Request) -> tuple[Any, Any] | None:
        club = server.store.club(request.path_params["code"][:40])
        if club is None:
            return None
        _acting, ids = acting_player(server, request)
        member = server.store.membership(club.id, ids)
        return None if member is None else (club, member)

    async def live(request: Request) -> Response:
        people = [k for k in identity.person_keys(server, request) if not k.startswith("a:")]  # the address
        if not polls.take(identity.address_of(request), people):  # has its own, larger allowance
            return error(429, "too many requests for the club's page: wait a little", "rate_limited")
        found = member_of(request)
        if found is None:
            return error(404, NO_CLUB)
        club, me = found
        now = time.time()
        if seen.due(club.id, me.player_id, now):
            server.store.club_seen(club.id, me.player_id, now)
        summary = live_summary(server.store, club, now=now, online_seconds=settings.club_online_seconds,
                               tables_listed=settings.club_tables_listed)
        tag = etag(summary)
        headers = {"ETag": tag, "Cache-Control": "no-cache"}
        if request.headers.get("if-none-match") == tag:
            return Response(status_code=304, headers=headers)
        return JSONResponse({**summary, "poll": settings.club_poll_seconds}, headers=headers)

    async def defaults(request: Request) -> Response:
        """The owner's defaults of the club's tables (GET: anyone of the club; POST: the owner)."""
        found = member_of(request)
        if found is None:
            return error(404, NO_CLUB)
        club, me = found
        if request.method == "POST":
            try:
                chosen = parse_choices(await json_body(request), settings.club_turn_seconds_max)
            except ProtocolError as exc:
                return refused(exc)
            if me.role != OWNER:
                return error(403, "only the club's owner may do this", "owner_only")
            server.store.set_club_table_defaults(club.id, chosen.model_dump(exclude_none=True))
        return JSONResponse({"defaults": _complete(club_defaults(server, club.id)),
                             "turn_max": settings.club_turn_seconds_max})

    async def table_club(request: Request) -> Response:
        """Which club a table is of, for its members: ``{"club": {code, name, url, preset, money, stake,
        cents_per_point}}``; ``{"club": null}`` for a table of no club or to anyone else."""
        row = server.store.table_by_code(request.path_params["code"][:40])
        club_id = None if row is None else server.store.table_club(row.id)
        ids = identity.player_ids_of(server, request)
        if club_id is None or not ids:
            return JSONResponse({"club": None})
        for club, role in server.store.player_clubs(ids):
            if club.id == club_id:
                return JSONResponse({"club": club_summary(club, role)})
        return JSONResponse({"club": None})

    return [
        Route("/api/clubs/{code}/live", live, methods=["GET"]),
        Route("/api/clubs/{code}/defaults", defaults, methods=["GET", "POST"]),
        Route("/api/tables/{code}/club", table_club, methods=["GET"]),
    ]


def _complete(chosen: ClubChoices) -> dict[str, Any]:
    return merged(chosen, ClubChoices()).model_dump()

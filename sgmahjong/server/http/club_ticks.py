"""Ticking a settle-up's transfer as paid (docs/clubs.md): ``POST /api/clubs/{code}/ticks``
``{"scope": "period" | "tonight", "payer": MEMBER, "payee": MEMBER, "paid": true | false}``.

Only the transfer's payer or payee may tick it (403 ``not_a_party``), only a transfer the settle-up has
now (404 ``transfer_unknown``), and only the one who ticked may untick (403 ``not_your_tick``); anyone
not a member gets 404 "no such club". A POST with a JSON body (CSRF: the guard middleware's Origin and
content-type checks). Ticks are counted per person (identity and address) per day
(``SGMAHJONG_CLUB_TICKS_PER_DAY``, 429 ``ticks_per_day``).
"""

from __future__ import annotations

import hashlib
import time
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..clubs.ticks import tonight_start
from ..clubs.view import club_page
from ..protocol import ProtocolError, validation_message
from ..store.club_ticks_sql import TickRow
from ..tables import TableServer
from . import identity
from .clubs import DAY, NO_CLUB, acting_player
from .common import error, json_body, refused

MEMBER_ID = Annotated[str, Field(min_length=1, max_length=20, pattern=r"^[0-9]+$")]


class Tick(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    scope: Literal["period", "tonight"]
    payer: MEMBER_ID
    payee: MEMBER_ID
    paid: bool


def routes(server: TableServer) -> list[BaseRoute]:
    settings = server.settings

    async def tick(request: Request) -> Response:
        store = server.store
        club = store.club(request.path_params["code"][:40])
        _acting, ids = acting_player(server, request)
        me = None if club is None else store.membership(club.id, ids)
        if club is None or me is None:
            return error(404, NO_CLUB)
        try:
            body = Tick.model_validate(await json_body(request))
        except ValidationError as exc:
            return refused(ProtocolError("invalid", validation_message(exc, whole="body", most=1)))
        except ProtocolError as exc:
            return refused(exc)
        now = time.time()
        page = club_page(store, club, me, now=now, tables_listed=0, periods_listed=0,
                         tonight=tonight_start(now, settings.club_time_zone))
        scope = page[body.scope]
        transfer = next((x for x in scope["transfers"]
                         if x["payer"] == body.payer and x["payee"] == body.payee), None)
        if transfer is None:
            return error(404, "no such transfer in this settle-up (the ledger may have changed: reload)",
                         "transfer_unknown")
        mine = str(me.player_id)
        if mine not in (body.payer, body.payee):
            return error(403, "only the payer or the payee of a transfer may tick it", "not_a_party")
        if not body.paid:
            if transfer["tick"] is None:
                return JSONResponse({"tick": None})
            if transfer["tick"]["by_member"] != mine:
                return error(403, "only the one who ticked a transfer may untick it", "not_your_tick")
            store.untick_transfer(club.id, scope["scope"], int(body.payer), int(body.payee))
            return JSONResponse({"tick": None})
        if transfer["tick"] is not None:
            return JSONResponse({"tick": transfer["tick"]})
        most = settings.club_ticks_per_day
        persons = [hashlib.sha256(k.encode()).hexdigest()[:32] for k in identity.person_keys(server, request)]
        if not store.take_quota("ticks", persons, most, now - DAY, now):
            return error(429, f"you have ticked {most} transfers in the last 24 hours (the most): try again"
                              " tomorrow", "ticks_per_day", {"most": most})
        store.tick_transfer(club.id, TickRow(scope["scope"], int(body.payer), int(body.payee),
                                             int(transfer["points"]), me.player_id, now))
        return JSONResponse({"tick": {"by": me.name, "by_member": mine, "at": now}})

    return [Route("/api/clubs/{code}/ticks", tick, methods=["POST"])]

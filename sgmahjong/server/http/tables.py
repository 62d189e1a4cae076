"""Routes of the tables and the lobby: list the open tables, create one, read one, take a seat."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...errors import SgMahjongError
from ..lobby import PAGE_MAX
from ..protocol import ProtocolError, validation_message
from ..tables import CreateTable, TableServer
from . import clubs, identity, players
from .common import ID_DIGITS, NewTables, attended, error, json_body, refused


class JoinTable(BaseModel):
    """Body of ``POST /api/tables/CODE/join``."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: Annotated[str, Field(min_length=1, max_length=100)]
    seat: Annotated[int, Field(ge=0, le=3)] | None = None


def routes(server: TableServer, new_tables: NewTables) -> list[BaseRoute]:
    settings = server.settings

    async def list_tables(request: Request) -> Response:
        try:
            offset = int(request.query_params.get("offset", "0"))
            limit = int(request.query_params.get("limit", str(settings.lobby_page)))
        except ValueError:
            return error(400, "offset and limit are whole numbers")
        if not 0 <= offset < 10 ** ID_DIGITS or not 1 <= limit <= PAGE_MAX:
            return error(400, f"offset is at least 0 and limit is 1-{PAGE_MAX}")
        return JSONResponse(server.lobby(offset, limit))

    async def create_table(request: Request) -> Response:
        if (refusal := new_tables.refuse(request)) is not None:
            return refusal
        try:
            body = CreateTable.model_validate(await json_body(request))
            attended(body.options)
            table = server.create(body)
            server.ownership.created(table)
        except ValidationError as exc:
            return error(400, validation_message(exc, whole="body", most=1))
        except ProtocolError as exc:
            return refused(exc)
        except SgMahjongError as exc:
            return error(400, str(exc))
        return JSONResponse(
            {"code": table.code, "url": f"/t/{table.code}", "table": table.summary()}, status_code=201
        )

    async def get_table(request: Request) -> Response:
        table = await server.find(request.path_params["code"])
        if table is None:
            return error(404, "no such table")
        if not clubs.may_see(server, identity.player_ids_of(server, request), table):
            return error(403, clubs.CLUB_ONLY, "club_only")
        return JSONResponse(table.summary())

    async def join_table(request: Request) -> Response:
        table = await server.find(request.path_params["code"])
        if table is None:
            return error(404, "no such table")
        try:
            body = JoinTable.model_validate(await json_body(request))
            if not clubs.may_sit(server, request, table):
                return error(403, "only the club's members may sit at a club's table", "club_only")
            who = identity.ensure(server, request, body.name)
            mark = server.commit_mark()
            async with table.lock:
                seat, token = table.join(body.name, body.seat, who.player_id, server.settings.text_max_marks)
                players.link_seat(server, table, seat, who)
        except ValidationError as exc:
            return error(400, validation_message(exc, whole="body", most=1))
        except ProtocolError as exc:
            return refused(exc)
        await server.committed(table.id, mark)
        return JSONResponse({"seat": seat, "token": token})

    return [
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{code}", get_table),
        Route("/api/tables/{code}/join", join_table, methods=["POST"]),
    ]

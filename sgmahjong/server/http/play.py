"""Routes of play and the match flow: "Play vs bots", "Quick play" and a table's results so far (the
rematch is a WebSocket message: ``socket.py``)."""

from __future__ import annotations

from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...errors import SgMahjongError
from .. import matchflow
from ..protocol import ProtocolError, validation_message
from ..tables import TableServer
from . import clubs, identity, players
from .common import NewTables, attended, error, json_body, refused


def routes(server: TableServer, new_tables: NewTables) -> list[BaseRoute]:
    async def play_bots(request: Request) -> Response:
        if (refusal := new_tables.refuse(request)) is not None:
            return refusal
        try:
            body = matchflow.PlayBots.model_validate(await json_body(request))
            attended(body.options)
            server.allow_test_hooks(body.seed, body.wall)
            who = identity.ensure(server, request, body.name)
            mark = server.commit_mark()
            answer = await matchflow.play_vs_bots(server, body, who.player_id)
            players.link_answer(server, answer, who)
        except ValidationError as exc:
            return error(400, validation_message(exc, whole="body", most=1))
        except ProtocolError as exc:
            return refused(exc)
        except SgMahjongError as exc:
            return error(400, str(exc))
        await server.committed(server.table_id(answer["code"]), mark)
        return JSONResponse(answer, status_code=201)

    async def results(request: Request) -> Response:
        table = server.get(request.path_params["code"])
        if table is None:
            return error(404, "no such table")
        if not clubs.may_see(server, identity.player_ids_of(server, request), table):
            return error(403, clubs.CLUB_ONLY, "club_only")
        return JSONResponse({"hands": matchflow.hand_results(table)})

    async def quick(request: Request) -> Response:
        if (refusal := new_tables.refuse(request)) is not None:
            return refusal
        try:
            body = matchflow.QuickPlay.model_validate(await json_body(request))
            who = identity.ensure(server, request, body.name)
            mark = server.commit_mark()
            answer = await matchflow.quick_play(server, body, who.player_id)
            players.link_answer(server, answer, who)
        except ValidationError as exc:
            return error(400, validation_message(exc, whole="body", most=1))
        except ProtocolError as exc:
            return refused(exc)
        await server.committed(server.table_id(answer["code"]), mark)
        return JSONResponse(answer)

    return [
        Route("/api/play", play_bots, methods=["POST"]),
        Route("/api/quick", quick, methods=["POST"]),
        Route("/api/tables/{code}/results", results),
    ]

"""Event routes (docs/events.md): create an event, enter or leave it while it is open, start its first
round (the organiser), and the event's page data: entrants, each round's tables and walls (a duplicate
round's commitments from its start, its secrets once it has ended) and the standings computed from the
stored hands.

Who asks is the visitor of the request's session (identity.py); entering needs a player with a name.
An event's page is readable by anyone with its link. State-changing routes are POSTs with a JSON body
(the guard middleware's Origin and content-type checks: CSRF); new events are counted per person
(identity and address) per day."""

from __future__ import annotations

import secrets
import time
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...rules import PRESETS
from ..options import TableOptions, TableOptionsError
from ..protocol import ProtocolError, validation_message
from ..store import Store
from ..store.events_sql import FINISHED, OPEN, EventRow
from ..tables import TableServer
from ..text import text_problem
from ..tournaments.runner import ENDED, EventRunner, event_standings
from .clubs import acting_player, take_daily
from .common import error, json_body, refused
from .pages import static_page

NO_EVENT = "no such event"


class NewEvent(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    name: Annotated[str, Field(min_length=1, max_length=200)]  # and at most event_name_max, checked after
    format: Literal["swiss", "round_robin", "duplicate"] = "swiss"
    rounds: Annotated[int, Field(ge=1, le=20)] = 3
    hands: Annotated[int, Field(ge=1, le=16)] = 4
    absent: Literal["zero", "bot"] = "zero"
    preset: str = "default"
    options: dict[str, Any] = Field(default_factory=dict)  # table options (timers, pace, bots)


class Empty(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


def page_data(store: Store, event: EventRow, me: list[int]) -> dict[str, Any]:
    """What the event's page shows (and what a player may check: the walls' commitments and reveals)."""
    entrants = store.event_entrants(event.id)
    names = {e.player_id: e.name for e in entrants}
    tables = store.event_tables(event.id)
    walls = store.event_walls(event.id)
    rounds = []
    for number in range(1, event.round + 1):
        mine = [t for t in tables if t.round == number]
        ended = event.status == FINISHED or number < event.round or all(t.status in ENDED for t in mine)
        seated = []
        for t in mine:
            who = store.seat_players(t.table_id)
            seated.append({"table": t.table_no, "code": t.code, "status": t.status,
                           "seats": [names.get(who[s]) if s in who else None for s in range(4)]})
        rounds.append({"round": number, "ended": ended, "tables": seated,
                       "walls": [{"hand": w.hand + 1, "wall_hash": w.wall_hash,
                                  "secret": w.secret if ended else None}
                                 for w in walls if w.round == number]})
    owner = store.player_name(event.owner) or ""
    return {
        "code": event.code, "name": event.name, "format": event.format, "rounds": event.rounds,
        "hands": event.hands, "absent": event.absent, "preset": event.preset, "status": event.status,
        "round": event.round, "organiser": owner, "is_organiser": event.owner in me,
        "entered": any(p in names for p in me),
        "entrants": [e.name for e in entrants], "played": rounds,
        "standings": event_standings(store, event) if event.round else [],
    }


def routes(server: TableServer) -> list[BaseRoute]:
    settings = server.settings
    runner = EventRunner(server)

    def store() -> Store:
        return server.store

    def event_of(request: Request) -> EventRow | None:
        return store().event(request.path_params["code"][:40])

    async def body_of(request: Request, model: type[Any]) -> Any:
        try:
            return model.model_validate(await json_body(request))
        except ValidationError as exc:
            raise ProtocolError("invalid", validation_message(exc, whole="body", most=1)) from None

    async def create(request: Request) -> Response:
        acting, _ids = acting_player(server, request)
        if acting is None:
            return error(400, "choose a name on /me first: an event's entrants are players", "name_needed")
        try:
            body = await body_of(request, NewEvent)
        except ProtocolError as exc:
            return refused(exc)
        name = " ".join(body.name.split())
        if not name or len(name) > settings.event_name_max:
            most = settings.event_name_max
            return error(400, f"an event's name is 1-{most} characters", "event_name", {"most": most})
        if (problem := text_problem(name, settings.text_max_marks)) is not None:
            return error(400, problem.message, problem.code, problem.params)
        if body.preset not in PRESETS:
            return error(400, f"the house rules are one of {', '.join(PRESETS)}")
        try:
            options = TableOptions.parse(body.options).model_dump()
        except TableOptionsError as exc:
            return error(400, str(exc), "invalid")
        if (refusal := take_daily(server, request, "events", settings.events_per_day)) is not None:
            return refusal
        code = secrets.token_urlsafe(8)
        store().create_event(code, name, acting, body.format, body.rounds, body.hands, body.absent,
                             body.preset, options, time.time())
        return JSONResponse({"code": code, "url": f"/event/{code}"}, status_code=201)

    async def mine(request: Request) -> Response:
        _acting, ids = acting_player(server, request)
        events = store().player_events(ids, settings.club_tables_listed) if ids else []
        return JSONResponse({
            "events": [{"code": e.code, "name": e.name, "format": e.format, "status": e.status,
                        "round": e.round, "rounds": e.rounds, "organiser": mine}
                       for e, mine in events],
            "presets": list(PRESETS), "name_max": settings.event_name_max, "has_identity": bool(ids)})

    async def page(request: Request) -> Response:
        event = event_of(request)
        if event is None:
            return error(404, NO_EVENT, "event_unknown")
        _acting, ids = acting_player(server, request)
        return JSONResponse(page_data(store(), event, ids))

    async def action(request: Request) -> tuple[EventRow, int | None, list[int]] | Response:
        """The event of the path, the acting player and all of theirs, after its (empty) body is read;
        or the refusal."""
        event = event_of(request)
        acting, ids = acting_player(server, request)
        if event is None:
            return error(404, NO_EVENT, "event_unknown")
        try:
            await body_of(request, Empty)
        except ProtocolError as exc:
            return refused(exc)
        return event, acting, ids

    async def enter(request: Request) -> Response:
        got = await action(request)
        if isinstance(got, Response):
            return got
        event, acting, ids = got
        if acting is None:
            return error(400, "choose a name on /me first: an event's entrants are players", "name_needed")
        entrants = store().event_entrants(event.id)
        if any(e.player_id in ids for e in entrants):
            return JSONResponse(page_data(store(), event, ids))
        if event.status != OPEN:
            return error(409, "the event has begun: entries are closed", "event_closed")
        if len(entrants) >= settings.event_entrants_max:
            most = settings.event_entrants_max
            return error(409, f"the event has {most} entrants (the most)", "event_full", {"most": most})
        store().enter_event(event.id, acting, time.time())
        return JSONResponse(page_data(store(), event, ids))

    async def leave(request: Request) -> Response:
        got = await action(request)
        if isinstance(got, Response):
            return got
        event, _acting, ids = got
        if event.status != OPEN:
            return error(409, "the event has begun: entries are closed", "event_closed")
        for player in ids:
            store().leave_event(event.id, player)
        return JSONResponse(page_data(store(), event, ids))

    async def start(request: Request) -> Response:
        got = await action(request)
        if isinstance(got, Response):
            return got
        event, _acting, ids = got
        if event.owner not in ids:
            return error(403, "only the event's organiser may start it", "organiser_only")
        if event.round > 0:
            return error(409, "the event has begun already", "event_round_playing")
        try:
            await runner.begin_round(event)
        except ProtocolError as exc:
            return refused(exc)
        found = store().event(event.code)
        assert found is not None
        return JSONResponse(page_data(store(), found, ids))

    return [
        Route("/api/events", create, methods=["POST"]),
        Route("/api/events", mine, methods=["GET"]),
        Route("/events", static_page("events.html")),
        Route("/api/events/{code}", page),
        Route("/api/events/{code}/enter", enter, methods=["POST"]),
        Route("/api/events/{code}/leave", leave, methods=["POST"]),
        Route("/api/events/{code}/start", start, methods=["POST"]),
        Route("/event/{code}", static_page("event.html")),
    ]

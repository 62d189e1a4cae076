"""Event routes (docs/events.md): create an event, enter or leave it while it is open, start its first
round (the organiser), and the event's page data: entrants, each round's tables and walls (a duplicate
round's commitments from its start, its secrets once it has ended) and the standings computed from the
stored hands.

Who asks is the visitor of the request's session (identity.py); entering needs a player with a name.
Who may enter is the event's entry: any player with a name (open), the members of a club (club: the
club's owner makes such an event), or whoever has its join code (code: made with the event and shown
to its organiser once, in the address they are sent to; only its SHA-256 is stored). An event's page
is readable by anyone with its link, a club's event by its members alone. An event with a start time
begins by itself then (the runner's check); the organiser may start it sooner. State-changing routes
are POSTs with a JSON body (the guard middleware's Origin and content-type checks: CSRF); new events
and wrong join codes are counted per person (identity and address) per day."""

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
from ..push.evening import BadTime, local_text, utc_seconds, zone_of
from ..store import Store
from ..store.events_sql import FINISHED, OPEN, EventRow
from ..tables import TableServer
from ..text import text_problem
from ..tournaments.runner import ENDED, EventRunner, event_standings
from .clubs import acting_player, invite_hash, take_daily
from .common import error, json_body, refused
from .pages import static_page

NO_EVENT = "no such event"
YEAR = 366 * 86400.0  # the furthest start time


class NewEvent(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    name: Annotated[str, Field(min_length=1, max_length=200)]  # and at most event_name_max, checked after
    format: Literal["swiss", "round_robin", "duplicate"] = "swiss"
    rounds: Annotated[int, Field(ge=1, le=20)] = 3
    hands: Annotated[int, Field(ge=0, le=16)] = 4  # 0: a full match (the house rules' rounds); not duplicate
    absent: Literal["zero", "bot"] = "zero"
    preset: str = "default"
    options: dict[str, Any] = Field(default_factory=dict)  # table options (timers, pace, bots)
    starts: Annotated[str, Field(min_length=10, max_length=25)] | None = None  # "2026-12-04T20:00" in zone
    zone: Annotated[str, Field(min_length=1, max_length=64)] | None = None  # default: club_time_zone
    entry: Literal["open", "club", "code"] = "open"
    club: Annotated[str, Field(min_length=1, max_length=40)] | None = None  # entry club: the club's code


class Empty(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Enter(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    code: Annotated[str, Field(min_length=1, max_length=40)] | None = None  # an entry-code event's join code


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
        "entered": any(p in names for p in me), "entry": event.entry,
        "club": club.name if (club := store.club_by_id(event.club_id) if event.club_id else None) else None,
        "starts": event.starts, "zone": event.zone,
        "local": None if event.starts is None else local_text(event.starts, event.zone),
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

    def may_read(event: EventRow, ids: list[int]) -> bool:
        """A club's event is its members' alone; any other, anyone's with the link."""
        return event.club_id is None or (bool(ids) and store().membership(event.club_id, ids) is not None)

    async def create(request: Request) -> Response:
        acting, ids = acting_player(server, request)
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
        if body.hands == 0 and body.format == "duplicate":
            return error(400, "a duplicate round is 1 to 16 hands: its tables share their walls",
                         "event_hands")
        if body.preset not in PRESETS:
            return error(400, f"the house rules are one of {', '.join(PRESETS)}")
        try:
            options = TableOptions.parse(body.options).model_dump()
        except TableOptionsError as exc:
            return error(400, str(exc), "invalid")
        now = time.time()
        zone = body.zone or settings.club_time_zone
        starts = None
        if body.starts is not None:
            try:
                zone_of(zone)
                starts = utc_seconds(body.starts, zone)
            except BadTime:
                return error(400, "not a time of day in a time zone the server knows", "bad_time")
            if not now < starts < now + YEAR:
                return error(400, "an event starts in the coming year", "bad_time")
        club_id = None
        if body.entry == "club":
            club = store().club(body.club[:40]) if body.club else None
            member = store().membership(club.id, ids) if club else None
            if club is None or member is None or member.role != "owner":
                return error(403, "only a club's owner makes an event for its members", "owner_only")
            club_id = club.id
        if (refusal := take_daily(server, request, "events", settings.events_per_day)) is not None:
            return refusal
        code = secrets.token_urlsafe(8)
        join = secrets.token_urlsafe(6) if body.entry == "code" else None
        store().create_event(code, name, acting, body.format, body.rounds, body.hands, body.absent,
                             body.preset, options, now, starts=starts, zone=zone, entry=body.entry,
                             club_id=club_id, join_hash=None if join is None else invite_hash(join))
        url = f"/event/{code}" if join is None else f"/event/{code}?join={join}"
        return JSONResponse({"code": code, "url": url, "join_code": join}, status_code=201)

    async def mine(request: Request) -> Response:
        _acting, ids = acting_player(server, request)
        events = store().player_events(ids, settings.club_tables_listed) if ids else []
        return JSONResponse({
            "events": [{"code": e.code, "name": e.name, "format": e.format, "status": e.status,
                        "round": e.round, "rounds": e.rounds, "organiser": mine}
                       for e, mine in events],
            "presets": list(PRESETS), "name_max": settings.event_name_max, "has_identity": bool(ids),
            "clubs": [{"code": c.code, "name": c.name}  # an event for its members: the owner's clubs
                      for c, role in store().player_clubs(ids) if role == "owner"]})

    async def page(request: Request) -> Response:
        event = event_of(request)
        if event is None:
            return error(404, NO_EVENT, "event_unknown")
        _acting, ids = acting_player(server, request)
        if not may_read(event, ids):
            return error(403, "this event is its club's members' alone", "event_members_only")
        return JSONResponse(page_data(store(), event, ids))

    async def action(request: Request, model: type[Any] = Empty
                     ) -> tuple[EventRow, int | None, list[int], Any] | Response:
        """The event of the path, the acting player and all of theirs and the body read as ``model``; or
        the refusal."""
        event = event_of(request)
        acting, ids = acting_player(server, request)
        if event is None:
            return error(404, NO_EVENT, "event_unknown")
        try:
            body = await body_of(request, model)
        except ProtocolError as exc:
            return refused(exc)
        if not may_read(event, ids):
            return error(403, "this event is its club's members' alone", "event_members_only")
        return event, acting, ids, body

    def may_enter(request: Request, event: EventRow, body: Enter) -> Response | None:
        """The refusal of an entry the event's entry does not allow (a wrong join code is counted)."""
        if event.entry != "code":
            return None  # open; a club's: its members (may_read)
        if body.code is not None and event.join_hash is not None \
                and secrets.compare_digest(invite_hash(body.code), event.join_hash):
            return None
        if (refusal := take_daily(server, request, "event_codes", settings.event_codes_per_day)) is not None:
            return refusal
        return error(403, "this event's entry needs its join code: ask its organiser", "event_code")

    async def enter(request: Request) -> Response:
        got = await action(request, Enter)
        if isinstance(got, Response):
            return got
        event, acting, ids, body = got
        if acting is None:
            return error(400, "choose a name on /me first: an event's entrants are players", "name_needed")
        entrants = store().event_entrants(event.id)
        if any(e.player_id in ids for e in entrants):
            return JSONResponse(page_data(store(), event, ids))
        if event.status != OPEN:
            return error(409, "the event has begun: entries are closed", "event_closed")
        if (refusal := may_enter(request, event, body)) is not None:
            return refusal
        if len(entrants) >= settings.event_entrants_max:
            most = settings.event_entrants_max
            return error(409, f"the event has {most} entrants (the most)", "event_full", {"most": most})
        store().enter_event(event.id, acting, time.time())
        return JSONResponse(page_data(store(), event, ids))

    async def leave(request: Request) -> Response:
        got = await action(request)
        if isinstance(got, Response):
            return got
        event, _acting, ids, _body = got
        if event.status != OPEN:
            return error(409, "the event has begun: entries are closed", "event_closed")
        for player in ids:
            store().leave_event(event.id, player)
        return JSONResponse(page_data(store(), event, ids))

    async def organiser_action(request: Request) -> tuple[EventRow, list[int]] | Response:
        """The event of the path and the organiser's player ids, after its (empty) body is read; or the
        refusal (anyone but its organiser)."""
        got = await action(request)
        if isinstance(got, Response):
            return got
        event, _acting, ids, _body = got
        if event.owner not in ids:
            return error(403, "only the event's organiser may do this", "organiser_only")
        return event, ids

    async def start(request: Request) -> Response:
        got = await organiser_action(request)
        if isinstance(got, Response):
            return got
        event, ids = got
        if event.round > 0:
            return error(409, "the event has begun already", "event_round_playing")
        try:
            await runner.begin_round(event)
        except ProtocolError as exc:
            return refused(exc)
        found = store().event(event.code)
        assert found is not None
        return JSONResponse(page_data(store(), found, ids))

    async def new_code(request: Request) -> Response:
        """A new join code for an entry-code event (the organiser; the old one stops working)."""
        got = await organiser_action(request)
        if isinstance(got, Response):
            return got
        event, _ids = got
        if event.entry != "code" or event.status != OPEN:
            return error(409, "the event has begun: entries are closed", "event_closed")
        join = secrets.token_urlsafe(6)
        store().set_event_join_hash(event.id, invite_hash(join))
        return JSONResponse({"join_code": join, "url": f"/event/{event.code}?join={join}"})

    return [
        Route("/api/events", create, methods=["POST"]),
        Route("/api/events", mine, methods=["GET"]),
        Route("/events", static_page("events.html")),
        Route("/api/events/{code}", page),
        Route("/api/events/{code}/enter", enter, methods=["POST"]),
        Route("/api/events/{code}/code", new_code, methods=["POST"]),
        Route("/api/events/{code}/leave", leave, methods=["POST"]),
        Route("/api/events/{code}/start", start, methods=["POST"]),
    ]

"""A club's evenings and its notifications (docs/clubs.md, "Evenings and notifications"): the server's
VAPID public key; a member turns a club's notifications on (their browser's push subscription, kept per
player and bounded) or off; the owner proposes an evening (a wall-clock time in the club's zone) or
cancels it; members answer in, maybe or out (and may change); the evening as a calendar file; the owner
tells those in that the evening's table is open. :func:`notify_table_opened` is the one call the opening
of a club table makes.

Everything of a club answers 404 "no such club" to anyone not a member (as http/clubs.py). State-changing
routes are POSTs with a JSON body (the guard middleware's Origin and content-type checks: CSRF). New
evenings are counted per person (identity and address) per club per day, in the store; answers and
subscriptions per person and per address (limits.PersonLimits)."""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import socket
import time
from typing import Annotated, Any
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..protocol import ProtocolError, validation_message
from ..push.evening import BadTime, ics, session_json, utc_seconds, zone_of
from ..push.notify import Notifier
from ..push.vapid import make_keys, unb64url
from ..store.clubs_sql import OWNER, ClubRow, MemberRow
from ..store.push_sql import ANSWERS, SubscriptionRow
from ..tables import TableServer
from . import identity
from .common import error, json_body, refused, row_id
from .limits import PersonLimits

NO_CLUB = "no such club"
DAY = 86400.0
YEAR = 366 * DAY


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Keys(_Body):
    p256dh: Annotated[str, Field(min_length=80, max_length=100)]  # base64url of a 65-byte P-256 point
    auth: Annotated[str, Field(min_length=16, max_length=30)]  # base64url of 16 bytes


class Subscription(_Body):
    endpoint: Annotated[str, Field(min_length=10, max_length=1000)]
    keys: Keys
    expirationTime: float | None = None  # the browser's own name; not used


class Push(_Body):
    on: bool
    subscription: Subscription | None = None  # needed to turn on
    lang: Annotated[str, Field(pattern="^(en|zh)$")] = "en"


class Propose(_Body):
    local: Annotated[str, Field(min_length=10, max_length=25)]  # "2026-12-04T20:00", the club's wall clock
    zone: Annotated[str, Field(min_length=1, max_length=64)] | None = None  # default: club_time_zone
    needed: Annotated[int, Field(ge=2, le=50)] | None = None  # default: the session_players setting


class Answer(_Body):
    answer: Annotated[str, Field(pattern="^(in|maybe|out)$")]


class Opened(_Body):
    table: Annotated[str, Field(min_length=1, max_length=40)]


class Empty(_Body):
    pass


def _hashed(keys: tuple[str, ...]) -> list[str]:
    return [hashlib.sha256(k.encode()).hexdigest()[:32] for k in keys]


def push_service(endpoint: str, *, local: bool) -> bool:
    """Whether ``endpoint`` may be a browser's push service: an https:// URL of a public host name
    (never an address, nor a local name: the server posts to it). ``local``: the tests' http:// push
    service on an address is allowed too."""
    try:
        parts = urlsplit(endpoint)
        host = (parts.hostname or "").lower()
    except ValueError:
        return False
    if local:
        return parts.scheme in ("https", "http") and bool(host)
    host = host.removesuffix(".")  # "localhost." is localhost
    try:
        ipaddress.ip_address(host)
        return False
    except ValueError:
        pass
    try:
        socket.inet_aton(host)  # what the resolver reads as an IPv4 address too: 127.1, 0x7f.0.0.1
        return False
    except OSError:
        pass
    local_name = host == "localhost" or host.endswith((".localhost", ".local", ".internal", ".lan"))
    return parts.scheme == "https" and "." in host and not local_name and parts.username is None


def notify_table_opened(request: Request, club: ClubRow, code: str, name: str) -> None:
    """A club table was opened (the one call where a club table opens): the members who turned the
    club's notifications on are told, not the member who opened it. Never waits, never raises."""
    server: TableServer = request.app.state.server
    notifier: Notifier = request.app.state.push
    try:
        ids = identity.player_ids_of(server, request)
        member = server.store.membership(club.id, ids)
        notifier.table_opened(club, code, name, member.name if member else club.name, ids)
    except Exception:  # a notification is never worth a failed request
        logging.getLogger("sgmahjong.push").exception("table-opened notification of club %s", club.code)


def routes(server: TableServer, notifier: Notifier) -> list[BaseRoute]:
    settings = server.settings
    answers = PersonLimits(settings.rsvps_per_minute / 60, settings.rsvp_burst,
                           3 * settings.rsvps_per_minute / 60, 3 * settings.rsvp_burst,
                           settings.tracked_addresses)

    def public_key() -> str:
        return server.store.vapid_keys(make_keys, time.time())[1]

    def me_in(request: Request) -> tuple[ClubRow, MemberRow, list[int]] | None:
        club = server.store.club(request.path_params["code"][:40])
        if club is None:
            return None
        ids = identity.player_ids_of(server, request)
        member = server.store.membership(club.id, ids) if ids else None
        return None if member is None else (club, member, ids)

    async def member_action(request: Request, model: type[Any] | None, *, owner: bool = False,
                            ) -> tuple[ClubRow, MemberRow, list[int], Any] | Response:
        found = me_in(request)
        if found is None:
            return error(404, NO_CLUB)
        body = None
        if model is not None:
            try:
                body = model.model_validate(await json_body(request))
            except ValidationError as exc:
                return refused(ProtocolError("invalid", validation_message(exc, whole="body", most=1)))
            except ProtocolError as exc:
                return refused(exc)
        if owner and found[1].role != OWNER:
            return error(403, "only the club's owner may do this", "owner_only")
        return (*found, body)

    def session_of(request: Request, club: ClubRow) -> Any:
        session = row_id(str(request.path_params["session"]))
        return None if session is None else server.store.evening(club.id, session)

    def ics_url(club: ClubRow, session_id: int) -> str:
        return f"/api/clubs/{club.code}/sessions/{session_id}.ics"

    def shown(club: ClubRow, session_id: int, ids: set[int]) -> dict[str, Any]:
        found = server.store.evening(club.id, session_id)
        assert found is not None
        return session_json(found, ids, ics_url(club, session_id))

    async def key(request: Request) -> Response:
        return JSONResponse({"key": public_key()})

    async def listed(request: Request) -> Response:
        got = await member_action(request, None)
        if isinstance(got, Response):
            return got
        club, member, ids, _ = got
        found = server.store.evenings(club.id, time.time() - 3 * 3600, settings.sessions_listed)
        return JSONResponse({
            "sessions": [session_json(s, set(ids), ics_url(club, s.id)) for s in found],
            "owner": member.role == OWNER, "zone": settings.club_time_zone,
            "needed": settings.session_players,
            "push": {"key": public_key(), "on": server.store.club_push(club.id, ids)}})

    async def push(request: Request) -> Response:
        got = await member_action(request, Push)
        if isinstance(got, Response):
            return got
        club, member, _ids, body = got
        if not answers.take(identity.address_of(request), identity.person_keys(server, request)):
            return error(429, "too many answers at once: wait a minute", "rsvp_rate")
        if body.on:
            sub = body.subscription
            if sub is None:
                return error(400, "a subscription is needed to turn notifications on", "push_subscription")
            if not push_service(sub.endpoint, local=settings.push_http_endpoints):
                return error(400, "not a push service's address", "push_subscription")
            try:
                point, secret = unb64url(sub.keys.p256dh), unb64url(sub.keys.auth)
            except ValueError:
                point, secret = b"", b""
            if len(point) != 65 or point[0] != 4 or len(secret) != 16:
                return error(400, "not a browser's push keys", "push_subscription")
            row = SubscriptionRow(sub.endpoint, member.player_id, sub.keys.p256dh, sub.keys.auth, body.lang)
            server.store.add_subscription(row, time.time(), settings.push_subscriptions_per_player)
        server.store.set_club_push(club.id, member.player_id, body.on)
        return JSONResponse({"on": body.on})

    async def propose(request: Request) -> Response:
        got = await member_action(request, Propose, owner=True)
        if isinstance(got, Response):
            return got
        club, member, _ids, body = got
        zone = body.zone or settings.club_time_zone
        try:
            zone_of(zone)
            starts = utc_seconds(body.local, zone)
        except BadTime:
            return error(400, "not a time of day in a time zone the server knows", "bad_time")
        now = time.time()
        if not now < starts < now + YEAR:
            return error(400, "an evening is in the coming year", "bad_time")
        if len(server.store.evenings(club.id, now, settings.sessions_listed)) >= settings.sessions_listed:
            most = settings.sessions_listed
            return error(409, f"the club has {most} evenings to come (the most)", "sessions_max",
                         {"most": most})
        persons = _hashed(identity.person_keys(server, request))
        kind, most = f"sessions:{club.id}", settings.sessions_per_day
        if not server.store.take_quota(kind, persons, most, now - DAY, now):
            return error(429, f"you have proposed {most} evenings in the last 24 hours (the most)",
                         "sessions_per_day", {"most": most})
        needed = body.needed or settings.session_players
        session_id = server.store.add_evening(club.id, member.player_id, starts, zone, needed, now)
        return JSONResponse(shown(club, session_id, {member.player_id}), status_code=201)

    async def answer(request: Request) -> Response:
        got = await member_action(request, Answer)
        if isinstance(got, Response):
            return got
        club, member, ids, body = got
        session = session_of(request, club)
        if session is None or session.cancelled is not None:
            return error(404, "no such evening", "no_session")
        if not answers.take(identity.address_of(request), identity.person_keys(server, request)):
            return error(429, "too many answers at once: wait a minute", "rsvp_rate")
        assert body.answer in ANSWERS
        server.store.answer_evening(session.id, member.player_id, body.answer, time.time())
        return JSONResponse(shown(club, session.id, set(ids)))

    async def cancel(request: Request) -> Response:
        got = await member_action(request, Empty, owner=True)
        if isinstance(got, Response):
            return got
        club = got[0]
        session = session_of(request, club)
        if session is None or not server.store.cancel_evening(club.id, session.id, time.time()):
            return error(404, "no such evening", "no_session")
        return JSONResponse({"cancelled": session.id})

    async def opened(request: Request) -> Response:
        """The owner opened the evening's table (``POST /api/clubs/{code}/tables`` first): those in are
        told, and the evening shows the table."""
        got = await member_action(request, Opened, owner=True)
        if isinstance(got, Response):
            return got
        club, _member, ids, body = got
        session = session_of(request, club)
        table = server.store.table_by_code(body.table)
        if session is None or session.cancelled is not None:
            return error(404, "no such evening", "no_session")
        if table is None or server.store.table_club(table.id) != club.id:
            return error(404, "no such table in this club")
        server.store.set_evening_table(club.id, session.id, table.code)
        told = notifier.session_table(club, session, table.code)
        return JSONResponse({**shown(club, session.id, set(ids)), "told": told})

    async def calendar(request: Request) -> Response:
        got = await member_action(request, None)
        if isinstance(got, Response):
            return got
        club = got[0]
        session = session_of(request, club)
        if session is None:
            return error(404, "no such evening", "no_session")
        body = ics(session, club.name, request.url.hostname or "sgmahjong", time.time())
        return Response(body, media_type="text/calendar; charset=utf-8", headers={
            "Content-Disposition": f'attachment; filename="club-{club.code}-{session.id}.ics"'})

    return [
        Route("/api/push/key", key, methods=["GET"]),
        Route("/api/clubs/{code}/push", push, methods=["POST"]),
        Route("/api/clubs/{code}/sessions", listed, methods=["GET"]),
        Route("/api/clubs/{code}/sessions", propose, methods=["POST"]),
        Route("/api/clubs/{code}/sessions/{session:int}.ics", calendar, methods=["GET"]),
        Route("/api/clubs/{code}/sessions/{session}/answer", answer, methods=["POST"]),
        Route("/api/clubs/{code}/sessions/{session}/cancel", cancel, methods=["POST"]),
        Route("/api/clubs/{code}/sessions/{session}/opened", opened, methods=["POST"]),
    ]

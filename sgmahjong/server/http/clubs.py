"""Club routes (docs/clubs.md): create a club, invite links (made with a label, listed with their
fingerprint and maker, revoked; only the code's hash is stored and the code is shown once), what a link
is before joining (the invitation, or why it joins nobody), join by link (a new friend named in the same
request), leave or remove a member, open a club table,
money on or off (the owner, behind the notice of the law: points first), the club page's data, settle
up (mark settled: a new period), start a season, the ledger as CSV.

Who asks is the visitor of the request's session (identity.py): a signed-in account (every player of
it), else a guest's player. A member is a player; an account's players are one
member. Everything of a club answers 404 "no such club" to anyone not a member, whether or not the
club exists. State-changing routes are POSTs with a JSON body (the guard middleware's Origin and
content-type checks stand in front of them: CSRF). Club tables are private (never in the lobby), only
members may sit at one (:func:`may_sit`), and only members may see one (:func:`may_see`: its summary,
results, replays and their chat, reviews, spectating) unless the owner made that table public. New
clubs and invite links are counted per person (identity and address) per day.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Sequence
from typing import Annotated, Any, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from ...errors import SgMahjongError
from ...rules import PRESETS
from ..clubs.choices import parse_choices
from ..clubs.opening import open_club_table
from ..clubs.ticks import tonight_start
from ..clubs.view import FINGERPRINT, club_page, club_summary, ledger_csv
from ..protocol import ProtocolError, validation_message
from ..store import Store
from ..store.clubs_sql import MEMBER, OWNER, ClubRow, InviteRow, MemberRow
from ..table.seats import NAME_MAX, clean_name
from ..table.table import Table
from ..tables import TableServer
from ..text import text_problem
from . import identity
from .common import NewTables, attended, error, json_body, refused, row_id
from .evenings import notify_table_opened
from .pages import static_page

NO_CLUB = "no such club"
CLUB_ONLY = "only the club's members may see a club's table"
INVITE_BYTES = 18  # random bytes of an invite code (24 characters of URL-safe text)
DAY = 86400.0  # seconds of the daily quotas (a rolling day)


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class NewClub(_Body):
    name: Annotated[str, Field(min_length=1, max_length=200)]  # and at most club_name_max, checked after
    stake: Annotated[int, Field(ge=1)] = 20  # cents a 1-tai hand costs each loser ("20c/40c")
    preset: str = "default"


class NewInvite(_Body):
    days: Annotated[float, Field(ge=0, le=366)] | None = None  # None: the club_invite_days setting
    label: Annotated[str, Field(max_length=200)] = ""  # and at most club_invite_label_max, checked after


class Invitation(_Body):
    invite: Annotated[str, Field(min_length=1, max_length=100)]


class Join(Invitation):
    name: Annotated[str, Field(min_length=1, max_length=100)] | None = None  # for a visitor with none


class Member(_Body):
    member: Annotated[str, Field(min_length=1, max_length=20)]


class NewClubTable(_Body):
    name: Annotated[str, Field(min_length=1, max_length=40)] | None = None
    options: dict[str, Any] = Field(default_factory=dict)  # other table options, as for any table
    choices: dict[str, Any] | None = None  # rounds, turn timer, pace, bots (clubs/choices.py)


class Empty(_Body):
    pass


class Public(_Body):
    public: bool


class Money(_Body):
    """Money on (the owner confirms the notice of the law: ``law_confirmed``, and may set the stakes:
    cents a 1-tai hand costs each loser) or off (the ledger in points)."""

    money: bool
    law_confirmed: bool = False
    stake: Annotated[int, Field(ge=1)] | None = None


class _Identified(Protocol):
    @property
    def id(self) -> int: ...


def invite_hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def fingerprint(code_hash: str) -> str:
    """An invite link's short fingerprint: the first characters of its code's hash (never the code)."""
    return code_hash[:FINGERPRINT]


def invite_refusal(found: tuple[ClubRow, InviteRow] | None, now: float) -> Response | None:
    """Why an invite link joins nobody (404, code ``invite_unknown``, ``invite_revoked`` or
    ``invite_expired``), or None: it is valid."""
    if found is None:
        return error(404, "no such invite link: ask the club's owner for a new one", "invite_unknown")
    if found[1].revoked is not None:
        return error(404, "the club's owner revoked this invite link: ask for a new one", "invite_revoked")
    if found[1].expires is not None and found[1].expires <= now:
        return error(404, "this invite link has expired: ask for a new one", "invite_expired")
    return None


def acting_player(server: TableServer, request: Request) -> tuple[int | None, list[int]]:
    """The player who acts (the visitor's own) and every player of theirs (an account's players are
    one member); (None, []) for a visitor without a session, or a guest who has not chosen a name."""
    who = identity.visitor(server, request)
    if who is None or (who.account is None and not server.store.player_name(who.player_id)):
        return None, []
    return who.player_id, list(who.player_ids)


def may_sit(server: TableServer, request: Request, table: Table) -> bool:
    """Whether the visitor may take a seat at ``table``: anyone at a table of no club; at a club's
    table, a member."""
    club_id = server.store.table_club(table.id)
    if club_id is None:
        return True
    return server.store.membership(club_id, identity.player_ids_of(server, request)) is not None


def may_see(server: TableServer, player_ids: Sequence[int], table: _Identified) -> bool:
    """Whether a viewer (every player id they act as: ``identity.player_ids_of``) may see ``table``
    (a live table or its row): its summary, results, replays with their chat, reviews and analyses,
    and watching it. Anyone may see a table of no club and a club table its owner made public; a
    club's other tables are its members' alone."""
    access = server.store.club_table_access(table.id)
    if access is None or access[1]:
        return True
    return bool(player_ids) and server.store.membership(access[0], player_ids) is not None


def take_daily(server: TableServer, request: Request, kind: str, most: int) -> Response | None:
    """Count one use of a daily quota (``kind``: "clubs", "invites", "events", "event_codes") for the
    asker, by identity and by address; the 429 refusal (code ``KIND_per_day``) when either has ``most``
    uses in the last 24 hours. Only a hash of each key is stored."""
    persons = [hashlib.sha256(k.encode()).hexdigest()[:32] for k in identity.person_keys(server, request)]
    now = time.time()
    if server.store.take_quota(kind, persons, most, now - DAY, now):
        return None
    what = {"clubs": "new clubs", "events": "new events", "event_codes": "wrong join codes"}.get(
        kind, "invite links")
    return error(429, f"you have made {most} {what} in the last 24 hours (the most): try again tomorrow",
                 f"{kind}_per_day", {"most": most})


def routes(server: TableServer, new_tables: NewTables) -> list[BaseRoute]:
    settings = server.settings

    def store() -> Store:
        return server.store  # opened at start-up, after the routes are made

    def me_in(request: Request) -> tuple[ClubRow, MemberRow] | None:
        """The club of the path and the asker's member row, if the asker is a member."""
        club = store().club(request.path_params["code"][:40])
        if club is None:
            return None
        _acting, ids = acting_player(server, request)
        member = store().membership(club.id, ids)
        return None if member is None else (club, member)

    async def body_of(request: Request, model: type[Any]) -> Any:
        try:
            return model.model_validate(await json_body(request))
        except ValidationError as exc:
            raise ProtocolError("invalid", validation_message(exc, whole="body", most=1)) from None

    async def player_action(request: Request, model: type[Any]) -> tuple[int, list[int], Any] | Response:
        """The acting player, their identities and the request's body; or the refusal."""
        acting, ids = acting_player(server, request)
        if acting is None:
            return error(400, "choose a name on /me first: a club's members are players", "name_needed")
        try:
            return acting, ids, await body_of(request, model)
        except ProtocolError as exc:
            return refused(exc)

    async def mine(request: Request) -> Response:
        _acting, ids = acting_player(server, request)
        clubs = [club_summary(c, role) for c, role in store().player_clubs(ids)] if ids else []
        return JSONResponse({"clubs": clubs, "presets": list(PRESETS), "name_max": settings.club_name_max,
                             "stake_max": settings.club_stake_max, "has_identity": bool(ids)})

    async def create(request: Request) -> Response:
        got = await player_action(request, NewClub)
        if isinstance(got, Response):
            return got
        acting, ids, body = got
        name = " ".join(body.name.split())
        if not name or len(name) > settings.club_name_max:
            return error(400, f"a club's name is 1-{settings.club_name_max} characters")
        if (problem := text_problem(name, settings.text_max_marks)) is not None:
            return error(400, problem.message, problem.code, problem.params)
        if body.preset not in PRESETS:
            return error(400, f"the house rules are one of {', '.join(PRESETS)}")
        base = PRESETS[body.preset].base
        if body.stake > settings.club_stake_max or body.stake % base:
            return error(400, f"the stake is at most {settings.club_stake_max} cents and, with these house"
                              f" rules (a tai is {base} points), a multiple of {base} cents")
        if len(store().player_clubs(ids)) >= settings.clubs_per_player:
            return error(409, f"you are in {settings.clubs_per_player} clubs already (the most)")
        if (refusal := take_daily(server, request, "clubs", settings.clubs_per_day)) is not None:
            return refusal
        code = secrets.token_urlsafe(8)
        store().create_club(code, name, body.stake // base, body.preset, acting, time.time())
        club = store().club(code)
        assert club is not None
        return JSONResponse(club_summary(club, OWNER), status_code=201)

    async def page(request: Request) -> Response:
        found = me_in(request)
        if found is None:
            return error(404, NO_CLUB)
        club, me = found
        now = time.time()
        return JSONResponse(club_page(store(), club, me, now=now,
                                      tables_listed=settings.club_tables_listed,
                                      periods_listed=settings.club_periods_listed,
                                      tonight=tonight_start(now, settings.club_time_zone)))

    async def export(request: Request) -> Response:
        found = me_in(request)
        if found is None:
            return error(404, NO_CLUB)
        scope = request.query_params.get("scope", "period")
        if scope not in ("period", "season"):
            return error(400, "scope is period or season")
        club, me = found
        data = club_page(store(), club, me, now=time.time(), tables_listed=0, periods_listed=0)
        name = f"club-{club.code}-{scope}-{data[scope]['number']}.csv"
        return PlainTextResponse(ledger_csv(data, scope), media_type="text/csv; charset=utf-8",
                                 headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def owner_action(request: Request, model: type[Any]) -> tuple[ClubRow, MemberRow, Any] | Response:
        found = me_in(request)
        if found is None:
            return error(404, NO_CLUB)
        try:
            body = await body_of(request, model)
        except ProtocolError as exc:
            return refused(exc)
        if found[1].role != OWNER:
            return error(403, "only the club's owner may do this", "owner_only")
        return found[0], found[1], body

    async def invite(request: Request) -> Response:
        got = await owner_action(request, NewInvite)
        if isinstance(got, Response):
            return got
        club, me, body = got
        label = " ".join(body.label.split())
        if len(label) > settings.club_invite_label_max:
            most = settings.club_invite_label_max
            return error(400, f"a label has at most {most} characters", "label_too_long", {"most": most})
        if label and (problem := text_problem(label, settings.text_max_marks)) is not None:
            return error(400, problem.message, problem.code, problem.params)
        now = time.time()
        if len(store().invites(club.id, now)) >= settings.club_invites_max:
            most = settings.club_invites_max
            return error(409, f"the club has {most} invite links (the most): revoke one", "invites_max",
                         {"most": most})
        if (refusal := take_daily(server, request, "invites", settings.club_invites_per_day)) is not None:
            return refusal
        days = settings.club_invite_days if body.days is None else body.days
        code = secrets.token_urlsafe(INVITE_BYTES)
        code_hash = invite_hash(code)
        expires = now + days * 86400 if days else None
        invite_id = store().add_invite(club.id, code_hash, now, expires, label=label, maker=me.player_id)
        return JSONResponse({"id": invite_id, "invite": code, "url": f"/invite/{code}", "label": label,
                             "fingerprint": fingerprint(code_hash), "expires": expires}, status_code=201)

    async def revoke(request: Request) -> Response:
        got = await owner_action(request, Empty)
        if isinstance(got, Response):
            return got
        invite_id = row_id(request.path_params["invite"])
        if invite_id is None:
            return error(404, "no such invite link")
        if not store().revoke_invite(got[0].id, invite_id, time.time()):
            return error(404, "no such invite link (or revoked already)")
        return JSONResponse({"revoked": invite_id})

    async def invitation(request: Request) -> Response:
        """What an invite link's page shows before joining: the club's name, stakes and house rules,
        who sent the link, how many members it has; or why the link joins nobody."""
        try:
            body = await body_of(request, Invitation)
        except ProtocolError as exc:
            return refused(exc)
        found = store().invite_by_hash(invite_hash(body.invite))
        if (refusal := invite_refusal(found, time.time())) is not None:
            return refusal
        assert found is not None
        club, link = found
        members = store().club_members(club.id)
        acting, ids = acting_player(server, request)
        member = store().membership(club.id, ids) is not None
        summary = club_summary(club, MEMBER)
        return JSONResponse({
            "club": {k: summary[k] for k in ("name", "preset", "stake", "cents_per_point", "money")},
            "inviter": link.maker or members[0].name, "owner": members[0].name, "members": len(members),
            "fingerprint": fingerprint(link.code_hash), "expires": link.expires, "member": member,
            "url": summary["url"] if member else None, "needs_name": acting is None, "name_max": NAME_MAX})

    async def join(request: Request) -> Response:
        try:
            body = await body_of(request, Join)
            found = store().invite_by_hash(invite_hash(body.invite))
            if (refusal := invite_refusal(found, time.time())) is not None:
                return refusal
            assert found is not None
            club = found[0]
            acting, ids = acting_player(server, request)
            if acting is None and body.name is None:
                return error(400, "choose a display name: a club's members are players", "name_needed")
            if store().membership(club.id, ids) is not None:
                return JSONResponse(club_summary(club, MEMBER))
            if len(store().club_members(club.id)) >= settings.club_members_max:
                most = settings.club_members_max
                return error(409, f"the club has {most} members (the most)", "club_full", {"most": most})
            if len(store().player_clubs(ids)) >= settings.clubs_per_player:
                most = settings.clubs_per_player
                return error(409, f"you are in {most} clubs already (the most)", "clubs_max", {"most": most})
            if acting is None:  # a new friend: named now, in the same step
                name = clean_name(str(body.name), settings.text_max_marks)
                acting = identity.ensure(server, request, name).player_id
                store().rename_player(acting, name)
        except ProtocolError as exc:
            return refused(exc)
        store().add_member(club.id, acting, MEMBER, time.time())
        return JSONResponse(club_summary(club, MEMBER))

    async def leave(request: Request) -> Response:
        found = me_in(request)
        if found is None:
            return error(404, NO_CLUB)
        try:
            await body_of(request, Empty)
        except ProtocolError as exc:
            return refused(exc)
        club, me = found
        if me.role == OWNER:
            return error(409, "the owner cannot leave the club")
        store().remove_member(club.id, me.player_id)
        return JSONResponse({"left": club.code})

    async def remove(request: Request) -> Response:
        got = await owner_action(request, Member)
        if isinstance(got, Response):
            return got
        club, me, body = got
        if body.member == str(me.player_id):
            return error(409, "the owner cannot remove themselves")
        member = row_id(body.member)
        if member is None or not store().remove_member(club.id, member):
            return error(404, "no such member")
        return JSONResponse({"removed": body.member})

    async def new_table(request: Request) -> Response:
        found = me_in(request)
        if found is None:
            return error(404, NO_CLUB)
        try:
            body = await body_of(request, NewClubTable)
            attended(body.options)
            choices = parse_choices(body.choices, settings.club_turn_seconds_max)  # refused before counted
            if (refusal := new_tables.refuse(request)) is not None:
                return refusal
            table = open_club_table(server, found[0], name=body.name, choices=choices, options=body.options)
        except ProtocolError as exc:
            return refused(exc)
        except SgMahjongError as exc:  # a table option that does not exist, or a value it refuses
            return refused(ProtocolError("invalid", str(exc)))
        notify_table_opened(request, found[0], table.code, table.name)  # the members who asked are told
        return JSONResponse({"code": table.code, "url": f"/t/{table.code}"}, status_code=201)

    async def publish(request: Request) -> Response:
        got = await owner_action(request, Public)
        if isinstance(got, Response):
            return got
        club, _me, body = got
        table = store().table_by_code(request.path_params["table"][:40])
        if table is None or not store().set_club_table_public(club.id, table.id, body.public):
            return error(404, "no such table in this club")
        return JSONResponse({"code": table.code, "public": body.public})

    async def money(request: Request) -> Response:
        """Points first: only the owner turns money on, and only having confirmed the notice of the
        law on social gambling (400 ``money_law_unconfirmed`` otherwise); off needs no confirmation."""
        got = await owner_action(request, Money)
        if isinstance(got, Response):
            return got
        club, _me, body = got
        stake = None
        if body.money:
            if not body.law_confirmed:
                return error(400, "money needs the owner's confirmation of the notice of the law on social"
                                  " gambling", "money_law_unconfirmed")
            if body.stake is not None:
                base = PRESETS[club.preset].base if club.preset in PRESETS else 1
                if body.stake > settings.club_stake_max or body.stake % base:
                    return error(400, f"the stake is at most {settings.club_stake_max} cents and a multiple"
                                      f" of {base} cents", "bad_stake", {"most": settings.club_stake_max,
                                                                          "base": base})
                stake = body.stake // base
        store().set_club_money(club.id, body.money, stake, time.time())
        found = store().club(club.code)
        assert found is not None
        return JSONResponse(club_summary(found, OWNER))

    async def next_period(request: Request) -> Response:
        got = await owner_action(request, Empty)
        if isinstance(got, Response):
            return got
        season = request.url.path.endswith("/season")
        number = store().next_period(got[0].id, time.time(), settled=not season, new_season=season)
        return JSONResponse({"period": number})

    return [
        Route("/clubs", static_page("clubs.html")),
        Route("/api/clubs", mine, methods=["GET"]),
        Route("/api/clubs", create, methods=["POST"]),
        Route("/api/clubs/join", join, methods=["POST"]),
        Route("/api/clubs/invitation", invitation, methods=["POST"]),
        Route("/api/clubs/{code}", page, methods=["GET"]),
        Route("/api/clubs/{code}/ledger.csv", export, methods=["GET"]),
        Route("/api/clubs/{code}/invites", invite, methods=["POST"]),
        Route("/api/clubs/{code}/invites/{invite}/revoke", revoke, methods=["POST"]),
        Route("/api/clubs/{code}/leave", leave, methods=["POST"]),
        Route("/api/clubs/{code}/remove", remove, methods=["POST"]),
        Route("/api/clubs/{code}/tables", new_table, methods=["POST"]),
        Route("/api/clubs/{code}/tables/{table}/public", publish, methods=["POST"]),
        Route("/api/clubs/{code}/money", money, methods=["POST"]),
        Route("/api/clubs/{code}/settle", next_period, methods=["POST"]),
        Route("/api/clubs/{code}/season", next_period, methods=["POST"]),
    ]


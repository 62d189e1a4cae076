"""Players and their history: every visitor is a player (its session: :mod:`.identity`) with a
display name and no password; each finished hand of a seat the player took is recorded
(``table.records``), and ``/me`` lists them with totals.

HTTP: ``POST /api/players`` {name} names the visitor's player; ``POST /api/me/adopt`` {secret} adopts
the identity an older release kept in the browser (once); ``GET /api/me?page=N`` the history page
(newest first) with totals and the net over time; ``GET /api/me/export`` every hand as JSON lines;
``DELETE /api/me`` forgets the player (or the account). Only ended hands are ever recorded, so nothing
of a hand in play shows here.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from ...rules import PRESETS, RuleSet
from ..protocol import ProtocolError, validation_message
from ..store import PlayerHandRow
from ..store.accounts import AccountRow
from ..table.seats import clean_name, hash_token
from ..table.table import Table
from ..tables import TableServer
from . import identity
from .common import error, json_body, refused
from .limits import PersonLimits
from .pages import static_page

PAGE_SIZE = 20  # hands per page of /me (default)
MAX_PAGE_SIZE = 100
SERIES_POINTS = 200  # the chart of net over time shows the last this many hands
EXPORT_CHUNK = 500
SECRET_RE = re.compile(r"^[A-Za-z0-9_-]{32,128}$")  # an old browser-held secret (adopted once)


class NameBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    name: Annotated[str, Field(min_length=1, max_length=100)]


class AdoptBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    secret: Annotated[str, Field(min_length=32, max_length=128)]


@dataclass
class Owner:
    """Whose history a request sees: a signed-in account's (every player of it) or a guest's."""

    name: str
    player_ids: list[int]
    created: float
    account: AccountRow | None = None


def history_owner(server: Any, request: HTTPConnection) -> Owner | None:
    """The visitor's history: a signed-in account's (every player of it), else the guest's; None for
    a visitor without a session."""
    found = identity.visitor(server, request)
    if found is None:
        return None
    if found.account is not None:
        return Owner(found.account.name, found.player_ids, found.account.created, found.account)
    name = server.store.player_name(found.player_id) or ""
    return Owner(name, [found.player_id], found.session.created)


def link_seat(server: Any, table: Table, seat: int, who: identity.Visitor) -> None:
    """A seat the visitor just took (:meth:`Table.join` made it their player's): shown with their
    account's rank."""
    store = server.store
    standing = None if who.account is None else store.standing(who.account.id)
    if standing is None:
        table.seat_ranks.pop(seat, None)
    else:  # shown beside the seat's name (the summary's seat "rank")
        table.seat_ranks[seat] = {k: v for k, v in standing.to_json().items()
                                  if k in ("rank", "rating", "provisional")}


def link_answer(server: TableServer, answer: dict[str, Any], who: identity.Visitor) -> None:
    """After play-vs-bots or quick play seated someone (``answer``: code, seat): link the seat."""
    table = server.tables.get(answer["code"])
    if table is not None:
        link_seat(server, table, int(answer["seat"]), who)


def preset_of(rules: dict[str, Any] | None) -> str:
    """The preset a table's rules are (``custom`` when changed from every preset). Rules stored before
    a rule was added lack it: it stands at its default there, as when such a table is played."""
    if rules is None:
        return "custom"
    for name, preset in PRESETS.items():
        full = preset.to_dict()
        if full == {**RuleSet().to_dict(), **rules}:
            return name
    return "custom"


def outcome(r: PlayerHandRow) -> str:
    if r.won:
        return "won"
    if r.dealt_in:
        return "dealt in"
    return "drawn" if r.drawn else "lost"


def hand_json(r: PlayerHandRow) -> dict[str, Any]:
    return {"ended": r.ended, "code": r.code, "table": r.table_name, "hand": r.hand, "seat": r.seat,
            "wind": None if r.wind is None else "ESWN"[r.wind], "preset": preset_of(r.rules),
            "result": outcome(r), "tai": r.tai, "net": r.net,
            "replay": f"/replay/{r.code}/{r.hand}"}


def totals(raw: dict[str, int]) -> dict[str, Any]:
    hands = raw["hands"]
    return {
        "hands": hands, "wins": raw["wins"], "deal_ins": raw["deal_ins"], "net": raw["net"],
        "tables": raw["tables"],
        "win_rate": raw["wins"] / hands if hands else 0.0,
        "deal_in_rate": raw["deal_ins"] / hands if hands else 0.0,
        "average_win_tai": raw["win_tai"] / raw["wins"] if raw["wins"] else 0.0,
        "net_per_hand": raw["net"] / hands if hands else 0.0,
    }


def _int_param(request: Request, key: str, default: int, lo: int, hi: int) -> int:
    try:
        value = int(request.query_params.get(key, default))
    except ValueError:
        return default
    return max(lo, min(hi, value))


def routes(server: TableServer) -> list[Route]:
    """The player routes, for ``server`` (the app's TableServer)."""

    settings = server.settings
    renames = PersonLimits(settings.renames_per_hour / 3600, settings.rename_burst,
                           3 * settings.renames_per_hour / 3600, 3 * settings.rename_burst,
                           settings.tracked_addresses)

    async def name_player(request: Request) -> Response:
        """Name the visitor's player (a guest made now if it has none), at most ``rename_burst`` times
        at once and then ``renames_per_hour``, per person and (three times that) per address."""
        try:
            body = NameBody.model_validate(await json_body(request))
            name = clean_name(body.name)
        except ValidationError as exc:
            return error(400, validation_message(exc, whole="body", most=1))
        except ProtocolError as exc:
            return refused(exc)
        if not renames.take(identity.address_of(request), identity.person_keys(server, request)):
            return error(429, "too many names at once: wait a while", "rename_rate")
        try:
            who = identity.ensure(server, request, name)
        except ProtocolError as exc:
            return refused(exc)
        server.store.rename_player(who.player_id, name)
        return JSONResponse({"name": name})

    async def adopt(request: Request) -> Response:
        """An old browser-held secret, sent once by a browser after the upgrade: a guest's history
        becomes this visitor's (if it has none of its own yet), and the secret opens nothing again."""
        try:
            body = AdoptBody.model_validate(await json_body(request))
            if SECRET_RE.match(body.secret) is None:
                raise ProtocolError("invalid", "not a browser secret")
            who = identity.ensure(server, request)
        except ValidationError as exc:
            return error(400, validation_message(exc, whole="body", most=1))
        except ProtocolError as exc:
            return refused(exc)
        store = server.store
        if who.account is not None:  # signed in: the old identity's history joins the account's
            old = store.adopt_secret(hash_token(body.secret))
            return JSONResponse({"adopted": old is not None and store.claim_player(old, who.account.id)})
        if store.player_totals([who.player_id])["hands"] > 0:  # a guest with a history of its own
            return error(409, "this browser already has a history of its own", "has_history")
        old = store.adopt_secret(hash_token(body.secret))
        if old is None:
            return JSONResponse({"adopted": False})
        identity.replace(server, request, old, None)  # this device is the old guest from now on
        return JSONResponse({"adopted": True})

    def owner_of(request: Request) -> Owner | None:
        return history_owner(server, request)

    async def me(request: Request) -> Response:
        owner = owner_of(request)
        size = _int_param(request, "size", PAGE_SIZE, 1, MAX_PAGE_SIZE)
        page = _int_param(request, "page", 1, 1, 1_000_000)
        if owner is None:
            return JSONResponse({"known": False, "name": None, "account": False, "totals": totals(
                {"hands": 0, "wins": 0, "deal_ins": 0, "win_tai": 0, "net": 0, "tables": 0}),
                "page": 1, "pages": 1, "size": size, "hands": [], "series": []})
        store = server.store
        ids = owner.player_ids
        raw = store.player_totals(ids)
        rows = store.player_hands(ids, size, (page - 1) * size)
        recent = store.player_hands(ids, SERIES_POINTS, 0)
        before = raw["net"] - sum(r.net for r in recent)
        series = []
        running = before
        for r in reversed(recent):
            running += r.net
            series.append({"ended": r.ended, "net": running})
        return JSONResponse({
            "known": True, "name": owner.name, "account": owner.account is not None, "totals": totals(raw),
            "page": page, "size": size, "pages": max(1, -(-raw["hands"] // size)),
            "hands": [hand_json(r) for r in rows], "series": series,
        })

    async def export(request: Request) -> Response:
        owner = owner_of(request)
        if owner is None:
            return error(404, "this browser has no history", "no_history")
        store = server.store
        kind = "player" if owner.account is None else "account"
        lines = [json.dumps({"kind": kind, "name": owner.name, "created": owner.created})]
        if owner.account is not None:
            lines += [json.dumps({"kind": "passkey", "label": p.label, "created": p.created,
                                  "last_used": p.last_used}) for p in store.passkeys(owner.account.id)]
            devices = store.sessions(owner.account.id, time.time())
            lines += [json.dumps({"kind": "device", "label": d.label, "created": d.created,
                                  "last_seen": d.last_seen}) for d in devices]
        offset = 0
        while True:
            chunk = store.player_hands(owner.player_ids, EXPORT_CHUNK, offset, newest_first=False)
            lines += [json.dumps({"kind": "hand", **hand_json(r)}, sort_keys=True) for r in chunk]
            if len(chunk) < EXPORT_CHUNK:
                break
            offset += EXPORT_CHUNK
        return PlainTextResponse("\n".join(lines) + "\n", media_type="application/x-ndjson", headers={
            "Content-Disposition": 'attachment; filename="sgmahjong-history.jsonl"'})

    async def forget(request: Request) -> Response:
        """Delete the visitor: a signed-in account's whole account (its players, hands, passkeys,
        sessions and codes), else the guest's player. A seat of theirs in play passes to a bot; the
        tables and matches they played keep their records with the seat anonymised."""
        owner = owner_of(request)
        if owner is None:
            return JSONResponse({"deleted": 0})
        store = server.store
        hands = store.player_totals(owner.player_ids)["hands"]
        await server.players_gone(owner.player_ids)
        if owner.account is None:
            store.delete_player(owner.player_ids[0])
        else:
            store.delete_account(owner.account.id)
        identity.forget(server, request)
        return JSONResponse({"deleted": hands, "account": owner.account is not None})

    return [
        Route("/api/players", name_player, methods=["POST"]),
        Route("/api/me/adopt", adopt, methods=["POST"]),
        Route("/api/me", me, methods=["GET"]),
        Route("/api/me", forget, methods=["DELETE"]),
        Route("/api/me/export", export),
        Route("/me", static_page("me.html")),
    ]

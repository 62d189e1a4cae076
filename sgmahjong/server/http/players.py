"""Players and their history: a browser-held identity (a random secret kept in the browser, stored
here only hashed, like the seat tokens) with a display name and no password; each finished hand of a
seat the player joined is recorded (``table.records``), and ``/me`` lists them with totals.

HTTP: the secret travels in the ``X-Player`` header. ``POST /api/players`` {secret, name} names the
identity; ``GET /api/me?page=N`` the history page (newest first) with totals and the net over time;
``GET /api/me/export`` every hand as JSON lines; ``DELETE /api/me`` forgets the player. Only ended
hands are ever recorded, so nothing of a hand in play shows here.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from ...rules import PRESETS
from ..protocol import ProtocolError
from ..store import PlayerHandRow, PlayerRow, Store
from ..store.accounts import AccountRow
from ..table.seats import clean_name, hash_token
from ..table.table import Table
from ..tables import TableServer
from . import sessions
from .pages import static_page

HEADER = "X-Player"
SECRET_RE = re.compile(r"^[A-Za-z0-9_-]{32,128}$")
PAGE_SIZE = 20  # hands per page of /me (default)
MAX_PAGE_SIZE = 100
SERIES_POINTS = 200  # the chart of net over time shows the last this many hands
EXPORT_CHUNK = 500
MAX_BODY = 4096  # bytes of a POST /api/players body


@dataclass
class Owner:
    """Whose history a request sees: a signed-in account's (every identity of it) or a browser's."""

    name: str
    player_ids: list[int]
    created: float
    account: AccountRow | None = None


def browser_player(request: Request, store: Any) -> PlayerRow | None:
    secret = request.headers.get(HEADER)
    return store.player(hash_token(str(secret))) if valid_secret(secret) else None


def claim_browser(request: Request, store: Any, account_id: int) -> bool:
    """Give the account this browser's identity (and so its history) if it has none; False when the
    identity is another account's (the browser then starts a fresh one)."""
    player = browser_player(request, store)
    return player is None or bool(store.claim_player(player.id, account_id))


def history_owner(server: Any, request: Request) -> Owner | None:
    """The signed-in account (every identity of it: claimed when it signed in, and at each seat taken
    while signed in), else this browser's identity; None for a browser with neither (a new guest)."""
    store = server.store
    signed = sessions.current(request, store, server.settings)
    if signed is not None:
        account = signed.account
        return Owner(account.name, store.account_players(account.id), account.created, account)
    player = browser_player(request, store)
    return None if player is None else Owner(player.name, [player.id], player.created)


def valid_secret(secret: Any) -> bool:
    return isinstance(secret, str) and SECRET_RE.match(secret) is not None


def player_id_for(store: Store, secret: str | None, name: str) -> int | None:
    """The player id of a browser secret (created with ``name`` if new); ``None`` without one."""
    if not valid_secret(secret):
        return None
    return store.ensure_player(hash_token(str(secret)), name)


def link_seat(store: Store, table: Table, seat: int, secret: str | None,
              account_id: int | None = None) -> None:
    """A seat just taken: whose it is (the browser identity's player, or nobody's); a signed-in
    player's identity is the account's from now on (if it is nobody else's)."""
    pid = player_id_for(store, secret, table.seats[seat].name or "")
    store.link_seat_player(table.id, seat, pid)
    if pid is not None and account_id is not None:
        store.claim_player(pid, account_id)
    standing = None if account_id is None else store.standing(account_id)
    if standing is None:
        table.seat_ranks.pop(seat, None)
    else:  # shown beside the seat's name (the summary's seat "rank")
        table.seat_ranks[seat] = {k: v for k, v in standing.to_json().items()
                                  if k in ("rank", "rating", "provisional")}
    table.records.forget()  # read again at the next hand's end


def link_answer(server: TableServer, answer: dict[str, Any], secret: str | None,
                account_id: int | None = None) -> None:
    """After play-vs-bots or quick play seated someone (``answer``: code, seat): link the seat."""
    table = server.tables.get(answer["code"])
    if table is not None:
        link_seat(server.store, table, int(answer["seat"]), secret, account_id)


def signed_account(server: Any, request: Request) -> int | None:
    """The id of the request's signed-in account, if any."""
    signed = sessions.current(request, server.store, server.settings)
    return None if signed is None else signed.account.id


def preset_of(rules: dict[str, Any] | None) -> str:
    """The preset a table's rules are (``custom`` when changed from every preset)."""
    for name, preset in PRESETS.items():
        if preset.to_dict() == rules:
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


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _int_param(request: Request, key: str, default: int, lo: int, hi: int) -> int:
    try:
        value = int(request.query_params.get(key, default))
    except ValueError:
        return default
    return max(lo, min(hi, value))


def routes(server: TableServer) -> list[Route]:
    """The player routes, for ``server`` (the app's TableServer)."""

    async def name_player(request: Request) -> Response:
        raw = await request.body()
        if len(raw) > MAX_BODY:
            return _error(413, f"request body larger than {MAX_BODY} bytes")
        try:
            body = json.loads(raw or b"null")
        except ValueError:
            return _error(400, "request body is not valid JSON")
        if not isinstance(body, dict) or not valid_secret(body.get("secret")):
            return _error(400, "expected {\"secret\": 32-128 letters, digits, - or _, \"name\": TEXT}")
        try:
            name = clean_name(str(body.get("name") or ""))
        except ProtocolError as exc:
            return _error(400, exc.message)
        server.store.ensure_player(hash_token(body["secret"]), name)
        return JSONResponse({"name": name})

    def owner_of(request: Request) -> tuple[bool, Owner | None]:
        """(whether the request names anyone: a session or a browser identity, its owner if known)."""
        owner = history_owner(server, request)
        return owner is not None or valid_secret(request.headers.get(HEADER)), owner

    async def me(request: Request) -> Response:
        named, owner = owner_of(request)
        if not named:
            return _error(400, f"send your browser identity in the {HEADER} header")
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
        named, owner = owner_of(request)
        if not named:
            return _error(400, f"send your browser identity in the {HEADER} header")
        if owner is None:
            return _error(404, "this browser has no history")
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
        """Delete the history: a signed-in account's whole account (its identities, hands, passkeys,
        sessions and codes), else this browser's identity."""
        named, owner = owner_of(request)
        if not named:
            return _error(400, f"send your browser identity in the {HEADER} header")
        if owner is None:
            return JSONResponse({"deleted": 0})
        hands = server.store.player_totals(owner.player_ids)["hands"]
        if owner.account is None:
            server.store.delete_player(owner.player_ids[0])
            return JSONResponse({"deleted": hands})
        server.store.delete_account(owner.account.id)
        response = JSONResponse({"deleted": hands, "account": True})
        sessions.clear(request, response)
        return response

    return [
        Route("/api/players", name_player, methods=["POST"]),
        Route("/api/me", me, methods=["GET"]),
        Route("/api/me", forget, methods=["DELETE"]),
        Route("/api/me/export", export),
        Route("/me", static_page("me.html")),
    ]

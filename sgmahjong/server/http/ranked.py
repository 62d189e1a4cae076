"""Ranked queue routes (docs/accounts.md, "Ranked play"). A signed-in player queues
(``POST /api/ranked/join``: a ticket back, its hash stored), asks how it goes about once a second
(``POST /api/ranked/poll`` {ticket}: the number waiting and the rating window, or the table and seat
once matched: the seat is the player's) and may leave (``POST /api/ranked/leave``).
Every route is a JSON POST, so the guard's Origin and content-type checks stand in front of it."""

from __future__ import annotations

import re
import secrets
import time
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..ranking.ladder import Standing
from ..store.queue import QueueEntry
from ..table.seats import hash_token
from . import identity
from .accounts import Empty, _error, guarded, read_body

TICKET_RE = re.compile(r"^[A-Za-z0-9_-]{43}$")


class Ticket(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    ticket: Annotated[str, Field(min_length=1, max_length=64)]


def routes(server: Any) -> list[Route]:
    settings = server.settings

    def entry_of(body: Ticket) -> QueueEntry | None:
        if not TICKET_RE.match(body.ticket):
            return None
        entry: QueueEntry | None = server.store.queue_entry(hash_token(body.ticket), time.time())
        return entry

    async def join(request: Request) -> Response:
        await read_body(request, Empty)
        store = server.store
        who = identity.visitor(server, request)
        if who is None or who.account is None:
            return _error(401, "sign in to play ranked matches", "sign_in")
        now = time.time()
        if store.queue_size(now, settings.queue_stale_seconds) >= settings.queue_max:
            return _error(503, "the ranked queue is full; try again soon", "queue_full")
        account = who.account
        standing = store.standing(account.id) or Standing.new()
        ticket = secrets.token_urlsafe(32)
        store.enqueue(QueueEntry(0, hash_token(ticket), account.id, who.player_id, account.name,
                                 float(standing.rating), now, "waiting"), now)
        waiting = store.queue_size(now, settings.queue_stale_seconds)
        return JSONResponse({"ticket": ticket, "waiting": waiting})

    async def poll(request: Request) -> Response:
        entry = entry_of(await read_body(request, Ticket))
        if entry is None:
            return _error(404, "this ticket is not in the queue (it waited too long without asking)", "gone")
        if entry.table_code is not None:
            return JSONResponse({"status": "matched", "code": entry.table_code, "seat": entry.seat,
                                 "url": f"/t/{entry.table_code}"})
        now = time.time()
        waited = max(0.0, now - entry.joined)
        return JSONResponse({
            "status": "waiting" if entry.status == "waiting" else "matching",  # matching: a table is opening
            "waited": round(waited, 1),
            "waiting": server.store.queue_size(now, settings.queue_stale_seconds),
            "window": round(settings.queue_window + settings.queue_widen_per_second * waited),
            "rating": round(entry.rating),
        })

    async def leave(request: Request) -> Response:
        body = await read_body(request, Ticket)
        left = TICKET_RE.match(body.ticket) is not None and server.store.leave_queue(hash_token(body.ticket))
        return JSONResponse({"left": bool(left)})

    return [
        Route("/api/ranked/join", guarded(join), methods=["POST"]),
        Route("/api/ranked/poll", guarded(poll), methods=["POST"]),
        Route("/api/ranked/leave", guarded(leave), methods=["POST"]),
    ]

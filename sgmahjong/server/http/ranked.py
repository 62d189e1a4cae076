"""Ranked queue routes (docs/accounts.md, "Ranked play"). A signed-in player queues
(``POST /api/ranked/join``: a ticket back, its hash stored), asks how it goes about once a second
(``POST /api/ranked/poll`` {ticket}: the number waiting and the rating window, or the table and seat
once matched: the seat is the player's) and may leave (``POST /api/ranked/leave``).
Every route that changes something is a JSON POST, so the guard's Origin and content-type checks stand
in front of it. ``GET /api/ranked/status`` (and each poll) tells how many are online and queueing and
the wait to expect (:class:`QueueCounts`): counts only, never who."""

from __future__ import annotations

import re
import secrets
import statistics
import time
from collections.abc import Callable
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


ESTIMATE_MIN = 4  # matched players (one match) and accounts online below which no wait is estimated


class QueueCounts:
    """The queue's counts for everyone: accounts online, entries waiting, and the wait to expect (the
    median wait of the latest matched players; None when too few were matched lately or too few are
    online to tell). Worked out at most every ``every`` seconds per process (one value kept)."""

    def __init__(self, store: Callable[[], Any], settings: Any,
                 clock: Callable[[], float] = time.time) -> None:
        self.store, self.settings, self.clock = store, settings, clock  # store(): the server's, once open
        self._kept: tuple[float, dict[str, Any]] | None = None

    def now(self) -> dict[str, Any]:
        now = self.clock()
        if self._kept is not None and now < self._kept[0]:
            return self._kept[1]
        s, store = self.settings, self.store()
        online = store.accounts_online(now - s.online_seconds)
        waiting = store.queue_size(now, s.queue_stale_seconds)
        waits = store.queue_waits(now - s.queue_estimate_seconds, s.queue_estimate_matched)
        enough = len(waits) >= ESTIMATE_MIN and max(online, waiting) >= ESTIMATE_MIN
        counts = {"online": max(online, waiting), "waiting": waiting,
                  "estimate": round(statistics.median(waits)) if enough else None}
        self._kept = (now + s.queue_counts_seconds, counts)
        return counts


def routes(server: Any) -> list[Route]:
    settings = server.settings
    counts = QueueCounts(lambda: server.store, settings)

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
        return JSONResponse({**counts.now(), "ticket": ticket, "waiting": waiting})

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
            **counts.now(),
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

    async def status(request: Request) -> Response:
        return JSONResponse(counts.now())

    return [
        Route("/api/ranked/status", status, methods=["GET"]),
        Route("/api/ranked/join", guarded(join), methods=["POST"]),
        Route("/api/ranked/poll", guarded(poll), methods=["POST"]),
        Route("/api/ranked/leave", guarded(leave), methods=["POST"]),
    ]

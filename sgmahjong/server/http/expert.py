"""The expert's review and analysis board of finished hands (the work runs in the reviewer's pool of
processes, :mod:`..analysis`; these routes start it, and answer how far it has got and what it found).

- ``/api/tables/CODE/hands/N/expert?seat=S``: POST starts (or joins) the expert review of that
  seat's decisions in hand N; GET (and POST) answer its status, with the review once it is done.
- ``/api/tables/CODE/expert?seat=S``: the same for every finished hand of the table, with the
  match's summary; POST queues the hands not yet reviewed.
- ``/api/tables/CODE/hands/N/analysis?seat=S&step=K``: what the expert would do for that seat at
  replay step K; POST starts it and waits a few seconds for the answer, GET polls.

Only ended hands are served (409 otherwise), as the replay, and a club table's only to whom may see
it (403 ``club_only``). Answers: 200 done, 202 queued or running (poll again), 404 not asked for yet
(GET), 409 the hand or step cannot be reviewed (the message says why), 429 the asker has their most
jobs queued (``expert_jobs``) or another whole-match review going on (``review_running``), 503 the
reviewer is busy (``Retry-After``). Jobs are queued per person (``identity.person_keys``) and the
pool serves the persons in turn.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Future
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..analysis import PoolBusy, RequesterBusy, Reviewer, ReviewRunning
from ..store import TableRow
from ..tables import TableServer
from . import identity
from .clubs import CLUB_ONLY, may_see
from .common import error, row_id
from .replay import BAD_SEAT, CODE_RE, HandNotServed, ended_hand_log, query_seat

BUSY_RETRY = 30  # seconds a busy answer asks the page to wait


def _answer(data: dict[str, Any]) -> JSONResponse:
    status = data.get("status", "done")
    if status == "failed":
        return JSONResponse(data, status_code=409 if data.get("bad") else 500)
    if status == "none":
        data = {**data, "error": "not asked for yet: POST to start it"}
    return JSONResponse(data, status_code=404 if status == "none" else 202 if status in ("queued", "running")
                        else 200)


def _busy(exc: PoolBusy) -> JSONResponse:
    return JSONResponse({"error": str(exc), "code": "busy"}, status_code=503,
                        headers={"Retry-After": str(BUSY_RETRY)})


def _refused(exc: RequesterBusy | ReviewRunning) -> JSONResponse:
    code = "expert_jobs" if isinstance(exc, RequesterBusy) else "review_running"
    answer = error(429, str(exc), code, {"most": exc.most} if isinstance(exc, RequesterBusy) else None)
    answer.headers["Retry-After"] = str(BUSY_RETRY)
    return answer


async def _wait(future: Future[Any], seconds: float) -> None:
    """Wait up to ``seconds`` for a job's future (its outcome is read later, from the reviewer)."""
    waited = asyncio.wrap_future(future)
    await asyncio.wait({waited}, timeout=seconds)
    waited.add_done_callback(lambda f: f.cancelled() or f.exception())  # read: never "not retrieved"


def routes(server: TableServer, reviewer: Reviewer) -> list[Route]:
    """The expert's routes, for ``server`` (the app's TableServer) and its ``reviewer``."""

    def ended(request: Request) -> tuple[int, TableRow, int, str] | JSONResponse:
        """(seat, table, hand number, log) of the request's seat and ended hand, or the error answer."""
        seat = query_seat(request)
        if seat is None:
            return JSONResponse({"error": BAD_SEAT}, status_code=400)
        try:
            table, number, text = ended_hand_log(server, request.path_params["code"],
                                                 request.path_params["number"], request)
        except HandNotServed as exc:
            return error(exc.status, exc.message, exc.code)
        return seat, table, number, text

    async def hand_review(request: Request) -> Response:
        found = ended(request)
        if isinstance(found, JSONResponse):
            return found
        seat, table, number, text = found
        start = request.method == "POST"
        who = identity.person_keys(server, request) if start else ()
        try:
            data = reviewer.review(server.store, table.id, number, seat, (lambda: text) if start else None,
                                   who)
        except PoolBusy as exc:
            return _busy(exc)
        except RequesterBusy as exc:
            return _refused(exc)
        return _answer({"code": table.code, "hand_number": number, "seat": seat, "deals": reviewer.deals,
                        **data})

    async def match_review(request: Request) -> Response:
        seat = query_seat(request)
        if seat is None:
            return JSONResponse({"error": BAD_SEAT}, status_code=400)
        code = request.path_params["code"]
        table = server.store.table_by_code(code) if CODE_RE.match(code) else None
        if table is None:
            return JSONResponse({"error": "no such table"}, status_code=404)
        if not may_see(server, identity.player_ids_of(server, request), table):
            return error(403, CLUB_ONLY, "club_only")

        def text(number: int) -> str:
            return ended_hand_log(server, code, str(number))[2]

        start = request.method == "POST"
        who = identity.person_keys(server, request) if start else ()
        try:
            data = reviewer.match(server.store, table.id, seat, text if start else None, who)
        except PoolBusy as exc:
            return _busy(exc)
        except ReviewRunning as exc:
            return _refused(exc)
        if data["busy"] and not any(h["status"] != "none" for h in data["hands"]):
            return _busy(PoolBusy())
        return JSONResponse({"code": table.code, **data},
                            status_code=200 if data["complete"] else 202)

    async def step_analysis(request: Request) -> Response:
        found = ended(request)
        if isinstance(found, JSONResponse):
            return found
        seat, table, number, text = found
        steps = len(text.splitlines()) - 1  # the head, then one line per action
        step_text = request.query_params.get("step", "")
        step = row_id(step_text) if len(step_text) <= 9 else None
        if step is None or step > steps:
            return JSONResponse({"error": f"step is a whole number from 0 to {steps}"}, status_code=400)
        start = request.method == "POST"
        who = identity.person_keys(server, request) if start else ()
        try:
            data, job = reviewer.analysis(table.id, number, step, seat, (lambda: text) if start else None,
                                          who, store=server.store)
            if job is not None and start:
                await _wait(job.future, reviewer.wait_seconds)
                data, _ = reviewer.analysis(table.id, number, step, seat, None)
        except PoolBusy as exc:
            return _busy(exc)
        except RequesterBusy as exc:
            return _refused(exc)
        return _answer({"code": table.code, "hand_number": number, "seat": seat, "step": step,
                        "deals": reviewer.deals, **data})

    both = ["GET", "POST"]
    return [
        Route("/api/tables/{code}/hands/{number}/expert", hand_review, methods=both),
        Route("/api/tables/{code}/expert", match_review, methods=both),
        Route("/api/tables/{code}/hands/{number}/analysis", step_analysis, methods=both),
    ]

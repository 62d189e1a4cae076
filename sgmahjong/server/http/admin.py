"""The operator's routes (docs/security.md): off (404) unless ``admin_token_sha256`` is set, and then
only for a request with ``Authorization: Bearer TOKEN`` whose SHA-256 is that setting.

``GET /api/admin/alts?limit=N``: accounts seen together at rated tables, by device and address;
``POST /api/admin/matches/{code}/void`` {}: void a rated match and recompute every rating;
``POST /api/admin/ratings/recompute`` {}: every rating computed again from the record."""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..ranking import operator
from .common import error


def routes(server: Any) -> list[Route]:
    settings = server.settings
    expected = settings.admin_token_sha256.strip().lower()

    def allowed(request: Request) -> Response | None:
        if not expected:
            return error(404, "not found")
        header = request.headers.get("authorization", "")
        token = header[7:] if header.lower().startswith("bearer ") else ""
        digest = hashlib.sha256(token.encode()).hexdigest()
        if not token or not hmac.compare_digest(digest, expected):
            return error(401, "the operator's token is needed", "operator_only")
        return None

    async def alts(request: Request) -> Response:
        if (refused := allowed(request)) is not None:
            return refused
        try:
            limit = int(request.query_params.get("limit", "100"))
        except ValueError:
            return error(400, "limit is a whole number")
        rows = operator.seen_together(server.store, limit)
        return JSONResponse({"matches": rows, "pairs": operator.pairs(rows)})

    async def void(request: Request) -> Response:
        if (refused := allowed(request)) is not None:
            return refused
        answer = operator.void(server.store, request.path_params["code"][:40], settings.leave_points)
        return JSONResponse(answer, status_code=200 if answer["voided"] else 404)

    async def recompute(request: Request) -> Response:
        if (refused := allowed(request)) is not None:
            return refused
        return JSONResponse(operator.recompute(server.store, settings.leave_points))

    return [
        Route("/api/admin/alts", alts, methods=["GET"]),
        Route("/api/admin/matches/{code}/void", void, methods=["POST"]),
        Route("/api/admin/ratings/recompute", recompute, methods=["POST"]),
    ]

"""What the route modules share: error answers, the JSON body of a request (bounded), the HTTP status
of each protocol error, and the rate of new tables per client address."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..protocol import ProtocolError
from ..settings import ServerSettings
from .identity import address_of
from .limits import AddressBuckets
from .middleware import json_depth_ok

STATUS = {"wrong_status": 409, "seat_taken": 409, "name_taken": 409, "bad_token": 403, "server_full": 503,
          "already_seated": 409, "rate_limited": 429}
STORAGE_DOWN = {"type": "error", "code": "storage", "ref": None,
                "message": "storage unavailable, try again"}


ID_DIGITS = 18  # digits of a row id at most: any such number fits a database's 64-bit integer


def row_id(text: str) -> int | None:
    """A row id (a member, an invite, an evening, a passkey) or a number (a hand, a step) as a request
    gives it: ASCII digits of a number a database's integer holds, else None (answered as an unknown id
    or a bad number)."""
    if not (text.isascii() and text.isdigit()) or len(text) > ID_DIGITS:
        return None
    return int(text)


def attended(options: dict[str, Any]) -> None:
    """Refuse (ProtocolError ``invalid``) the option ``unattended`` on a table a request opens: only an
    event's tables go on with nobody there (the idle sweep never closes them before they finish)."""
    if options.get("unattended"):
        raise ProtocolError("invalid", "only an event's tables go on unattended")


def error(status: int, message: str, code: str | None = None,
          params: dict[str, Any] | None = None) -> JSONResponse:
    """An HTTP error: ``{"error": message}``, with the protocol's error ``code`` when there is one and
    the ``params`` its text takes (the client shows its own translated text for a code)."""
    body: dict[str, Any] = {"error": message}
    if code is not None:
        body["code"] = code
        if params:
            body["params"] = params
    return JSONResponse(body, status_code=status)


def refused(exc: ProtocolError) -> JSONResponse:
    """A request refused by the tables' rules: the status of its code (400 by default)."""
    return error(STATUS.get(exc.code, 400), exc.message, exc.code, exc.params)


async def json_body(request: Request) -> Any:
    settings: ServerSettings = request.app.state.settings
    body = await request.body()
    if len(body) > settings.max_body:
        raise ProtocolError("too_large", f"request body larger than {settings.max_body} bytes")
    try:
        data = json.loads(body or b"null")
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "request body is not valid JSON") from None
    if not json_depth_ok(data, settings.max_json_depth):
        deep = settings.max_json_depth
        raise ProtocolError("bad_json", f"request body JSON nests deeper than {deep} levels")
    return data


class NewTables:
    """How fast one client address (an IPv6 client by its /64: identity.address_of) may create tables
    (``tables_per_hour`` after ``table_burst``)."""

    def __init__(self, settings: ServerSettings) -> None:
        self.buckets = AddressBuckets(settings.tables_per_hour / 3600, settings.table_burst,
                                      settings.tracked_addresses)

    def refuse(self, request: Request) -> Response | None:
        """429 when this client address has created tables faster than the settings allow."""
        address = address_of(request)
        if self.buckets.take(address):
            return None
        wait = max(1, round(self.buckets.wait(address)))
        return JSONResponse(
            {"error": f"too many new tables from your address; try again in {wait} s",
             "code": "rate_limited"},
            status_code=429, headers={"Retry-After": str(wait)},
        )

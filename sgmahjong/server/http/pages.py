"""The pages: the static HTML pages (each fetches its data itself), a table's page, and the static
files of the browser client (``server/static``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from ..tables import TableServer
from .static_http import page_response

PAGES = {
    "/": "index.html",
    "/how-to-play": "howto.html",
    "/scoring": "scoring.html",
    "/calculator": "calculator.html",
    "/keys": "keys.html",
    "/learn": "learn.html",
}


def static_page(filename: str) -> Callable[[Request], Awaitable[Response]]:
    """A handler serving the static page ``filename`` (the page fetches its data itself)."""

    async def handler(request: Request) -> Response:
        return await page_response(request, filename)

    return handler


def routes(server: TableServer) -> list[BaseRoute]:
    async def table_page(request: Request) -> Response:
        table = await server.find(request.path_params["code"])
        if table is None:
            return PlainTextResponse("No table with this link. Create one at /", 404)
        if table.status == "closed":
            return PlainTextResponse(
                "This table was closed (all its players left). Create a new one at /", 410
            )
        return await static_page("table.html")(request)

    return [
        *[Route(path, static_page(name)) for path, name in PAGES.items()],
        Route("/t/{code}", table_page),
    ]


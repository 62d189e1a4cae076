"""The pages: the static HTML pages (each fetches its data itself; the pages with a link preview are
in previews.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

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


def routes() -> list[BaseRoute]:
    """The static pages (a table's, a replay's, a club's and an invite's page are in previews.py)."""
    return [Route(path, static_page(name)) for path, name in PAGES.items()]

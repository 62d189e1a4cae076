"""The pages: the static HTML pages (each fetches its data itself), a table's page, and the static
files of the browser client (``server/static``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from ..tables import TableServer

STATIC_DIR = Path(__file__).parent.parent / "static"
PAGES = {
    "/": "index.html",
    "/how-to-play": "howto.html",
    "/scoring": "scoring.html",
    "/calculator": "calculator.html",
}


def static_page(filename: str) -> Callable[[Request], Awaitable[Response]]:
    """A handler serving the static page ``filename`` (the page fetches its data itself)."""

    async def handler(request: Request) -> Response:
        path = STATIC_DIR / filename
        if not path.is_file():
            return PlainTextResponse(f"{filename} is missing from the server's static folder", 404)
        return FileResponse(path, media_type="text/html")

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


def static_files() -> BaseRoute:
    """The browser client's files under ``/static``."""
    return Mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")

"""Serving the static build (assets.py): ``/static/...``, the pages and ``/sw.js``.

Each answer is one of the build's precompressed bodies (brotli, gzip or none, per ``Accept-Encoding``,
with ``Vary: Accept-Encoding``), an ETag per body (a matching ``If-None-Match`` gets 304), and
``Cache-Control``: a year and ``immutable`` for hashed and release URLs, ``no-cache`` (revalidate each
time) for the pages, the service worker and the sources' own paths.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from ..settings import ServerSettings
from .assets import LANGS, STATIC_DIR, Asset, Assets, Build
from .offline_scorer import default_pyodide_dir

LANG_COOKIE = "sgmahjong_lang"  # set by js/i18n.js with the reader's choice of language


def make_assets(settings: ServerSettings) -> Assets:
    """The static build of ``settings`` (its folders, the builds kept, how often sources are checked)."""
    source = Path(settings.static_dir) if settings.static_dir else STATIC_DIR
    root = Path(settings.static_build_dir) if settings.static_build_dir else None
    pyodide = Path(settings.pyodide_dir) if settings.pyodide_dir else default_pyodide_dir()
    return Assets(source, root, kept=settings.static_builds_kept, check_seconds=settings.static_check_seconds,
                  pyodide=pyodide)


async def current_build(assets: Assets) -> Build:
    """The current build, rebuilt first (in a thread) when the sources changed since the last check."""
    if assets.due() or assets.current is None:
        return await asyncio.to_thread(assets.refresh)
    return assets.current


def respond(asset: Asset, request: Request) -> Response:
    """``asset`` in the best encoding the request accepts (304 when the browser holds that body)."""
    enc = asset.choose(request.headers.get("accept-encoding", ""))
    etag = f'{asset.etag[:-1]}-{enc}"' if enc else asset.etag
    headers = {"Cache-Control": asset.cache, "ETag": etag, "Vary": "Accept-Encoding"}
    match = request.headers.get("if-none-match")
    if match is not None and (match.strip() == "*" or etag in (t.strip() for t in match.split(","))):
        return Response(status_code=304, headers=headers)
    if enc:
        headers["Content-Encoding"] = enc
    return Response(asset.bodies[enc], media_type=asset.ctype, headers=headers)


def _missing(what: str) -> Response:
    return PlainTextResponse(f"{what} is not among the server's static files", 404)


def page_language(request: Request) -> str:
    """The language js/i18n.js will choose, as far as the server can tell: ``?lang=``, else the cookie
    it sets with the reader's choice, else the browser's languages (zh* -> 中文), else English."""
    for chosen in (request.query_params.get("lang"), request.cookies.get(LANG_COOKIE)):
        if chosen in LANGS:
            return chosen
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip().lower()
        if code.startswith("zh"):
            return "zh"
        if code.startswith("en"):
            return "en"
    return LANGS[0]


async def page_response(request: Request, filename: str) -> Response:
    """The built copy of the page ``filename`` (a file of the static folder), in the version preloading
    the strings of the reader's language when it has one."""
    build = await current_build(request.app.state.assets)
    asset = build.file(f"{filename}#{page_language(request)}") or build.file(filename)
    if asset is None:
        return _missing(filename)
    response = respond(asset, request)
    response.headers["Vary"] = "Accept-Encoding, Accept-Language, Cookie"
    return response


async def static_file(request: Request) -> Response:
    assets: Assets = request.app.state.assets
    if assets.current is None:
        await current_build(assets)
    path = request.path_params["path"]
    asset = assets.file(path)
    return respond(asset, request) if asset is not None else _missing(path)


async def service_worker(request: Request) -> Response:
    """``/sw.js``: the service worker of the current build (at the root, so its scope is the site)."""
    build = await current_build(request.app.state.assets)
    asset = build.service_worker()
    return respond(asset, request) if asset is not None else _missing("sw.js")


def routes() -> list[Any]:
    return [
        Route("/static/{path:path}", static_file, methods=["GET", "HEAD"]),
        Route("/sw.js", service_worker, methods=["GET", "HEAD"]),
    ]

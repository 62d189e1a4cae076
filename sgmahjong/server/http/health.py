"""Routes for operators: the health check (HAProxy's) and the Prometheus metrics."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from .. import metrics
from ..protocol import PROTOCOL_VERSION


async def health(request: Request) -> Response:
    return JSONResponse({"ok": True, "protocol": PROTOCOL_VERSION})


async def metrics_page(request: Request) -> Response:
    body, content_type = metrics.exposition()
    return Response(body, media_type=content_type)


def routes() -> list[BaseRoute]:
    return [Route("/api/health", health), Route("/metrics", metrics_page)]

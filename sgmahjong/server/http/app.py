"""The ASGI application (Starlette): the route modules of ``server.http`` over one
:class:`~..tables.TableServer`, the guard middleware, and the server's background tasks."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from .. import memory, metrics
from ..analysis import Reviewer
from ..cluster.ownership import TableElsewhere
from ..matchmaking import matcher
from ..push.notify import Notifier, remind_loop
from ..push.sender import PushSender
from ..push.vapid import make_keys
from ..settings import ServerSettings
from ..store import StorageUnavailable
from ..tables import TableServer
from ..tournaments.runner import EventRunner
from . import (
    accounts,
    admin,
    avatars,
    club_live,
    club_ticks,
    clubs,
    evenings,
    events_http,
    expert,
    health,
    identity,
    pages,
    play,
    players,
    previews,
    ranked,
    ranking,
    reference,
    replay,
    static_http,
    tables,
    websocket,
)
from .common import STORAGE_DOWN, NewTables
from .forwarded import ForwardedMiddleware
from .middleware import GuardMiddleware

log = logging.getLogger("sgmahjong.server")


def create_app(
    database: str | None = None, *, test_hooks: bool | None = None, settings: ServerSettings | None = None
) -> Starlette:
    """The application. ``database``: a SQLite URL or path, or a ``postgresql://`` URL (default
    ``$DATABASE_URL`` or ``./data/sgmahjong.sqlite3``); ``test_hooks`` (default
    ``$SGMAHJONG_TEST_HOOKS == "1"``) lets a new table take a fixed ``seed`` or stacked ``wall``;
    ``settings``: the server's limits (default :meth:`ServerSettings.from_env`)."""
    if test_hooks is None:
        test_hooks = os.environ.get("SGMAHJONG_TEST_HOOKS") == "1"
    settings = settings or ServerSettings.from_env()
    memory.tune_malloc(settings)  # before the server's threads start (see memory.py)
    memory.bound_memos(settings.memo_limit)
    server = TableServer(database, test_hooks=test_hooks, settings=settings)
    new_tables = NewTables(settings)
    reviewer = Reviewer(settings)  # its processes start on the first expert review
    assets = static_http.make_assets(settings)
    sender = PushSender(lambda: server.store.vapid_keys(make_keys, time.time())[0],
                        lambda endpoint: server.store.remove_subscription(endpoint),
                        queue_max=settings.push_queue, senders=settings.push_senders,
                        timeout=settings.push_timeout, ttl=settings.push_ttl, contact=settings.push_contact)
    notifier = Notifier(lambda: server.store, sender.send)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server.open()
        await asyncio.to_thread(assets.refresh)  # the static build: made now if the sources changed
        server.start_tasks()
        loop = asyncio.get_running_loop()
        tasks = [loop.create_task(server.upkeep.run(server.archive)), loop.create_task(server.revive()),
                 loop.create_task(metrics.watch_loop_lag()), loop.create_task(matcher.run(server)),
                 loop.create_task(EventRunner(server).run(settings.event_check_seconds)),
                 loop.create_task(sender.run()), loop.create_task(remind_loop(notifier, settings))]
        if settings.gc_interval_seconds > 0:
            tasks.append(loop.create_task(memory.collect_garbage(settings.gc_interval_seconds)))
        if settings.watchdog_seconds > 0:
            tasks.append(loop.create_task(server.watchdog()))
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.to_thread(reviewer.close)
            server.close()

    async def storage_down(request: Request, exc: Exception) -> Response:
        log.warning("storage unavailable: %s", exc)  # a fault of the database, answered; not of the code
        return JSONResponse({"error": STORAGE_DOWN["message"], "code": "storage"}, status_code=503,
                            headers={"Retry-After": str(max(1, round(settings.storage_retry_seconds)))})

    async def elsewhere(request: Request, exc: Exception) -> Response:
        metrics.REFUSALS.labels("moved").inc()
        return JSONResponse({"error": str(exc), "code": "moved"}, status_code=503,
                            headers={"Retry-After": "1"})

    app = Starlette(
        routes=[
            *pages.routes(),
            *previews.routes(server),
            *health.routes(),
            *reference.routes(),
            *tables.routes(server, new_tables),
            *play.routes(server, new_tables),
            *replay.routes(server),
            *expert.routes(server, reviewer),
            *players.routes(server),
            *accounts.routes(server),
            *admin.routes(server),
            *ranking.routes(server),
            *ranked.routes(server),
            *avatars.routes(server),
            *club_live.routes(server),
            *clubs.routes(server, new_tables),
            *evenings.routes(server, notifier),
            *club_ticks.routes(server),
            *events_http.routes(server),
            *websocket.routes(server),
            *static_http.routes(),
        ],
        lifespan=lifespan,
        exception_handlers={TableElsewhere: elsewhere, StorageUnavailable: storage_down},
        middleware=[Middleware(ForwardedMiddleware, settings=settings),
                    Middleware(GuardMiddleware, settings=settings),
                    Middleware(GZipMiddleware, minimum_size=settings.gzip_min_bytes),
                    Middleware(identity.SessionCookies)],
    )
    app.state.settings = settings
    app.state.assets = assets
    app.state.server = server
    app.state.reviewer = reviewer
    app.state.push = notifier
    app.state.new_visitors = identity.NewVisitors(settings)
    return app

"""The ASGI application (Starlette): pages, JSON endpoints and the table WebSocket (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any, cast

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ...errors import SgMahjongError
from ...rules import PRESETS, RuleSet
from .. import matchflow, memory, metrics
from ..cluster.ownership import MOVED, Ownership, TableElsewhere
from ..events import log_event, set_worker
from ..lobby import PAGE_MAX, Upkeep, lobby_page
from ..matchmaking import matcher
from ..options import TableOptions
from ..protocol import (
    BOT_LEVEL_INFO,
    BOT_LEVELS,
    OFFERED_BOT_LEVELS,
    PROTOCOL_VERSION,
    ActionMsg,
    AddBot,
    Hello,
    Leave,
    Message,
    Next,
    Ping,
    ProtocolError,
    Rematch,
    RemoveBot,
    Start,
    parse_message,
    validation_message,
)
from ..ranking import record as ranked
from ..settings import ServerSettings
from ..store import LeaseLost, StorageUnavailable, Store, StoreError, check_url, open_store
from ..store.committer import GroupCommit
from ..table import bots, engine
from ..table.table import Connection, Table
from . import accounts, players, ranking, reference, replay
from . import ranked as ranked_routes
from .guard import DirectWrites
from .limits import AddressBuckets, TokenBucket
from .middleware import RAW_SEND, GuardMiddleware, json_depth_ok

log = logging.getLogger("sgmahjong.server")

STATIC_DIR = Path(__file__).parent.parent / "static"
MAX_CONNECTIONS = 64  # open WebSockets per table (players' tabs and spectators)
CODE_RE = re.compile(r"^[A-Za-z0-9_-]{4,32}$")

PAGES = {
    "/": "index.html",
    "/how-to-play": "howto.html",
    "/scoring": "scoring.html",
    "/calculator": "calculator.html",
}


class CreateTable(BaseModel):
    """Body of ``POST /api/tables``."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: Annotated[str, Field(min_length=1, max_length=40)]
    preset: str = "default"
    rules: dict[str, Any] = Field(default_factory=dict)
    options: dict[str, Any] = Field(default_factory=dict)
    private: bool = False
    seed: Annotated[int, Field(ge=0, lt=2**63)] | None = None  # test hook
    wall: Annotated[str, Field(max_length=2000)] | None = None  # test hook


class JoinTable(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    name: Annotated[str, Field(min_length=1, max_length=100)]
    seat: Annotated[int, Field(ge=0, le=3)] | None = None
    player: Annotated[str, Field(max_length=128)] | None = None  # the browser's identity (/me)


class TableServer:
    """Every table of one database, loaded at startup and resumed where it was."""

    def __init__(
        self, database: str | None = None, *, test_hooks: bool = False, settings: ServerSettings | None = None
    ) -> None:
        self.database = check_url(database)
        self.test_hooks = test_hooks
        self.settings = settings or ServerSettings()
        self.store: Store | None = None
        self.commits: GroupCommit | None = None
        self.tables: dict[str, Table] = {}
        self.ownership = Ownership(self)
        self.quick_lock = asyncio.Lock()  # one quick-play pairing at a time
        self.upkeep = Upkeep(self.tables, self.settings)
        self.down: set[str] = set()  # tables closed by a storage failure, to load again (revive)
        bots.STORAGE_RETRY_SECONDS = self.settings.storage_retry_seconds
        ranked.configure(self.settings.ranked_preset, self.settings.ranked_rounds,
                          self.settings.season_months)
        matchflow.QUICK_SECONDS = self.settings.quick_countdown_seconds

    def open(self) -> None:
        inner = open_store(self.database)
        # group commit for both backends; in a cluster a write to a table this worker no longer
        # holds raises LeaseLost to its sender when it is queued (GroupCommit checks the lease)
        self.commits = GroupCommit(inner, on_failed=self._storage_failed)
        self.store = cast(Store, self.commits)
        set_worker(self.store.worker)
        log_event("worker_started", database=self.store.describe(), shared=self.store.shared)
        if self.store.shared:
            return  # several workers share the database: each table is loaded where it is routed
        for row in self.store.live_tables():
            if not self.store.claim(row.id):
                continue  # another worker owns it
            table = Table.from_rows(self.store, row, self.store.seats(row.id))
            try:
                table.resume(row.match_seed)
            except Exception:
                log.exception("table %s could not be resumed; it is left out", row.code)
                continue
            self.tables[row.code] = table

    def _storage_failed(self, table_ids: set[int]) -> None:
        """Tables whose writes could not be stored: their live state is ahead of the database, so
        they are closed (nothing of it was sent) and their connections dropped; a restart resumes
        them from what was stored."""
        for code, table in list(self.tables.items()):
            if table.id in table_ids:
                log.error("table %s: closed after a storage failure; resumed once writes succeed", code)
                table.close()
                for c in list(table.conns):
                    c.closed = True
                    c.storage_down = True
                    c.finish()
                del self.tables[code]
                self.down.add(code)

    async def revive(self) -> None:
        """Every ``storage_retry_seconds``: load again the tables closed by a storage failure, from
        what was stored (their bots and timers go on; if writes still fail they close again)."""
        while True:
            await asyncio.sleep(self.settings.storage_retry_seconds)
            for code in list(self.down):
                try:
                    if code in self.tables or self.get(code) is not None:
                        log.info("table %s resumed after a storage failure", code)
                    self.down.discard(code)
                except TableElsewhere:
                    self.down.discard(code)
                except Exception as exc:  # reads fail too: try again later
                    log.warning("table %s: not resumed yet (%s)", code, exc)

    async def committed(self) -> None:
        """Wait until every write made so far is committed (before an HTTP answer tells of it)."""
        if self.commits is not None:
            await self.commits.wait(self.commits.submitted)

    def start_tasks(self) -> None:
        for table in self.tables.values():
            table.schedule()
        metrics.track_live_tables(lambda: len(self.tables))
        self.ownership.start()

    def close(self) -> None:
        self.ownership.stop()
        for table in self.tables.values():
            table.close()
        if self.store is not None:
            self.store.close()

    def allow_test_hooks(self, seed: int | None, wall: str | None) -> None:
        """Refuse a fixed seed or stacked wall unless this server runs with test hooks."""
        if (seed is not None or wall is not None) and not self.test_hooks:
            raise ProtocolError("invalid", "seed and wall are test hooks (set SGMAHJONG_TEST_HOOKS=1)")

    def create(self, body: CreateTable) -> Table:
        assert self.store is not None
        if len(self.tables) >= self.settings.max_tables:
            raise ProtocolError("server_full", "the server holds as many tables as it can; try again later")
        self.allow_test_hooks(body.seed, body.wall)
        name = " ".join(body.name.split())
        if not name or not name.isprintable():
            raise ProtocolError("invalid", "a table needs a name of printable text")
        rules = RuleSet.preset(body.preset).with_options(**body.rules)
        options = TableOptions.parse(body.options)
        wall = None
        if body.wall is not None:
            wall = engine.format_wall(engine.parse_wall(body.wall))
        code = secrets.token_urlsafe(6)
        while code in self.tables:
            code = secrets.token_urlsafe(6)
        table_id = self.store.create_table(
            code, name, body.private, rules.to_dict(), options.model_dump(), wall, body.seed
        )
        row = self.store.tables(table_id)[0]
        table = Table.from_rows(self.store, row, self.store.seats(table_id))
        self.tables[code] = table
        return table

    def get(self, code: str) -> Table | None:
        """The live table of ``code`` (loaded from the store on first use), None if there is none;
        raises :class:`TableElsewhere` while another worker serves it."""
        if not CODE_RE.match(code):
            return None
        table = self.tables.get(code)
        if table is None and self.store is not None:
            table = self.ownership.load(code)
        return table

    async def find(self, code: str) -> Table | None:
        """:meth:`get`, waiting a few seconds for a table another worker is handing over."""
        if not CODE_RE.match(code):
            return None
        return await self.ownership.find(code)

    def lobby(self, offset: int, limit: int) -> dict[str, Any]:
        """A page of the lobby's open public tables, from the database (so every worker lists the
        same tables): live here, the table's own summary; served elsewhere, one from its rows."""
        assert self.store is not None
        rows, total = self.store.open_tables(offset, limit)
        summaries = []
        for row in rows:
            table = self.tables.get(row.code)
            if table is None:
                table = Table.from_rows(self.store, row, self.store.seats(row.id))
                table.hand_number = len(self.store.hands(row.id))
            summaries.append(table.summary())
        return lobby_page(summaries, total, offset, limit)

    async def archive(self, table: Table, status: str) -> None:
        """Take ``table`` out of the live set: finished, or closed (its humans left)."""
        assert self.store is not None
        async with table.lock:
            if self.tables.get(table.code) is not table:
                return
            if status != table.status:
                self.store.set_status(table.id, status)
                table.status = status
                table._broadcast_table()
            table.close()
            del self.tables[table.code]
            self.store.release(table.id)
        log.info("table %s archived (%s)", table.code, status)


def _error(status: int, message: str, code: str | None = None,
           params: dict[str, Any] | None = None) -> JSONResponse:
    """An HTTP error: ``{"error": message}``, with the protocol's error ``code`` when there is one and
    the ``params`` its text takes (the client shows its own translated text for a code)."""
    body: dict[str, Any] = {"error": message}
    if code is not None:
        body["code"] = code
        if params:
            body["params"] = params
    return JSONResponse(body, status_code=status)


async def _json_body(request: Request) -> Any:
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


STORAGE_DOWN = {"type": "error", "code": "storage", "ref": None,
                "message": "storage unavailable, try again"}

_STATUS = {"wrong_status": 409, "seat_taken": 409, "name_taken": 409, "bad_token": 403, "server_full": 503}


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
    creations = AddressBuckets(
        settings.tables_per_hour / 3600, settings.table_burst, settings.tracked_addresses
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server.open()
        server.start_tasks()
        upkeep = asyncio.get_running_loop().create_task(server.upkeep.run(server.archive))
        revive = asyncio.get_running_loop().create_task(server.revive())
        lag = asyncio.get_running_loop().create_task(metrics.watch_loop_lag())
        matching = asyncio.get_running_loop().create_task(matcher.run(server))
        collector = None
        if settings.gc_interval_seconds > 0:
            collector = asyncio.get_running_loop().create_task(
                memory.collect_garbage(settings.gc_interval_seconds))
        try:
            yield
        finally:
            upkeep.cancel()
            revive.cancel()
            lag.cancel()
            matching.cancel()
            if collector is not None:
                collector.cancel()
            server.close()

    page = replay.static_page  # a static page's handler

    async def table_page(request: Request) -> Response:
        table = await server.find(request.path_params["code"])
        if table is None:
            return PlainTextResponse("No table with this link. Create one at /", 404)
        if table.status == "closed":
            return PlainTextResponse(
                "This table was closed (all its players left). Create a new one at /", 410
            )
        response: Response = await page("table.html")(request)
        return response

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True, "protocol": PROTOCOL_VERSION})

    async def metrics_page(request: Request) -> Response:
        body, content_type = metrics.exposition()
        return Response(body, media_type=content_type)

    async def storage_down(request: Request, exc: Exception) -> Response:
        log.error("storage unavailable: %s", exc)
        return JSONResponse({"error": STORAGE_DOWN["message"], "code": "storage"}, status_code=503,
                            headers={"Retry-After": str(max(1, round(settings.storage_retry_seconds)))})

    async def elsewhere(request: Request, exc: Exception) -> Response:
        metrics.REFUSALS.labels("moved").inc()
        return JSONResponse({"error": str(exc), "code": "moved"}, status_code=503,
                            headers={"Retry-After": "1"})

    async def rules(request: Request) -> Response:
        return JSONResponse({
            "options": RuleSet.describe(),
            "presets": {name: r.to_dict() for name, r in PRESETS.items()},
            "table_options": TableOptions.describe(),
            "bot_levels": list(BOT_LEVELS),
            "bot_level_info": [
                {"level": lv, "name": BOT_LEVEL_INFO[lv][0], "description": BOT_LEVEL_INFO[lv][1]}
                for lv in OFFERED_BOT_LEVELS
            ],
        })

    async def pattern_reference(request: Request) -> Response:
        try:
            preset = request.query_params.get("preset", "default")
            ruleset = reference.rules_from_query(preset, request.query_params.getlist("rule"))
            return JSONResponse(reference.reference(ruleset))
        except SgMahjongError as exc:
            return _error(400, str(exc))

    async def score(request: Request) -> Response:
        try:
            body = await _json_body(request)
            return JSONResponse(reference.score(body))
        except ProtocolError as exc:
            return _error(400, exc.message)
        except (SgMahjongError, ValueError, TypeError) as exc:
            # a code the calculator says in its language (the English message for any other)
            return _error(400, str(exc), getattr(exc, "reason_code", None), getattr(exc, "params", None))

    async def list_tables(request: Request) -> Response:
        try:
            offset = int(request.query_params.get("offset", "0"))
            limit = int(request.query_params.get("limit", str(settings.lobby_page)))
        except ValueError:
            return _error(400, "offset and limit are whole numbers")
        if offset < 0 or not 1 <= limit <= PAGE_MAX:
            return _error(400, f"offset is at least 0 and limit is 1-{PAGE_MAX}")
        return JSONResponse(server.lobby(offset, limit))

    def too_many_tables(request: Request) -> Response | None:
        """429 when this client address has created tables faster than the settings allow."""
        address = request.client.host if request.client else "?"
        if creations.take(address):
            return None
        wait = max(1, round(creations.wait(address)))
        return JSONResponse(
            {"error": f"too many new tables from your address; try again in {wait} s",
             "code": "rate_limited"},
            status_code=429, headers={"Retry-After": str(wait)},
        )

    async def create_table(request: Request) -> Response:
        if (refused := too_many_tables(request)) is not None:
            return refused
        try:
            body = CreateTable.model_validate(await _json_body(request))
            table = server.create(body)
            server.ownership.created(table)
        except ValidationError as exc:
            return _error(400, validation_message(exc, whole="body", most=1))
        except ProtocolError as exc:
            return _error(_STATUS.get(exc.code, 400), exc.message)
        except SgMahjongError as exc:
            return _error(400, str(exc))
        return JSONResponse(
            {"code": table.code, "url": f"/t/{table.code}", "table": table.summary()}, status_code=201
        )

    async def get_table(request: Request) -> Response:
        table = await server.find(request.path_params["code"])
        if table is None:
            return _error(404, "no such table")
        return JSONResponse(table.summary())

    async def join_table(request: Request) -> Response:
        table = await server.find(request.path_params["code"])
        if table is None:
            return _error(404, "no such table")
        try:
            body = JoinTable.model_validate(await _json_body(request))
            account = players.signed_account(server, request)
            async with table.lock:
                seat, token = table.join(body.name, body.seat)
                players.link_seat(server.store, table, seat, body.player, account)
        except ValidationError as exc:
            return _error(400, validation_message(exc, whole="body", most=1))
        except ProtocolError as exc:
            return _error(_STATUS.get(exc.code, 400), exc.message, exc.code)
        await server.committed()
        return JSONResponse({"seat": seat, "token": token})

    async def play_bots(request: Request) -> Response:
        if (refused := too_many_tables(request)) is not None:
            return refused
        try:
            body = matchflow.PlayBots.model_validate(await _json_body(request))
            server.allow_test_hooks(body.seed, body.wall)
            answer = await matchflow.play_vs_bots(server, body)
            players.link_answer(server, answer, body.player,
                                players.signed_account(server, request))
        except ValidationError as exc:
            return _error(400, validation_message(exc, whole="body", most=1))
        except ProtocolError as exc:
            return _error(_STATUS.get(exc.code, 400), exc.message, exc.code)
        except SgMahjongError as exc:
            return _error(400, str(exc))
        await server.committed()
        return JSONResponse(answer, status_code=201)

    async def results(request: Request) -> Response:
        table = server.get(request.path_params["code"])
        if table is None:
            return _error(404, "no such table")
        return JSONResponse({"hands": matchflow.hand_results(table)})

    async def quick(request: Request) -> Response:
        if (refused := too_many_tables(request)) is not None:
            return refused
        try:
            body = matchflow.QuickPlay.model_validate(await _json_body(request))
            answer = await matchflow.quick_play(server, body)
            players.link_answer(server, answer, body.player,
                                players.signed_account(server, request))
        except ValidationError as exc:
            return _error(400, validation_message(exc, whole="body", most=1))
        except ProtocolError as exc:
            return _error(_STATUS.get(exc.code, 400), exc.message, exc.code)
        await server.committed()
        return JSONResponse(answer)

    async def websocket(ws: WebSocket) -> None:
        await ws.accept()
        try:
            table = await server.find(ws.path_params["code"])
        except TableElsewhere:
            await ws.send_json(MOVED)
            await ws.close(code=1013)  # try again later
            return
        if table is None:
            await ws.send_json({"type": "error", "code": "no_table", "message": "no such table", "ref": None})
            await ws.close(code=4404)
            return
        if len(table.conns) >= MAX_CONNECTIONS:
            await ws.send_json({"type": "error", "code": "too_many", "ref": None,
                                "message": f"this table already has {MAX_CONNECTIONS} connections"})
            await ws.close(code=1013)
            return
        conn = Connection(_text_sender(ws), server.commits, _direct_writer(ws))

        async def write() -> None:
            await conn.writer()
            if conn.evicted:  # the table moved to another worker: the client reconnects there
                with contextlib.suppress(Exception):
                    await ws.close(code=1012)
            elif conn.storage_down:  # its writes failed: nothing of them was sent; reconnect later
                with contextlib.suppress(Exception):
                    await ws.send_text(json.dumps(STORAGE_DOWN))
                    await ws.close(code=1013, reason="storage unavailable, try again")

        loop = asyncio.get_running_loop()
        writer = loop.create_task(write())
        budget = TokenBucket(settings.message_rate, settings.message_burst)
        hello_by = loop.time() + settings.hello_timeout
        close_code: int | None = None
        async with table.lock:
            table.conns.add(conn)
        metrics.SOCKETS.inc()
        try:
            while not conn.closed and not table.closed:
                try:
                    if conn.hello:
                        frame = await ws.receive()
                    else:
                        frame = await asyncio.wait_for(ws.receive(), max(0.0, hello_by - loop.time()))
                except TimeoutError:
                    conn.push({"type": "error", "code": "hello_timeout", "ref": None,
                               "message": f"no hello within {settings.hello_timeout:g} s; closing"})
                    close_code = 1008
                    break
                except (WebSocketDisconnect, RuntimeError):
                    break
                if frame["type"] == "websocket.disconnect":
                    break
                if not budget.take():
                    conn.push({"type": "error", "code": "rate_limited", "ref": None,
                               "message": f"more than {settings.message_burst} messages at once"
                                          f" (at most {settings.message_rate:g} a second); closing"})
                    close_code = 1008
                    break
                text = frame.get("text")
                try:
                    received = time.perf_counter()
                    message = parse_message(text if text is not None else frame.get("bytes"))
                    async with table.lock:
                        if isinstance(message, Rematch):
                            if not conn.hello:
                                raise ProtocolError("hello_first", "send hello first", "rematch")
                            matchflow.rematch_vote(server, table, conn)
                        else:
                            handle(table, conn, message)
                    if isinstance(message, ActionMsg):
                        metrics.ACTION_LATENCY.observe(time.perf_counter() - received)
                except ProtocolError as exc:
                    metrics.REFUSALS.labels(exc.code).inc()
                    conn.push(exc.to_json())
                except LeaseLost:  # another worker owns the table now; the lease watch hands it over
                    metrics.ERRORS.labels("lease_lost").inc()
                    conn.push(MOVED)
                except StorageUnavailable as exc:
                    metrics.ERRORS.labels("store").inc()
                    log_event("store_error", table=table.code, error=str(exc))
                    conn.push(STORAGE_DOWN)
                except StoreError as exc:
                    metrics.ERRORS.labels("store").inc()
                    log_event("store_error", table=table.code, error=str(exc))
                    conn.push({"type": "error", "code": "store", "ref": None,
                               "message": "the server could not save this; try again"})
                except Exception:  # never let one message kill the connection
                    metrics.ERRORS.labels("server").inc()
                    log.exception("table %s: error handling a message", table.code)
                    conn.push({"type": "error", "code": "server", "message": "internal error", "ref": None})
        finally:
            metrics.SOCKETS.dec()
            async with table.lock:
                table.disconnect(conn)
            conn.finish()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, timeout=1)
            writer.cancel()
            if close_code is not None:
                with contextlib.suppress(Exception):
                    await ws.close(code=close_code)

    app = Starlette(
        routes=[
            *[Route(path, page(name)) for path, name in PAGES.items()],
            Route("/t/{code}", table_page),
            Route("/api/health", health),
            Route("/metrics", metrics_page),
            Route("/api/rules", rules),
            Route("/api/reference", pattern_reference),
            Route("/api/score", score, methods=["POST"]),
            Route("/api/tables", list_tables, methods=["GET"]),
            Route("/api/tables", create_table, methods=["POST"]),
            Route("/api/play", play_bots, methods=["POST"]),
            Route("/api/quick", quick, methods=["POST"]),
            Route("/api/tables/{code}", get_table),
            Route("/api/tables/{code}/results", results),
            Route("/api/tables/{code}/join", join_table, methods=["POST"]),
            *replay.routes(server),
            *players.routes(server),
            *accounts.routes(server),
            *ranking.routes(server),
            *ranked_routes.routes(server),
            WebSocketRoute("/ws/{code}", websocket),
            Mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static"),
        ],
        lifespan=lifespan,
        exception_handlers={TableElsewhere: elsewhere, StorageUnavailable: storage_down},
        middleware=[Middleware(GuardMiddleware, settings=settings)],
    )
    app.state.settings = settings
    app.state.server = server
    return app


def _text_sender(ws: WebSocket) -> Callable[[str], Awaitable[None]]:
    """How a connection's writer sends a text message: straight to the server's own ``send`` when the
    guard kept it (a table's messages are most of the server's sends; the framework's wrappers only
    check states that an open socket is in), else through Starlette."""
    raw: Callable[[dict[str, Any]], Awaitable[None]] | None = ws.scope.get(RAW_SEND)
    if raw is None:
        return ws.send_text

    async def send_text(text: str) -> None:
        await raw({"type": "websocket.send", "text": text})

    return send_text


def _direct_writer(ws: WebSocket) -> Callable[[list[str]], bool] | None:
    """The socket's synchronous send when the server is uvicorn with the guard's protocol
    (:class:`~.guard.DirectWrites`; not under a test client, say)."""
    protocol = getattr(ws.scope.get(RAW_SEND), "__self__", None)
    return protocol.write_now if isinstance(protocol, DirectWrites) else None


def handle(table: Table, conn: Connection, message: Message) -> None:
    """Dispatch one validated message (the table lock is held)."""
    if isinstance(message, Hello):
        table.hello(conn, message.token)
        return
    if not conn.hello:
        raise ProtocolError("hello_first", "send hello first", message.type)
    if isinstance(message, Ping):
        conn.push({"type": "pong"})
    elif isinstance(message, ActionMsg):
        if conn.seat is None:
            raise ProtocolError("not_seated", "spectators cannot play", "action")
        table.act(conn.seat, message.action, message.version, "human")
    elif isinstance(message, AddBot):
        table.add_bot(conn, message.seat, message.level)
    elif isinstance(message, RemoveBot):
        table.remove_bot(conn, message.seat)
    elif isinstance(message, Leave):
        table.leave(conn)
    elif isinstance(message, Start):
        table.start(conn)
    elif isinstance(message, Next):
        table.ready(conn)

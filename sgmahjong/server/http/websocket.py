"""The table WebSocket (docs/protocol.md): one connection of a browser tab to one table, its inbound
messages validated (``protocol.parse_message``), rate-limited and applied under the table's lock, its
outbound messages queued on a :class:`~..table.connections.Connection` drained by a writer task."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import matchflow, metrics
from ..cluster.ownership import MOVED, TableElsewhere
from ..events import log_event
from ..protocol import (
    ActionMsg,
    AddBot,
    Chat,
    ChatMute,
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
)
from ..store import LeaseLost, StorageUnavailable, StoreError
from ..table import owners
from ..table.connections import Connection
from ..table.seats import NAME_MAX
from ..table.table import Table
from ..tables import TableServer
from . import clubs, identity
from .common import STORAGE_DOWN
from .guard import DirectWrites
from .limits import PersonLimits, TokenBucket
from .middleware import RAW_SEND

log = logging.getLogger("sgmahjong.server")



def admission(table: Table, conn: Connection, settings: Any) -> str | None:
    """Why a new socket may not join ``table`` (a message), or None. A seated player's socket is always
    admitted (up to ``seat_sockets`` tabs); spectators are capped per table and per address."""
    if conn.owner_seat is not None:
        tabs = sum(1 for c in table.conns if c.owner_seat == conn.owner_seat)
        return None if tabs < settings.seat_sockets else f"you have {tabs} tabs open at this table already"
    watching = [c for c in table.conns if c.owner_seat is None]
    if len(watching) >= settings.spectators_per_table:
        return f"this table already has {len(watching)} spectators"
    if sum(1 for c in watching if c.address == conn.address) >= settings.spectators_per_address:
        return f"your address already watches this table {settings.spectators_per_address} times"
    return None


def routes(server: TableServer) -> list[BaseRoute]:
    settings = server.settings
    chat_limits = PersonLimits(settings.chat_rate, settings.chat_burst, settings.chat_address_rate,
                               settings.chat_address_burst, settings.chat_tracked)  # across reconnects

    async def websocket(ws: WebSocket) -> None:
        await ws.accept()
        try:
            table = await server.find(ws.path_params["code"])
        except TableElsewhere:
            await ws.send_json(MOVED)
            await ws.close(code=1013)  # try again later
            return
        except StorageUnavailable as exc:  # the socket is open: the HTTP 503 of storage_down cannot go
            log.warning("storage unavailable: %s", exc)
            await ws.send_json(STORAGE_DOWN)
            await ws.close(code=1013, reason="storage unavailable, try again")
            return
        if table is None:
            await ws.send_json({"type": "error", "code": "no_table", "message": "no such table", "ref": None})
            await ws.close(code=4404)
            return
        conn = Connection(_text_sender(ws), server.commits, _direct_writer(ws), table.id)
        conn.address, conn.person = identity.address_of(ws), identity.person_keys(server, ws)
        conn.player_ids = tuple(identity.player_ids_of(server, ws))
        who = identity.visitor(server, ws)
        conn.session = who.session.id_hash if who is not None else ""
        conn.name = identity.display_name(server, ws, NAME_MAX)
        if not clubs.may_see(server, conn.player_ids, table):  # a club's table: its members' alone
            metrics.REFUSALS.labels("club_only").inc()
            await ws.send_json({"type": "error", "code": "club_only", "ref": None,
                                "message": "only the club's members may watch a club's table"})
            await ws.close(code=4403)
            return
        async with table.lock:  # checked and added at once: sockets opened together are counted
            conn.owner_seat = owners.seat_of(table, conn.player_ids)
            refusal = admission(table, conn, settings)
            if refusal is None:
                table.conns.add(conn)
        if refusal is not None:
            metrics.REFUSALS.labels("too_many").inc()
            await ws.send_json({"type": "error", "code": "too_many", "ref": None, "message": refusal})
            await ws.close(code=1013)
            return

        async def write() -> None:
            await conn.writer()
            if conn.storage_down:  # its writes failed: nothing of them was sent; reconnect later
                with contextlib.suppress(Exception):
                    await ws.send_text(json.dumps(STORAGE_DOWN))
                    await ws.close(code=1013, reason="storage unavailable, try again")
            elif conn.evicted:  # the table moved to another worker: the client reconnects there
                with contextlib.suppress(Exception):
                    await ws.close(code=1012)
            elif conn.close_code is not None:  # sent away (its player was deleted)
                with contextlib.suppress(Exception):
                    await ws.close(code=conn.close_code)

        loop = asyncio.get_running_loop()
        writer = loop.create_task(write())
        budget = TokenBucket(settings.message_rate, settings.message_burst)
        hello_by = loop.time() + settings.hello_timeout
        close_code: int | None = None
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
                        elif isinstance(message, Chat) and conn.hello:
                            table.chat.say(conn, message.kind, message.body, chat_limits.take,
                                           settings.text_max_marks)
                        else:
                            handle(table, conn, message)
                    if isinstance(message, ActionMsg):
                        _observe_latency(table.code, time.perf_counter() - received)
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
                if conn.hello and conn.seat is None:  # a spectator went: the others' list of watchers
                    table.chat.tell_watchers()
            conn.finish()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, timeout=1)
            writer.cancel()
            if close_code is not None:
                with contextlib.suppress(Exception):
                    await ws.close(code=close_code)

    return [WebSocketRoute("/ws/{code}", websocket)]


def _observe_latency(code: str, seconds: float) -> None:
    """The action-to-update latency metric; the action was applied, so a failure here is only logged."""
    try:
        metrics.ACTION_LATENCY.observe(seconds)
    except Exception:
        log.exception("table %s: the action latency metric failed (the action was applied)", code)


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
        table.hello(conn, message.token, conn.player_ids)
        if conn.seat is not None:
            conn.owner_seat = conn.seat
        table.chat.hello(conn)
        if conn.seat is None:  # a new spectator: everyone's list of watchers
            table.chat.tell_watchers()
        return
    if not conn.hello:
        raise ProtocolError("hello_first", "send hello first", message.type)
    if isinstance(message, Ping):
        conn.push({"type": "pong"})
    elif isinstance(message, ActionMsg):
        if conn.seat is None:
            raise ProtocolError("not_seated", "spectators cannot play", "action")
        table.act(conn.seat, message.action, message.version, "human")
        table.flow.played.add(conn.seat)
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
    elif isinstance(message, ChatMute):
        table.chat.mute(conn, message.seat, message.muted)

"""Each worker's matcher: every ``queue_interval_seconds`` it takes groups of four from the store's
queue (:meth:`~..store.Store.match_queue`: rows another worker is matching are skipped) and opens a
ranked table for each: the ranked rules, spectators' chat off (they may watch), the four players
seated (each seat's token is the player's queue ticket, stored only hashed), the match started. The
players learn their table by polling their ticket and go there; in a cluster the table is let go at
once, so the worker its code is routed to takes it on first use."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from typing import Any

from ..ranking.ladder import RANKS
from ..store import StorageUnavailable
from ..store.queue import QueueEntry
from ..table.seats import Seat

log = logging.getLogger("sgmahjong.server")
RANKED_NAME = "Ranked"


async def run(server: Any) -> None:
    """Match the queue until cancelled (a failure is logged and tried again next time)."""
    settings = server.settings
    while True:
        await asyncio.sleep(settings.queue_interval_seconds)
        try:
            await match_once(server)
        except asyncio.CancelledError:
            raise
        except StorageUnavailable as exc:  # the database is restarting or unreachable: expected, no traceback
            log.warning("matchmaking: the store is unavailable (%s); trying again", exc)
        except Exception:
            log.exception("matchmaking: a round failed; trying again")


async def match_once(server: Any) -> int:
    """One round of matching; how many tables it opened."""
    store, settings = server.store, server.settings
    if store is None:
        return 0
    groups = store.match_queue(time.time(), settings.queue_window, settings.queue_widen_per_second,
                               settings.queue_stale_seconds, store.worker, settings.alt_window_days * 86400)
    for group in groups:
        await open_table(server, group)
    return len(groups)


async def open_table(server: Any, group: list[QueueEntry]) -> None:
    from ..tables import CreateTable

    settings, store = server.settings, server.store
    seats = list(group)
    random.SystemRandom().shuffle(seats)  # the seats (and so the first dealer) by lot
    table = server.create(CreateTable(name=RANKED_NAME, preset=settings.ranked_preset,
                                      rules={"rounds": settings.ranked_rounds},
                                      # no coaching from the rail; played to its end and rated even
                                      # when every player has left (the sweep would close it unrated)
                                      options={"spectator_chat": False, "unattended": True}))
    mark = server.commit_mark()
    async with table.lock:
        standings = store.standings([e.account_id for e in seats])
        for seat, e in enumerate(seats):
            table.seating.put(Seat(seat, "human", e.name, None, e.ticket_hash))
            store.link_seat_player(table.id, seat, e.player_id)
            s = standings.get(e.account_id)
            if s is not None:
                table.seat_ranks[seat] = {"rank": RANKS[s.rank].key, "rating": s.rating,
                                          "provisional": s.provisional}
        table.records.forget()
        store.mark_ranked(table.id, [e.account_id for e in seats])  # only the queue's matches are rated
        table.begin()
    await server.committed(table.id, mark)
    for seat, e in enumerate(seats):
        store.seat_queue(e.id, table.code, seat)
    server.ownership.created(table)
    log.info("matchmaking: table %s for %s", table.code, ", ".join(e.name for e in seats))

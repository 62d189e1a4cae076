"""The match flow around the tables: "Play vs bots" (a private table with three bots, started at once),
"Quick play" (join the public table waiting for players, else open one; when its countdown of
``quick_countdown_seconds`` from its opening runs out, bots fill the empty seats and the match
starts) and the rematch (everyone
seated agrees, then a new table with the same rules, options and seats starts; the old one stays
readable and tells its connections where the new one is)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from .cluster.ownership import TableElsewhere
from .protocol import BotLevel, ProtocolError
from .table.connections import Connection
from .table.seats import Seat, bot_seat, clean_name
from .table.table import Table
from .tables import CreateTable, TableServer


class PlayBots(BaseModel):
    """Body of ``POST /api/play``: a private table against three bots, started at once."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: Annotated[str, Field(min_length=1, max_length=100)]
    level: BotLevel | None = None
    preset: str = "default"
    rules: dict[str, Any] = Field(default_factory=dict)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: Annotated[int, Field(ge=0, lt=2**63)] | None = None  # test hook
    wall: Annotated[str, Field(max_length=2000)] | None = None  # test hook


class QuickPlay(BaseModel):
    """Body of ``POST /api/quick``."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: Annotated[str, Field(min_length=1, max_length=100)]


def _seat_answer(table: Table, seat: int, token: str) -> dict[str, Any]:
    return {"code": table.code, "url": f"/t/{table.code}", "seat": seat, "token": token}


async def play_vs_bots(server: TableServer, body: PlayBots, player_id: int | None = None) -> dict[str, Any]:
    """Open a private table, seat the player (``player_id``) at East, bots elsewhere, and start the
    match."""
    name = clean_name(body.name, server.settings.text_max_marks)
    table = server.create(CreateTable(
        name=f"{name} vs bots"[:40], preset=body.preset, rules=body.rules, options=body.options,
        private=True, seed=body.seed, wall=body.wall,
    ))
    async with table.lock:
        seat, token = table.join(name, 0, player_id, server.settings.text_max_marks)
        level = body.level or table.options.bot_level
        for s in (1, 2, 3):
            table.seating.put(bot_seat(s, level))
        table.begin()
    return _seat_answer(table, seat, token)


QUICK_NAME = "Quick play"  # the name of the tables quick play opens (and counts down)
QUICK_CANDIDATES = 20  # waiting tables quick play tries before it opens a new one


def arm_countdown(table: Table, opened: float, seconds: float) -> None:
    """Start a quick-play table's countdown (once per table on this worker: a table handed over from
    another worker is armed again from the moment it was opened)."""
    if table.starts_at is not None:
        return
    table.starts_at = opened + seconds
    table.spawn(_count_down(table))


async def _count_down(table: Table) -> None:
    assert table.starts_at is not None
    await asyncio.sleep(max(0.0, table.starts_at - time.time()))
    async with table.lock:
        if not table.closed and table.status == "lobby" and any(s.kind == "human" for s in table.seats):
            table.begin()  # bots fill the empty seats, hand 1 is dealt


async def _waiting(server: TableServer) -> AsyncIterator[Table]:
    """Public tables in their lobby with a human seated and a seat free, fewest free seats first, then
    the oldest: read from the store, so in a cluster a table served by another worker is found too
    (and handed over here to be joined)."""
    for row in server.store.waiting_tables(QUICK_CANDIDATES):
        try:
            table = await server.find(row.code)
        except TableElsewhere:  # not handed over in time: try the next
            continue
        if table is not None and not table.private and not table.closed and table.status == "lobby":
            if table.name == QUICK_NAME:
                arm_countdown(table, row.created, server.settings.quick_countdown_seconds)
            yield table


async def quick_play(server: TableServer, body: QuickPlay, player_id: int | None = None) -> dict[str, Any]:
    """Seat the player (``player_id``) at the public table waiting for players, else open one and
    wait there."""
    name = clean_name(body.name, server.settings.text_max_marks)
    async with server.quick_lock:
        async for table in _waiting(server):
            async with table.lock:
                try:
                    seat, token = table.join(name, None, player_id, server.settings.text_max_marks)
                except ProtocolError as exc:
                    if exc.code in ("name_taken", "seat_taken", "wrong_status", "already_seated"):
                        continue  # this one will not do: try the next, else open one
                    raise
            return _seat_answer(table, seat, token)
        table = server.create(CreateTable(name=QUICK_NAME))
        async with table.lock:
            seat, token = table.join(name, None, player_id, server.settings.text_max_marks)
        arm_countdown(table, time.time(), server.settings.quick_countdown_seconds)
        return {**_seat_answer(table, seat, token), "starts_in": server.settings.quick_countdown_seconds}


def rematch_vote(server: TableServer, table: Table, conn: Connection) -> None:
    """A seated player asks for a rematch of a finished match. When every human seat that is
    connected has asked (bots agree at once), a new table with the same rules, options and seats
    starts: each human seat's token opens it, and every connection is sent ``rematch`` with its code."""
    seat = table.require_seated(conn, "rematch")
    if table.status != "finished":
        raise ProtocolError("wrong_status", "a rematch is possible once the match is over", "rematch")
    if table.flow.rematch_code is not None:
        conn.push({"type": "rematch", "code": table.flow.rematch_code})
        return
    table.flow.rematch_votes.add(seat)
    humans = [s.seat for s in table.seats if s.kind == "human" and table.connected(s.seat)]
    if not all(h in table.flow.rematch_votes for h in humans):
        table.broadcast_table()
        return
    new = server.create(CreateTable(
        name=table.name, rules=table.rules.to_dict(), options=table.options.model_dump(),
        private=table.private,
    ))
    for s in table.seats:
        new.seating.put(Seat(s.seat, s.kind, s.name, s.bot_level, s.token_hash))
    for seat, player_id in table.store.seat_players(table.id).items():  # their hands reach their /me
        if new.seats[seat].kind == "human":
            new.store.link_seat_player(new.id, seat, player_id)
    club = table.store.table_club(table.id)
    if club is not None:  # a club's rematch is the club's too (its ledger counts it)
        table.store.add_club_table(club, new.id, time.time())
    new.begin()
    table.flow.rematch_code = new.code
    table.broadcast_table()
    for c in list(table.conns):
        c.push({"type": "rematch", "code": new.code})


def hand_results(table: Table) -> list[dict[str, Any]]:
    """Each ended hand of ``table``: who won (or a drawn hand), on whose discard, the tai and what each
    seat gained or paid in the hand (instant payments and the win) — public facts of the stored
    events only (the standings' detail)."""
    out: list[dict[str, Any]] = []
    for h in table.store.hands(table.id):
        if h.ended is None:
            continue
        amounts = [0, 0, 0, 0]
        entry: dict[str, Any] = {"number": h.number, "winner": None, "shooter": None, "self_drawn": False,
                                 "tai": 0, "drawn_game": False, "dealer": None, "prevailing": None}
        for e in table.store.events(table.id, h.number):
            kind = e.get("kind")
            if kind == "hand_start":
                entry["dealer"], entry["prevailing"] = e.get("dealer"), e.get("prevailing")
            elif kind == "payment" and isinstance(e.get("amounts"), list):
                amounts = [a + b for a, b in zip(amounts, e["amounts"], strict=True)]
            elif kind == "win":
                entry.update(winner=e.get("seat"), shooter=e.get("shooter"),
                             self_drawn=bool(e.get("self_drawn")), tai=e.get("tai", 0))
                if isinstance(e.get("payments"), list):
                    amounts = [a + b for a, b in zip(amounts, e["payments"], strict=True)]
            elif kind == "drawn_game":
                entry["drawn_game"] = True
        entry["amounts"] = amounts
        out.append(entry)
    return out

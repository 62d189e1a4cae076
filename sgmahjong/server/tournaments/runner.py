"""Running an event: the next round seated and its tables opened, a round's end noticed, the event
finished; and what an event's page shows, read from the store alone (docs/events.md).

A round begins when its organiser starts it or its start time comes (the first) or when every table of the
round before has ended (the next, by any worker's check: :meth:`~..store.Store.begin_round` lets one worker
only begin a round). Each entrant's seat is theirs (their session opens it from any device); an entrant
who is not there is played by a bot after the table's ``takeover_seconds``, and their seat counts as the event
says (``absent``). A duplicate round's hands are dealt from secrets made when the round begins, one a
hand, shared by every table of the round; their commitments are shown from then, the secrets once the
round has ended."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from ...rules import RuleSet
from ...tournament import EventRules, HandRecord, SeatResult, Table, deal_plan, seat_round, standings
from ...tournament.records import EventError
from ..protocol import ProtocolError
from ..store import StorageUnavailable, Store
from ..store.events_sql import FINISHED, OPEN, EventHandRow, EventRow, EventTableRow
from ..table import engine
from ..table.seats import Seat

log = logging.getLogger("sgmahjong.server")

ENDED = ("finished", "closed")  # a table of a round that will play no more (closed: its humans left)
MIN_ENTRANTS = 2


def rules_of(event: EventRow) -> EventRules:
    return EventRules(format=event.format, rounds=event.rounds, hands=event.hands,  # type: ignore[arg-type]
                      absent=event.absent)  # type: ignore[arg-type]


def table_rules(event: EventRow) -> dict[str, Any]:
    """The house-rule options of the event's tables besides its preset: a round is ``hands`` hands (0: a
    full match of the preset's rounds); in duplicate the deal passes every hand."""
    return {"match_hands": event.hands, "rotate_every_hand": event.format == "duplicate"}


def seatings(store: Store, tables: list[EventTableRow]) -> dict[int, list[Table]]:
    """Each round's tables as seated (entrant ids: players' ids as text), by round."""
    out: dict[int, list[Table]] = {}
    for t in tables:
        who = store.seat_players(t.table_id)
        seats = [str(who[s]) if s in who else None for s in range(4)]
        out.setdefault(t.round, []).append((seats[0], seats[1], seats[2], seats[3]))
    return out


def net_of(result: dict[str, Any]) -> list[int]:
    """What each seat won or paid in a hand: the win's payments and every instant payment."""
    net = [int(x) for x in result.get("payments") or (0, 0, 0, 0)]
    for pay in result.get("instant") or ():
        for s, amount in enumerate(pay.get("amounts") or ()):
            net[s] += int(amount)
    return net


def records(store: Store, event: EventRow) -> list[HandRecord]:
    """The event's ended hands as the standings read them."""
    tables = {t.table_id: t for t in store.event_tables(event.id)}
    who = {tid: store.seat_players(tid) for tid in tables}
    out = []
    for h in store.event_hands(event.id):
        t = tables[h.table_id]
        out.append(record(event, t, who[h.table_id], h))
    return out


def record(event: EventRow, t: EventTableRow, who: dict[int, int], h: EventHandRow) -> HandRecord:
    net = net_of(h.result)
    seats = []
    for s in range(4):
        entrant = str(who[s]) if s in who else None
        absent = entrant is not None and s in h.bot and s not in h.human
        seats.append(SeatResult(entrant, net[s], by_bot=absent))
    winner = h.result.get("winner")
    wall = h.wall_hash or f"{t.table_id}:{h.number}"
    return HandRecord(t.round, t.table_no, h.number - 1, wall, (seats[0], seats[1], seats[2], seats[3]),
                      winner if isinstance(winner, int) else None)


def event_standings(store: Store, event: EventRow) -> list[dict[str, Any]]:
    names = {str(e.player_id): e.name for e in store.event_entrants(event.id)}
    rows = standings(list(names), records(store, event), rules_of(event))
    return [{**r.as_dict(), "entrant": names.get(r.entrant, "?")} for r in rows]


class EventRunner:
    """Begins rounds and notices their end, for one server (each worker runs one)."""

    def __init__(self, server: Any) -> None:
        self.server = server

    @property
    def store(self) -> Store:
        store: Store = self.server.store
        return store

    async def begin_round(self, event: EventRow) -> int:
        """Seat and open the event's next round; its number. Raises ProtocolError when it cannot."""
        store = self.store
        entrants = store.event_entrants(event.id)
        number = event.round + 1
        if event.status == FINISHED or number > event.rounds:
            raise ProtocolError("event_over", "the event has played all its rounds")
        if len(entrants) < MIN_ENTRANTS:
            raise ProtocolError("event_entrants", f"an event needs at least {MIN_ENTRANTS} entrants",
                                params={"least": MIN_ENTRANTS})
        ids = [str(e.player_id) for e in entrants]
        names = {str(e.player_id): e.name for e in entrants}
        before = store.event_tables(event.id)
        if any(t.round == event.round and t.status not in ENDED for t in before):
            raise ProtocolError("event_round_playing", "the round before is still being played")
        history = [tables for _, tables in sorted(seatings(store, before).items())]
        standing = None
        if event.format != "round_robin" and event.round > 0:
            rows = standings(ids, records(store, event), rules_of(event))
            standing = [r.entrant for r in rows]
        try:
            seating = seat_round(ids, history, standing)
        except EventError as exc:
            raise ProtocolError("invalid", str(exc)) from None
        rules = RuleSet.preset(event.preset).with_options(**table_rules(event))
        walls: list[tuple[int, str, str]] = []
        if event.format == "duplicate":
            for k, (dealer, wind) in enumerate(deal_plan(event.hands)):
                secret = engine.fresh_secret()
                walls.append((k, secret, engine.wall_hash_of(rules, secret, dealer, wind)))
        opened = self._open_tables(event, number, seating, names, [w[1] for w in walls])
        if not store.begin_round(event.id, number, [(n, t.id) for n, t in enumerate(opened, start=1)], walls):
            for t in opened:  # another worker began this round first
                await self.server.archive(t, "closed")
            raise ProtocolError("event_round_playing", "the round has begun already")
        mark = self.server.commit_mark()
        for t in opened:
            async with t.lock:
                t.begin()
                t.schedule()
        await self.server.committed(None, mark)
        log.info("event %s: round %d with %d tables", event.code, number, len(opened))
        return number

    def _open_tables(self, event: EventRow, number: int, seating: list[Table], names: dict[str, str],
                     secrets: list[str]) -> list[Any]:
        from ..tables import CreateTable

        opened = []
        for n, seats in enumerate(seating, start=1):
            table = self.server.create(CreateTable(
                name=f"{event.name[:28]} · {number}.{n}", preset=event.preset, rules=table_rules(event),
                options={**event.options, "unattended": True}, private=True))
            table.hand_secrets = list(secrets)
            for seat, entrant in enumerate(seats):
                if entrant is None:
                    continue
                table.seating.put(Seat(seat, "human", names[entrant], None, None))
                self.store.link_seat_player(table.id, seat, int(entrant))
            table.records.forget()
            opened.append(table)
        return opened

    async def check(self, now: float | None = None) -> int:
        """Begin the first round of every event whose start time has come, and the next round of every
        event whose round has ended (or finish the event); how many rounds or events moved on. An event
        that cannot begin at its time (too few entrants) forgets it: its organiser starts it."""
        moved = 0
        for event in self.store.due_events(time.time() if now is None else now):
            try:
                await self.begin_round(event)
                moved += 1
            except ProtocolError as exc:
                if exc.code != "event_round_playing":  # not another worker's begun round
                    self.store.unschedule_event(event.id)
                log.info("event %s: not begun at its time (%s)", event.code, exc.message)
        for event in self.store.running_events():
            tables = [t for t in self.store.event_tables(event.id) if t.round == event.round]
            playing = [t for t in tables if t.status not in ENDED]
            for t in playing:  # in a cluster: a table whose worker died (or let it go) goes on here
                if t.code not in self.server.tables:
                    self.server.ownership.adopt(t.code)
            if not tables or playing:
                continue
            if event.round >= event.rounds:
                moved += self.store.end_event(event.id, event.round)
                continue
            try:
                await self.begin_round(event)
                moved += 1
            except ProtocolError as exc:
                log.info("event %s: round %d not begun (%s)", event.code, event.round + 1, exc.message)
        return moved

    async def run(self, interval: float) -> None:
        while True:
            await asyncio.sleep(interval)
            try:
                await self.check()
            except asyncio.CancelledError:
                raise
            except StorageUnavailable as exc:
                log.warning("events: the store is unavailable (%s); trying again", exc)
            except Exception:
                log.exception("events: a check failed; trying again")


__all__ = ["OPEN", "EventRunner", "event_standings", "records"]

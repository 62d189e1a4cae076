"""An event's standings are a function of its stored record (docs/events.md): for random events
(entrants, formats, seatings with bots filling short tables, hands with their payments, seats a bot
played for an absent entrant), the standings the server shows are the same computed twice, after the
store is closed and opened again (a restart), from a backup restored with ``sgmahjong backup`` /
``restore``'s own functions, and equal the pure core's standings of the same hands."""

from __future__ import annotations

import itertools
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from sgmahjong.commands.backup import backup_sqlite
from sgmahjong.commands.restore import restore_sqlite
from sgmahjong.server.store import Store, open_store
from sgmahjong.server.tournaments.runner import event_standings
from sgmahjong.tournament import EventRules, HandRecord, SeatResult, standings

FORMATS = ("swiss", "round_robin", "duplicate")


@st.composite
def events(draw: st.DrawFn) -> dict[str, Any]:
    """An event's record: entrants, and per round the tables (4 seats: an entrant's index or None for a
    bot), per hand each seat's net (summing to zero), the winner, and which entrants a bot played."""
    n = draw(st.integers(2, 9))
    fmt = draw(st.sampled_from(FORMATS))
    rounds, hands = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    played = []
    for _ in range(rounds):
        order = draw(st.permutations(range(n)))
        tables = [list(order[i:i + 4]) + [None] * (4 - len(order[i:i + 4])) for i in range(0, n, 4)]
        absent = set(draw(st.lists(st.sampled_from(range(n)), max_size=2)))
        results = []
        for _table in tables:
            per_hand = []
            for _hand in range(hands):
                winner = draw(st.one_of(st.none(), st.integers(0, 3)))
                nets = [0, 0, 0, 0]
                if winner is not None:
                    for s in range(4):
                        if s != winner:
                            paid = draw(st.sampled_from((0, 10, 20, 40, 80)))
                            nets[s] -= paid
                            nets[winner] += paid
                per_hand.append((winner, nets))
            results.append(per_hand)
        played.append({"tables": tables, "absent": absent, "results": results})
    return {"n": n, "format": fmt, "rounds": rounds, "hands": hands, "played": played}


def write(store: Store, ev: dict[str, Any]) -> tuple[int, list[str]]:
    """The event into ``store`` as the server records it; its id and the entrants' ids (as text)."""
    players = [store.new_guest(f"P{i}") for i in range(ev["n"])]
    event_id = store.create_event("ev", "Property cup", players[0], ev["format"], ev["rounds"], ev["hands"],
                                  "zero", "default", {}, 1.0)
    for i, p in enumerate(players):
        assert store.enter_event(event_id, p, 2.0 + i)
    codes = itertools.count()
    for r, rnd in enumerate(ev["played"], start=1):
        ids = []
        for seats in rnd["tables"]:
            table_id = store.create_table(f"t{next(codes)}", f"Property cup · {r}", True, {}, {})
            for seat, who in enumerate(seats):
                if who is not None:
                    store.link_seat_player(table_id, seat, players[who])
            ids.append(table_id)
        duplicate = ev["format"] == "duplicate"
        walls = [(k, f"{k:064x}", f"w{r}-{k}") for k in range(ev["hands"])] if duplicate else []
        assert store.begin_round(event_id, r, list(enumerate(ids, start=1)), walls)
        for table_id, seats, per_hand in zip(ids, rnd["tables"], rnd["results"], strict=True):
            for k, (winner, nets) in enumerate(per_hand, start=1):
                wall = f"w{r}-{k - 1}" if ev["format"] == "duplicate" else f"h{table_id}-{k}"
                store.add_hand(table_id, k, f"{k:064x}", wall, [])
                for seat, who in enumerate(seats):
                    source = "bot" if who is None or who in rnd["absent"] else "human"
                    store.add_action(table_id, k, seat + 1, seat, "pass", seat + 1, source, [], 0)
                store.end_hand(table_id, k, {"winner": winner, "payments": nets}, "between_hands")
            store.set_status(table_id, "finished")
    store.end_event(event_id, ev["rounds"])
    return event_id, [str(p) for p in players]


def expected(ev: dict[str, Any], ids: list[str], table_ids: list[list[int]]) -> list[tuple[str, float]]:
    """The pure core's standings of the same hands (no store): (entrant, score) in order."""
    records = []
    for r, (rnd, tables) in enumerate(zip(ev["played"], table_ids, strict=True), start=1):
        for no, (seats, per_hand, table_id) in enumerate(zip(rnd["tables"], rnd["results"], tables,
                                                             strict=True), start=1):
            for k, (winner, nets) in enumerate(per_hand):
                wall = f"w{r}-{k}" if ev["format"] == "duplicate" else f"h{table_id}-{k + 1}"
                results = tuple(SeatResult(None if who is None else ids[who], nets[s],
                                           by_bot=who is not None and who in rnd["absent"])
                                for s, who in enumerate(seats))
                records.append(HandRecord(r, no, k, wall, results, winner))  # type: ignore[arg-type]
    rules = EventRules(format=ev["format"], rounds=ev["rounds"], hands=ev["hands"], absent="zero")
    return [(row.entrant, float(row.score)) for row in standings(ids, records, rules)]


def shown(store: Store) -> list[tuple[str, float, int]]:
    event = store.event("ev")
    assert event is not None
    return [(row["entrant"], row["score"], row["rank"]) for row in event_standings(store, event)]


@settings(max_examples=25, deadline=None)
@given(events())
def test_standings_are_the_same_twice_after_a_restart_and_from_a_backup(ev: dict[str, Any]) -> None:
    with TemporaryDirectory() as tmp:
        path = Path(tmp) / "event.sqlite3"
        store = open_store(str(path))
        try:
            event_id, ids = write(store, ev)
            tables = store.event_tables(event_id)
            first, second = shown(store), shown(store)
            names = {e: f"P{i}" for i, e in enumerate(ids)}
            table_ids = [[t.table_id for t in tables if t.round == r] for r in range(1, ev["rounds"] + 1)]
        finally:
            store.close()
        assert first == second
        pure = expected(ev, ids, table_ids)
        assert [(name, score) for name, score, _rank in first] == [
            (names[e], round(s, 2)) for e, s in pure]
        store = open_store(str(path))  # a restart: the store opened again
        try:
            assert shown(store) == first
        finally:
            store.close()
        backup_sqlite(str(path), Path(tmp) / "backup.sqlite3")
        restored = Path(tmp) / "restored.sqlite3"
        restore_sqlite(Path(tmp) / "backup.sqlite3", str(restored), False)
        store = open_store(str(restored))
        try:
            assert shown(store) == first
        finally:
            store.close()

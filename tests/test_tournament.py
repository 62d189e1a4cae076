"""Events' pure parts (sgmahjong.tournament): seating, duplicate par, standings."""

from __future__ import annotations

import json
import random
from dataclasses import asdict
from fractions import Fraction
from itertools import combinations, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sgmahjong.tournament import (
    EventRules,
    HandRecord,
    SeatResult,
    Table,
    deal_plan,
    repeated_groups,
    seat_par,
    seat_round,
    standings,
)
from sgmahjong.tournament.records import EventError
from sgmahjong.tournament.seating import table_sizes


def _brute_min_repeats(people: list[str], history: list[list[Table]]) -> int:
    """The fewest repeated groups of any seating, by trying every order of the entrants."""
    sizes = table_sizes(len(people))
    best = len(sizes)
    for order in permutations(people):
        tables: list[Table] = []
        at = 0
        for size in sizes:
            seats = [*order[at:at + size], *([None] * (4 - size))]
            tables.append((seats[0], seats[1], seats[2], seats[3]))
            at += size
        best = min(best, repeated_groups(tables, history))
        if best == 0:
            break
    return best


def _random_round(rng: random.Random, people: list[str]) -> list[Table]:
    order = list(people)
    rng.shuffle(order)
    tables: list[Table] = []
    at = 0
    for size in table_sizes(len(people)):
        seats = [*order[at:at + size], *([None] * (4 - size))]
        tables.append((seats[0], seats[1], seats[2], seats[3]))
        at += size
    return tables


@settings(max_examples=40)
@given(n=st.integers(min_value=4, max_value=8), rounds=st.integers(min_value=1, max_value=5),
       seed=st.integers(min_value=0, max_value=10**6), swiss=st.booleans())
def test_swiss_never_repeats_a_group_while_a_seating_with_fewer_repeats_exists(
        n: int, rounds: int, seed: int, swiss: bool) -> None:
    rng = random.Random(seed)
    people = [f"p{i}" for i in range(n)]
    history = [_random_round(rng, people) for _ in range(rounds)]
    standing = rng.sample(people, n) if swiss else None
    tables = seat_round(people, history, standing)
    seated = [p for t in tables for p in t if p is not None]
    assert sorted(seated) == sorted(people)
    assert repeated_groups(tables, history) == _brute_min_repeats(people, history)


@pytest.mark.parametrize("n", [4, 5, 7, 8, 9, 12, 13, 16, 30, 64])
def test_every_entrant_has_one_seat_and_bots_fill_one_to_a_table(n: int) -> None:
    people = [f"p{i}" for i in range(n)]
    history: list[list[Table]] = []
    for _ in range(3):
        tables = seat_round(people, history, people)
        assert sorted(p for t in tables for p in t if p is not None) == sorted(people)
        bots = [sum(p is None for p in t) for t in tables]
        assert max(bots) - min(bots) <= 1 and sum(bots) == 4 * len(tables) - n
        history.append(tables)


def test_swiss_seats_close_standings_together_and_avoids_table_mates() -> None:
    people = [f"p{i}" for i in range(16)]
    first = seat_round(people, [], people)
    assert first[0] == ("p0", "p1", "p2", "p3")  # the top four at the top table
    second = seat_round(people, [first], people)
    _, = {len(t) for t in second}
    for t in second:  # nobody meets a first-round table-mate again
        for a, b in combinations([p for p in t if p is not None], 2):
            assert not any(a in f and b in f for f in first), (a, b)


def test_seat_round_refuses_what_it_cannot_seat() -> None:
    with pytest.raises(EventError):
        seat_round(["a", "a", "b", "c"])
    with pytest.raises(EventError):
        seat_round(["a", "b", "c", "d"], [], ["a", "b", "c"])
    with pytest.raises(EventError):
        seat_round([])


def test_a_duplicate_round_deals_each_seat_in_turn_whatever_happens() -> None:
    assert deal_plan(6) == [(0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (1, 1)]


def _hand(round_: int, table: int, hand: int, wall: str, people: Table, nets: tuple[int, ...],
          winner: int | None, bot: frozenset[str] = frozenset()) -> HandRecord:
    seats = tuple(SeatResult(p, n, by_bot=p in bot) for p, n in zip(people, nets, strict=True))
    return HandRecord(round_, table, hand, wall, (seats[0], seats[1], seats[2], seats[3]), winner)


def test_duplicate_scores_each_seat_against_the_same_seat_on_the_same_wall() -> None:
    a: Table = ("a1", "a2", "a3", "a4")
    b: Table = ("b1", "b2", "b3", "b4")
    records = [
        _hand(1, 1, 0, "w0", a, (24, -8, -8, -8), 0),   # East wins 24 at table 1
        _hand(1, 2, 0, "w0", b, (-16, 32, -8, -8), 1),  # ... loses 16 at table 2 on the same wall
    ]
    par = seat_par(records)
    assert par[(1, 0, 0)] == Fraction(4) and par[(1, 0, 1)] == Fraction(12)
    rows = {r.entrant: r for r in standings([*a, *b], records, EventRules(format="duplicate"))}
    assert rows["a1"].score == 20 and rows["b1"].score == -20
    assert rows["a2"].score == -20 and rows["b2"].score == 20
    assert rows["a3"].score == 0
    assert sum(r.score for r in rows.values()) == 0
    # in Swiss the same hands count as they were paid
    swiss = {r.entrant: r for r in standings([*a, *b], records, EventRules(format="swiss"))}
    assert swiss["b2"].score == 32 and swiss["a1"].score == 24


def test_tables_of_one_duplicate_hand_must_share_its_wall() -> None:
    a: Table = ("a1", "a2", "a3", "a4")
    b: Table = ("b1", "b2", "b3", "b4")
    records = [_hand(1, 1, 0, "w0", a, (0, 0, 0, 0), None), _hand(1, 2, 0, "other", b, (0, 0, 0, 0), None)]
    with pytest.raises(EventError, match="two different walls"):
        standings([*a, *b], records, EventRules(format="duplicate"))


def test_ties_are_broken_by_hands_won_then_best_round_then_entry_order() -> None:
    t: Table = ("a", "b", "c", "d")
    records = [
        _hand(1, 1, 0, "w", t, (8, -8, 0, 0), 0),
        _hand(1, 1, 1, "x", t, (-8, 8, 0, 0), 1),
        _hand(2, 1, 0, "y", t, (0, 8, -8, 0), 1),
        _hand(2, 1, 1, "z", t, (0, -8, 8, 0), 2),
    ]
    rows = standings(["d", "c", "b", "a"], records, EventRules())
    assert {r.entrant: r.score for r in rows} == {"a": 0, "b": 0, "c": 0, "d": 0}
    # b won twice; a and c once each with a best round of 0: c entered first; d never won
    assert [r.entrant for r in rows] == ["b", "c", "a", "d"]
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    u: Table = ("x", "y", "v", "z")
    records = [
        _hand(1, 1, 0, "w", u, (24, -8, -8, -8), 0),
        _hand(1, 1, 1, "w2", u, (-8, 24, -8, -8), 1),
        _hand(2, 1, 0, "w3", u, (-16, 8, 0, 8), 3),
        _hand(2, 1, 1, "w4", u, (0, -24, 8, 16), 3),
    ]
    rows = standings(["y", "x", "v", "z"], records, EventRules())
    by = {r.entrant: r for r in rows}
    assert by["x"].score == by["y"].score == 0 and by["x"].won == by["y"].won == 1
    assert by["x"].rounds == (16, -16) and by["y"].rounds == (16, -16)
    # the same best round too: entry order (y entered before x)
    assert [r.entrant for r in rows].index("y") < [r.entrant for r in rows].index("x")


def test_an_absent_entrants_seat_counts_as_the_event_says() -> None:
    t: Table = ("a", "b", "c", "d")
    records = [_hand(1, 1, 0, "w", t, (24, -8, -8, -8), 0, bot=frozenset({"a"}))]
    zero = {r.entrant: r for r in standings(list(t), records, EventRules(absent="zero"))}
    assert zero["a"].score == 0 and zero["a"].played == 0 and zero["a"].by_bot == 1 and zero["a"].won == 0
    bot = {r.entrant: r for r in standings(list(t), records, EventRules(absent="bot"))}
    assert bot["a"].score == 24


_results = st.lists(st.tuples(st.integers(1, 3), st.integers(0, 3), st.integers(0, 3),
                              st.integers(0, 3), st.integers(-64, 64), st.integers(0, 4), st.booleans()),
                    min_size=0, max_size=40)


@settings(max_examples=60)
@given(n=st.integers(min_value=2, max_value=12), results=_results, duplicate=st.booleans(),
       absent=st.sampled_from(["zero", "bot"]), seed=st.integers(0, 10**6))
def test_standings_are_the_same_twice_in_any_order_and_from_a_stored_copy(
        n: int, results: list[tuple[int, int, int, int, int, int, bool]], duplicate: bool, absent: str,
        seed: int) -> None:
    rng = random.Random(seed)
    people = [f"p{i}" for i in range(n)]
    tables: dict[tuple[int, int], Table] = {}
    records = []
    done: set[tuple[int, int, int]] = set()
    for round_, table, hand, winner, amount, bot_seat, drawn in results:
        if (round_, table, hand) in done:
            continue
        done.add((round_, table, hand))
        seats = tables.setdefault((round_, table), _random_round(rng, people)[0])
        nets = [0, 0, 0, 0] if drawn else [-amount if s != winner else 3 * amount for s in range(4)]
        bot = frozenset({seats[bot_seat]}) if bot_seat < 4 and seats[bot_seat] is not None else frozenset()
        records.append(_hand(round_, table, hand, f"wall-{round_}-{hand}", seats, tuple(nets),
                             None if drawn else winner, bot))
    rules = EventRules(format="duplicate" if duplicate else "swiss", absent=absent)  # type: ignore[arg-type]
    first = standings(people, records, rules)
    assert first == standings(people, records, rules)
    assert first == standings(people, list(reversed(records)), rules)
    stored = json.loads(json.dumps([asdict(r) for r in records]))  # what a restart or a restored backup reads
    again = [HandRecord(d["round"], d["table"], d["hand"], d["wall"],
                        tuple(SeatResult(**s) for s in d["seats"]), d["winner"])  # type: ignore[arg-type]
             for d in stored]
    assert first == standings(people, again, rules)
    assert sorted(r.entrant for r in first) == sorted(people)
    assert [r.rank for r in first] == list(range(1, n + 1))
    if duplicate and absent == "bot" and all(s.entrant is not None for r in records for s in r.seats):
        assert sum(r.score for r in first) == 0  # every seat is scored against its par

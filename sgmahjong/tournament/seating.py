"""Seating a round: who sits with whom.

A seating is judged by three things, in this order (lower is better):

1. how many tables seat a group of entrants that already sat together at one table (a repeated group);
2. how many times pairs at the same table have met before (repeat table-mates);
3. for Swiss, how far apart in the standings the entrants of each table are (so close standings meet).

Up to ``EXACT_UP_TO`` entrants every seating is tried and the best is taken; above that, a local search
(swaps of two entrants between tables up to ``SWAP_REACH`` apart, kept when they improve, repeated
while one does) starts from the standings cut into tables greedily (each seat to the first of the next
``GREEDY_WINDOW`` entrants who has met the table least). Ties go to the first seating found, so the
result depends only on the arguments."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

from sgmahjong.tournament.records import EventError, Table

EXACT_UP_TO = 12
GREEDY_WINDOW = 12  # how far down the standings a table looks for a new table-mate
SWAP_REACH = 4  # the local search swaps entrants between tables at most this many tables apart
MAX_ENTRANTS = 512

Cost = tuple[int, int, int]


def table_sizes(n: int) -> list[int]:
    """How many entrants sit at each table (the rest of its four seats are bots): bots one to a table,
    from the last table up."""
    if not 1 <= n <= MAX_ENTRANTS:
        raise EventError(f"an event seats 1 to {MAX_ENTRANTS} entrants")
    tables = -(-n // 4)
    sizes = [4] * tables
    for k in range(4 * tables - n):
        sizes[tables - 1 - k % tables] -= 1
    return sizes


def groups_of(history: Sequence[Sequence[Table]]) -> tuple[set[frozenset[str]], Counter[frozenset[str]]]:
    """The groups of two or more entrants that sat at one table, and how often each pair met."""
    seen: set[frozenset[str]] = set()
    met: Counter[frozenset[str]] = Counter()
    for round_tables in history:
        for table in round_tables:
            people = [p for p in table if p is not None]
            if len(people) >= 2:
                seen.add(frozenset(people))
            for a, b in combinations(people, 2):
                met[frozenset((a, b))] += 1
    return seen, met


def repeated_groups(tables: Sequence[Table], history: Sequence[Sequence[Table]]) -> int:
    """How many of ``tables`` seat a group of entrants that already sat together in ``history``."""
    seen, _ = groups_of(history)
    return sum(1 for t in tables if len([p for p in t if p is not None]) >= 2
               and frozenset(p for p in t if p is not None) in seen)


class _Judge:
    def __init__(self, rank: dict[str, int], history: Sequence[Sequence[Table]], by_standing: bool) -> None:
        self.rank = rank
        self.seen, self.met = groups_of(history)
        self.by_standing = by_standing

    def group(self, group: Sequence[str]) -> Cost:
        repeated = int(len(group) >= 2 and frozenset(group) in self.seen)
        pairs = sum(self.met[frozenset((a, b))] for a, b in combinations(group, 2))
        ranks = [self.rank[p] for p in group]
        spread = max(ranks) - min(ranks) if self.by_standing and ranks else 0
        return repeated, pairs, spread

    def seating(self, groups: Sequence[Sequence[str]]) -> Cost:
        costs = [self.group(g) for g in groups]
        return sum(c[0] for c in costs), sum(c[1] for c in costs), sum(c[2] for c in costs)


def _partitions(people: list[str], sizes: list[int]) -> Iterator[list[list[str]]]:
    """Every way to cut ``people`` into groups of ``sizes`` (groups unordered), each once."""
    if not people:
        yield []
        return
    first, rest = people[0], people[1:]
    for size in sorted(set(sizes), reverse=True):
        left = list(sizes)
        left.remove(size)
        for mates in combinations(rest, size - 1):
            others = [p for p in rest if p not in mates]
            for tail in _partitions(others, left):
                yield [[first, *mates], *tail]


def _exact(people: list[str], sizes: list[int], judge: _Judge) -> list[list[str]]:
    best: list[list[str]] | None = None
    best_cost: Cost | None = None
    for groups in _partitions(people, sizes):
        cost = judge.seating(groups)
        if best_cost is None or cost < best_cost:
            best, best_cost = groups, cost
    assert best is not None
    return best


def _greedy(people: list[str], sizes: list[int], judge: _Judge) -> list[list[str]]:
    """Tables filled in standing order, each seat taken by the first of the next few entrants who has
    met the table least."""
    left = list(people)
    groups: list[list[str]] = []
    for size in sizes:
        group = [left.pop(0)]
        while len(group) < size:
            window = left[:GREEDY_WINDOW]
            pick = min(range(len(window)),
                       key=lambda i: (sum(judge.met[frozenset((window[i], p))] for p in group), i))
            group.append(left.pop(pick))
        groups.append(group)
    return groups


def _local(people: list[str], sizes: list[int], judge: _Judge) -> list[list[str]]:
    groups = _greedy(people, sizes, judge)
    costs = [judge.group(g) for g in groups]
    improved = True
    rounds = 0
    while improved and rounds < 8:
        improved, rounds = False, rounds + 1
        for i in range(len(groups)):
            for j in range(i + 1, min(len(groups), i + 1 + SWAP_REACH)):
                before = _add(costs[i], costs[j])
                for a in range(len(groups[i])):
                    for b in range(len(groups[j])):
                        gi, gj = list(groups[i]), list(groups[j])
                        gi[a], gj[b] = gj[b], gi[a]
                        ci, cj = judge.group(gi), judge.group(gj)
                        if _add(ci, cj) < before:
                            groups[i], groups[j], costs[i], costs[j] = gi, gj, ci, cj
                            before, improved = _add(ci, cj), True
    return groups


def _add(a: Cost, b: Cost) -> Cost:
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]


def seat_round(entrants: Sequence[str], history: Sequence[Sequence[Table]] = (),
               standing: Sequence[str] | None = None) -> list[Table]:
    """The tables of the next round, top table first.

    ``entrants``: everyone in the event, in entry order (an absent entrant keeps a seat: a bot plays it).
    ``history``: the tables of the rounds before. ``standing``: the entrants from first to last in the
    standings (Swiss); None seats without regard to standings (round robin, a first round).
    Within a table, entrants sit from East in standing order; bots take the last seats."""
    people = list(entrants)
    if len(set(people)) != len(people):
        raise EventError("an entrant is listed twice")
    order = list(standing) if standing is not None else people
    if sorted(order) != sorted(people):
        raise EventError("the standings must list every entrant once")
    rank = {p: i for i, p in enumerate(order)}
    judge = _Judge(rank, history, by_standing=standing is not None)
    sizes = table_sizes(len(people))
    ordered = sorted(people, key=rank.__getitem__)
    groups = (_exact if len(people) <= EXACT_UP_TO else _local)(ordered, sizes, judge)
    groups = sorted((sorted(g, key=rank.__getitem__) for g in groups),
                    key=lambda g: (sum(rank[p] for p in g) / len(g), rank[g[0]]))
    tables: list[Table] = []
    for g in groups:
        seats: list[str | None] = [*g, *([None] * (4 - len(g)))]
        tables.append((seats[0], seats[1], seats[2], seats[3]))
    return tables

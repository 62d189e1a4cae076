"""The standings of an event, from its stored hands alone.

Score: the points each entrant won and paid (Swiss, round robin), or in duplicate the difference between
what they made and the par of their seat on that wall (duplicate.seat_par). A seat a bot played for an
absent entrant counts as ``EventRules.absent`` says. Ties are broken, in order, by more hands won, then the
better best round, then entry order (docs/events.md)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from sgmahjong.tournament.duplicate import seat_par
from sgmahjong.tournament.records import EventError, EventRules, HandRecord


@dataclass(frozen=True)
class Row:
    """One entrant's line of the standings."""

    rank: int
    entrant: str
    score: Fraction
    played: int
    won: int
    by_bot: int
    rounds: tuple[Fraction, ...] = field(default=())

    def as_dict(self) -> dict[str, Any]:
        return {"rank": self.rank, "entrant": self.entrant, "score": round(float(self.score), 2),
                "played": self.played, "won": self.won, "by_bot": self.by_bot,
                "rounds": [round(float(x), 2) for x in self.rounds]}


def standings(entrants: Sequence[str], records: Iterable[HandRecord], rules: EventRules) -> list[Row]:
    """Every entrant's row, first place first. The order of ``records`` does not matter."""
    hands = sorted(records, key=lambda r: (r.round, r.table, r.hand))
    entry = {p: i for i, p in enumerate(entrants)}
    if len(entry) != len(entrants):
        raise EventError("an entrant is listed twice")
    par = seat_par(hands) if rules.format == "duplicate" else {}
    score: dict[str, Fraction] = defaultdict(Fraction)
    by_round: dict[str, dict[int, Fraction]] = defaultdict(lambda: defaultdict(Fraction))
    played: dict[str, int] = defaultdict(int)
    won: dict[str, int] = defaultdict(int)
    by_bot: dict[str, int] = defaultdict(int)
    for r in hands:
        for seat, s in enumerate(r.seats):
            if s.entrant is None:
                continue
            if s.entrant not in entry:
                raise EventError(f"a hand names {s.entrant!r}, who is not an entrant")
            value = Fraction(s.net) - par.get((r.round, r.hand, seat), Fraction(0))
            if s.by_bot:
                by_bot[s.entrant] += 1
                if rules.absent == "zero":
                    value = Fraction(0)
            else:
                played[s.entrant] += 1
                won[s.entrant] += int(r.winner == seat)
            score[s.entrant] += value
            by_round[s.entrant][r.round] += value
    rounds = sorted({r.round for r in hands})

    def key(p: str) -> tuple[Fraction, int, Fraction, int]:
        best = max((by_round[p][k] for k in rounds), default=Fraction(0))
        return -score[p], -won[p], -best, entry[p]

    return [Row(rank=i + 1, entrant=p, score=score[p], played=played[p], won=won[p], by_bot=by_bot[p],
                rounds=tuple(by_round[p][k] for k in rounds))
            for i, p in enumerate(sorted(entrants, key=key))]

"""The rank ladder and the rating, pure (no I/O): what one finished ranked match does to each of its
four players (docs/accounts.md, "Ratings and ranks").

- **Rating**: OpenSkill's Plackett-Luce model (the ``openskill`` package) from the match's placings,
  ties allowed; a player's skill is ``mu`` with uncertainty ``sigma``, and the rating shown is
  ``1500 + 40 * (mu - 3 * sigma)`` (a cautious estimate: it rises as the uncertainty shrinks).
- **Rank**: five ranks, 新手 Novice to 雀圣 Master. Each placing gives rank points (the table
  :data:`RANKS`; players tied share the points of the places they fill). Reaching a rank's target
  promotes (starting the next rank at half its target); falling below 0 demotes (to half the lower
  rank's target). Novice never loses points.
- **Provisional**: a player's first :data:`PROVISIONAL` matches lose no points and never demote.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

from openskill.models import PlackettLuce

PROVISIONAL = 5  # matches before a player's rank can fall
BASE, SCALE = 1500, 40  # the rating shown: BASE + SCALE * (mu - 3 sigma)


@dataclass(frozen=True)
class Rank:
    key: str  # stable name (stored, and the strings' key)
    zh: str
    en: str
    target: int | None  # points that promote to the next rank (None: the top)
    points: tuple[int, int, int, int]  # for 1st, 2nd, 3rd, 4th


RANKS: tuple[Rank, ...] = (
    Rank("novice", "新手", "Novice", 100, (40, 20, 0, 0)),
    Rank("adept", "雀士", "Adept", 200, (40, 20, -10, -30)),
    Rank("expert", "雀杰", "Expert", 300, (45, 20, -15, -45)),
    Rank("elite", "雀豪", "Elite", 400, (50, 20, -20, -60)),
    Rank("master", "雀圣", "Master", None, (50, 20, -25, -75)),
)
MODEL = PlackettLuce()


@dataclass(frozen=True)
class Standing:
    """A player's rating and rank (a new player: :meth:`new`)."""

    mu: float
    sigma: float
    matches: int = 0
    rank: int = 0  # index in RANKS
    points: int = 0

    @classmethod
    def new(cls) -> Standing:
        fresh = MODEL.rating()
        return cls(float(fresh.mu), float(fresh.sigma))

    @property
    def rating(self) -> int:
        return round(BASE + SCALE * (self.mu - 3 * self.sigma))

    @property
    def provisional(self) -> bool:
        return self.matches < PROVISIONAL

    def to_json(self) -> dict[str, object]:
        r = RANKS[self.rank]
        return {"rating": self.rating, "rank": r.key, "rank_zh": r.zh, "rank_en": r.en, "points": self.points,
                "target": r.target, "matches": self.matches, "provisional": self.provisional}


def placings(scores: list[int], leavers: list[int] | tuple[int, ...] = ()) -> list[int]:
    """Each seat's place (1 = best) by final score; equal scores share the better place. ``leavers``
    (seats a bot finished for) are placed last, after everyone who stayed, whatever their score."""
    stayed = [i for i in range(len(scores)) if i not in leavers]
    return [1 + sum(1 for j in stayed if scores[j] > scores[i]) if i in stayed else len(stayed) + 1
            for i in range(len(scores))]


def rank_points(rank: Rank, places: list[int], seat: int) -> int:
    """The rank points of ``seat``'s place; tied players share the points of the places they fill."""
    place = places[seat]
    tied = places.count(place)
    return round(sum(rank.points[place - 1 + i] for i in range(tied)) / tied)


def climb(s: Standing, gained: int, protected: bool = True) -> Standing:
    """Apply ``gained`` rank points: promotion at the target, demotion below 0 (never provisional,
    never from Novice; a provisional player or a Novice loses no points). A player who abandons is
    not ``protected``: they lose their points at any rank, down to 0 of Novice."""
    if gained < 0 and protected and (s.provisional or s.rank == 0):
        gained = 0
    if not protected and s.rank == 0:
        return replace(s, points=max(0, s.points + gained))
    points, rank = s.points + gained, s.rank
    target = RANKS[rank].target
    if target is not None and points >= target:
        rank += 1
        points = (RANKS[rank].target or target) // 2
    elif points < 0:
        rank -= 1
        points = (RANKS[rank].target or 0) // 2
    return replace(s, rank=rank, points=points)


def leave_penalty(rank: Rank, leave_points: int) -> int:
    """The rank points a player who abandons loses: their rank's 4th place, and at least
    ``leave_points`` (so a Novice, whose 4th place costs nothing, loses too)."""
    return min(rank.points[3], -leave_points)


def rate(standings: list[Standing], places: list[int], left: list[bool] | None = None,
         leave_points: int = 0) -> list[Standing]:
    """Every player's standing after a match they placed in as ``places`` (1 = first; ties equal).
    A player who ``left`` is placed last and never gains: they lose :func:`leave_penalty`, with no
    protection of rank or of their first matches."""
    left = left or [False] * len(standings)
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in standings]
    rated = MODEL.rate(teams, ranks=[float(p) for p in places])
    out = []
    for i, (s, [r]) in enumerate(zip(standings, rated, strict=True)):
        moved = replace(s, mu=float(r.mu), sigma=float(r.sigma))
        if left[i]:
            climbed = climb(moved, leave_penalty(RANKS[s.rank], leave_points), protected=False)
        else:
            climbed = climb(moved, rank_points(RANKS[s.rank], places, i))
        out.append(replace(climbed, matches=s.matches + 1))
    return out


def abandon(s: Standing, leave_points: int) -> Standing:
    """A player who never came to a ranked match (unrated for everyone): the penalty of leaving, with
    no change of rating."""
    return climb(s, leave_penalty(RANKS[s.rank], leave_points), protected=False)


def settle(standings: list[Standing], record: MatchRecord,
           leave_points: int) -> tuple[list[Standing], list[int]]:
    """What one ranked match (its :class:`MatchRecord`) does to its four players' standings, and their
    places (all 0 when it is unrated: a seat whose player never played; only they lose points)."""
    if any(record.absent):
        return [abandon(s, leave_points) if gone else s
                for s, gone in zip(standings, record.absent, strict=True)], [0] * 4
    places = placings(list(record.scores), [i for i, gone in enumerate(record.left) if gone])
    return rate(standings, places, list(record.left), leave_points), places


@dataclass(frozen=True)
class MatchRecord:
    """What a ranked match is rated from (stored with it, so every rating can be computed again):
    each seat's account, final score, whether its player left before the end, and whether it never
    played at all."""

    accounts: tuple[int, ...]
    scores: tuple[int, ...]
    left: tuple[bool, ...]
    absent: tuple[bool, ...]

    def to_json(self) -> dict[str, object]:
        return {"accounts": list(self.accounts), "scores": list(self.scores), "left": list(self.left),
                "absent": list(self.absent)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatchRecord:
        return cls(tuple(int(v) for v in data["accounts"]), tuple(int(v) for v in data["scores"]),
                   tuple(bool(v) for v in data["left"]), tuple(bool(v) for v in data["absent"]))


def season_of(when: float, months: int) -> str:
    """The season of a moment (UTC): seasons are ``months`` long from January (``YYYY-MM`` of the
    season's first month)."""
    t = time.gmtime(when)
    first = (t.tm_mon - 1) // months * months + 1
    return f"{t.tm_year:04d}-{first:02d}"

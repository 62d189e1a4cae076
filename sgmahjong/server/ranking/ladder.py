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


def climb(s: Standing, gained: int) -> Standing:
    """Apply ``gained`` rank points: promotion at the target, demotion below 0 (never provisional,
    never from Novice; a provisional player or a Novice loses no points)."""
    if gained < 0 and (s.provisional or s.rank == 0):
        gained = 0
    points, rank = s.points + gained, s.rank
    target = RANKS[rank].target
    if target is not None and points >= target:
        rank += 1
        points = (RANKS[rank].target or target) // 2
    elif points < 0:
        rank -= 1
        points = (RANKS[rank].target or 0) // 2
    return replace(s, rank=rank, points=points)


def rate(standings: list[Standing], places: list[int]) -> list[Standing]:
    """Every player's standing after a match they placed in as ``places`` (1 = first; ties equal)."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in standings]
    rated = MODEL.rate(teams, ranks=[float(p) for p in places])
    out = []
    for i, (s, [r]) in enumerate(zip(standings, rated, strict=True)):
        moved = replace(s, mu=float(r.mu), sigma=float(r.sigma))
        out.append(replace(climb(moved, rank_points(RANKS[s.rank], places, i)), matches=s.matches + 1))
    return out


def season_of(when: float, months: int) -> str:
    """The season of a moment (UTC): seasons are ``months`` long from January (``YYYY-MM`` of the
    season's first month)."""
    t = time.gmtime(when)
    first = (t.tm_mon - 1) // months * months + 1
    return f"{t.tm_year:04d}-{first:02d}"

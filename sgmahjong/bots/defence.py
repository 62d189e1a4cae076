"""Defence for the ``strong`` level: how likely each opponent is to be waiting, what it would cost to
deal into them, and how dangerous each tile is — read only from public information (exposed sets,
discard pools, bonus tiles, tiles left) — with the 包 and fresh-tile (生牌) liabilities of RULES.md §5.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..rules import RuleSet
from .perception import Perception, SeatSeen

DRAGONS = (31, 32, 33)
WINDS = (27, 28, 29, 30)


@dataclass(slots=True)
class Threat:
    """One opponent as the defender sees them."""

    seat: int
    sets: int  # exposed sets (concealed kongs included)
    tenpai: float  # chance they are waiting
    units: float  # estimated per-loser value of their hand
    safe: set[int]  # tiles they cannot win on right now (sacred / passed discards)
    old_discards: set[int]
    flush_suit: int  # 0-2 when their exposed sets all lie in one suit (and honours), else -1
    flush_sets: int  # how many sets of that suit they show
    dragon_sets: int
    wind_sets: int


def _exposed(s: SeatSeen) -> list[tuple[str, int, bool]]:
    return s.melds


def read_threats(p: Perception, rules: RuleSet) -> list[Threat]:
    """Assess the three opponents."""
    out: list[Threat] = []
    for s in p.seats:
        if s.seat == p.seat:
            continue
        melds = _exposed(s)
        k = len(melds)
        turns = len(s.discards)
        tenpai = min(0.92, 0.035 * turns + 0.17 * k)
        if k >= 4:
            tenpai = 0.95
        wind_index = (s.seat - p.dealer) % 4
        value = {31: 1, 32: 1, 33: 1}
        value[27 + wind_index] = value.get(27 + wind_index, 0) + 1
        value[27 + p.prevailing] = value.get(27 + p.prevailing, 0) + 1
        tai = 0.0
        dragon_sets = 0
        wind_sets = 0
        suits: set[int] = set()
        honour_sets = 0
        for kind, t, _ in melds:
            if t >= 27:
                honour_sets += 1
                if kind != "chow":
                    tai += value.get(t, 0)
                    if t in DRAGONS:
                        dragon_sets += 1
                    else:
                        wind_sets += 1
            else:
                suits.add(t // 9)
        for b in s.bonus:
            if b >= 42 or (b - 34) % 4 == wind_index:
                tai += 1
        flush_suit = -1
        flush_sets = 0
        if len(suits) == 1 and k >= 2:
            flush_suit = next(iter(suits))
            flush_sets = sum(1 for _, t, _ in melds if t < 27)
            tai += 2 if honour_sets else 3
            tenpai = min(0.95, tenpai + 0.1)
        if k >= 2 and all(kind != "chow" for kind, _, _ in melds):
            tai += 1.5
        est = max(float(rules.min_tai), tai) + 0.3
        units = 2.0 ** (min(est, rules.limit) - 1)
        safe = _recent_safe(p, s.seat)
        out.append(Threat(s.seat, k, tenpai, units, safe, set(s.discards), flush_suit, flush_sets,
                          dragon_sets, wind_sets))
    return out


def _recent_safe(p: Perception, opp: int) -> set[int]:
    """Tiles discarded since ``opp``'s last discard (theirs included): they passed on them."""
    safe: set[int] = set()
    seats = p.seats
    if seats[opp].discards:
        safe.add(seats[opp].discards[-1])
    s = (opp + 1) % 4
    while s != p.seat:
        if seats[s].discards:
            safe.add(seats[s].discards[-1])
        s = (s + 1) % 4
    return safe


def tile_danger(p: Perception, th: Threat, t: int) -> float:
    """Chance that ``t`` is a winning tile for a waiting opponent ``th``."""
    if t in th.safe:
        return 0.0
    vis = p.visible[t]
    if t >= 27:
        d = (0.07, 0.06, 0.035, 0.004, 0.0)[min(vis, 4)]
    else:
        r = t % 9
        d = 0.055 if r in (0, 8) else (0.075 if r in (1, 7) else 0.095)
        if vis >= 3:
            d *= 0.35
        if t in th.old_discards:
            d *= 0.4
        else:
            for k in (t - 3, t + 3):
                if 0 <= k < 27 and k // 9 == t // 9 and k in th.old_discards:
                    d *= 0.75
                    break
    if th.flush_suit >= 0:
        if t >= 27:
            d *= 1.4
        elif t // 9 == th.flush_suit:
            d *= 2.5
        else:
            d *= 0.1
    return d


def is_dangerous(p: Perception, th: Threat, late_wall: int) -> bool:
    """Whether to defend against ``th``: two or more exposed sets late in the hand, three or more
    sets, or flush / dragon signs."""
    if th.sets >= 3 or th.flush_sets >= 2 or th.dragon_sets >= 2:
        return True
    return th.sets >= 2 and p.wall_remaining < late_wall


Chance = Callable[[Threat, int], float]  # the chance that a threat can win on a tile


def deal_in_loss(th: Threat, rules: RuleSet) -> float:
    """What dealing into ``th``'s estimated hand costs the discarder, in per-loser units."""
    return (4.0 if rules.payout == "shooter_pays" else 2.0) * th.units


def discard_cost(p: Perception, threats: list[Threat], t: int, rules: RuleSet,
                 deal_in: frozenset[int] | None = None, chance: Chance | None = None) -> float:
    """Expected payment units lost by discarding ``t``: dealing in (into the seats of ``deal_in``;
    all threats if None) and the 包 liabilities (third dragon, fourth wind, fresh tiles late).
    ``chance`` gives the chance that a threat can win on the tile (None: its chance of waiting times
    :func:`tile_danger`)."""
    fresh_late = rules.bao_fresh and p.wall_remaining < rules.bao_fresh_tiles and p.in_pools[t] == 0
    cost = 0.0
    for th in threats:
        if deal_in is None or th.seat in deal_in:
            d = tile_danger(p, th, t) if chance is None else chance(th, t)
            waiting = th.tenpai if chance is None else 1.0  # a learned chance holds the chance of waiting
            loss = deal_in_loss(th, rules)
            if fresh_late or (rules.bao_flush and th.flush_sets >= 3 and t < 27 and t // 9 == th.flush_suit):
                loss *= 2.0  # paying for all three
            if fresh_late:
                d *= 1.5
            cost += waiting * d * loss
        # 包: feeding the third dragon set or the fourth wind set
        limit_units = 2.0 ** (rules.limit - 1)
        if rules.bao_dragons and th.dragon_sets >= 2 and t in DRAGONS and p.visible[t] <= 2 \
                and t not in th.safe:
            cost += 0.5 * 6.0 * limit_units
        if rules.bao_winds and th.wind_sets >= 3 and t in WINDS and p.visible[t] <= 2 and t not in th.safe:
            cost += 0.5 * 6.0 * limit_units
    if rules.bao_kong and p.wall_remaining < rules.bao_kong_tiles and p.in_pools[t] == 0 \
            and p.visible[t] <= 1:
        cost += 0.15 * 3.0
    return cost

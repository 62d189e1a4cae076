"""Hand-value planning for the ``strong`` level: which scoring plans a hand can still reach, how far
each is, and what it would be worth.

A *plan* is a scoring route of RULES.md §4 that the bot can measure with the distance arithmetic of
:mod:`efficiency`: any hand (value from bonus tiles and honour triplets), a pong of one value honour,
the sequence hand (平胡), the triplets hand (碰碰胡), a half or full flush, thirteen wonders. Its tai
is an estimate of the minimum the finished hand scores; plans under ``min_tai`` are worth nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..errors import SgMahjongError
from ..hand import Hand
from ..melds import Meld, MeldKind
from ..rules import RuleSet
from ..scoring import WinContext, score
from ..tiles import Tile
from . import efficiency as ef
from .perception import Perception
from .tactics import acceptance, discard_distances, fast_waits

DRAGON_TILES = (31, 32, 33)
WIND_TILES = (27, 28, 29, 30)


@dataclass(slots=True)
class Plan:
    """One scoring route. ``remove``: concealed tiles the plan sets aside as a set it counts on
    (a value-honour pair it means to pong), with ``extra_sets`` and ``extra_cost`` tiles to finish it."""

    name: str
    mode: int
    tai: float
    usable: Callable[[int], bool] | None = None
    remove: tuple[int, ...] = ()
    extra_sets: int = 0
    extra_cost: float = 0.0
    forbid: int = -1  # a discard of this tile breaks the plan


@dataclass(slots=True)
class Context:
    """Public facts about the bot's seat that plans need."""

    rules: RuleSet
    seat_wind: int  # 27-30
    prevailing_wind: int  # 27-30
    honour_value: dict[int, int]  # value honour tile -> tai of its pong
    bonus_tai: int  # tai already owned from flowers and animals
    has_bonus: bool
    meld_kinds: list[str]
    meld_tiles: list[int]
    locked_tai: int  # value-honour sets already made
    melds: tuple[Meld, ...] = ()
    bonus: tuple[Tile, ...] = ()

    @property
    def n_melds(self) -> int:
        return len(self.meld_kinds)


def seat_context(p: Perception, rules: RuleSet) -> Context:
    wind_index = (p.seat - p.dealer) % 4
    seat_wind = 27 + wind_index
    prevailing = 27 + p.prevailing
    value: dict[int, int] = {t: 1 for t in DRAGON_TILES}
    value[seat_wind] = value.get(seat_wind, 0) + 1
    value[prevailing] = value.get(prevailing, 0) + 1
    bonus = p.me.bonus
    animals = sum(1 for b in bonus if b >= 42)
    tai = animals + (1 if animals == 4 else 0)
    own_flowers = sum(1 for b in bonus if 34 <= b < 42 and (b - 34) % 4 == wind_index)
    tai += own_flowers
    for lo in (34, 38):
        if all(any(b == lo + k for b in bonus) for k in range(4)):
            tai += 1
    kinds = [k for k, _, _ in p.me.melds]
    tiles = [t for _, t, _ in p.me.melds]
    locked = sum(value.get(t, 0) for k, t in zip(kinds, tiles, strict=True) if k != "chow")
    melds = tuple(Meld(MeldKind(k), Tile(t), c and k == "kong") for k, t, c in p.me.melds)
    return Context(rules, seat_wind, prevailing, value, tai, bool(bonus), kinds, tiles, locked, melds,
                   tuple(bonus))


def pay_units(tai: float, rules: RuleSet) -> float:
    """What a win of ``tai`` is worth per loser, in base units (0 under the minimum)."""
    if tai < rules.min_tai:
        return 0.0
    t = min(tai, rules.limit)
    return float(2.0 ** (t - 1))


def _suited_or_plain_wind(ctx: Context) -> Callable[[int], bool]:
    value = ctx.honour_value

    def usable(t: int) -> bool:
        return t < 27 or (t < 31 and t not in value)

    return usable


def _in_suit(lo: int, honours: bool) -> Callable[[int], bool]:
    hi = lo + 9

    def usable(t: int) -> bool:
        return lo <= t < hi or (honours and t >= 27)

    return usable


def plans(counts: list[int], ctx: Context, live: Callable[[int], int]) -> list[Plan]:
    """The plans still open to a hand (``counts``: concealed tiles, 13 or 14 equivalent)."""
    out: list[Plan] = []
    kinds = ctx.meld_kinds
    base = ctx.bonus_tai + ctx.locked_tai
    value = ctx.honour_value
    concealed_value = sum(v for t, v in value.items() if counts[t] >= 3)
    out.append(Plan("any", ef.ALL, base + concealed_value))
    for t, v in value.items():
        c = counts[t]
        if c == 2 and live(t) > 0:
            out.append(Plan(f"pong {t}", ef.ALL, base + concealed_value + v, remove=(t, t), extra_sets=1,
                            extra_cost=1.0 if live(t) >= 2 else 1.6, forbid=t))
    if all(k == "chow" for k in kinds):
        tai = (1 + ctx.bonus_tai) if ctx.has_bonus else 4
        out.append(Plan("ping_hu", ef.CHOWS, tai, usable=_suited_or_plain_wind(ctx)))
    if PONG_PONG_PLAN and all(k != "chow" for k in kinds):
        pairs = sum(0.5 * v for t, v in value.items() if counts[t] == 2)
        out.append(Plan("pong_pong", ef.PONGS, base + concealed_value + pairs + 2))
    total_honours = sum(counts[27:34]) + sum(1 for t in ctx.meld_tiles if t >= 27)
    for s in range(3 if FLUSH_PLANS else 0):
        lo = 9 * s
        in_suit = sum(counts[lo:lo + 9])
        melds_ok = all(lo <= t < lo + 9 or t >= 27 for t in ctx.meld_tiles)
        if not melds_ok or in_suit + 3 * len(kinds) < 6:
            continue
        out.append(Plan(f"half_flush {s}", ef.ALL, base + concealed_value + 2, usable=_in_suit(lo, True)))
        if total_honours <= 2 and all(t < 27 for t in ctx.meld_tiles):
            out.append(Plan(f"full_flush {s}", ef.ALL, ctx.bonus_tai + 4, usable=_in_suit(lo, False)))
    if not kinds and ef.thirteen_distance(counts) <= 5:
        out.append(Plan("thirteen_wonders", -1, ctx.rules.limit))
    return out


FALLBACK = 0.12  # weight of a hand that cannot reach min_tai yet (bonus tiles may still come)
SPEED_LATE = 0.10  # chance ratio of one more tile to go, late in the hand (12 tiles left)
SPEED_EARLY = 0.18  # ... and with 72 or more tiles left (measured in greedy self-play)


def _speed(dist: float, wall_remaining: int) -> float:
    """A chance-like weight of winning a hand ``dist`` tiles away (13-tile distance >= 1), roughly
    calibrated on self-play: about 0.3-0.5 when waiting, times 0.75 (early) to 0.25 (late) per tile."""
    draws = wall_remaining / 4.0
    if dist - 1 > draws + 0.5:
        return 0.0
    x = min(1.0, max(0.0, (wall_remaining - 12) / 60.0))
    f = SPEED_LATE + (SPEED_EARLY - SPEED_LATE) * x
    return (0.3 + 0.2 * x) * float(f ** (dist - 1))


def win_chance(dist: float, wall_remaining: int) -> float:
    """A realistic chance of winning from ``dist`` (self-play calibration): for defence trade-offs."""
    if dist - 1 > wall_remaining / 4.0 + 0.5:
        return 0.0
    x = min(1.0, max(0.0, (wall_remaining - 12) / 60.0))
    f = 0.3 + 0.4 * x
    return (0.3 + 0.2 * x) * float(f ** (dist - 1))


def plan_distances(counts: list[int], plan: Plan, n_melds: int) -> dict[int, float]:
    """For each tile held: the plan's distance after discarding it (``counts`` 14-equivalent)."""
    if plan.mode == -1:
        out: dict[int, float] = {}
        for t in range(34):
            if counts[t]:
                counts[t] -= 1
                out[t] = ef.thirteen_distance(counts)
                counts[t] += 1
        return out
    work = counts
    if plan.remove:
        work = list(counts)
        for t in plan.remove:
            work[t] -= 1
    dd = discard_distances(work, n_melds + plan.extra_sets, plan.mode, plan.usable)
    res: dict[int, float] = {t: d + plan.extra_cost for t, d in dd.items()}
    if plan.forbid >= 0 and plan.forbid in res:
        res[plan.forbid] = 99.0
    for t in range(34):  # tiles only held in the removed set
        if counts[t] and t not in res:
            res[t] = 99.0
    return res


def hand_plan_distance(counts: list[int], plan: Plan, n_melds: int) -> float:
    """The plan's distance of a 13-equivalent hand as it stands."""
    if plan.mode == -1:
        return float(ef.thirteen_distance(counts))
    work = counts
    if plan.remove:
        work = list(counts)
        for t in plan.remove:
            work[t] -= 1
    if plan.usable is not None:
        work = [c if plan.usable(t) else 0 for t, c in enumerate(work)]
    return ef.distance(work, n_melds + plan.extra_sets, plan.mode) + plan.extra_cost


def plan_acceptance(counts13: list[int], plan: Plan, n_melds: int, live: Callable[[int], int]) -> int:
    """Live tiles that bring a 13-equivalent hand closer along ``plan``."""
    if plan.mode == -1:
        return acceptance(counts13, n_melds, live)[1]
    work = list(counts13)
    for t in plan.remove:
        work[t] -= 1
    if plan.usable is not None:
        work = [c if plan.usable(t) else 0 for t, c in enumerate(work)]
    return acceptance(work, n_melds + plan.extra_sets, live, plan.mode)[1]


FLUSH_PLANS = 1.0  # consider half and full flushes (0 turns them off; for experiments)
PONG_PONG_PLAN = 1.0  # consider the triplets hand
EXACT_WAITS = 1.0  # score the winning tiles of waiting hands exactly (0 turns it off)
SELF_DRAWN_SHARE = 0.25  # share of wins that are self-drawn (self-play)
TYPICAL_WAIT = 8.0  # live winning tiles of a typical waiting hand


def waiting_value(counts13: list[int], ctx: Context, live: Callable[[int], int],
                  wall_remaining: int) -> float | None:
    """Exact value of a waiting 13-equivalent hand: each winning tile scored by the scorer (so the
    minimum tai and the sequence hand's wait rule are honoured), weighted by its live copies.
    ``None`` when the hand is not waiting."""
    if not EXACT_WAITS:
        return None
    ws = fast_waits(counts13, len(ctx.melds))
    if not ws:
        return None
    concealed = tuple(Tile(t) for t in range(34) for _ in range(counts13[t]))
    seat = ctx.seat_wind - 27
    prevailing = ctx.prevailing_wind - 27
    total = 0.0
    for w in ws:
        n = live(w)
        if n <= 0:
            continue
        try:
            hand = Hand(concealed, ctx.melds, Tile(w), ctx.bonus)
            on_discard = score(hand, WinContext(seat_wind=seat, prevailing_wind=prevailing), ctx.rules)
            drawn = score(hand, WinContext(seat_wind=seat, prevailing_wind=prevailing, self_drawn=True),
                          ctx.rules)
        except (SgMahjongError, ValueError):
            continue
        u_d = pay_units(on_discard.tai, ctx.rules) if on_discard.valid else 0.0
        u_s = pay_units(drawn.tai, ctx.rules) if drawn.valid else 0.0
        # a self-drawn win is paid double by all three (6 shares); on a discard 4 shares
        total += n * (SELF_DRAWN_SHARE * u_s * 1.5 + (1 - SELF_DRAWN_SHARE) * u_d)
    return total / TYPICAL_WAIT * _speed(1, wall_remaining)


@dataclass(slots=True)
class Option:
    """A discard candidate's offensive value: expected payment units and the plan behind it."""

    tile: int
    value: float
    plan: Plan | None
    dist: float
    units: float = 0.0


def offence(counts: list[int], ctx: Context, live: Callable[[int], int], wall_remaining: int,
            candidates: list[int]) -> dict[int, Option]:
    """For each candidate discard of a 14-equivalent hand, the best plan's expected value."""
    rules = ctx.rules
    ps = plans(counts, ctx, live)
    best: dict[int, Option] = {t: Option(t, 0.0, None, 99.0) for t in candidates}
    waiting: list[int] = []
    fallback_units = FALLBACK * pay_units(max(rules.min_tai, 1), rules)
    speeds: dict[float, float] = {}  # _speed by distance (the wall is the same for every option)
    for plan in ps:
        units = pay_units(plan.tai, rules)
        if units <= 0 and plan.name != "any":
            continue
        if units <= 0:
            units = fallback_units
        dd = plan_distances(counts, plan, ctx.n_melds)
        if plan.name == "any":
            waiting = [t for t in candidates if dd.get(t) == 1]
        for t in candidates:
            d = dd.get(t, 99.0)
            sp = speeds.get(d)
            if sp is None:
                sp = speeds[d] = _speed(d, wall_remaining)
            v = units * sp
            o = best[t]
            if v > o.value or (o.plan is None and d < o.dist):
                best[t] = Option(t, v, plan, d, units)
    for t in waiting:  # waiting hands: the exact value of their winning tiles replaces the estimates
        counts[t] -= 1
        exact = waiting_value(counts, ctx, live, wall_remaining)
        counts[t] += 1
        if exact is not None:
            sp = _speed(1, wall_remaining)
            best[t] = Option(t, exact, None, 1.0, exact / sp if sp > 0 else 0.0)
    return best


def hand_value(counts13: list[int], ctx: Context, live: Callable[[int], int], wall_remaining: int) -> float:
    """Expected value (payment units) of a 13-equivalent hand as it stands."""
    rules = ctx.rules
    exact = waiting_value(counts13, ctx, live, wall_remaining)
    if exact is not None:
        return exact
    best = 0.0
    fallback_units = FALLBACK * pay_units(max(rules.min_tai, 1), rules)
    for plan in plans(counts13, ctx, live):
        units = pay_units(plan.tai, rules)
        if units <= 0 and plan.name != "any":
            continue
        if units <= 0:
            units = fallback_units
        d = hand_plan_distance(counts13, plan, ctx.n_melds)
        v = units * _speed(d, wall_remaining)
        if v > best:
            best = v
    return best

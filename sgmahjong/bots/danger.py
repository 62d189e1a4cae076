"""A learned reading of the discards: the chance that discarding a tile lets an opponent win on it.

``strong``'s defence guesses how likely each opponent is to be waiting and how dangerous each tile is
with hand-set numbers (:mod:`.defence`). This module learns the same from self-play: in hands of four
``strong``, at every turn and for every tile the seat could throw, whether each opponent could have won
on it (the engine says so: the tile is applied and the opponent's legal actions read). A logistic model
over public features of the opponent and the tile (:func:`features`: its exposed sets, how far the hand
is, its pile and what it let pass, the tile's kind and how many copies are in sight) gives the chance.

The features are read only from the player view (the same JSON a human client receives). The weights
are in :mod:`.danger_weights`, made by ``make train-danger`` (``bench/train_danger.py``: a fixed seed,
a few minutes of CPU); the model runs in pure Python (about forty multiplications a tile and opponent).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..rules import RuleSet
from . import passing
from .base import A, View
from .danger_weights import WEIGHTS
from .defence import Chance, deal_in_loss, read_threats
from .perception import Perception
from .strong import StrongBot

DRAGONS = frozenset((31, 32, 33))


@dataclass(frozen=True, slots=True)
class Reading:
    """What the discards of a hand show, seat by seat (from one seat's view)."""

    piles: tuple[tuple[int, ...], ...]  # each seat's whole pile in order (claimed discards in place)
    safe: tuple[frozenset[int], ...]  # tiles each seat cannot win on now (barred or let pass)
    before: tuple[frozenset[int], ...]  # tiles it let pass in the round before its latest discard


def read(view: dict[str, Any]) -> Reading:
    """The discards' reading from a player view (piles as they lie when their order cannot be rebuilt)."""
    piles = passing.read_piles(view)
    before = (frozenset(),) * 4 if piles.order is None else _before(piles.order)
    return Reading(piles.piles, piles.barred, before)


def _before(order: Sequence[tuple[int, int]]) -> tuple[frozenset[int], ...]:
    """For each seat, the discards made between its two latest discards (by the others)."""
    out: list[frozenset[int]] = []
    for s in range(4):
        mine = [i for i, (seat, _) in enumerate(order) if seat == s]
        if len(mine) < 2:
            out.append(frozenset())
            continue
        out.append(frozenset(t for seat, t in order[mine[-2] + 1:mine[-1]] if seat != s))
    return tuple(out)


NAMES = (  # a tile the opponent may not win on now gets 0 before the model: no feature says so
    "bias", "sets1", "sets2", "sets3", "sets4", "turns", "turns2", "wall", "late",
    "flush_in", "flush_out", "flush_honour", "all_pongs", "dragon_shown", "wind_shown",
    "honour", "terminal", "two_eight", "three_seven", "seen1", "seen2", "seen3",
    "honour_seen2", "honour_seen3", "passed_before", "in_pile", "suji_low", "suji_high",
    "near1", "near2", "wall_near", "suit_share", "honour_share", "recent_suit", "valued",
    "sets_late", "in_pile_recent",
)


def features(p: Perception, r: Reading, opp: int, t: int) -> list[float]:
    """The model's inputs for opponent ``opp`` and tile ``t`` (in the order of :data:`NAMES`)."""
    s = p.seats[opp]
    k = len(s.melds)
    pile = r.piles[opp]
    turns = len(pile) / 10.0
    wall = p.wall_remaining
    honour = t >= 27
    suit = -1 if honour else t // 9
    suits = {lo // 9 for _, lo, _ in s.melds if lo < 27}
    flush = next(iter(suits)) if len(suits) == 1 and k >= 2 else -1
    shown_honours = [lo for _, lo, _ in s.melds if lo >= 27]
    vis = p.visible[t]
    rank = -1 if honour else t % 9
    in_pile = t in pile
    near1 = near2 = suji_lo = suji_hi = wall_near = 0.0
    if not honour:
        for d in (-1, 1):
            u = t + d
            if 0 <= u < 27 and u // 9 == suit:
                near1 += u in pile
                wall_near += p.visible[u] >= 4
        for d in (-2, 2):
            u = t + d
            if 0 <= u < 27 and u // 9 == suit:
                near2 += u in pile
        suji_lo = float(t - 3 >= 0 and (t - 3) // 9 == suit and (t - 3) in pile)
        suji_hi = float(t + 3 < 27 and (t + 3) // 9 == suit and (t + 3) in pile)
    n = len(pile) or 1
    same_suit = sum(1 for x in pile if x < 27 and x // 9 == suit) / n if not honour else 0.0
    honours = sum(1 for x in pile if x >= 27) / n
    recent = pile[-3:]
    wind = 27 + (opp - p.dealer) % 4
    valued = honour and (t in DRAGONS or t == wind or t == 27 + p.prevailing)
    return [
        1.0, float(k == 1), float(k == 2), float(k == 3), float(k >= 4), turns, turns * turns,
        wall / 100.0, float(wall < 30),
        float(flush >= 0 and suit == flush), float(flush >= 0 and not honour and suit != flush),
        float(flush >= 0 and honour),
        float(k >= 2 and all(kind != "chow" for kind, _, _ in s.melds)),
        float(any(x in DRAGONS for x in shown_honours) and t in DRAGONS),
        float(any(x not in DRAGONS for x in shown_honours) and honour and t not in DRAGONS),
        float(honour), float(rank in (0, 8)), float(rank in (1, 7)), float(rank in (2, 6)),
        float(vis == 1), float(vis == 2), float(vis >= 3),
        float(honour and vis == 2), float(honour and vis >= 3),
        float(t in r.before[opp]), float(in_pile), suji_lo, suji_hi,
        near1, near2, wall_near, same_suit, honours if honour else 0.0,
        float(sum(1 for x in recent if (x >= 27) == honour and (honour or x // 9 == suit))),
        float(valued), float(k >= 2 and wall < 30), float(t in recent),
    ]


def _sigmoid(z: float) -> float:
    if z < -30.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


def chance(p: Perception, r: Reading, opp: int, t: int, weights: Sequence[float] = WEIGHTS) -> float:
    """The chance that ``opp`` can win on a discard of ``t`` now (0 for a tile it may not win on)."""
    if t in r.safe[opp]:
        return 0.0
    x = features(p, r, opp, t)
    return _sigmoid(sum(w * v for w, v in zip(weights, x, strict=True)))


def deal_in_cost(p: Perception, r: Reading, tiles: Sequence[int], rules: RuleSet) -> dict[int, float]:
    """The expected payment lost to dealing in by discarding each of ``tiles``, in base units: each
    opponent's learned chance of winning on the tile times what its hand would cost the discarder
    (:func:`.defence.read_threats` estimates the hand's value from what it shows)."""
    loss = {th.seat: deal_in_loss(th, rules) * rules.base for th in read_threats(p, rules)}
    return {t: sum(chance(p, r, opp, t) * cost for opp, cost in loss.items()) for t in tiles}


class StrongReader(StrongBot):
    """``strong`` with the learned chance in place of its own guess: in the safety tie-break between
    nearly equal discards and in the full trade-off against a large likely wait (the bench's
    ``strong+read=1``). The expert may start from it (its ``base`` option)."""

    reading = Reading(((),) * 4, (frozenset(),) * 4, (frozenset(),) * 4)  # the latest view's reading

    def look(self, view: View) -> None:
        self.reading = read(view)

    def decide(self, view: View, legal: Sequence[A]) -> A:
        self.look(view)
        return super().decide(view, legal)

    def _chance(self, p: Perception) -> Chance:
        r = self.reading
        return lambda th, t: chance(p, r, th.seat, t)

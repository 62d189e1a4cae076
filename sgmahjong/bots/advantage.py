"""A learned advantage of a discard over ``strong``'s: what the table pays for throwing another tile.

The expert's search values a candidate on hidden hands dealt at random, which are far from the table's
(docs/expert-levers.md, where the model is wrong). This module learns the same difference from the *true*
hands instead: in hands of four ``strong``, at every turn, ``strong``'s next best discards are played
against its own choice from the true state (the undrawn wall reordered, every seat then played by the
search's quick policy), and a model over what the seat sees (:func:`features`: how the two discards
differ in ``strong``'s score, in the hand's value and distance, in the learned risk of dealing in, the
tiles' kinds, the wall) is fitted to the paired differences. It predicts the advantage in payment
units, averaged over the hidden hands as they arise at the table.

The weights are in :mod:`.advantage_weights`, made by ``make train-advantage``
(``bench/train_advantage.py``: a fixed seed, numpy); the model runs in pure Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..rules import RuleSet
from . import danger
from .advantage_weights import WEIGHTS
from .base import A, View
from .defence import read_threats
from .perception import Perception, perceive
from .strong import StrongBot, StrongParams
from .value import Option, offence, seat_context

CANDIDATES = 3  # strong's choice and its next best discards, as the expert searches
THREAT = 0.35  # an opponent this likely to be waiting counts as a threat (strong's THREAT)
MARGIN = 0.5  # the lead over strong's choice the model needs to overrule it (docs/expert-levers.md)

NAMES = (
    "bias", "score_gap", "value_ratio", "value_gap", "dist_gap", "dist_worse", "units_gap",
    "risk_gap", "risk_base", "honour_c", "valued_c", "terminal_c", "honour_b", "valued_b",
    "terminal_b", "seen_c", "seen_b", "wall", "late", "my_dist", "threats", "waiting_b", "waiting_c",
    "risk_gap_late", "dist_gap_late", "value_gap_late", "risk_gap_threats", "value_gap_far",
)


@dataclass(frozen=True, slots=True)
class Turn:
    """What the model reads at one turn: ``strong``'s choice first, then its next best discards."""

    tiles: tuple[int, ...]  # the candidate discards, strong's choice first
    scores: dict[int, float]  # strong's score of each tile it may throw
    offence: dict[int, Option]  # each candidate's offensive value, plan and distance
    risk: dict[int, float]  # each candidate's expected loss to dealing in (the learned reading)
    threats: int  # opponents at least THREAT likely to be waiting
    p: Perception


def valued(p: Perception, t: int) -> bool:
    """Whether honour ``t`` is worth a tai to the seat as a pong (a dragon, its wind, the round's)."""
    return t in danger.DRAGONS or t == 27 + (p.seat - p.dealer) % 4 or t == 27 + p.prevailing


def read_turn(view: View, legal: Sequence[A], rules: RuleSet, strong: StrongBot,
              width: int = CANDIDATES) -> Turn | None:
    """The turn as the model reads it (None: not a turn with two discards or more to weigh)."""
    discards = [a for a in legal if a.kind == "discard" and a.tile is not None]
    if len(discards) < 2 or any(a.kind == "win" for a in legal):
        return None
    p = perceive(view)
    strong.look(view)
    base = strong.decide_perceived(p, discards, rules)
    return turn_of(view, p, base, strong.last_scores, rules, width)


def turn_of(view: View, p: Perception, base: A, scores: dict[int, float], rules: RuleSet,
            width: int = CANDIDATES) -> Turn | None:
    """The turn read from ``strong``'s choice ``base`` and its scores of the discards (None: no two)."""
    if base.kind != "discard" or base.tile is None or int(base.tile) not in scores or len(scores) < 2:
        return None
    first = int(base.tile)
    rest = sorted((t for t in scores if t != first), key=lambda t: -scores[t])
    tiles = (first, *rest[:width - 1])
    off = offence(list(p.hand), seat_context(p, rules), p.live, p.wall_remaining, list(tiles))
    risk = danger.deal_in_cost(p, danger.read(view), tiles, rules)
    threats = sum(1 for th in read_threats(p, rules) if th.tenpai >= THREAT)
    return Turn(tiles, dict(scores), off, risk, threats, p)


def features(turn: Turn, c: int) -> list[float]:
    """The model's inputs for throwing ``c`` in place of ``strong``'s choice (in :data:`NAMES`' order)."""
    p = turn.p
    b = turn.tiles[0]
    ob, oc = turn.offence[b], turn.offence[c]
    score_gap = turn.scores[b] - turn.scores[c]
    value_ratio = min(2.0, oc.value / ob.value) if ob.value > 1e-9 else 1.0
    value_gap = max(-8.0, min(8.0, ob.value - oc.value))
    dist_gap = max(-3.0, min(3.0, oc.dist - ob.dist)) if ob.dist < 90 and oc.dist < 90 else 0.0
    units_gap = max(-4.0, min(4.0, (oc.units - ob.units) / 8.0))
    risk_gap = max(-8.0, min(8.0, turn.risk.get(c, 0.0) - turn.risk.get(b, 0.0)))
    risk_base = min(8.0, turn.risk.get(b, 0.0))
    wall = p.wall_remaining / 100.0
    late = float(p.wall_remaining < 30)
    my_dist = min(ob.dist, 6.0) / 5.0
    far = float(ob.dist >= 4)

    def kind(t: int) -> tuple[float, float, float]:
        if t >= 27:
            return 1.0, float(valued(p, t)), 0.0
        return 0.0, 0.0, float(t % 9 in (0, 8))

    hc, vc, tc = kind(c)
    hb, vb, tb = kind(b)
    return [
        1.0, score_gap, value_ratio, value_gap, dist_gap, float(dist_gap > 0), units_gap,
        risk_gap, risk_base, hc, vc, tc, hb, vb, tb, p.visible[c] / 4.0, p.visible[b] / 4.0,
        wall, late, my_dist, float(turn.threats), float(ob.dist <= 1), float(oc.dist <= 1),
        risk_gap * late, dist_gap * late, value_gap * late, risk_gap * turn.threats, value_gap * far,
    ]


def advantage(turn: Turn, c: int, weights: Sequence[float] = WEIGHTS) -> float:
    """The learned advantage, in payment units, of throwing ``c`` in place of ``strong``'s choice."""
    if c == turn.tiles[0]:
        return 0.0
    return sum(w * x for w, x in zip(weights, features(turn, c), strict=True))


def advantages(turn: Turn, cands: Sequence[A]) -> list[float]:
    """Each of ``cands``' learned advantage over ``strong``'s choice (0 for one that is not among the
    turn's discards: a claim, a kong, a discard outside ``strong``'s best)."""
    return [advantage(turn, int(a.tile)) if a.kind == "discard" and a.tile is not None
            and int(a.tile) in turn.tiles else 0.0 for a in cands]


class AdvisedStrong(StrongBot):
    """``strong`` that throws, at a turn, the candidate the learned advantage puts furthest ahead of its
    own choice, if by more than ``margin`` payment units (the bench's ``strong+learned=MARGIN``; the
    expert's base ``advised``). A decision from :meth:`decide_perceived` is advised only after
    :meth:`look` at the same view (the expert's order); without it, it is ``strong``'s."""

    def __init__(self, seed: int = 0, rules: RuleSet | None = None, params: StrongParams | None = None,
                 margin: float = MARGIN, weights: Sequence[float] = WEIGHTS) -> None:
        super().__init__(seed, rules, params)
        self.margin = margin
        self.weights = tuple(weights)
        self._view: View | None = None

    def look(self, view: View) -> None:
        super().look(view)
        self._view = view

    def decide(self, view: View, legal: Sequence[A]) -> A:
        for a in legal:
            if a.kind == "win":
                return a
        self.look(view)
        return self.decide_perceived(perceive(view), legal, self.table_rules(view))

    def decide_perceived(self, p: Perception, legal: Sequence[A], rules: RuleSet) -> A:
        base = super().decide_perceived(p, legal, rules)
        view, self._view = self._view, None  # the view looked at serves one decision
        if view is None or base.kind != "discard" or any(a.kind == "win" for a in legal):
            return base
        turn = turn_of(view, p, base, self.last_scores, rules)
        if turn is None:
            return base
        best, lead = turn.tiles[0], self.margin
        for c in turn.tiles[1:]:
            gain = advantage(turn, c, self.weights)
            if gain > lead:
                best, lead = c, gain
        if best == turn.tiles[0]:
            return base
        return next(a for a in legal if a.kind == "discard" and a.tile is not None and int(a.tile) == best)

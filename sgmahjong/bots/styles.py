"""Opponent styles for testing the bots against tables they do not model (issue 30, "an edge that
travels"). They are not levels: the server never offers them (``LEVELS`` and the server's own list stay
as they are); ``make_bot`` and ``simulate --others`` accept them by name (:data:`STYLES`).

* ``defensive`` folds early. From the first sign of a threat — an opponent with ``THREAT_SETS``
  exposed sets, one with ``BONUS_HEAVY`` bonus tiles, one whose chance of waiting (read by
  :func:`defence.read_threats`) reaches ``READY``, or fewer than ``LATE`` drawable tiles left — it
  discards the tile with the lowest expected loss by :func:`defence.discard_cost` against every
  opponent (ties by ``strong``'s own ranking), declares no kong and claims nothing but a win.
  Otherwise it plays as ``strong``.
* ``reckless`` never folds: it wins whenever it can, declares every kong it may, claims every pong,
  chow or kong it may (a kong before a pong before a chow; of several chows the one leaving the hand
  closest to winning) and discards by tile efficiency only, as ``greedy``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import RuleSet
from . import efficiency as ef
from .base import A, Bot
from .defence import Threat, discard_cost, read_threats
from .greedy import GreedyBot, claim_rest
from .outsiders import FlushBot, OrderedBot, SilentBot
from .perception import Perception
from .strong import StrongBot

THREAT_SETS = 2  # an opponent showing this many sets is a threat
BONUS_HEAVY = 3  # ... or one with this many bonus tiles
READY = 0.5  # ... or one at least this likely to be waiting (defence.read_threats)
LATE = 30  # ... or fewer drawable tiles left than this (a hand starts with about 77)

CLAIM_ORDER = {"kong": 0, "pong": 1, "chow": 2}


def threatened(p: Perception, threats: Sequence[Threat]) -> bool:
    """Whether the defensive style folds now (see the module docstring)."""
    if p.wall_remaining < LATE:
        return True
    for th in threats:
        if th.sets >= THREAT_SETS or th.tenpai >= READY or len(p.seats[th.seat].bonus) >= BONUS_HEAVY:
            return True
    return False


class DefensiveBot(StrongBot):
    """``strong`` that folds at the first sign of a threat (see the module docstring)."""

    level = "defensive"

    def decide_perceived(self, p: Perception, legal: Sequence[A], rules: RuleSet) -> A:
        for a in legal:
            if a.kind == "win":
                return a
        threats = read_threats(p, rules)
        if not threatened(p, threats):
            return super().decide_perceived(p, legal, rules)
        discards = [a for a in legal if a.kind == "discard" and a.tile is not None]
        if not discards:  # a claim window: pass (a win was taken above)
            return next((a for a in legal if a.kind == "pass"), legal[0])
        super().decide_perceived(p, legal, rules)  # strong's scores break ties between equally safe tiles
        scores = self.last_scores
        tiles = {int(a.tile) for a in discards if a.tile is not None}
        cost = {t: discard_cost(p, threats, t, rules) for t in tiles}

        def key(a: A) -> tuple[float, float]:
            t = int(a.tile) if a.tile is not None else -1
            return cost.get(t, 0.0), -scores.get(t, 0.0)

        return min(discards, key=key)


class RecklessBot(GreedyBot):
    """Claims everything, never folds, discards by efficiency (see the module docstring)."""

    level = "reckless"

    def decide_perceived(self, p: Perception, legal: Sequence[A]) -> A:
        for a in legal:
            if a.kind == "win":
                return a
        if any(a.kind == "discard" for a in legal):
            kong = next((a for a in legal if a.kind == "kong"), None)
            return kong if kong is not None else super().decide_perceived(p, legal)
        claims = [a for a in legal if a.kind in CLAIM_ORDER]
        if not claims:
            return next((a for a in legal if a.kind == "pass"), legal[0])
        first = min(CLAIM_ORDER[a.kind] for a in claims)
        best = [a for a in claims if CLAIM_ORDER[a.kind] == first]
        if len(best) == 1 or p.claim is None:
            return best[0]
        tile = p.claim[2]

        def after(a: A) -> int:
            rest = claim_rest(p.hand, a, tile)
            return ef.distance(rest[0], p.n_melds + 1) if rest is not None else 99

        return min(best, key=after)


STYLES: dict[str, type[Bot]] = {"defensive": DefensiveBot, "reckless": RecklessBot, "silent": SilentBot,
                                "ordered": OrderedBot, "flush": FlushBot}

"""The ``strong`` level: plays for value and defends.

* **Value**: every decision weighs the scoring plans still open (:mod:`value`): honour pongs, the
  sequence hand with its wait rule, triplets, flushes, thirteen wonders, bonus-tile tai — a plan under
  the table's ``min_tai`` is worth nothing, so the bot never drifts into a hand that cannot win.
  Waiting hands are valued exactly: each winning tile is scored by the scorer.
* **Defence** (:mod:`defence`): each opponent's chance of waiting and hand value are read from their
  exposed sets, bonus tiles and discards. 包 costs (third dragon, fourth wind, fresh tiles late under
  包生/包杠) always count; the risk of dealing in breaks ties between nearly equal discards, and
  becomes a full expected-loss trade-off against a likely limit hand late in the hand (in self-play
  against ``greedy``, folding earlier cost more wins than it saved).
* **Kongs**: taken when the instant payment and the replacement draw outweigh any loss of value.
* **Claims**: a pong or chow only for a clear gain in value (``CLAIM_MARGIN``).
* Always wins when the engine offers a win.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields, replace

from ..melds import Meld, MeldKind
from ..rules import RuleSet
from ..tiles import Tile
from .base import A, Bot, View
from .defence import Chance, discard_cost, is_dangerous, read_threats
from .greedy import claim_rest, claimed_tile, kong_removal
from .perception import Perception, perceive
from .value import Context, hand_value, offence, plan_acceptance, seat_context, win_chance

WIN_MULTIPLIER = 4.5  # payment units collected per per-loser unit (discard and self-drawn mixed)
DEFENCE = 1.0  # weight of the expected loss of a discard
THREAT = 0.35  # defend once an opponent is this likely to be waiting
BIG_HAND = 16.0  # per-loser units (16 = 5 tai) that make an opponent worth defending against
FAR = 5.0  # ... or when the bot's own hand is this far from winning
LATE_WALL = 30  # ... and shows two sets with fewer tiles than this left
CLAIM_MARGIN = 1.3  # a pong or chow must raise the hand's value this much
ACCEPTANCE = 0.012  # value bonus per live useful tile (tie-break between equally far options)
SAFETY = 0.05  # share of value traded for the safest of nearly equal discards
KONG_DRAW = 0.3  # base units a kong's free replacement draw is worth


@dataclass(frozen=True, slots=True)
class StrongParams:
    """The weights ``strong`` plays by (the constants above are the defaults). Against three ``strong``
    no single change of one of them gained by two standard errors in a duplicate run
    (``bench/bench_strong_tuning.py``, figures in docs/expert-levers.md)."""

    win_multiplier: float = WIN_MULTIPLIER
    defence: float = DEFENCE
    threat: float = THREAT
    big_hand: float = BIG_HAND
    far: float = FAR
    late_wall: int = LATE_WALL
    claim_margin: float = CLAIM_MARGIN
    acceptance: float = ACCEPTANCE
    safety: float = SAFETY
    kong_draw: float = KONG_DRAW

    @staticmethod
    def names() -> list[str]:
        return [f.name for f in fields(StrongParams)]


def best_discard(discards: Sequence[A], scores: dict[int, float]) -> A:
    """The first of ``discards`` (in legal order, which breaks exact ties) with the best score."""
    best = max(scores.values())
    return next(a for a in discards if a.tile is not None and scores[int(a.tile)] >= best - 1e-12)


def _with_meld(ctx: Context, kind: str, tile: int, concealed: bool = False) -> Context:
    extra = ctx.honour_value.get(tile, 0) if kind != "chow" else 0
    meld = Meld(MeldKind(kind), Tile(tile), concealed)
    return replace(ctx, meld_kinds=[*ctx.meld_kinds, kind], meld_tiles=[*ctx.meld_tiles, tile],
                   locked_tai=ctx.locked_tai + extra, melds=(*ctx.melds, meld))


def kong_gain(rules: RuleSet, concealed: bool) -> float:
    """The instant payment a kong collects from the three others, in base units."""
    if rules.instant_payments != "all":
        return 0.0
    return 3.0 * rules.instant_unit / rules.base * (2.0 if concealed else 1.0)


class StrongBot(Bot):
    """Value planning plus defence (see the module docstring)."""

    level = "strong"

    def __init__(self, seed: int = 0, rules: RuleSet | None = None,
                 params: StrongParams | None = None) -> None:
        super().__init__(seed, rules)
        self.params = StrongParams() if params is None else params
        self.last_scores: dict[int, float] = {}  # the last turn's discard scores (for the expert)
        # the last turn's expected loss of each discard to the threats it defended against (empty: it
        # did not defend), for the expert
        self.last_risk: dict[int, float] = {}

    def decide(self, view: View, legal: Sequence[A]) -> A:
        for a in legal:
            if a.kind == "win":
                return a
        return self.decide_perceived(perceive(view), legal, self.table_rules(view))

    def decide_perceived(self, p: Perception, legal: Sequence[A], rules: RuleSet) -> A:
        """The decision from an already parsed view (the expert's playouts build ``p`` directly)."""
        self.last_scores = {}
        self.last_risk = {}
        for a in legal:
            if a.kind == "win":
                return a
        ctx = seat_context(p, rules)
        discards = [a for a in legal if a.kind == "discard"]
        if discards:
            return self._turn(p, ctx, legal, discards)
        return self._claim(p, ctx, legal)

    def look(self, view: View) -> None:
        """Read what a decision from :meth:`decide_perceived` needs beyond the perception (nothing
        here; a subclass that reads the discards reads them now)."""

    def _chance(self, p: Perception) -> Chance | None:
        """The chance that a threat can win on a tile (None: :mod:`.defence`'s own guess)."""
        return None

    # -- own turn ----------------------------------------------------------------------------
    def _turn(self, p: Perception, ctx: Context, legal: Sequence[A], discards: Sequence[A]) -> A:
        w = self.params
        counts = p.hand
        cands = sorted({int(a.tile) for a in discards if a.tile is not None})
        off = offence(counts, ctx, p.live, p.wall_remaining, cands)
        top = max(o.value for o in off.values())
        # kongs that keep the hand's value
        for a in legal:
            if a.kind != "kong" or a.tile is None:
                continue
            t = int(a.tile)
            rem = kong_removal(p, t, claiming=False)
            if rem is None:
                continue
            work = list(counts)
            for x in rem[0]:
                work[x] -= 1
            concealed = len(rem[0]) == 4
            kctx = _with_meld(ctx, "kong", t, concealed) if rem[1] else ctx
            after = hand_value(work, kctx, p.live, p.wall_remaining)
            after += (kong_gain(ctx.rules, concealed) + w.kong_draw) / w.win_multiplier
            if after >= top:
                return a
        threats = read_threats(p, ctx.rules)
        my_dist = min(o.dist for o in off.values())
        against = frozenset(th.seat for th in threats
                            if th.tenpai >= w.threat and is_dangerous(p, th, w.late_wall)
                            and (th.units >= w.big_hand or my_dist >= w.far))
        danger = bool(against)
        ranked: dict[int, float] = {}
        for t in cands:
            o = off[t]
            v = o.value
            if o.plan is not None and v >= 0.6 * top and v > 0:
                counts[t] -= 1
                acc = plan_acceptance(counts, o.plan, ctx.n_melds, p.live)
                counts[t] += 1
                v *= 1.0 + w.acceptance * acc
            ranked[t] = v
        top_rank = max(ranked.values()) or 1.0
        best_t = max(cands, key=lambda x: ranked[x])
        o = off[best_t]
        # offence in realistic payment units: the best option's value, the others in proportion
        scale = (w.win_multiplier * max(o.units, 0.05) * win_chance(o.dist, p.wall_remaining)
                 if danger else 1.0)
        scores: dict[int, float] = {}
        everyone = frozenset(th.seat for th in threats)
        chance = self._chance(p)
        risk = ({t: discard_cost(p, threats, t, ctx.rules, deal_in=everyone, chance=chance) for t in cands}
                if w.safety else {})
        top_risk = max(risk.values(), default=0.0) or 1.0
        for t in cands:
            cost = w.defence * discard_cost(p, threats, t, ctx.rules, deal_in=against, chance=chance)
            if danger:
                self.last_risk[t] = cost
            scores[t] = scale * ranked[t] / top_rank - cost
            if w.safety and not danger:
                # among nearly equal options, the safer one (a few percent of value at most)
                scores[t] -= w.safety * risk[t] / top_risk
        self.last_scores = scores
        return best_discard(discards, scores)

    # -- claims -------------------------------------------------------------------------------
    def _claim(self, p: Perception, ctx: Context, legal: Sequence[A]) -> A:
        passing = next((a for a in legal if a.kind == "pass"), legal[0])
        tile = claimed_tile(p, legal)
        if tile is None:
            return passing
        w = self.params
        counts = p.hand
        before = hand_value(counts, ctx, p.live, p.wall_remaining)
        choice = passing
        best_gain = 1.0  # the chosen claim's value over the hand's value as it stands
        for a in legal:
            if a.kind == "kong" and a.tile is not None:
                work = list(counts)
                work[tile] -= 3
                if work[tile] < 0:
                    continue
                after = hand_value(work, _with_meld(ctx, "kong", tile), p.live, p.wall_remaining)
                after += (kong_gain(ctx.rules, False) + w.kong_draw) / w.win_multiplier
                margin = 1.0
            elif a.kind in ("pong", "chow"):
                rest = claim_rest(counts, a, tile)
                if rest is None:
                    continue
                work, lo = rest
                cctx = _with_meld(ctx, a.kind, lo)
                cands = [t for t in range(34) if work[t]]
                off = offence(work, cctx, p.live, p.wall_remaining, cands)
                after = max(o.value for o in off.values()) if off else 0.0
                margin = w.claim_margin
            else:
                continue
            gain = after / before if before > 0 else (margin + 1.0 if after > 0 else 0.0)
            if gain >= margin and gain > best_gain:
                best_gain = gain
                choice = a
        return choice

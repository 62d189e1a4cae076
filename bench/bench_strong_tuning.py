"""Whether ``strong``'s weights are worth changing: duplicate runs (as ``simulate --compare``) of
``strong`` with one weight changed against ``strong`` itself, three ``strong`` at the table.

The expert keeps ``strong``'s choice wherever its search is unsure, so a better ``strong`` would be a
better expert at every such decision. ``strong`` plays no search, so a run of 8,000 walls takes a few
minutes on two workers, and the bench can try many variants. A variant is named
``strong+NAME=VALUE[+NAME=VALUE...]``, NAME a field of :class:`~sgmahjong.bots.strong.StrongParams`
(``acceptance``, ``safety``, ``claim_margin``, ...) or ``keep`` (a lone live honour, none of whose other
copies is in sight, scores ``keep`` less as a discard: it is kept for its pong; the
expert's search most often overrules ``strong`` by keeping such an honour) with ``valued=1`` (only a
dragon or a wind that scores for the seat), ``read=1`` (the chance that an opponent can win on a tile
from the learned reading of the discards, :mod:`sgmahjong.bots.danger`, in place of ``strong``'s own
guess), ``oracle=1`` (a bound, not a player: ``strong`` that sees the whole state and never throws a
tile an opponent can win on while another discard is left) or ``seen=1`` (another bound: ``strong``'s own
defence given the true chance, 1 or 0, that an opponent can win on a tile) or ``learned=MARGIN``
(at a turn, the discard the learned advantage of :mod:`sgmahjong.bots.advantage` puts more than
MARGIN payment units ahead of ``strong``'s choice).

    python -m bench.bench_strong_tuning --seed 5003 --walls 8000 strong+safety=0.02 strong+acceptance=0.02

Prints, for each variant, the paired difference variant − ``strong`` per hand with its 95% interval,
the walls whose result differs, the share of hands each side dealt in, and the time. Not part of
``make bench`` (minutes a variant).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, cast

from sgmahjong.bots import Bot, danger, make_bot
from sgmahjong.bots.advantage import AdvisedStrong
from sgmahjong.bots.base import A, View
from sgmahjong.bots.defence import Chance
from sgmahjong.bots.perception import Perception
from sgmahjong.bots.strong import StrongBot, StrongParams, best_discard
from sgmahjong.bots.value import Context
from sgmahjong.commands.duplicate import Setup, run_walls, summarise
from sgmahjong.game import Action, HandState, apply, awaiting, legal_actions
from sgmahjong.rules import RuleSet

EXTRA = ("keep", "valued", "read", "oracle", "seen", "learned")


class HonourKeeper(StrongBot):
    """``strong``, discarding a lone honour with no other copy in sight (a valued one only, with
    ``valued``) scored ``keep`` less than ``strong`` scores it (its scores are about 1 for the best
    discard)."""

    def __init__(self, seed: int = 0, rules: RuleSet | None = None, params: StrongParams | None = None,
                 keep: float = 0.0, valued: bool = False) -> None:
        super().__init__(seed, rules, params)
        self.keep = keep
        self.valued = valued

    def _turn(self, p: Perception, ctx: Context, legal: Sequence[A], discards: Sequence[A]) -> A:
        choice = super()._turn(p, ctx, legal, discards)
        if choice.kind != "discard" or not self.keep:
            return choice
        scores = dict(self.last_scores)
        own_wind = 27 + (p.seat - p.dealer) % 4
        for t in scores:
            if t >= 27 and p.hand[t] == 1 and p.visible[t] <= 1 \
                    and not (self.valued and t < 31 and t not in (own_wind, 27 + p.prevailing)):
                scores[t] -= self.keep
        self.last_scores = scores
        return best_discard(discards, scores)


def winners(state: HandState, discards: Sequence[A]) -> dict[int, frozenset[int]]:
    """For each discard, the seats that could win on it (the discard applied, their legal actions read;
    the arena hands its bots the engine's own actions)."""
    out = {}
    for a in discards:
        after, _ = apply(state, cast(Action, a))
        out[int(a.tile or 0)] = frozenset(seat for seat in awaiting(after)
                                          if any(x.kind == "win" for x in legal_actions(after, seat)))
    return out


class Oracle(StrongBot):
    """A bound, not a player: ``strong`` that is shown the whole state (through the arena's watch hook)
    and never throws a tile an opponent can win on while another discard is left."""

    state: HandState | None = None  # the state the latest decision is asked in

    def watch(self, state: HandState, seat: int, view: View, legal: Sequence[A]) -> None:
        self.state = state

    def _turn(self, p: Perception, ctx: Context, legal: Sequence[A], discards: Sequence[A]) -> A:
        choice = super()._turn(p, ctx, legal, discards)
        if choice.kind != "discard" or self.state is None:
            return choice
        wins = winners(self.state, discards)
        if not wins[int(choice.tile or 0)] or all(wins.values()):
            return choice
        scores = {t: v - (1000.0 if wins[t] else 0.0) for t, v in self.last_scores.items()}
        return best_discard(discards, scores)


class Seer(StrongBot):
    """Another bound: ``strong``'s own play with the true chance that an opponent can win on a tile (1 or
    0, read from the whole state) in place of its guess: what its defence would make of a perfect
    reading of the discards."""

    def __init__(self, seed: int = 0, rules: RuleSet | None = None,
                 params: StrongParams | None = None) -> None:
        super().__init__(seed, rules, params)
        self.wins: dict[int, frozenset[int]] = {}  # the latest decision's winners of each discard

    def watch(self, state: HandState, seat: int, view: View, legal: Sequence[A]) -> None:
        self.wins = winners(state, [a for a in legal if a.kind == "discard"])

    def _chance(self, p: Perception) -> Chance:
        wins = self.wins
        return lambda th, t: 1.0 if th.seat in wins.get(t, ()) else 0.0


def parse(name: str) -> dict[str, float]:
    """The weights a variant's name sets (``strong+safety=0.02`` -> {"safety": 0.02})."""
    level, *parts = name.split("+")
    if level != "strong" or not parts:
        raise ValueError(f"{name!r}: a variant is strong+NAME=VALUE")
    out: dict[str, float] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or key not in (*StrongParams.names(), *EXTRA):
            names = ", ".join((*StrongParams.names(), *EXTRA))
            raise ValueError(f"{part!r}: NAME=VALUE, NAME one of {names}")
        try:
            out[key] = float(value)
        except ValueError:
            raise ValueError(f"{part!r}: {value!r} is not a number") from None
    return out


def make(name: str, seed: int = 0, rules: RuleSet | None = None, **budget: Any) -> Bot:
    """A bot by name, as ``make_bot``, and the variants of ``strong`` this bench names."""
    if not name.startswith("strong+"):
        return make_bot(name, seed, rules, **budget)
    weights = parse(name)
    extra = {k: weights.pop(k) for k in EXTRA if k in weights}
    default = StrongParams()  # each weight of the type of its default (late_wall counts tiles: an int)
    params = replace(default, **{k: type(getattr(default, k))(v) for k, v in weights.items()})
    if extra.get("oracle"):
        return Oracle(seed, rules, params)
    if extra.get("seen"):
        return Seer(seed, rules, params)
    if extra.get("read"):
        return danger.StrongReader(seed, rules, params)
    if "learned" in extra:
        return AdvisedStrong(seed, rules, params, margin=extra["learned"])
    if extra:
        return HonourKeeper(seed, rules, params, keep=extra.get("keep", 0.0),
                            valued=bool(extra.get("valued")))
    return StrongBot(seed, rules, params)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variants", nargs="+", help="strong+NAME=VALUE[+NAME=VALUE...]")
    ap.add_argument("--seed", type=int, default=5003)
    ap.add_argument("--walls", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    for v in args.variants:
        try:
            parse(v)
        except ValueError as exc:
            ap.error(str(exc))
    if args.walls < 2:
        ap.error("--walls must be at least 2")
    print(f"strong's weights: each variant - strong in the same seat, three strong at the table; "
          f"{args.walls} walls, seed {args.seed}")
    for v in args.variants:
        setup = Setup(pair=(v, "strong"), others=("strong", "strong", "strong"), seed=args.seed,
                      rules=RuleSet(), budget_ms=None, rounds=None)
        start = time.perf_counter()
        results = run_walls(setup, args.walls, args.workers, make=make)
        data = summarise(setup, results, time.perf_counter() - start)
        lo, hi = data["difference_ci95"]
        print(f"   {v:<40} {data['difference']:+.3f} [{lo:+.3f}, {hi:+.3f}]  "
              f"{args.walls - data['same_result_walls']} walls differ  "
              f"dealt in {data['a']['deal_in_rate']:.1%} (strong {data['b']['deal_in_rate']:.1%})  "
              f"({data['seconds']:.0f} s)", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])

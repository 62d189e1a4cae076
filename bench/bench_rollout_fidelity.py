"""How closely the expert's rollout policies play like ``strong``, decision by decision.

The expert imagines every opponent with a cheap rollout policy (the quick policy), while the tables it
is measured at seat ``strong``; the gap between what the model expects and what the table pays
(docs/bots.md, "What the model expects and what the table pays") is partly this. The bench plays
seeded hands of four ``strong`` bots and, at every decision with a choice (a win offered excepted:
every policy takes it), asks each rollout policy what it would play from the same state. It prints
each policy's agreement with ``strong`` by kind of decision (the turn, a claim window), how often each
claims and declares a kong, and the cost per decision (CPU).

    python -m bench.bench_rollout_fidelity --hands 200 --seed 7000

A fidelity figure says how alike two players choose, not which is stronger; it is a diagnostic for a
rollout policy, and any change the expert ships is measured by the real judge and the duplicate runs.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sgmahjong.bots.forward import (
    STYLE_CAUTIOUS,
    STYLE_EAGER,
    STYLE_HONOURS,
    STYLE_QUICK,
    fast_policy,
    perceiving,
    quick_policy,
)
from sgmahjong.bots.greedy import GreedyBot
from sgmahjong.bots.strong import StrongBot
from sgmahjong.game import apply, awaiting, legal_actions, new_hand, player_view
from sgmahjong.game.actions import Action
from sgmahjong.game.state import HandState
from sgmahjong.rules import RuleSet

Policy = Callable[[HandState, int, Sequence[Action]], Action]


def styled(style: int) -> Policy:
    """The quick policy's choice in one of its styles, from the engine's state."""
    def policy(state: HandState, seat: int, legal: Sequence[Action]) -> Action:
        return quick_policy(state, seat, legal, style)
    return policy


def policies(rules: RuleSet) -> dict[str, Policy]:
    greedy = GreedyBot(0, rules)
    return {
        "quick": styled(STYLE_QUICK),
        "cautious": styled(STYLE_CAUTIOUS),
        "eager": styled(STYLE_EAGER),
        "honours": styled(STYLE_HONOURS),
        "fast": fast_policy,
        "greedy": perceiving(lambda p, legal: greedy.decide_perceived(p, legal)),
    }


@dataclass
class Tally:
    """One policy's counts over the decisions (``strong``'s own counts under the name ``strong``)."""

    same: dict[str, int] = field(default_factory=lambda: {"turn": 0, "claim": 0})
    claims: int = 0
    kongs: int = 0
    cpu: float = 0.0


def key(a: Action) -> tuple[str, Any]:
    return a.kind, a.tile


def run(hands: int, seed: int) -> dict[str, Any]:
    rules = RuleSet()
    pols = policies(rules)
    tallies = {name: Tally() for name in ("strong", *pols)}
    seen = {"turn": 0, "claim": 0}
    claim_offers = 0
    kong_offers = 0
    for h in range(seed, seed + hands):
        bots = [StrongBot(h * 4 + i, rules) for i in range(4)]
        state, _ = new_hand(rules, seed=h, dealer=h % 4, prevailing=(h // 4) % 4)
        while not state.ended:
            seat = awaiting(state)[0]
            legal = legal_actions(state, seat)
            choice = bots[seat].choose(player_view(state, seat), legal)
            if len(legal) > 1 and not any(a.kind == "win" for a in legal):
                kind = "turn" if any(a.kind == "discard" for a in legal) else "claim"
                seen[kind] += 1
                claim_offers += kind == "claim"
                kong_offers += any(a.kind == "kong" for a in legal)
                for name, pol in (("strong", None), *pols.items()):
                    if pol is None:
                        mine = choice
                    else:
                        t0 = time.process_time()
                        mine = pol(state, seat, legal)
                        tallies[name].cpu += time.process_time() - t0
                    tally = tallies[name]
                    tally.same[kind] += key(mine) == key(choice)
                    tally.claims += kind == "claim" and mine.kind != "pass"
                    tally.kongs += mine.kind == "kong"
            state, _ = apply(state, choice)
    decisions = seen["turn"] + seen["claim"]
    out: dict[str, Any] = {"hands": hands, "seed": seed, "turns": seen["turn"],
                           "claim_windows": seen["claim"], "kong_offers": kong_offers, "policies": {}}
    for name, t in tallies.items():
        out["policies"][name] = {
            "same_turn": t.same["turn"] / max(seen["turn"], 1),
            "same_claim": t.same["claim"] / max(seen["claim"], 1),
            "same_all": (t.same["turn"] + t.same["claim"]) / max(decisions, 1),
            "claims_taken": t.claims / max(claim_offers, 1),
            "kongs_declared": t.kongs / max(kong_offers, 1),
            "us_per_decision": 1e6 * t.cpu / max(decisions, 1),
        }
    return out


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7000)
    args = ap.parse_args(argv)
    r = run(args.hands, args.seed)
    print(f"{r['hands']} hands of four strong (seeds {r['seed']}-{r['seed'] + r['hands'] - 1}): "
          f"{r['turns']} turns with a choice, {r['claim_windows']} claim windows, "
          f"{r['kong_offers']} kongs offered")
    print(f"{'policy':<10} {'same turn':>10} {'same claim':>11} {'same all':>9} {'claims':>7} "
          f"{'kongs':>6} {'us/decision':>12}")
    for name, p in r["policies"].items():
        cost = "" if name == "strong" else f"{p['us_per_decision']:.0f}"
        print(f"{name:<10} {p['same_turn']:>10.1%} {p['same_claim']:>11.1%} {p['same_all']:>9.1%} "
              f"{p['claims_taken']:>7.1%} {p['kongs_declared']:>6.1%} {cost:>12}")


if __name__ == "__main__":
    main()

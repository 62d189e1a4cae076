"""Tuning the expert's overrule rule offline (issue 15); not part of ``make bench``.

``collect``: plays hands of four ``strong`` bots and, at every decision of one seat where the expert
would search (two or more candidates), deals the hidden tiles ``--deals`` times and plays every
candidate to the end on each deal with the expert's rollouts (the lean model, the quick policy, the
same deal for every candidate); writes each decision's per-deal results (the seat's ledger) as JSON.

``rules``: replays the expert's search rule on those results without playing again: for each decision
the first half of the deals is the search's pool (shuffled, ``--reps`` times), the second half the
truth (each candidate's mean there). A search may spend ``--playouts`` playouts (a deal costs one per
candidate still alive); the figure is the mean over decisions of truth(chosen) − truth(strong's
choice): what the rule gains per decision in the rollouts' own valuation (not in real play: the
rollouts' bias is not seen here), with the paired difference to the shipped rule.

    python -m bench.expert_rules collect --seed 5000 --hands 100 --deals 400 --out /tmp/a.json
    python -m bench.expert_rules rules /tmp/a.json /tmp/b.json --playouts 65
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
from typing import Any

from sgmahjong.bots.determinise import InconsistentViewError, knowledge, table
from sgmahjong.bots.evaluation import MIN_ROUNDS, mean_se
from sgmahjong.bots.expert import ELIMINATE_AFTER, ELIMINATE_Z, ExpertBot, Z
from sgmahjong.bots.lean import lean_playout, sample_sim
from sgmahjong.bots.lean_policy import lean_quick_policy
from sgmahjong.bots.perception import perceive
from sgmahjong.bots.strong import StrongBot
from sgmahjong.game import apply, awaiting, legal_actions, new_hand, player_view
from sgmahjong.rules import RuleSet


def collect(seed: int, hands: int, deals: int, out: str) -> None:
    rules = RuleSet()
    points: list[dict[str, Any]] = []
    for h in range(seed, seed + hands):
        bots = [StrongBot(h * 4 + i, rules) for i in range(4)]
        expert = ExpertBot(h, rules, budget_ms=None, max_rounds=1)
        me = h % 4
        state, _ = new_hand(rules, seed=h, dealer=h % 4, prevailing=(h // 4) % 4)
        while not state.ended:
            seat = awaiting(state)[0]
            legal = legal_actions(state, seat)
            view = player_view(state, seat)
            action = bots[seat].choose(view, legal)
            if seat == me and len(legal) > 1 and not any(a.kind == "win" for a in legal):
                base = expert.strong.decide_perceived(perceive(view), legal, expert.table_rules(view))
                cands = expert._candidates(base, legal)
                res = _results(view, cands, me, deals, random.Random(h * 1000 + len(points)), rules)
                if len(cands) >= 2 and res is not None:
                    points.append({"hand": h, "kinds": [c.kind for c in cands], "res": res})
            state, _ = apply(state, action)
        print(f"hand {h}: {len(points)} decisions", flush=True)
        with open(out, "w") as f:
            json.dump(points, f)


def _results(view: Any, cands: list[Any], me: int, deals: int, rng: random.Random,
             rules: RuleSet) -> list[list[int]] | None:
    try:
        tb = table(knowledge(view), rules)
    except InconsistentViewError:
        return None
    res: list[list[int]] = []
    for _ in range(deals):
        sim0 = sample_sim(tb, random.Random(rng.getrandbits(48)))
        if sim0 is None:
            return None
        mine = {(a.kind, a.tile): a for a in sim0.options(me)}
        row: list[int] = []
        for c in cands:
            act = mine.get((c.kind, c.tile))
            if act is None:
                return None
            sim = sim0.copy()
            sim.step(act)
            end = lean_playout(sim, [lean_quick_policy] * 4)
            assert end is not None
            row.append(end.ledger[me])
        res.append(row)
    return res


def search(res: list[list[int]], playouts: int, z: float = Z, min_rounds: int = MIN_ROUNDS,
           eliminate_after: int = ELIMINATE_AFTER, eliminate_z: float = ELIMINATE_Z) -> int:
    """The expert's rule (``ExpertBot.decide``) on results played already: the chosen candidate."""
    n = len(res[0])
    sums = [0.0] * n
    squares = [0.0] * n
    alive = list(range(n))
    rounds = used = 0
    for row in res:
        if used + len(alive) > playouts:
            break
        used += len(alive)
        rounds += 1
        for i in alive[1:]:
            d = row[i] - row[0]
            sums[i] += d
            squares[i] += d * d
        if eliminate_after and rounds >= eliminate_after:
            keep = [0]
            for i in alive[1:]:
                mean, se = mean_se(sums[i], squares[i], rounds)
                if mean + eliminate_z * se > 0:
                    keep.append(i)
            alive = keep
            if len(alive) == 1:
                break
    if rounds < max(2, min_rounds):
        return 0
    best, best_mean = 0, 0.0
    for i in alive[1:]:
        mean, se = mean_se(sums[i], squares[i], rounds)
        if mean > best_mean and mean > z * se:
            best, best_mean = i, mean
    return best


def gains(points: list[dict[str, Any]], playouts: int, reps: int, **rule: Any) -> list[float]:
    """Per decision, the mean over ``reps`` shuffles of truth(chosen) − truth(strong's choice)."""
    rng = random.Random(1)
    out: list[float] = []
    for p in points:
        res = p["res"]
        half = len(res) // 2
        pool, truth = res[:half], res[half:]
        means = [statistics.fmean(r[i] for r in truth) for i in range(len(res[0]))]
        total = 0.0
        for _ in range(reps):
            sub = pool[:]
            rng.shuffle(sub)
            total += means[search(sub, playouts, **rule)] - means[0]
        out.append(total / reps)
    return out


def rules_report(files: list[str], playouts: int, reps: int) -> None:
    points: list[dict[str, Any]] = []
    for name in files:
        with open(name) as f:
            points += json.load(f)
    base = gains(points, playouts, reps)
    print(f"{len(points)} decisions, {playouts} playouts each; shipped rule (z={Z}): "
          f"{statistics.fmean(base):+.4f} per decision")
    for z in (1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0):
        g = gains(points, playouts, reps, z=z)
        d = [a - b for a, b in zip(g, base, strict=True)]
        print(f"  z={z:<4}: {statistics.fmean(g):+.4f} per decision, vs shipped {statistics.fmean(d):+.4f} "
              f"± {1.96 * statistics.stdev(d) / math.sqrt(len(d)):.4f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--seed", type=int, default=5000)
    c.add_argument("--hands", type=int, default=100)
    c.add_argument("--deals", type=int, default=400)
    c.add_argument("--out", required=True)
    r = sub.add_parser("rules")
    r.add_argument("files", nargs="+")
    r.add_argument("--playouts", type=int, default=65)
    r.add_argument("--reps", type=int, default=10)
    args = parser.parse_args()
    if args.cmd == "collect":
        collect(args.seed, args.hands, args.deals, args.out)
    else:
        rules_report(args.files, args.playouts, args.reps)


if __name__ == "__main__":
    main()

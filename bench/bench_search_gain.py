"""What the expert's search expects to gain over ``strong``, and what dropping candidates early costs.

Each hand is a seeded deal played by the expert (200 deals per decision at most, no time budget, as in
the strength runs) in one seat (the seats rotate over the hands) against three ``strong`` bots. At
every decision where the expert searched (two candidates or more), two players choose from the same
view: the expert as it plays (candidates dropped early) and a thorough one (every candidate on every
deal); a judge then prices the candidates on ``--judge-deals`` deals of its own seeds, none dropped.
The judged gain of a choice is its mean result minus that of ``strong``'s choice on the judge's deals
(0 where the player kept ``strong``'s choice), so, with the judge's deals apart from the players',
the sum over the decisions is what the search's own model (its rollouts and its random deals)
expects the player to gain over ``strong``, per hand. Compared with the duplicate runs'
expert - strong (docs/strength.md), it says how much of what the model expects the table pays.

Prints, for each player: the decisions where it overruled ``strong``, its judged gain per hand with
the judge's standard error, and its playouts per decision; and the gain by kind of decision.

    python -m bench.bench_search_gain --hands 40 --workers 2
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from sgmahjong.bots import Bot, make_bot
from sgmahjong.bots.base import A, View
from sgmahjong.bots.determinise import knowledge, table
from sgmahjong.bots.expert import ExpertBot
from sgmahjong.game import Action
from sgmahjong.review import bot_hand_log
from sgmahjong.rules import RuleSet

SEED = 9000
HANDS = 40
DEALS = 200  # the players' deals per decision at most
JUDGE_DEALS = 400
JUDGE_SEED = 1 << 42  # the judge's seeds: apart from the players'
PLAYERS = {"expert": True, "thorough": False}  # name -> drops candidates early


class _Recorder(ExpertBot):
    """The expert, keeping every decision point where it searched."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.points: list[tuple[View, list[Action]]] = []

    def decide(self, view: View, legal: Sequence[A]) -> A:
        action = super().decide(view, legal)
        if self.stats.candidates >= 2:
            self.points.append((view, [a for a in legal if isinstance(a, Action)]))
        return action


def one_hand(h: int, seed: int, deals: int, judge_deals: int) -> list[dict[str, Any]]:
    """Hand ``h``: played, then each of the expert's searched decisions chosen by both players and
    judged."""
    rules = RuleSet()
    seat = h % 4
    recorder = _Recorder((seed + h) * 4 + seat, rules, budget_ms=None, max_rounds=deals)
    bots: list[Bot] = [recorder if s == seat else make_bot("strong", (seed + h) * 4 + s, rules)
                       for s in range(4)]
    bot_hand_log(rules, bots, seed=seed + h, dealer=(h // 4) % 4)
    rows = []
    for k, (view, legal) in enumerate(recorder.points):
        judge = ExpertBot(JUDGE_SEED + (seed + h) * 1000 + k, rules, budget_ms=None, max_rounds=judge_deals)
        cands = judge.review_candidates(view, legal)
        ev = judge.search(table(knowledge(view), rules), cands, eliminate=False)
        gains = [0.0] + [ev.paired(i, 0)[0] for i in range(1, len(cands))]
        errors = [0.0] + [ev.paired(i, 0)[1] for i in range(1, len(cands))]
        turn = any(a.kind == "discard" for a in legal)
        row: dict[str, Any] = {"hand": h, "kind": "turn" if turn else "claim"}
        for name, eliminate in PLAYERS.items():
            player = ExpertBot((seed + h) * 1000 + k, rules, budget_ms=None, max_rounds=deals,
                               eliminate=eliminate)
            i = cands.index(player.choose(view, legal))
            row[name] = {"pick": i, "gain": gains[i], "se": errors[i], "playouts": player.stats.playouts}
        rows.append(row)
    return rows


def report(rows: list[dict[str, Any]], hands: int, out: Any = sys.stdout) -> None:
    print(f"   {len(rows)} searched decisions over {hands} hands "
          f"({sum(1 for r in rows if r['kind'] == 'turn')} on the turn, "
          f"{sum(1 for r in rows if r['kind'] == 'claim')} at claims)", file=out)
    for name in PLAYERS:
        gain = sum(r[name]["gain"] for r in rows) / hands
        se = math.sqrt(sum(r[name]["se"] ** 2 for r in rows)) / hands
        over = sum(1 for r in rows if r[name]["pick"])
        turn = sum(r[name]["gain"] for r in rows if r["kind"] == "turn") / hands
        playouts = sum(r[name]["playouts"] for r in rows) / max(1, len(rows))
        print(f"   {name:8s}  overrules {over:4d}  judged gain over strong {gain:+.2f} ± {se:.2f} a hand "
              f"(on the turn {turn:+.2f}, at claims {gain - turn:+.2f})  playouts a decision {playouts:5.0f}",
              file=out)
    same = sum(1 for r in rows if r["expert"]["pick"] == r["thorough"]["pick"])
    print(f"   the same choice: {same} of {len(rows)} decisions", file=out)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m bench.bench_search_gain", description=__doc__.split("\n")[0])
    p.add_argument("--hands", type=int, default=HANDS)
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--deals", type=int, default=DEALS, help="the players' deals per decision at most")
    p.add_argument("--judge-deals", type=int, default=JUDGE_DEALS)
    p.add_argument("--workers", type=int, default=1)
    args = p.parse_args([] if argv is None else argv)
    print(f"search gain: the expert ({args.deals} deals) against 3 strong, {args.hands} hands from seed "
          f"{args.seed}, judged on {args.judge_deals} deals", flush=True)
    start = time.perf_counter()
    rows: list[dict[str, Any]] = []
    with ProcessPoolExecutor(max(1, args.workers)) as pool:
        futures = [pool.submit(one_hand, h, args.seed, args.deals, args.judge_deals)
                   for h in range(args.hands)]
        for n, fut in enumerate(futures, start=1):
            rows.extend(fut.result())
            print(f"\r   {n}/{args.hands} hands", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    report(rows, args.hands)
    print(f"   ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main(sys.argv[1:])

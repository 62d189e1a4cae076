"""Does the expert play what its own review rates best?

For each seed, seat E is played by the expert (``--player``: the options it plays with, the players of
``bench_false_flags``) at ``--deals`` fixed deals per decision and the other seats by ``strong``; the
hand is then reviewed for seat E by the expert at the same number of deals (other deals). A decision
is *separated* when the review's error bars set its pick apart from every other option
(``ExpertDecision.separated``); the expert *agrees* there when it played the pick. This is
``tests/test_coach.py``'s agreement test (seed 2 there) over many seeds.

Prints one line per seed (decisions, separated, the ones it did not play) and the totals.

    python -m bench.bench_agreement --seeds 1-24 --player expert --workers 2
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bench.bench_false_flags import PLAYERS
from sgmahjong.bots import Bot, make_bot
from sgmahjong.bots.expert import ExpertBot
from sgmahjong.coach import review_by_expert
from sgmahjong.review import bot_hand_log
from sgmahjong.rules import RuleSet

DEALS = 600  # the expert's deals per decision, playing and reviewing (as the test)


def one_seed(seed: int, player: str, deals: int) -> dict[str, Any]:
    """Seed ``seed``'s hand played and reviewed; its separated decisions and where the expert differed."""
    rules = RuleSet()
    start = time.process_time()
    bots: list[Bot] = [ExpertBot(seed, rules, budget_ms=None, max_rounds=deals, **PLAYERS[player])]
    bots += [make_bot("strong", seed * 10 + i, rules) for i in range(1, 4)]
    log = bot_hand_log(rules, bots, seed=seed)
    review = review_by_expert(log, 0, deals=deals, seed=seed)
    separated = [d for d in review.decisions if d.separated]
    return {"seed": seed, "decisions": len(review.decisions), "separated": len(separated),
            "differ": [[d.number, d.chosen, d.best] for d in separated if not d.agree],
            "cpu": round(time.process_time() - start, 1)}


def _seeds(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="bench_agreement", description=__doc__.splitlines()[0])
    p.add_argument("--seeds", default="1-24", help="seeds, e.g. 1-24 or 1,5,9")
    p.add_argument("--player", default="expert", help=f"of {', '.join(PLAYERS)}")
    p.add_argument("--deals", type=int, default=DEALS)
    p.add_argument("--workers", type=int, default=1)
    args = p.parse_args(argv)
    if args.player not in PLAYERS:
        p.error(f"--player: unknown {args.player!r}; players: {', '.join(PLAYERS)}")
    try:
        seeds = _seeds(args.seeds)
    except ValueError:
        p.error(f"--seeds: not a list of seeds: {args.seeds!r}")
    if args.deals < 1:
        p.error("--deals must be at least 1")
    separated = agreed = 0
    with ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
        jobs = [pool.submit(one_seed, s, args.player, args.deals) for s in seeds]
        for job in jobs:
            r = job.result()
            separated += r["separated"]
            agreed += r["separated"] - len(r["differ"])
            print(f"seed {r['seed']}: {r['decisions']} decisions, {r['separated']} separated, "
                  f"differs at {r['differ'] or 'none'} ({r['cpu']} s CPU)", flush=True)
    print(f"{args.player}: played the review's pick at {agreed} of {separated} separated decisions "
          f"({len(seeds)} hands, {args.deals} deals)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()

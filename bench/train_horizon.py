"""Train the value at a horizon of :mod:`sgmahjong.bots.horizon` (``make train-horizon``).

Plays seeded hands of four ``strong`` to a decision point (hand ``h`` stops after ``7 h mod 60``
decisions, a spread from the first turn to late in the hand; a hand over by then gives none), deals
the hidden tiles from the seat's view ``--deals`` times as the expert's search does (uniformly), and
plays each deal to the end with the quick policy (the expert's rollouts). Every third decision of a
playout, for every seat, it records :func:`~sgmahjong.bots.horizon.features` and the label: how much
the seat's net payment changed from there to the end of the hand. A ridge regression (numpy) is
fitted, the held-out share of the variance it explains printed, and the weights written as a Python
module. Seeded: the same weights on every machine and with any number of workers, up to rounding.

    python -m bench.train_horizon --hands 400 --seed 1 --out sgmahjong/bots/horizon_weights.py
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence

from bench.hands_pool import gather
from bench.train_advantage import fit
from bench.train_danger import write
from sgmahjong.bots import make_bot
from sgmahjong.bots.determinise import Table, knowledge, table
from sgmahjong.bots.horizon import NAMES, features, seat_facts
from sgmahjong.bots.lean import Sim, sample_sim
from sgmahjong.bots.lean_policy import lean_quick_policy
from sgmahjong.game import apply, awaiting, legal_actions, new_hand, player_view
from sgmahjong.game.state import ENDED
from sgmahjong.rules import RuleSet

Row = tuple[list[float], float]  # features, the change of the seat's net payment to the end
EVERY = 3  # a playout's decisions recorded: every third


def decision_point(seed: int, h: int) -> Table | None:
    """The seat's knowledge at hand ``h``'s decision point (``None``: the hand was over by then)."""
    rules = RuleSet()
    key = seed * 1_000_003 + h
    bots = [make_bot("strong", key * 4 + s, rules) for s in range(4)]
    state, _ = new_hand(rules, seed=key, dealer=h % 4, prevailing=(h // 4) % 4)
    for _ in range(7 * h % 60):
        if state.ended:
            return None
        seat = awaiting(state)[0]
        state, _ = apply(state, bots[seat].choose(player_view(state, seat), legal_actions(state, seat)))
    return None if state.ended else table(knowledge(player_view(state, awaiting(state)[0])), rules)


def _play_on(sim: Sim, decisions: int) -> None:
    """``sim`` played on by the quick policy for at most ``decisions`` decisions."""
    for _ in range(decisions):
        if sim.phase == ENDED:
            return
        s = sim.awaiting()
        legal = sim.options(s)
        sim.step(legal[0] if len(legal) == 1 else lean_quick_policy(sim, s, legal))


def hand_rows(args: tuple[int, int, int]) -> list[Row]:
    """The samples of hand ``h`` of the run seeded ``seed``: ``deals`` playouts from its decision point."""
    seed, h, deals = args
    tb = decision_point(seed, h)
    if tb is None:
        return []
    rng = random.Random(seed * 1_000_003 + h)
    rows: list[Row] = []
    for _ in range(deals):
        sim = sample_sim(tb, random.Random(rng.getrandbits(48)))
        if sim is None:
            return rows
        marks: list[tuple[list[float], int, int]] = []
        step = 0
        while sim.phase != ENDED:
            if step % EVERY == 0:
                facts = [seat_facts(sim, s) for s in range(4)]
                marks += [(features(sim, s, facts), s, sim.ledger[s]) for s in range(4)]
            _play_on(sim, 1)
            step += 1
        rows += [(x, float(sim.ledger[s] - before)) for x, s, before in marks]
    return rows


def ceiling_rows(args: tuple[int, int, int, int]) -> list[list[float]]:
    """For the ceiling: from ``deals`` positions of hand ``h`` (a deal of its decision point played on
    0 to 29 decisions), ``k`` playouts each with the undrawn wall shuffled again; per position and seat,
    the ``k`` changes of the seat's net payment to the end."""
    seed, h, deals, k = args
    tb = decision_point(seed, h)
    if tb is None:
        return []
    rng = random.Random(seed * 1_000_003 + h)
    out: list[list[float]] = []
    for _ in range(deals):
        sim = sample_sim(tb, random.Random(rng.getrandbits(48)))
        if sim is None:
            return out
        _play_on(sim, rng.randrange(30))
        if sim.phase == ENDED:
            continue
        ends: list[list[int]] = []
        for _ in range(k):
            again = sim.copy()
            lo, hi = again.front, len(again.wall) - again.back
            undrawn = again.wall[lo:hi]
            rng.shuffle(undrawn)
            again.wall[lo:hi] = undrawn
            _play_on(again, 10_000)
            ends.append([again.ledger[s] - sim.ledger[s] for s in range(4)])
        out += [[float(e[s]) for e in ends] for s in range(4)]
    return out


def ceiling(groups: Sequence[Sequence[float]]) -> float:
    """The share of the variance of what is still to come that the position explains (everything in it
    but the order of the undrawn wall), by a one-way analysis of variance: the variance between the
    positions' true means (that of their sample means less the playouts' own spread over ``k``) over
    that plus the spread within a position."""
    import numpy as np

    y = np.array(groups)
    k = y.shape[1]
    within = float(y.var(axis=1, ddof=1).mean())
    between = float(y.mean(axis=1).var(ddof=1)) - within / k
    return between / (between + within)


def collect(seed: int, first: int, hands: int, deals: int, workers: int) -> list[Row]:
    """The samples of the seeded hands ``first`` to ``first + hands - 1``, in hand order."""
    return gather(hand_rows, [(seed, h, deals) for h in range(first, first + hands)], workers=workers,
                  every=50, what="samples")


def main(argv: list[str] | None = None) -> None:
    import numpy as np

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--deals", type=int, default=20, help="playouts from each hand's decision point")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--holdout", type=float, default=0.25, help="share of the hands kept for the check")
    ap.add_argument("--out", help="write the weights here (a Python module)")
    ap.add_argument("--ceiling", type=int, default=0, metavar="K",
                    help="also print the share any value of the position could explain, from K playouts "
                         "of each held-out position with the undrawn wall shuffled again")
    args = ap.parse_args(argv)
    if args.hands < 4 or args.deals < 1 or args.workers < 1 or not 0 < args.holdout < 1:
        ap.error("--hands at least 4, --deals and --workers at least 1, --holdout between 0 and 1")
    if args.ceiling == 1 or args.ceiling < 0:
        ap.error("--ceiling K: at least 2 playouts a position")
    start = time.perf_counter()
    train_hands = max(1, int(args.hands * (1 - args.holdout)))
    train = collect(args.seed, 0, train_hands, args.deals, args.workers)
    test = collect(args.seed, train_hands, args.hands - train_hands, args.deals, args.workers)
    if not train or not test:
        ap.error("no samples: more --hands")
    x, y = np.array([r[0] for r in train]), np.array([r[1] for r in train])
    xt, yt = np.array([r[0] for r in test]), np.array([r[1] for r in test])
    w = fit(x, y, l2=1.0)
    print(f"samples: {len(y):,} to fit ({train_hands} hands), {len(yt):,} held out "
          f"({args.hands - train_hands} hands), seed {args.seed}, {args.deals} playouts a hand")
    for name, xs, ys in (("fitted", x, y), ("held out", xt, yt)):
        pred = xs @ w
        share = 1 - float(((ys - pred) ** 2).mean()) / float(ys.var())
        print(f"  {name:<9} variance {float(ys.var()):7.2f}, explained {share:.3f}, "
              f"correlation {float(np.corrcoef(pred, ys)[0, 1]):.3f}")
    if args.ceiling:
        jobs = [(args.seed, h, 4, args.ceiling) for h in range(train_hands, args.hands)]
        groups = gather(ceiling_rows, jobs, workers=args.workers, every=100, what="positions and seats")
        print(f"  ceiling   explained {ceiling(groups):.3f} at most (any value of the position; "
              f"{len(groups):,} positions and seats, {args.ceiling} playouts each)")
    print(f"  ({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    if args.out:
        note = f"{train_hands} hands of four strong, seed {args.seed}, {args.deals} quick playouts from each"
        write(args.out, w, note, NAMES, "horizon")


if __name__ == "__main__":
    main(sys.argv[1:])

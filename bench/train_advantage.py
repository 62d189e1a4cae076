"""Train the learned advantage of :mod:`sgmahjong.bots.advantage` (``make train-advantage``).

Plays hands of four ``strong`` (seeded: the same data on every machine and with any number of
workers). At every turn with two discards or more, ``strong``'s choice and its next best discards
(:func:`~sgmahjong.bots.advantage.read_turn`) are each played out from the *true* state on ``--deals``
reorderings of the undrawn wall (the same for every candidate), every seat then played by the quick
policy the expert's rollouts use; the label of a candidate is its mean result minus that of
``strong``'s choice, for the seat. A linear model over :func:`~sgmahjong.bots.advantage.features` is
fitted by ridge regression (numpy) on 80% of the hands and checked on the rest: the correlation of
prediction and label, and what the model's picks pay by the labels (a candidate played where the
model puts it ahead of ``strong``'s choice by more than a margin), per turn and per hand.

    python -m bench.train_advantage --hands 1000 --seed 1 --out sgmahjong/bots/advantage_weights.py
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from typing import Any

from bench.hands_pool import gather
from bench.model_error import oracle_values
from bench.train_danger import write
from sgmahjong.bots import make_bot
from sgmahjong.bots.advantage import NAMES, features, read_turn
from sgmahjong.bots.arena import play_hand
from sgmahjong.bots.strong import StrongBot
from sgmahjong.game import Action, HandState
from sgmahjong.rules import RuleSet

Row = tuple[int, int, list[float], float]  # hand, turn (within the run), features, label

MARGINS = (0.0, 0.25, 0.5, 1.0)  # the model's lead over strong's choice needed to play a candidate


def true_values(state: HandState, seat: int, cands: list[Action], deals: int,
                seed: int) -> list[float] | None:
    """Each candidate's mean result minus ``cands[0]``'s for ``seat``, the quick policy playing every
    seat from the true ``state`` on ``deals`` reorderings of its undrawn wall (None: the lean model
    cannot play this state)."""
    try:
        return [mean for mean, _ in oracle_values(state, seat, cands, deals, seed)]
    except ValueError:
        return None


def hand_rows(args: tuple[int, int, int]) -> list[Row]:
    """The samples of hand ``h`` of the run seeded ``seed``, each candidate valued on ``deals`` deals."""
    seed, h, deals = args
    rules = RuleSet()
    bots = [make_bot("strong", seed * 100_003 + h * 4 + s, rules) for s in range(4)]
    reader = StrongBot(seed, rules)
    rows: list[Row] = []
    turns = [0]

    def watch(state: HandState, seat: int, view: dict[str, Any], legal: list[Action]) -> None:
        turn = read_turn(view, legal, rules, reader)
        if turn is None:
            return
        by_tile = {int(a.tile): a for a in legal if a.kind == "discard" and a.tile is not None}
        cands = [by_tile[t] for t in turn.tiles]
        k = h * 1000 + turns[0]
        turns[0] += 1
        values = true_values(state, seat, cands, deals, seed * 1_000_003 + k)
        if values is None:
            return
        for i in range(1, len(cands)):
            rows.append((h, k, features(turn, turn.tiles[i]), values[i]))

    play_hand(rules, bots, seed=seed * 1_000_003 + h, dealer=h % 4, prevailing=(h // 4) % 4, watch=watch)
    return rows


def collect(seed: int, first: int, hands: int, deals: int, workers: int) -> list[Row]:
    """The samples of the seeded hands ``first`` to ``first + hands - 1``, in hand order."""
    return gather(hand_rows, [(seed, h, deals) for h in range(first, first + hands)], workers=workers,
                  chunksize=2, every=20, what="samples")


def fit(x: Any, y: Any, l2: float = 10.0) -> Any:
    """Ridge regression (the bias, column 0, not shrunk)."""
    import numpy as np

    reg = l2 * np.eye(x.shape[1])
    reg[0, 0] = 0.0
    return np.linalg.solve(x.T @ x + reg, x.T @ y)


def picks(pred: Any, y: Any, turns: Any, margin: float) -> tuple[float, int]:
    """What the model's picks pay by the labels in total, and how many turns it overrules: at each
    turn the candidate it puts furthest ahead of ``strong``'s choice, if by more than ``margin``."""
    best: dict[int, tuple[float, float]] = {}
    for p, v, k in zip(pred, y, turns, strict=True):
        if p > margin and p > best.get(int(k), (-math.inf, 0.0))[0]:
            best[int(k)] = (float(p), float(v))
    return sum(v for _, v in best.values()), len(best)


def main(argv: list[str] | None = None) -> None:
    import numpy as np

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--deals", type=int, default=24, help="reorderings of the wall per turn")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--holdout", type=float, default=0.2, help="share of the hands kept for the check")
    ap.add_argument("--out", help="write the weights here (a Python module)")
    ap.add_argument("--samples", metavar="FILE",
                    help="keep the samples in FILE (JSON lines): read from it if it exists, else write it")
    args = ap.parse_args(argv)
    if args.hands < 10:
        ap.error("--hands must be at least 10")
    if args.deals < 1:
        ap.error("--deals must be at least 1")
    start = time.perf_counter()
    train_hands = max(1, int(args.hands * (1 - args.holdout)))
    if args.samples and os.path.exists(args.samples):
        with open(args.samples, encoding="utf-8") as f:
            rows = [(int(h), int(k), list(x), float(v)) for h, k, x, v in map(json.loads, f)]
        rows = [r for r in rows if r[0] < args.hands]
    else:
        rows = collect(args.seed, 0, args.hands, args.deals, args.workers)
        if args.samples:
            with open(args.samples, "w", encoding="utf-8") as f:
                f.writelines(json.dumps(r) + "\n" for r in rows)
    train = [r for r in rows if r[0] < train_hands]
    test = [r for r in rows if r[0] >= train_hands]
    x = np.array([r[2] for r in train], dtype=float)
    y = np.array([r[3] for r in train], dtype=float)
    w = fit(x, y)
    xt = np.array([r[2] for r in test], dtype=float)
    yt = np.array([r[3] for r in test], dtype=float)
    kt = np.array([r[1] for r in test])
    pred = xt @ w
    held = args.hands - train_hands
    turns = len(set(kt.tolist()))
    print(f"samples: {len(y):,} to fit, {len(yt):,} held out ({held} hands, {turns:,} turns); "
          f"{time.perf_counter() - start:.0f} s")
    print(f"labels: mean {y.mean():+.3f}, sd {y.std():.3f}; held out: correlation of prediction and label "
          f"{float(np.corrcoef(pred, yt)[0, 1]):.3f}")
    for margin in MARGINS:
        total, n = picks(pred, yt, kt, margin)
        print(f"  picks ahead by more than {margin:.2f}: {n:,} turns, pay {total / max(1, n):+.3f} a turn, "
              f"{total / held:+.3f} a hand")
    for name, v in zip(NAMES, w, strict=True):
        print(f"    {name:<18} {v:+.4f}")
    if args.out:
        write(args.out, w, f"{train_hands} hands of four strong, seed {args.seed}, {args.deals} deals a turn",
              NAMES, "advantage")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main(sys.argv[1:])

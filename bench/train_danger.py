"""Train the discard-danger model of :mod:`sgmahjong.bots.danger` (``make train-danger``).

Plays hands of four ``strong`` (seeded: the same data on every machine and with any number of
workers, the weights the same up to rounding). At every turn, for every tile the seat may throw and
every opponent not barred from winning on it, it records the model's features from the seat's view
and whether that opponent could have won on the tile (the engine says: the discard is applied and the
opponent's legal actions read). A logistic model is fitted by Newton's method (numpy,
a little L2), and the weights written as a Python module. It prints the held-out log loss and the area
under the ROC curve of the learned chance and of ``strong``'s own guess (its chance of waiting times
the tile's danger).

    python -m bench.train_danger --hands 3000 --seed 1 --out sgmahjong/bots/danger_weights.py
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from sgmahjong.bots import make_bot
from sgmahjong.bots.arena import play_hand
from sgmahjong.bots.danger import NAMES, features, read
from sgmahjong.bots.defence import read_threats, tile_danger
from sgmahjong.bots.perception import perceive
from sgmahjong.game import apply, legal_actions
from sgmahjong.rules import RuleSet

Row = tuple[list[float], int, float]  # features, label, strong's guess


def hand_rows(args: tuple[int, int]) -> list[Row]:
    """The samples of hand ``h`` of the run seeded ``seed``."""
    seed, h = args
    rules = RuleSet()
    bots = [make_bot("strong", seed * 100_003 + h * 4 + s, rules) for s in range(4)]
    rows: list[Row] = []

    def watch(state: Any, seat: int, view: dict[str, Any], legal: list[Any]) -> None:
        discards = {int(a.tile): a for a in legal if a.kind == "discard" and a.tile is not None}
        if not discards:
            return
        p = perceive(view)
        r = read(view)
        threats = {th.seat: th for th in read_threats(p, rules)}
        for t, a in discards.items():
            after, _ = apply(state, a)
            for opp in range(4):
                if opp == seat or t in r.safe[opp]:
                    continue
                won = any(x.kind == "win" for x in legal_actions(after, opp))
                th = threats[opp]
                rows.append((features(p, r, opp, t), int(won), th.tenpai * tile_danger(p, th, t)))

    play_hand(rules, bots, seed=seed * 1_000_003 + h, dealer=h % 4, prevailing=(h // 4) % 4, watch=watch)
    return rows


def collect(seed: int, hands: int, workers: int) -> list[Row]:
    jobs = [(seed, h) for h in range(hands)]
    if workers <= 1:
        return _gather(map(hand_rows, jobs), hands)
    with ProcessPoolExecutor(workers) as pool:
        return _gather(pool.map(hand_rows, jobs, chunksize=8), hands)


def _gather(chunks: Iterator[list[Row]], hands: int) -> list[Row]:
    """The hands' samples in hand order, with progress on stderr."""
    out: list[Row] = []
    start = time.perf_counter()
    for i, rows in enumerate(chunks, 1):
        out.extend(rows)
        if i % 200 == 0 or i == hands:
            print(f"  {i}/{hands} hands, {len(out):,} samples, {time.perf_counter() - start:.0f} s",
                  file=sys.stderr, flush=True)
    return out


def fit(x: Any, y: Any, l2: float = 1.0, rounds: int = 30) -> Any:
    """Logistic regression by Newton's method (weights of the columns of ``x``)."""
    import numpy as np

    w = np.zeros(x.shape[1])
    reg = l2 * np.eye(x.shape[1])
    reg[0, 0] = 0.0  # the bias is not shrunk
    for _ in range(rounds):
        z = np.clip(x @ w, -30, 30)
        q = 1.0 / (1.0 + np.exp(-z))
        grad = x.T @ (q - y) + reg @ w
        hess = (x * (q * (1 - q))[:, None]).T @ x + reg
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.abs(step).max()) < 1e-7:
            break
    return w


def log_loss(q: Any, y: Any) -> float:
    import numpy as np

    q = np.clip(q, 1e-6, 1 - 1e-6)
    return float(-(y * np.log(q) + (1 - y) * np.log(1 - q)).mean())


def auc(q: Any, y: Any) -> float:
    """Area under the ROC curve (ties counted half)."""
    import numpy as np

    order = np.argsort(q, kind="mergesort")
    ranks = np.empty(len(q))
    sq = q[order]
    i = 0
    while i < len(sq):  # average ranks over ties
        j = i
        while j + 1 < len(sq) and sq[j + 1] == sq[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    pos = y.sum()
    neg = len(y) - pos
    return float((ranks[y == 1].sum() - pos * (pos + 1) / 2) / (pos * neg))


def write(path: str, w: Any, note: str) -> None:
    lines = ['"""The weights of :mod:`.danger`\'s model, written by ``make train-danger``',
             f"({note}).", '"""', "", "WEIGHTS = ("]
    lines += [f"    {float(v)!r},  # {name}" for name, v in zip(NAMES, w, strict=True)]
    lines += [")", ""]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


def main(argv: list[str] | None = None) -> None:
    import numpy as np

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--holdout", type=float, default=0.2, help="share of the hands kept for the check")
    ap.add_argument("--out", help="write the weights here (a Python module)")
    args = ap.parse_args(argv)
    if args.hands < 10:
        ap.error("--hands must be at least 10")
    start = time.perf_counter()
    train_hands = max(1, int(args.hands * (1 - args.holdout)))
    train = collect(args.seed, train_hands, args.workers)
    test = collect(args.seed + 1_000_000, args.hands - train_hands, args.workers)
    x = np.array([r[0] for r in train], dtype=float)
    y = np.array([r[1] for r in train], dtype=float)
    w = fit(x, y)
    xt = np.array([r[0] for r in test], dtype=float)
    yt = np.array([r[1] for r in test], dtype=float)
    learned = 1.0 / (1.0 + np.exp(-np.clip(xt @ w, -30, 30)))
    guess = np.array([r[2] for r in test], dtype=float)
    base = np.full(len(yt), y.mean())
    print(f"samples: {len(y):,} to fit ({int(y.sum()):,} deal in), {len(yt):,} held out "
          f"({int(yt.sum()):,}); {time.perf_counter() - start:.0f} s")
    print("held out        log loss   AUC")
    print(f"  base rate     {log_loss(base, yt):.4f}     0.500")
    print(f"  strong's guess {log_loss(np.clip(guess, 1e-6, 0.999), yt):.4f}    {auc(guess, yt):.3f}")
    print(f"  learned       {log_loss(learned, yt):.4f}     {auc(learned, yt):.3f}")
    for name, v in zip(NAMES, w, strict=True):
        print(f"    {name:<16} {v:+.3f}")
    if args.out:
        write(args.out, w, f"{train_hands} hands of four strong, seed {args.seed}")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main(sys.argv[1:])

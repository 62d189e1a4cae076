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

With ``--wide`` it also fits a model over :data:`WIDE_NAMES`, more features of the tile's neighbours
and of the opponent's pile (:func:`wide_features`), and prints its held-out figures: a measure of
what they would add, not a model the bots play (nothing is written).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import Any

from bench.hands_pool import gather
from sgmahjong.bots import make_bot
from sgmahjong.bots.arena import play_hand
from sgmahjong.bots.danger import NAMES, Reading, features, read
from sgmahjong.bots.defence import read_threats, tile_danger
from sgmahjong.bots.perception import Perception, perceive
from sgmahjong.game import apply, legal_actions
from sgmahjong.rules import RuleSet

Row = tuple[list[float], int, float]  # features, label, strong's guess

WIDE_NAMES = (
    "live_m2", "live_m1", "live_p1", "live_p2",  # unseen copies of the tiles two and one below and above
    "early_m2", "late_m2", "early_m1", "late_m1", "early_p1", "late_p1", "early_p2", "late_p2",  # in its pile
    "early_self", "recent_outer", "middle_share", "early_suit", "bonus", "seen", "concealed",
)


def wide_features(p: Perception, r: Reading, opp: int, t: int) -> list[float]:
    """More inputs for opponent ``opp`` and tile ``t`` (in the order of :data:`WIDE_NAMES`): how many
    copies of each neighbour are unseen, which neighbours it threw among its first six discards or
    later, whether it threw the tile itself early, the share of terminals and honours among its last
    five discards and of middle tiles in its pile, the share of its first six in the tile's suit, its
    bonus tiles, the copies of the tile in sight, its concealed tiles."""
    pile = r.piles[opp]
    suited = t < 27
    near = [t + d if suited and 0 <= t + d < 27 and (t + d) // 9 == t // 9 else -1 for d in (-2, -1, 1, 2)]
    early, late = pile[:6], pile[6:]
    suit = t // 9 if suited else 3
    out = [(4 - p.visible[u]) / 4.0 if u >= 0 else 0.0 for u in near]
    for u in near:
        out += [float(u >= 0 and u in early), float(u >= 0 and u in late)]
    return [
        *out,
        float(t in early),
        sum(1 for x in pile[-5:] if x >= 27 or x % 9 in (0, 8)) / 5.0,
        sum(1 for x in pile if x < 27 and 2 <= x % 9 <= 6) / (len(pile) or 1),
        sum(1 for x in early if (x // 9 if x < 27 else 3) == suit) / 6.0,
        len(p.seats[opp].bonus) / 4.0,
        p.visible[t] / 4.0,
        p.seats[opp].concealed_count / 13.0,
    ]


def hand_rows(args: tuple[int, int, bool]) -> list[Row]:
    """The samples of hand ``h`` of the run seeded ``seed`` (with the wide features if ``wide``)."""
    seed, h, wide = args
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
                x = features(p, r, opp, t) + (wide_features(p, r, opp, t) if wide else [])
                rows.append((x, int(won), th.tenpai * tile_danger(p, th, t)))

    play_hand(rules, bots, seed=seed * 1_000_003 + h, dealer=h % 4, prevailing=(h // 4) % 4, watch=watch)
    return rows


def collect(seed: int, hands: int, workers: int, wide: bool = False) -> list[Row]:
    """The samples of ``hands`` seeded hands, in hand order."""
    return gather(hand_rows, [(seed, h, wide) for h in range(hands)], workers=workers, what="samples")


def fit(x: Any, y: Any, l2: float = 1.0, rounds: int = 30) -> Any:
    """Logistic regression by Newton's method (weights of the columns of ``x``)."""
    import numpy as np

    w = np.zeros(x.shape[1])
    reg = l2 * np.eye(x.shape[1])
    reg[0, 0] = 0.0  # the bias is not shrunk
    for _ in range(rounds):
        q = predict(w, x)
        grad = x.T @ (q - y) + reg @ w
        hess = (x * (q * (1 - q))[:, None]).T @ x + reg
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.abs(step).max()) < 1e-7:
            break
    return w


def predict(w: Any, x: Any) -> Any:
    """The chances the logistic weights ``w`` (of :func:`fit`) give the rows of ``x``."""
    import numpy as np

    return 1.0 / (1.0 + np.exp(-np.clip(np.asarray(x, dtype=float) @ w, -30, 30)))


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


def write(path: str, w: Any, note: str, names: Sequence[str] = NAMES, model: str = "danger") -> None:
    """Write the weights ``w`` (one per name) as the module of ``bots/<model>.py``'s model."""
    lines = [f'"""The weights of :mod:`.{model}`\'s model, written by ``make train-{model}``',
             f"({note}).", '"""', "", "WEIGHTS = ("]
    lines += [f"    {float(v)!r},  # {name}" for name, v in zip(names, w, strict=True)]
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
    ap.add_argument("--wide", action="store_true",
                    help="also fit a model over more features and print its figures (writes nothing)")
    args = ap.parse_args(argv)
    if args.hands < 10:
        ap.error("--hands must be at least 10")
    if args.wide and args.out:
        ap.error("--wide measures a model the bots do not play: it writes no weights (drop --out)")
    start = time.perf_counter()
    train_hands = max(1, int(args.hands * (1 - args.holdout)))
    train = collect(args.seed, train_hands, args.workers, args.wide)
    test = collect(args.seed + 1_000_000, args.hands - train_hands, args.workers, args.wide)
    narrow = len(NAMES)
    x_all = np.array([r[0] for r in train], dtype=float)
    x = x_all[:, :narrow]
    y = np.array([r[1] for r in train], dtype=float)
    w = fit(x, y)
    xt_all = np.array([r[0] for r in test], dtype=float)
    xt = xt_all[:, :narrow]
    yt = np.array([r[1] for r in test], dtype=float)
    learned = predict(w, xt)
    guess = np.array([r[2] for r in test], dtype=float)
    base = np.full(len(yt), y.mean())
    print(f"samples: {len(y):,} to fit ({int(y.sum()):,} deal in), {len(yt):,} held out "
          f"({int(yt.sum()):,}); {time.perf_counter() - start:.0f} s")
    print("held out        log loss   AUC")
    print(f"  base rate     {log_loss(base, yt):.4f}     0.500")
    print(f"  strong's guess {log_loss(np.clip(guess, 1e-6, 0.999), yt):.4f}    {auc(guess, yt):.3f}")
    print(f"  learned       {log_loss(learned, yt):.4f}     {auc(learned, yt):.3f}")
    if args.wide:
        wide = 1.0 / (1.0 + np.exp(-np.clip(xt_all @ fit(x_all, y), -30, 30)))
        print(f"  learned, wide {log_loss(wide, yt):.4f}     {auc(wide, yt):.3f}   "
              f"({len(NAMES) + len(WIDE_NAMES)} features)")
    for name, v in zip(NAMES, w, strict=True):
        print(f"    {name:<16} {v:+.3f}")
    if args.out:
        write(args.out, w, f"{train_hands} hands of four strong, seed {args.seed}")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main(sys.argv[1:])

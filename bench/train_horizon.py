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
import textwrap
import time
from collections.abc import Sequence
from typing import Any

from bench.hands_pool import gather
from bench.train_advantage import fit
from bench.train_danger import write
from sgmahjong.bots import make_bot
from sgmahjong.bots.determinise import Table, knowledge, table
from sgmahjong.bots.horizon import NAMES, WIDE_NAMES, features, play_on, seat_facts, wide_features
from sgmahjong.bots.lean import LeanPolicy, sample_sim
from sgmahjong.bots.lean_policy import lean_quick_policy
from sgmahjong.game import apply, awaiting, legal_actions, new_hand, player_view
from sgmahjong.game.state import ENDED
from sgmahjong.rules import RuleSet

Row = tuple[list[float], float]  # features, the change of the seat's net payment to the end
EVERY = 3  # a playout's decisions recorded: every third
QUICK: tuple[LeanPolicy, ...] = (lean_quick_policy,) * 4  # every seat plays on by the quick policy


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


def hand_rows(args: tuple[int, int, int, bool]) -> list[Row]:
    """The samples of hand ``h`` of the run seeded ``seed``: ``deals`` playouts from its decision point
    (with the :data:`WIDE_NAMES` inputs after the value's if ``wide``)."""
    seed, h, deals, wide = args
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
                marks += [(features(sim, s, facts) + (wide_features(sim, s) if wide else []), s,
                           sim.ledger[s]) for s in range(4)]
            play_on(sim, QUICK, 1)
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
        play_on(sim, QUICK, rng.randrange(30))
        if sim.phase == ENDED:
            continue
        ends: list[list[int]] = []
        for _ in range(k):
            again = sim.copy()
            lo, hi = again.front, len(again.wall) - again.back
            undrawn = again.wall[lo:hi]
            rng.shuffle(undrawn)
            again.wall[lo:hi] = undrawn
            play_on(again, QUICK, 10_000)
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
    k: int = y.shape[1]
    within = float(y.var(axis=1, ddof=1).mean())
    between = float(y.mean(axis=1).var(ddof=1)) - within / k
    return between / (between + within)


def collect(seed: int, first: int, hands: int, deals: int, workers: int, wide: bool = False) -> list[Row]:
    """The samples of the seeded hands ``first`` to ``first + hands - 1``, in hand order."""
    return gather(hand_rows, [(seed, h, deals, wide) for h in range(first, first + hands)], workers=workers,
                  every=50, what="samples")


Network = tuple[list[Any], Any, Any]  # the layers' weights and biases, the inputs' means and scales


def fit_network(x: Any, y: Any, *, hidden: int = 64, epochs: int = 4, seed: int = 0) -> Network:
    """A small network fitted to ``y`` (inputs standardised, two hidden layers of ``hidden`` rectified
    units, squared error, Adam, batches of 4,096; numpy, seeded)."""
    import numpy as np

    mu, sd = x.mean(0), x.std(0) + 1e-6
    a = (x - mu) / sd
    rng = np.random.default_rng(seed)
    n = a.shape[1]
    params = [rng.normal(0, (2 / n) ** 0.5, (n, hidden)), np.zeros(hidden),
              rng.normal(0, (2 / hidden) ** 0.5, (hidden, hidden)), np.zeros(hidden),
              np.zeros((hidden, 1)), np.full(1, float(y.mean()))]
    first, second = [np.zeros_like(p) for p in params], [np.zeros_like(p) for p in params]
    step = 0
    for _ in range(epochs):
        order = rng.permutation(len(a))
        for i in range(0, len(a), 4096):
            idx = order[i:i + 4096]
            b = a[idx]
            h1 = np.maximum(b @ params[0] + params[1], 0)
            h2 = np.maximum(h1 @ params[2] + params[3], 0)
            g = (2 * ((h2 @ params[4] + params[5])[:, 0] - y[idx]) / len(idx))[:, None]
            g2 = g @ params[4].T * (h2 > 0)
            g1 = g2 @ params[2].T * (h1 > 0)
            grads = (b.T @ g1, g1.sum(0), h1.T @ g2, g2.sum(0), h2.T @ g, g.sum(0))
            step += 1
            for k, gr in enumerate(grads):
                first[k] = 0.9 * first[k] + 0.1 * gr
                second[k] = 0.999 * second[k] + 0.001 * gr * gr
                params[k] -= 1e-3 * (first[k] / (1 - 0.9 ** step)) / (
                    np.sqrt(second[k] / (1 - 0.999 ** step)) + 1e-8)
    return params, mu, sd


def predict(net: Network, x: Any) -> Any:
    """The network's output for each row of ``x``."""
    import numpy as np

    params, mu, sd = net
    h1 = np.maximum((x - mu) / sd @ params[0] + params[1], 0)
    h2 = np.maximum(h1 @ params[2] + params[3], 0)
    return (h2 @ params[4] + params[5])[:, 0]


def share(y: Any, pred: Any) -> float:
    """The share of the variance of ``y`` that ``pred`` explains."""
    return 1 - float(((y - pred) ** 2).mean()) / float(y.var())


def network_share(x: Any, y: Any, xt: Any, yt: Any) -> float:
    """The held-out share of the variance a :func:`fit_network` network explains: what a learned value
    beyond a linear one could give on these inputs."""
    return share(yt, predict(fit_network(x, y), xt))


def _digits(x: Any) -> str:
    """A float to 7 digits, written as a float literal (``1.0``, not ``1``)."""
    text = f"{float(x):.7g}"
    return text if any(c in text for c in ".en") else text + ".0"


def write_network(path: str, net: Network, note: str) -> None:
    """Write ``net`` as the module :mod:`sgmahjong.bots.horizon_network` (weights to 7 digits)."""
    params, mu, sd = net

    def row(v: Any) -> str:  # one line a row: the module stays short (E501 is off for it)
        return "(" + ", ".join(_digits(x) for x in v) + ",)"

    def layer(m: Any, bias: Any) -> str:
        rows = "".join(f"        {row(r)},\n" for r in m)
        return f"    (\n        (\n{rows}        ),\n        {row(bias)},\n    ),"

    lines = ['"""The weights of :mod:`.horizon`\'s network value, written by ``make train-horizon``',
             *textwrap.wrap(f"({note}). Each hidden layer: a row of input weights per unit, then the "
                            "units' biases.", 100), '"""', "",
             "Layer = tuple[tuple[tuple[float, ...], ...], tuple[float, ...]]", "",
             f"MEAN: tuple[float, ...] = {row(mu)}", f"SCALE: tuple[float, ...] = {row(sd)}",
             "HIDDEN: tuple[Layer, ...] = (", layer(params[0].T, params[1]), layer(params[2].T, params[3]),
             ")", f"OUT: tuple[float, ...] = {row(params[4][:, 0])}",
             f"OUT_BIAS = {_digits(params[5][0])}", ""]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


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
    ap.add_argument("--wide", action="store_true",
                    help="also fit the model over more inputs (WIDE_NAMES) and print its figures "
                         "(writes nothing)")
    ap.add_argument("--network", action="store_true",
                    help="also fit a small network on the inputs and print its held-out share "
                         "(writes nothing)")
    ap.add_argument("--network-out", metavar="FILE",
                    help="fit the network on the value's and the wide inputs and write it here "
                         "(a Python module)")
    args = ap.parse_args(argv)
    if args.network_out:
        args.wide = True
    if args.hands < 4 or args.deals < 1 or args.workers < 1 or not 0 < args.holdout < 1:
        ap.error("--hands at least 4, --deals and --workers at least 1, --holdout between 0 and 1")
    if args.ceiling == 1 or args.ceiling < 0:
        ap.error("--ceiling K: at least 2 playouts a position")
    start = time.perf_counter()
    train_hands = max(1, int(args.hands * (1 - args.holdout)))
    train = collect(args.seed, 0, train_hands, args.deals, args.workers, args.wide)
    test = collect(args.seed, train_hands, args.hands - train_hands, args.deals, args.workers, args.wide)
    if not train or not test:
        ap.error("no samples: more --hands")
    x, y = np.array([r[0] for r in train]), np.array([r[1] for r in train])
    xt, yt = np.array([r[0] for r in test]), np.array([r[1] for r in test])
    k = len(NAMES)
    w = fit(x[:, :k], y, l2=1.0)
    print(f"samples: {len(y):,} to fit ({train_hands} hands), {len(yt):,} held out "
          f"({args.hands - train_hands} hands), seed {args.seed}, {args.deals} playouts a hand")
    for name, xs, ys in (("fitted", x, y), ("held out", xt, yt)):
        pred = xs[:, :k] @ w
        print(f"  {name:<9} variance {float(ys.var()):7.2f}, explained {share(ys, pred):.3f}, "
              f"correlation {float(np.corrcoef(pred, ys)[0, 1]):.3f}")
    if args.wide:
        print(f"  with the {len(WIDE_NAMES)} wide inputs, held out: explained "
              f"{share(yt, xt @ fit(x, y, l2=1.0)):.3f}")
    if args.network:
        print(f"  a network on the value's inputs, held out: explained "
              f"{network_share(x[:, :k], y, xt[:, :k], yt):.3f}", flush=True)
    if args.wide and (args.network or args.network_out):
        net = fit_network(x, y)
        print(f"  a network with the wide inputs, held out: explained {share(yt, predict(net, xt)):.3f}")
        if args.network_out:
            write_network(args.network_out, net, f"{train_hands} hands of four strong, seed {args.seed}, "
                          f"{args.deals} quick playouts from each")
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

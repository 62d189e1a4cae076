"""How well the discards say what a ready seat waits on: the share of a reading's chance on the true waits.

The ready deals (``bots/ready.py``) deal a seat that is likely ready a hand that wins on a face drawn by
the learned chances of :mod:`sgmahjong.bots.danger`. Those chances were learned for defence (can this
seat win on this tile, over every seat, ready or not); a ready deal needs the other half, *which* faces
a seat that is ready waits on. This bench plays seeded hands of four ``strong`` and, at every turn, for
every other seat that is ready (it can win on a discard now: the engine says so from the true hand,
:func:`bench.ready_calibration.true_waits`), records each face it may win on (the live faces: not
barred) with the reading's inputs and whether it is one of the seat's waits. On held-out hands it
prints, per reading, the mean share of its chance that lies on the true waits (what a ready deal draws
a true wait with) and how often its likeliest face is one:

- ``uniform``: every live face alike (what a reading that knows nothing would draw);
- ``danger``: the learned chance of :mod:`.danger`, as the ready deals draw it, and its square;
- ``fitted``: a logistic model of "this face is a wait" fitted on the training hands' ready seats only,
  over the danger model's inputs (``fitted, wide``: and those of ``bench.train_danger --wide``): what
  a reading trained for the waits themselves would give on the same inputs; ``fitted, wide and
  drawn``: and inputs a table shows but the player view does not (:func:`drawn_features`: which of the
  seat's discards were the tile it had just drawn, and the faces beside its latest from the hand).

    python -m bench.wait_reading --hands 2000 --seed 555 --workers 2

A measurement for the next lever, not a model the bots play (nothing is written).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from bench.hands_pool import gather
from bench.ready_calibration import true_waits
from bench.train_danger import WIDE_NAMES, fit, predict, wide_features
from sgmahjong.bots import make_bot
from sgmahjong.bots.arena import play_hand
from sgmahjong.bots.danger import NAMES, chance, features, read
from sgmahjong.bots.perception import perceive
from sgmahjong.rules import RuleSet
from sgmahjong.tiles import NUM_PLAYING

Face = tuple[list[float], float, int]  # the inputs (narrow, wide, drawn), the danger chance, a wait?
Seat = list[Face]  # a ready seat at a turn: its live faces


DRAWN_NAMES = ("drawn_streak", "drawn_last3", "hand_last", "hand_same", "hand_near1", "hand_near2",
               "hand_near1_last")


def pile_of(seat: Any) -> list[int]:
    """A seat's whole pile in order, the discards others claimed in their places (the true state's)."""
    pile = [int(t) for t in seat.discards]
    for place, tile, _ in sorted(seat.taken):
        pile.insert(place, int(tile))
    return pile


def drawn_features(made: Sequence[bool], pile: Sequence[int], t: int) -> list[float]:
    """Inputs a table shows and the player view does not (in the order of :data:`DRAWN_NAMES`): of
    the seat's discards, ``made`` says which were the tile it had just drawn. How many of its latest
    discards in a row were (up to 6, over 6) and of its last three; whether its latest discard came
    from the hand; and, for its latest discard from the hand ``u``: ``t`` is ``u``, one from it in the
    suit, two from it, and one from it when ``u`` was the latest discard."""
    streak = 0
    for m in reversed(made):
        if not m:
            break
        streak += 1
    u = next((x for x, m in zip(reversed(pile), reversed(made), strict=False) if not m), -1)
    suited = 0 <= u < 27 and t < 27 and u // 9 == t // 9
    near1 = float(suited and abs(t - u) == 1)
    last = float(bool(made) and not made[-1])
    return [min(streak, 6) / 6.0, sum(made[-3:]) / 3.0, last, float(t == u), near1,
            float(suited and abs(t - u) == 2), near1 * last]


def hand_seats(args: tuple[int, int]) -> list[Seat]:
    """The ready seats of hand ``h`` of the run seeded ``seed``, at every turn of the others."""
    seed, h = args
    rules = RuleSet()
    bots = [make_bot("strong", seed * 100_003 + h * 4 + s, rules) for s in range(4)]
    seats: list[Seat] = []
    made: list[list[bool]] = [[], [], [], []]  # each seat's discards: the tile it had just drawn?
    drawn: list[int | None] = [None] * 4  # the tile each seat held drawn at its latest turn

    def watch(state: Any, seat: int, view: dict[str, Any], legal: list[Any]) -> None:
        for s in range(4):
            pile = pile_of(state.seats[s])
            if len(pile) > len(made[s]):
                made[s].append(drawn[s] is not None and pile[-1] == drawn[s])
        if not any(a.kind == "discard" for a in legal):
            return
        d = state.seats[seat].drawn
        drawn[seat] = None if d is None else int(d)
        p = perceive(view)
        r = read(view)
        for opp in range(4):
            if opp == seat or p.seats[opp].concealed_count % 3 != 1:
                continue
            ch = [chance(p, r, opp, t) for t in range(NUM_PLAYING)]
            waits = true_waits(state, opp, ch, rules)
            if waits:
                pile = pile_of(state.seats[opp])
                seats.append([(features(p, r, opp, t) + wide_features(p, r, opp, t)
                               + drawn_features(made[opp], pile, t), ch[t], int(t in waits))
                              for t in range(NUM_PLAYING) if ch[t] > 0.0])

    play_hand(rules, bots, seed=seed * 1_000_003 + h, dealer=h % 4, prevailing=(h // 4) % 4, watch=watch)
    return seats


def collect(seed: int, hands: int, workers: int) -> list[Seat]:
    """The ready seats of ``hands`` seeded hands, in hand order."""
    return gather(hand_seats, [(seed, h) for h in range(hands)], workers=workers, what="ready seats")


def shares(seats: Sequence[Seat], weights: Sequence[Sequence[float]]) -> tuple[float, float]:
    """(the mean share of the weights on the true waits, the share of seats whose likeliest face is one,
    ties shared)."""
    mass = top = 0.0
    for seat, w in zip(seats, weights, strict=True):
        total = sum(w)
        mass += sum(x for x, (_, _, y) in zip(w, seat, strict=True) if y) / total if total > 0 else 0.0
        hi = max(w)
        best = [y for x, (_, _, y) in zip(w, seat, strict=True) if x == hi]
        top += sum(best) / len(best)  # ties shared
    return mass / len(seats), top / len(seats)


def main(argv: list[str] | None = None) -> None:
    import numpy as np

    ap = argparse.ArgumentParser(prog="python -m bench.wait_reading", description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=555)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--holdout", type=float, default=0.2, help="share of the hands kept for the check")
    args = ap.parse_args(argv)
    if args.hands < 2 or args.workers < 1 or not 0.0 < args.holdout < 1.0:
        ap.error("--hands must be at least 2, --workers at least 1, --holdout between 0 and 1")
    test_hands = max(1, round(args.hands * args.holdout))
    train = collect(args.seed, args.hands - test_hands, args.workers)
    test = collect(args.seed + 1_000_000, test_hands, args.workers)
    x = np.array([f for seat in train for f, _, _ in seat])
    y = np.array([lab for seat in train for _, _, lab in seat], dtype=float)
    cut = len(NAMES)  # the danger model's own inputs come first
    wide = cut + len(WIDE_NAMES)
    models = {"fitted": (fit(x[:, :cut], y), cut), "fitted, wide": (fit(x[:, :wide], y), wide),
              "fitted, wide and drawn": (fit(x, y), x.shape[1])}
    rows: dict[str, list[list[float]]] = {
        "uniform": [[1.0] * len(s) for s in test],
        "danger": [[c for _, c, _ in s] for s in test],
        "danger squared": [[c * c for _, c, _ in s] for s in test]}
    for name, (w, n) in models.items():
        rows[name] = [list(predict(w, [f[:n] for f, _, _ in s])) for s in test]
    faces = sum(len(s) for s in test) / len(test)
    waits = sum(lab for s in test for _, _, lab in s) / len(test)
    print(f"{len(train):,} ready seats to fit ({args.hands - test_hands} hands, seed {args.seed}), "
          f"{len(test):,} held out ({test_hands} hands); {faces:.1f} live faces and {waits:.2f} waits a seat")
    print("| reading | its chance on the true waits | its likeliest face a wait |")
    print("|---|---|---|")
    for name, w in rows.items():
        mass, top = shares(test, w)
        print(f"| {name} | {mass:.3f} | {top:.3f} |")


if __name__ == "__main__":
    main()

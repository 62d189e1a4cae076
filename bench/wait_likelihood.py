"""How much a ready seat's latest discard says of its waits, read by the policy that made it.

The readings of :mod:`bench.wait_reading` put about a tenth of their chance on a ready seat's true
waits. They read the discards by their statistics. Against a table of ``strong`` a reading can do
more: ``strong`` chose its latest discard ``d`` from its hand and ``d``, so a hand that waits on face
``f`` is likely only if ``strong``, holding it and ``d``, would throw ``d``. This bench asks how much
that likelihood adds. For every ready seat at every turn of the others (as in :mod:`bench.wait_reading`)
and each face ``f`` it may win on, it builds ``--builds`` waiting hands on ``f`` from the tiles the
observing seat cannot see (:func:`sgmahjong.bots.ready.build_ready`), puts each with ``d`` into the
state of the seat's latest discard, and counts how often ``strong`` throws ``d`` from it: ``L(f)``.
It prints the share of each reading's chance on the true waits, alone and times ``L``, on hands of
four ``strong`` (fitted readings trained on other hands of the same run):

    python -m bench.wait_likelihood --hands 1000 --seed 556 --builds 4 --workers 2

A measurement of what a reading could know (it reads the latest discard by the very policy that made
it, which only a table of ``strong`` allows), not a reading the bots play: nothing is written.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bench.hands_pool import gather
from bench.ready_calibration import true_waits
from bench.train_danger import fit, predict, wide_features
from bench.wait_reading import pile_of, shares
from sgmahjong.bots import make_bot
from sgmahjong.bots.arena import play_hand
from sgmahjong.bots.danger import NAMES, chance, features, read
from sgmahjong.bots.determinise import knowledge
from sgmahjong.bots.perception import perceive
from sgmahjong.bots.ready import build_ready
from sgmahjong.game.engine import legal_actions
from sgmahjong.game.view import player_view
from sgmahjong.rules import RuleSet
from sgmahjong.tiles import NUM_PLAYING, Tile

# inputs (narrow, wide), danger chance, a wait?, L of the latest 1..K discards (empty: none read)
Face = tuple[list[float], float, int, list[float]]
Seat = list[Face]
Snap = tuple[Any, int, int, int]  # a seat's state at a discard choice, its pile, concealed tiles, melds


def throws(bot: Any, before: Any, opp: int, hand: Sequence[int], d: int, draw: int | None = None) -> bool:
    """Whether ``bot``, seat ``opp`` in state ``before`` (its turn, the moment it threw ``d``) holding
    ``hand`` and ``d``, throws ``d``; the tile it had just drawn is ``draw`` where given, else ``d``
    if the true state's was, else another."""
    st = before.seats[opp]
    tiles = tuple(sorted(Tile(x) for x in (*hand, d)))
    drawn = None if st.drawn is None else Tile(draw) if draw is not None \
        else Tile(d) if int(st.drawn) == d else tiles[-1]
    seat = replace(st, concealed=tiles, drawn=drawn, waits=None)
    state = replace(before, seats=tuple(seat if i == opp else s for i, s in enumerate(before.seats)))
    legal = legal_actions(state, opp)
    if not any(a.kind == "discard" for a in legal):
        return False
    a = bot.choose(player_view(state, opp), legal)
    return a.kind == "discard" and a.tile is not None and int(a.tile) == d


def kept(bot: Any, snaps: Sequence[Snap], opp: int, hand: Sequence[int], pile: Sequence[int],
         rng: random.Random) -> list[int]:
    """For a history of ``hand`` walked back through the seat's plain turns ``snaps`` (the latest
    first): 1 for each of the latest discards ``bot`` throws from it, up to the first it does not, then
    0. One turn back, the hand before a discard loses the tile drawn that turn, drawn at random from it
    (the table does not show which); with one turn read, the true state says whether ``d`` was drawn."""
    out = [0] * len(snaps)
    h = list(hand)
    for j, snap in enumerate(snaps):
        d = pile[snap[1]]
        before = [*h, d]
        r = rng.choice(before) if len(snaps) > 1 and snap[0].seats[opp].drawn is not None else None
        if not throws(bot, snap[0], opp, h, d, r):
            break
        out[j] = 1
        if r is None or j + 1 == len(snaps):
            break
        before.remove(r)
        h = before
    return out


def likelihoods(bot: Any, snaps: Sequence[Snap], opp: int, pile: Sequence[int], unseen: Sequence[int],
                n: int, faces: Sequence[int], builds: int, rng: random.Random) -> dict[int, list[float]]:
    """``L(f)`` for each of ``faces``, of the latest 1..K discards (K = ``len(snaps)``): the share of
    ``builds`` waiting hands of ``n`` tiles on ``f`` (from ``unseen``) with a history from which
    ``bot`` throws every one of them (empty where no hand could be built)."""
    out: dict[int, list[float]] = {}
    for f in faces:
        made = 0
        hits = [0] * len(snaps)
        for _ in range(builds * 2):
            if made == builds:
                break
            hand = build_ready(unseen, n, f, rng)
            if hand is None:
                continue
            made += 1
            hits = [a + b for a, b in zip(hits, kept(bot, snaps, opp, hand, pile, rng), strict=True)]
        out[f] = [x / made for x in hits] if made else []
    return out


def plain_turns(history: Sequence[Snap], pile: Sequence[int], n: int, steps: int) -> list[Snap]:
    """The seat's latest discard choices (the latest first, up to ``steps``) that a hand of ``n``
    concealed tiles and ``pile`` can be walked back through: the latest threw the last tile of the pile,
    and each before it threw the tile before, with the same tiles concealed and the same sets (a turn
    of one drawn tile and one discard, no claim or kong between)."""
    out: list[Snap] = []
    want, size = len(pile) - 1, n + 1
    for snap in reversed(history):
        if len(out) == steps or snap[1] != want or snap[2] != size or (out and snap[3] != out[-1][3]):
            break
        out.append(snap)
        want -= 1
    return out


def hand_seats(args: tuple[int, int, int, int]) -> list[Seat]:
    """The ready seats of hand ``h`` of the run seeded ``seed`` at every turn of the others, with
    ``L`` of the latest 1..``steps`` discards when ``builds`` > 0."""
    seed, h, builds, steps = args
    rules = RuleSet()
    bots = [make_bot("strong", seed * 100_003 + h * 4 + s, rules) for s in range(4)]
    judge = make_bot("strong", seed * 7 + h, rules)
    rng = random.Random(seed * 1_000_033 + h)
    history: list[list[Snap]] = [[] for _ in range(4)]  # each seat's states at its discard choices
    seats: list[Seat] = []

    def watch(state: Any, seat: int, view: dict[str, Any], legal: list[Any]) -> None:
        if not any(a.kind == "discard" for a in legal):
            return
        p = perceive(view)
        r = read(view)
        unseen = knowledge(view).unseen[:NUM_PLAYING]
        for opp in range(4):
            if opp == seat or p.seats[opp].concealed_count % 3 != 1:
                continue
            ch = [chance(p, r, opp, t) for t in range(NUM_PLAYING)]
            waits = true_waits(state, opp, ch, rules)
            if not waits:
                continue
            faces = [t for t in range(NUM_PLAYING) if ch[t] > 0.0]
            lik: dict[int, list[float]] = {}
            pile = pile_of(state.seats[opp])
            n = len(state.seats[opp].concealed)
            snaps = plain_turns(history[opp], pile, n, steps)
            if builds and snaps:
                lik = likelihoods(judge, snaps, opp, pile, unseen, n, faces, builds, rng)
            seats.append([(features(p, r, opp, t) + wide_features(p, r, opp, t), ch[t], int(t in waits),
                           lik.get(t, [])) for t in faces])
        st = state.seats[seat]
        history[seat].append((state, len(pile_of(st)), len(st.concealed), len(st.melds)))

    play_hand(rules, bots, seed=seed * 1_000_003 + h, dealer=h % 4, prevailing=(h // 4) % 4, watch=watch)
    return seats


def _filled(seat: Seat, steps: int) -> Seat:
    """The seat with ``L`` of a face no hand could be built on set to the mean of the others, and ``L``
    of more discards than the seat's plain turns read set to that of those it read."""
    known = [lik for *_, lik in seat if lik]
    depth = len(known[0])
    mean = [sum(x[k] for x in known) / len(known) for k in range(depth)]
    return [(f, c, y, [(lik or mean)[min(k, depth - 1)] for k in range(steps)]) for f, c, y, lik in seat]


def main(argv: list[str] | None = None) -> None:
    import numpy as np

    ap = argparse.ArgumentParser(prog="python -m bench.wait_likelihood", description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=556)
    ap.add_argument("--builds", type=int, default=4, help="waiting hands built a face")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--holdout", type=float, default=0.2, help="share of the hands kept for the check")
    ap.add_argument("--steps", type=int, default=1, help="the latest discards read, walked back turn by turn")
    args = ap.parse_args(argv)
    if args.hands < 2 or min(args.workers, args.builds, args.steps) < 1 or not 0.0 < args.holdout < 1.0:
        ap.error("--hands must be at least 2, --workers, --builds and --steps at least 1, --holdout between "
                 "0 and 1")
    test_hands = max(1, round(args.hands * args.holdout))
    train = gather(hand_seats, [(args.seed, h, 0, 1) for h in range(args.hands - test_hands)],
                   workers=args.workers, what="ready seats to fit")
    held = [(args.seed + 1_000_000, h, args.builds, args.steps) for h in range(test_hands)]
    every = gather(hand_seats, held, workers=args.workers, every=20, what="ready seats held out")
    read_by = [s for s in every if any(lik for *_, lik in s)]
    depths = [max(len(lik) for *_, lik in s) for s in read_by]
    test = [_filled(s, args.steps) for s in read_by]
    x = np.array([f for seat in train for f, _, _, _ in seat])
    y = np.array([lab for seat in train for _, _, lab, _ in seat], dtype=float)
    cut = len(NAMES)
    fitted = {"fitted": (fit(x[:, :cut], y), cut), "fitted, wide": (fit(x, y), x.shape[1])}
    rows: dict[str, list[list[float]]] = {"uniform": [[1.0] * len(s) for s in test],
                                          "danger": [[c for _, c, _, _ in s] for s in test]}
    for name, (w, k) in fitted.items():
        rows[name] = [list(predict(w, [f[:k] for f, *_ in s])) for s in test]
    for name in list(rows):
        for k in range(args.steps):
            label = "L" if args.steps == 1 else f"L of the latest {k + 1}"
            rows[f"{name}, times {label}"] = [
                [w * (0.02 + lik[k]) for w, (*_, lik) in zip(ws, s, strict=True)]
                for ws, s in zip(rows[name], test, strict=True)]
    faces = sum(len(s) for s in test) / max(1, len(test))
    waits = sum(f[2] for s in test for f in s) / max(1, len(test))
    print(f"{len(train):,} ready seats to fit ({args.hands - test_hands} hands, seed {args.seed}), "
          f"{len(test):,} of {len(every):,} held out read by L ({test_hands} hands, {args.builds} builds a "
          f"face); {faces:.1f} live faces and {waits:.2f} waits a seat")
    if args.steps > 1:
        counts = ", ".join(f"{k}: {depths.count(k):,}" for k in range(1, args.steps + 1))
        print(f"plain turns read, seats: {counts}")
    for k in range(args.steps):
        on = [lik[k] for s in test for _, _, y, lik in s if y]
        off = [lik[k] for s in test for _, _, y, lik in s if not y]
        print(f"mean L of the latest {k + 1}: {sum(on) / max(1, len(on)):.3f} on the true waits, "
              f"{sum(off) / max(1, len(off)):.3f} on the other faces")
    print("| reading | its chance on the true waits | its likeliest face a wait |")
    print("|---|---|---|")
    for name, w in rows.items():
        mass, top = shares([[(f, c, y) for f, c, y, _ in s] for s in test], w)
        print(f"| {name} | {mass:.3f} | {top:.3f} |")


if __name__ == "__main__":
    main()

"""Measures :data:`sgmahjong.bots.tells.FACTORS` (not part of ``make bench``): plays hands of four
``strong`` bots and, at every turn, for each seat whose tiles the seat on turn cannot see and each face
it has not seen, adds the copies that seat truly holds and the copies a uniform deal would give it
(unseen copies x the seat's hidden tiles / all unseen tiles) under the face's :func:`feature`. Prints
each feature's observed / expected, smoothed towards 1 by ``--prior`` expected copies, as the Python
table ``tells.py`` holds.

    python -m bench.tile_tells --hands 2000 --seed 500000

``--sets`` asks instead whether a seat's exposed sets tell more than its discards: it prints, by how a
face stands to the seat's exposed sets (:func:`set_relation`), the copies held over those a uniform deal
gives and over those a deal by :data:`~sgmahjong.bots.tells.FACTORS` gives.

    python -m bench.tile_tells --hands 400 --seed 700000 --sets
"""

from __future__ import annotations

import argparse
import collections
import sys
from collections.abc import Sequence

from sgmahjong.bots import make_bot
from sgmahjong.bots.determinise import knowledge
from sgmahjong.bots.tells import FACTORS, FLOOR, HONOURS, feature
from sgmahjong.game import Action, HandState, player_view
from sgmahjong.game.state import SetRec
from sgmahjong.review import bot_hand_log
from sgmahjong.rules import RuleSet
from sgmahjong.tiles import NUM_PLAYING

Key = tuple[object, ...]


def set_relation(sets: Sequence[SetRec], t: int) -> Key:
    """How face ``t`` stands to a seat's exposed ``sets``: for an honour, the sets (0, 1, 2 or more) and
    whether the suited ones are all of one suit; for a suited tile, none, honours only, all in its suit
    (by how many, 1, 2, 3 or more), all in one other suit (by how many), or mixed."""
    suits = {m.tile // 9 for m in sets if m.tile < HONOURS}
    n = min(len(sets), 3)
    if t >= HONOURS:
        return ("honour", min(len(sets), 2), len(suits) == 1)
    suit = t // 9
    if not sets:
        return ("suited", "no sets")
    if not suits:
        return ("suited", "honour sets only")
    if suits == {suit}:
        return ("suited", "all in its suit", n)
    if len(suits) == 1:
        return ("suited", "all in one other suit", n)
    return ("suited", "mixed suits")


def measure(hands: int, seed: int,
            sets: bool = False) -> tuple[dict[Key, int], dict[Key, float], dict[Key, float]]:
    """(copies held, copies a uniform deal gives, copies a deal by the factors gives) by feature (by
    :func:`set_relation` with ``sets``) over ``hands`` hands from ``seed``."""
    rules = RuleSet()
    held: dict[Key, int] = collections.defaultdict(int)
    uniform: dict[Key, float] = collections.defaultdict(float)
    told: dict[Key, float] = collections.defaultdict(float)

    def look(state: HandState, who: int, legal: Sequence[Action], choice: Action) -> Action:
        if not any(a.kind == "discard" for a in legal):
            return choice
        k = knowledge(player_view(state, who))
        total = sum(k.unseen[:NUM_PLAYING])
        for s in range(4):
            if s == who or not k.hidden[s]:
                continue
            truth = [0] * NUM_PLAYING
            for x in state.seats[s].concealed:
                truth[x] += 1
            pool = [int(x) for x in k.discards[s] if x < NUM_PLAYING]
            for t in range(NUM_PLAYING):
                if k.unseen[t]:
                    tell = feature(pool, t, k.unseen[t], (s - k.dealer) % 4, k.prevailing)
                    key = set_relation(k.melds[s], t) if sets else tell
                    expected = k.unseen[t] * k.hidden[s] / total
                    held[key] += truth[t]
                    uniform[key] += expected
                    told[key] += expected * FACTORS.get(tell, 1.0)
        return choice

    for h in range(hands):
        bots = [make_bot("strong", (seed + h) * 4 + s, rules) for s in range(4)]
        bot_hand_log(rules, bots, seed=seed + h, dealer=h % 4, tamper=look)
        if (h + 1) % 100 == 0:
            print(f"   {h + 1}/{hands} hands", file=sys.stderr, flush=True)
    return held, uniform, told


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=2000)
    p.add_argument("--seed", type=int, default=500000)
    p.add_argument("--prior", type=float, default=10.0, help="expected copies that pull a factor to 1")
    p.add_argument("--sets", action="store_true", help="what the exposed sets tell beyond the discards")
    args = p.parse_args(argv)
    held, uniform, told = measure(args.hands, args.seed, args.sets)
    if args.sets:
        print("face and the seat's exposed sets: held / uniform deal, held / deal by the discards (uniform)")
        for key in sorted(uniform, key=str):
            name = " ".join(map(str, key))
            ratios = f"{held[key] / uniform[key]:5.2f} {held[key] / told[key]:5.2f}"
            print(f"   {name:<32} {ratios} ({uniform[key]:.0f})")
        return
    print("FACTORS: dict[tuple[int, ...], float] = {")
    for key in sorted(uniform):
        factor = max(FLOOR, (held[key] + args.prior) / (uniform[key] + args.prior))
        print(f"    {key}: {factor:.2f},  # {held[key]} held, {uniform[key]:.0f} uniform")
    print("}")


if __name__ == "__main__":
    main()

"""Measures :data:`sgmahjong.bots.tells.FACTORS` (not part of ``make bench``): plays hands of four
``strong`` bots and, at every turn, for each seat whose tiles the seat on turn cannot see and each face
it has not seen, adds the copies that seat truly holds and the copies a uniform deal would give it
(unseen copies x the seat's hidden tiles / all unseen tiles) under the face's :func:`feature`. Prints
each feature's observed / expected, smoothed towards 1 by ``--prior`` expected copies, as the Python
table ``tells.py`` holds.

    python -m bench.tile_tells --hands 2000 --seed 500000
"""

from __future__ import annotations

import argparse
import collections
import sys
from collections.abc import Sequence

from sgmahjong.bots import make_bot
from sgmahjong.bots.determinise import knowledge
from sgmahjong.bots.tells import FLOOR, feature
from sgmahjong.game import Action, HandState, player_view
from sgmahjong.review import bot_hand_log
from sgmahjong.rules import RuleSet
from sgmahjong.tiles import NUM_PLAYING


def measure(hands: int, seed: int) -> tuple[dict[tuple[int, ...], int], dict[tuple[int, ...], float]]:
    """(copies held, copies a uniform deal gives) by feature over ``hands`` hands from ``seed``."""
    rules = RuleSet()
    held: dict[tuple[int, ...], int] = collections.defaultdict(int)
    uniform: dict[tuple[int, ...], float] = collections.defaultdict(float)

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
                    key = feature(pool, t, k.unseen[t], (s - k.dealer) % 4, k.prevailing)
                    held[key] += truth[t]
                    uniform[key] += k.unseen[t] * k.hidden[s] / total
        return choice

    for h in range(hands):
        bots = [make_bot("strong", (seed + h) * 4 + s, rules) for s in range(4)]
        bot_hand_log(rules, bots, seed=seed + h, dealer=h % 4, tamper=look)
        if (h + 1) % 100 == 0:
            print(f"   {h + 1}/{hands} hands", file=sys.stderr, flush=True)
    return held, uniform


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=2000)
    p.add_argument("--seed", type=int, default=500000)
    p.add_argument("--prior", type=float, default=10.0, help="expected copies that pull a factor to 1")
    args = p.parse_args(argv)
    held, uniform = measure(args.hands, args.seed)
    print("FACTORS: dict[tuple[int, ...], float] = {")
    for key in sorted(uniform):
        factor = max(FLOOR, (held[key] + args.prior) / (uniform[key] + args.prior))
        print(f"    {key}: {factor:.2f},  # {held[key]} held, {uniform[key]:.0f} uniform")
    print("}")


if __name__ == "__main__":
    main()

"""Deals whose hands are as far along as the table's.

A player has drawn and thrown for every turn it has played, keeping what works, so by the middle of a
hand its concealed tiles are near a winning hand: over hands of four ``strong`` bots, a fifth of the
other seats' hands are one tile from winning halfway through the wall and more than half in its last
thirty tiles. Thirteen tiles dealt at random from those a seat cannot see almost never are (none of
the hands dealt in those stages), so a search on such deals imagines opponents who are slow to win and
a discard that is rarely dangerous.

:func:`work` plays a dealt hand forward as its seat did: once for each turn the seat has played, it draws
a random playing tile from the rest of the deal and throws back the one that leaves the hand nearest
to winning (ties at random). The hand keeps its size and its tiles stay among the unseen ones, so the
deal stays consistent with the view; only how far along the hands are changes. Over the same hands the
worked hands are one tile from winning about as often as the real ones (docs/expert-levers.md).
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence

from ..tiles import NUM_PLAYING, Tile
from .forward import _distances


def work(hand: list[Tile], n_melds: int, rest: MutableSequence[Tile], turns: int,
         rng: random.Random) -> list[Tile]:
    """``hand`` (a seat's dealt concealed tiles) after ``turns`` draws from ``rest`` (the deal's other
    unseen tiles, changed in place: a drawn tile's place takes the tile thrown back), each followed by
    the discard that leaves the hand nearest to winning; the new hand, sorted."""
    places = [j for j, t in enumerate(rest) if t < NUM_PLAYING]
    if not places or turns <= 0 or len(hand) % 3 != 1:
        return hand
    counts = [0] * NUM_PLAYING
    for t in hand:
        counts[t] += 1
    for _ in range(turns):
        j = places[rng.randrange(len(places))]
        counts[rest[j]] += 1
        after = _distances(counts, n_melds)
        best = min(after.values())
        ties = [x for x, d in after.items() if d == best]
        out = ties[rng.randrange(len(ties))] if len(ties) > 1 else ties[0]
        counts[out] -= 1
        rest[j] = Tile(out)
    return [Tile(t) for t in range(NUM_PLAYING) for _ in range(counts[t])]

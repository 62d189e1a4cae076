"""The ``greedy`` level: pure tile efficiency.

* win whenever the engine offers it;
* discard: the lowest shanten, then the most live useful tiles (visible tiles discounted);
* kong when it does not raise the shanten; pong/chow only if it lowers the shanten (or keeps it and
  widens the acceptance); otherwise pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from ..tiles import Tile
from . import efficiency as ef
from .base import A, Bot, View
from .perception import Perception, perceive
from .tactics import discard_table, hand_acceptance


def claimed_tile(p: Perception, legal: Sequence[A]) -> int | None:
    """The tile a claim window is about (the last discard, or a kong's tile)."""
    if p.claim is not None:
        return p.claim[2]
    for a in legal:
        if a.kind == "kong" and a.tile is not None:
            return int(a.tile)
    if p.last_discard is not None:
        return p.last_discard[1]
    return None


def kong_removal(p: Perception, tile: int, claiming: bool) -> tuple[list[int], int] | None:
    """(concealed tiles the kong uses, sets it adds) or None if the bot cannot tell."""
    if claiming:
        return [tile] * 3, 1
    if p.hand[tile] >= 4:
        return [tile] * 4, 1
    if any(k == "pong" and lo == tile for k, lo, _ in p.me.melds):
        return [tile], 0
    return None


def claim_rest(counts: Sequence[int], a: A, tile: int) -> tuple[list[int], int] | None:
    """The concealed counts after the pong or chow ``a`` of the discarded ``tile``, and the set's
    lowest tile; None if the hand lacks a tile it needs."""
    if a.kind == "pong":
        lo, remove = tile, [tile, tile]
    else:
        lo = int(a.tile) if a.tile is not None else tile
        remove = [x for x in (lo, lo + 1, lo + 2) if x != tile]
    work = list(counts)
    for x in remove:
        work[x] -= 1
    if min(work) < 0:
        return None
    return work, lo


class GreedyBot(Bot):
    """Tile efficiency only (see the module docstring)."""

    level = "greedy"

    def decide(self, view: View, legal: Sequence[A]) -> A:
        for a in legal:
            if a.kind == "win":
                return a
        return self.decide_perceived(perceive(view), legal)

    def decide_perceived(self, p: Perception, legal: Sequence[A]) -> A:
        """The decision from an already parsed view (the expert's playouts build ``p`` directly)."""
        for a in legal:
            if a.kind == "win":
                return a
        discards = [a for a in legal if a.kind == "discard"]
        if discards:
            return self._turn(p, legal, discards)
        return self._claim(p, legal)

    # -- own turn ----------------------------------------------------------------------------
    def _turn(self, p: Perception, legal: Sequence[A], discards: Sequence[A]) -> A:
        n = p.n_melds
        live = [4 - v for v in p.visible]  # visible counts are capped at 4
        # tiles are int-valued (IntEnum), so they index the int-keyed tables directly
        tables = discard_table(p.hand, n, live, n == 0, cast("set[int]", {a.tile for a in discards}))
        dd, accs = cast("tuple[dict[Tile | None, int], dict[Tile | None, int]]", tables)
        best_d = min([dd.get(a.tile, 99) for a in discards])
        for a in legal:
            if a.kind == "kong" and a.tile is not None:
                rem = kong_removal(p, int(a.tile), claiming=False)
                if rem is None:
                    continue
                work = list(p.hand)
                for t in rem[0]:
                    work[t] -= 1
                if ef.distance(work, n + rem[1]) <= best_d:
                    return a
        # the lowest distance, then the most live useful tiles; a seeded draw among equals
        if accs:
            top = max(accs.values())
            ties = [a for a in discards if accs.get(a.tile) == top]
        else:
            ties = [a for a in discards if dd.get(a.tile, 99) == best_d]
        return ties[self.rng.randrange(len(ties))] if len(ties) > 1 else ties[0]

    # -- claims on another seat's tile -------------------------------------------------------
    def _claim(self, p: Perception, legal: Sequence[A]) -> A:
        passing = next((a for a in legal if a.kind == "pass"), legal[0])
        tile = claimed_tile(p, legal)
        if tile is None:
            return passing
        counts = p.hand
        n = p.n_melds
        live = [4 - v for v in p.visible]  # visible counts are capped at 4
        d0 = ef.distance(counts, n)
        options: list[tuple[int, A, int, int]] = []
        for a in legal:
            if a.kind == "kong" and a.tile is not None:
                work = list(counts)
                work[int(a.tile)] -= 3
                if work[int(a.tile)] >= 0 and ef.distance(work, n + 1) <= d0:
                    return a
            elif a.kind in ("pong", "chow"):
                rest = claim_rest(counts, a, tile)
                if rest is None:
                    continue
                work = rest[0]
                # the best discard after the claim: its distance and (among those) widest acceptance
                dd, accs = discard_table(work, n + 1, live, False, limit=d0)
                if accs:  # the best discard after the claim is no farther than the hand now
                    d = min(dd.values())
                    options.append((d, a, d, max(accs.values())))
        if not options:
            return passing
        best_d = min(o[0] for o in options)
        best: tuple[int, int] = (d0, hand_acceptance(counts, n, live)[1]) if best_d == d0 else (99, -1)
        choice = passing
        for d, a, d2, acc in options:
            if d != best_d:
                continue
            if d2 < best[0] or (d2 == best[0] and acc > best[1]):
                best = (d2, acc)
                choice = a
        return choice

"""Three test styles written from ideas of play that none of the expert's rollouts imitate (the
rollouts play as ``strong`` or ``greedy``), for measuring whether its edge travels (docs/bots.md).
Like the styles of :mod:`.styles` they are for ``simulate`` and ``make_bot`` only, never offered by the
server.

* ``silent`` never claims a discard for a set (no chow, pong or kong from a discard); it wins whenever
  it can and otherwise plays its own turns as ``greedy``.
* ``ordered`` discards by a fixed order of tiles whatever its hand: honours first (winds, then dragons),
  then terminals, then twos and eights, and so on inward to the fives; it wins whenever it can and
  claims nothing else, and declares no kong.
* ``flush`` always plays for the largest hand it can see: a flush. It picks the suit it holds most of,
  throws the other suits first (the suit it holds least of, a lone tile first), keeps honours, pongs
  every honour and claims only in its suit; within its suit it plays as ``greedy``. It wins whenever
  it can.
"""

from __future__ import annotations

from collections.abc import Sequence

from .base import A
from .greedy import GreedyBot
from .perception import Perception

HONOURS = range(27, 34)
#: the fixed discard order: honours, then the number tiles from the outside in (terminals first)
ORDER: tuple[int, ...] = (*HONOURS, *(s * 9 + r for k in range(5) for r in sorted({k, 8 - k})
                                      for s in (2, 1, 0)))


def _win(legal: Sequence[A]) -> A | None:
    return next((a for a in legal if a.kind == "win"), None)


def _pass(legal: Sequence[A]) -> A:
    return next((a for a in legal if a.kind == "pass"), legal[0])


class SilentBot(GreedyBot):
    """Never claims a discard for a set (see the module docstring)."""

    level = "silent"

    def decide_perceived(self, p: Perception, legal: Sequence[A]) -> A:
        win = _win(legal)
        if win is not None:
            return win
        if any(a.kind == "discard" for a in legal):
            return super().decide_perceived(p, legal)
        return _pass(legal)


class OrderedBot(GreedyBot):
    """Discards by a fixed tile order (see the module docstring)."""

    level = "ordered"

    def decide_perceived(self, p: Perception, legal: Sequence[A]) -> A:
        win = _win(legal)
        if win is not None:
            return win
        discards = [a for a in legal if a.kind == "discard" and a.tile is not None]
        if discards:
            rank = {t: i for i, t in enumerate(ORDER)}
            return min(discards, key=lambda a: rank[int(a.tile)] if a.tile is not None else 99)
        return _pass(legal)


class FlushBot(GreedyBot):
    """Plays for a flush (see the module docstring)."""

    level = "flush"

    @staticmethod
    def suit_counts(p: Perception) -> list[int]:
        counts = [sum(p.hand[s * 9:(s + 1) * 9]) for s in range(3)]
        for kind, low, _ in p.me.melds:
            if low < 27 and kind != "bonus":
                counts[low // 9] += 3
        return counts

    def target(self, p: Perception) -> int:
        counts = self.suit_counts(p)
        return max(range(3), key=lambda s: (counts[s], -s))

    def decide_perceived(self, p: Perception, legal: Sequence[A]) -> A:
        win = _win(legal)
        if win is not None:
            return win
        suit = self.target(p)
        discards = [a for a in legal if a.kind == "discard" and a.tile is not None]
        if discards:
            counts = self.suit_counts(p)
            off = [a for a in discards
                   if a.tile is not None and int(a.tile) < 27 and int(a.tile) // 9 != suit]
            if off:
                def key(a: A) -> tuple[int, int, int]:
                    t = int(a.tile) if a.tile is not None else 0
                    return counts[t // 9], p.hand[t], t
                return min(off, key=key)
            return super().decide_perceived(p, legal)
        if p.claim is None:
            return _pass(legal)
        tile = p.claim[2]
        if tile in HONOURS:
            honour = next((a for a in legal if a.kind in ("kong", "pong")), None)
            return honour if honour is not None else _pass(legal)
        if tile // 9 != suit:
            return _pass(legal)
        return super().decide_perceived(p, legal)

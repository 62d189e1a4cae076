"""Facts about a winning hand, computed once per scoring so that pattern functions stay cheap.

:class:`HandFacts` holds what does not depend on the decomposition (counts of all 14 playing tiles,
suits present, bonus tiles, the context and the rules); :class:`Arrangement` is one way to read the
hand as four sets and a pair (concealed sets from the decomposition plus the declared melds), or the
thirteen wonders shape.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..analysis.decompose import CHOW, PONG, Decomposition
from ..analysis.special import is_thirteen_wonders
from ..analysis.waits import standard_waits
from ..hand import Hand
from ..rules import RuleSet
from .context import WinContext

KONG = 2  # set kind beside decompose.CHOW / decompose.PONG

# bit masks of the "suits" present in a hand
MAN, PIN, SOU, HONOUR = 1, 2, 4, 8


class HandFacts:
    """Decomposition-independent facts about a hand of 14 playing tiles plus bonus tiles."""

    __slots__ = (
        "_waits", "all_terminal_or_honour", "animals", "bonus", "counts", "ctx", "exposed_chows",
        "flowers", "hand", "has_exposed", "has_honours", "has_terminals", "melds", "n_kongs",
        "prevailing", "rules", "seat", "self_drawn", "suit_mask", "thirteen", "winning",
    )

    def __init__(self, hand: Hand, ctx: WinContext, rules: RuleSet) -> None:
        self.hand = hand
        self.ctx = ctx
        self.rules = rules
        self.seat = 27 + ctx.seat_wind
        self.prevailing = 27 + ctx.prevailing_wind
        self.self_drawn = ctx.self_drawn
        self.winning: int = hand.winning_tile if hand.winning_tile is not None else -1
        counts = [0] * 34
        for t in hand.concealed:
            counts[t] += 1
        if self.winning >= 0:
            counts[self.winning] += 1
        melds = hand.melds
        self.melds = melds
        n_kongs = 0
        exposed_chows = 0
        has_exposed = False
        for m in melds:
            kind = m.kind.value
            if kind == "chow":
                t = m.tile
                counts[t] += 1
                counts[t + 1] += 1
                counts[t + 2] += 1
                exposed_chows += 1
            else:
                counts[m.tile] += 4 if kind == "kong" else 3
                if kind == "kong":
                    n_kongs += 1
            if not m.concealed:
                has_exposed = True
        self.counts = counts
        self.n_kongs = n_kongs
        self.exposed_chows = exposed_chows
        self.has_exposed = has_exposed
        mask = 0
        if any(counts[0:9]):
            mask |= MAN
        if any(counts[9:18]):
            mask |= PIN
        if any(counts[18:27]):
            mask |= SOU
        if any(counts[27:34]):
            mask |= HONOUR
        self.suit_mask = mask
        self.has_honours = bool(mask & HONOUR)
        self.has_terminals = any(counts[i] for i in (0, 8, 9, 17, 18, 26))
        self.all_terminal_or_honour = not any(
            counts[i] for i in range(27) if i % 9 not in (0, 8)
        )
        self.thirteen = not melds and self.all_terminal_or_honour and is_thirteen_wonders(counts)
        bonus = hand.bonus
        self.bonus = bonus
        self.animals = sum(1 for b in bonus if b >= 42)
        self.flowers = frozenset(int(b) for b in bonus if b < 42)
        self._waits: tuple[int, ...] | None = None

    def waits(self) -> tuple[int, ...]:
        """The distinct tiles that complete the 13-tile hand (before the winning tile) as a standard
        hand, leaving out tiles the hand already holds four of. Computed once, on demand."""
        if self._waits is None:
            concealed = [0] * 34
            for t in self.hand.concealed:
                concealed[t] += 1
            held = list(self.counts)
            if self.winning >= 0:
                held[self.winning] -= 1
            self._waits = tuple(t for t in standard_waits(concealed) if held[t] < 4)
        return self._waits


class Arrangement:
    """One reading of the hand: ``pair`` and ``sets`` as ``(kind, tile, concealed)`` with kind
    CHOW, PONG or KONG. ``thirteen`` is true for the thirteen wonders shape (no sets).

    ``concealed`` is true for a concealed kong and for every set found in the concealed tiles (the
    set a discarded winning tile completes included; see :func:`arrangements`)."""

    __slots__ = ("all_chows", "all_pongs", "concealed_pongs", "pair", "sets", "thirteen")

    def __init__(self, pair: int, sets: tuple[tuple[int, int, bool], ...], thirteen: bool = False) -> None:
        self.pair = pair
        self.sets = sets
        self.thirteen = thirteen
        chows = 0
        pongs = 0
        concealed_pongs = 0
        for kind, _tile, concealed in sets:
            if kind == CHOW:
                chows += 1
            else:
                pongs += 1
                if concealed:
                    concealed_pongs += 1
        self.all_chows = chows == 4
        self.all_pongs = pongs == 4
        self.concealed_pongs = concealed_pongs


THIRTEEN = Arrangement(-1, (), thirteen=True)


def arrangements(facts: HandFacts, decs: Sequence[Decomposition]) -> list[Arrangement]:
    """Arrangements from the decompositions of the concealed tiles plus the winning tile: the
    decomposed sets (marked concealed) followed by the declared melds.

    A set completed by a discarded winning tile is, strictly, exposed; only hidden treasure cares,
    and it checks that case itself (see ``patterns.shapes.hidden_treasure``)."""
    meld_sets = tuple(
        (CHOW if m.kind.value == "chow" else (KONG if m.kind.value == "kong" else PONG), int(m.tile),
         m.concealed)
        for m in facts.melds
    )
    return [Arrangement(pair, tuple((k, t, True) for k, t in sets) + meld_sets) for pair, sets in decs]

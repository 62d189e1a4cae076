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
from ..melds import MeldKind
from ..rules import RuleSet
from .context import WinContext

KONG = 2  # set kind beside decompose.CHOW / decompose.PONG

_CHOW = MeldKind.CHOW
_KONG = MeldKind.KONG
_NO_FLOWERS: frozenset[int] = frozenset()

# bit masks of the "suits" present in a hand
MAN, PIN, SOU, HONOUR = 1, 2, 4, 8


class HandFacts:
    """Decomposition-independent facts about a hand of 14 playing tiles plus bonus tiles."""

    __slots__ = (
        "_waits", "all_terminal_or_honour", "animals", "bonus", "concealed_counts", "counts", "ctx",
        "exposed_chows", "flowers", "hand", "has_bonus", "has_circumstances", "has_exposed",
        "has_honours", "has_terminals", "melds", "n_kongs", "one_suit", "prevailing", "rules", "seat",
        "self_drawn", "suit_mask", "thirteen", "winning",
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
        self.concealed_counts = counts
        melds = hand.melds
        self.melds = melds
        n_kongs = 0
        exposed_chows = 0
        has_exposed = False
        if melds:
            counts = list(counts)
            for m in melds:
                kind = m.kind
                if kind is _CHOW:
                    t = m.tile
                    counts[t] += 1
                    counts[t + 1] += 1
                    counts[t + 2] += 1
                    exposed_chows += 1
                elif kind is _KONG:
                    counts[m.tile] += 4
                    n_kongs += 1
                else:
                    counts[m.tile] += 3
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
        self.one_suit = (mask & 7) in (1, 2, 4)
        self.has_honours = bool(mask & HONOUR)
        terminals = counts[0] + counts[8] + counts[9] + counts[17] + counts[18] + counts[26]
        self.has_terminals = terminals > 0
        self.all_terminal_or_honour = terminals + sum(counts[27:34]) == sum(counts)
        self.thirteen = not melds and self.all_terminal_or_honour and is_thirteen_wonders(counts)
        bonus = hand.bonus
        self.bonus = bonus
        self.has_bonus = bool(bonus)
        self.has_circumstances = bool(ctx.special or ctx.replacement or ctx.robbed_kong or ctx.last_tile)
        if bonus:
            self.animals = sum(1 for b in bonus if b >= 42)
            self.flowers = frozenset(int(b) for b in bonus if b < 42)
        else:
            self.animals = 0
            self.flowers = _NO_FLOWERS
        self._waits: tuple[int, ...] | None = None

    def waits(self) -> tuple[int, ...]:
        """The distinct tiles that complete the 13-tile hand (before the winning tile) as a standard
        hand, leaving out tiles the hand already holds four of. Computed once, on demand."""
        if self._waits is None:
            concealed = list(self.concealed_counts)
            if self.winning >= 0:
                concealed[self.winning] -= 1
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

"""Which wins are open to a seat: shape checks first (cheap), the scorer only for complete shapes."""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

from ..analysis.decompose import is_standard_complete
from ..hand import Hand
from ..melds import MeldKind
from ..rules import RuleSet
from ..scoring.context import Replacement, ScoreResult, Special, WinContext
from ..tiles import FLOWERS, TERMINALS_AND_HONOURS, Tile
from . import scoring_bridge
from .builder import Builder
from .state import SeatState

_TW = tuple(int(t) for t in TERMINALS_AND_HONOURS)
_TW_SET = frozenset(_TW)


@dataclass(frozen=True, slots=True)
class WinInfo:
    """A win a seat may take (``valid``) or that the scorer refused (``reason``)."""

    result: ScoreResult
    kind: str  # normal, eight_flowers, robbing_the_eighth, declare_three_dragons, declare_four_winds
    hand: Hand | None = None
    ctx: WinContext | None = None

    @property
    def valid(self) -> bool:
        return self.result.valid

    @property
    def thirteen_wonders(self) -> bool:
        return self.result.thirteen_wonders


def is_thirteen_wonders(counts: list[int]) -> bool:
    """14 tiles: one of each terminal and honour plus one more of them."""
    if sum(counts) != 14:
        return False
    for i, n in enumerate(counts):
        if n and i not in _TW_SET:
            return False
    return all(counts[i] >= 1 for i in _TW)


def complete_shape(counts: list[int], n_melds: int) -> bool:
    """Sets and a pair (or thirteen wonders with no melds)."""
    if n_melds == 0 and is_thirteen_wonders(counts):
        return True
    return is_standard_complete(counts)


def _counts(tiles: tuple[Tile, ...]) -> list[int]:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def hand_win(seat: SeatState, tile: Tile, *, self_drawn: bool, seat_wind: int, prevailing: int,
             rules: RuleSet, replacement: Replacement | None = None, flower_replacements: int = 1,
             robbed_kong: bool = False, last_tile: bool = False,
             special: Special | None = None) -> WinInfo | None:
    """The win of a complete hand with ``tile`` as the winning tile (already among the concealed tiles
    when ``self_drawn``); ``None`` when the shape is not complete."""
    counts = _counts(seat.concealed)
    if not self_drawn:
        counts[tile] += 1
    if not complete_shape(counts, len(seat.melds)):
        return None
    concealed = list(seat.concealed)
    if self_drawn:
        concealed.remove(tile)
    hand = Hand(tuple(concealed), tuple(m.meld for m in seat.melds), tile, seat.bonus)
    ctx = WinContext(seat_wind=seat_wind, prevailing_wind=prevailing, self_drawn=self_drawn,
                     replacement=replacement, flower_replacements=flower_replacements,
                     robbed_kong=robbed_kong, last_tile=last_tile, special=special)
    return WinInfo(scoring_bridge.score(hand, ctx, rules), "normal", hand, ctx)


def declaration_win(seat: SeatState, rules: RuleSet) -> WinInfo | None:
    """Eight flowers, or a declared three dragons / four winds, when the rules enable them."""
    if len(seat.bonus) < 8:  # cheap exit: three honour sets need nine honour tiles
        conc = seat.concealed  # sorted
        honours = len(conc) - bisect_left(conc, 27)
        for m in seat.melds:
            if m.tile >= 27:
                honours += 3
        if honours < 9:
            return None
    if rules.eight_flowers and all(f in seat.bonus for f in FLOWERS):
        return WinInfo(scoring_bridge.score_special("eight_flowers", rules), "eight_flowers")
    counts = _counts(seat.concealed)
    sets = {m.tile for m in seat.melds if m.kind is not MeldKind.CHOW}
    sets.update(Tile(i) for i in range(27, 34) if counts[i] >= 3)
    if rules.declare_three_dragons and all(Tile(d) in sets for d in (31, 32, 33)):
        return WinInfo(scoring_bridge.score_special("declare_three_dragons", rules),
                       "declare_three_dragons")
    if rules.declare_four_winds and all(Tile(w) in sets for w in (27, 28, 29, 30)):
        return WinInfo(scoring_bridge.score_special("declare_four_winds", rules), "declare_four_winds")
    return None


def discard_win(b: Builder, seat: int, source: int, t: Tile, *, robbed: bool) -> WinInfo | None:
    """The win of ``seat`` on ``source``'s discard ``t`` (or on the kong of ``t`` it robs): earthly or
    humanly on the first go-round; ``None`` when the shape is not complete."""
    st = b.seat(seat)
    special = None
    if not b.get("claims_made") and not st.has_drawn and seat != b.s.dealer and not robbed:
        special = "earthly" if source == b.s.dealer and b.get("discards_made") == 1 else "humanly"
    return hand_win(st, t, self_drawn=False, seat_wind=(seat - b.s.dealer) % 4, prevailing=b.s.prevailing,
                    rules=b.rules, robbed_kong=robbed, special=special)  # type: ignore[arg-type]

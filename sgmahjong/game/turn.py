"""The seat on turn: beginning its turn and what it may do (discard, kong, self-drawn win). Playing
the chosen action is :mod:`.turn_action`'s (it opens the claim windows and kongs that come back here)."""

from __future__ import annotations

from ..melds import MeldKind
from ..tiles import Tile
from .actions import Action
from .builder import DISCARD, KONG, WIN, Builder
from .state import TURN
from .wins import WinInfo, declaration_win, hand_win


def begin_turn(b: Builder, seat: int, source: str) -> None:
    f = b.f
    if source == "kong" and f["kongs_in_turn"] >= 2:
        source = "kong_on_kong"
    f["phase"] = TURN
    f["turn"] = seat
    f["window"] = None
    f["draw_source"] = source
    f["turn_options"], f["turn_win"] = turn_options(b, seat)


def _special_for_self_draw(b: Builder, seat: int) -> str | None:
    """Heavenly (the dealer's first turn) or earthly (a non-dealer's first draw), nobody having
    claimed anything yet."""
    if b.get("claims_made"):
        return None
    if seat == b.s.dealer:
        return "heavenly" if b.get("discards_made") == 0 else None
    if b.get("discards_made") <= (seat - b.s.dealer) % 4:
        return "earthly"
    return None


def turn_options(b: Builder, seat: int) -> tuple[tuple[Action, ...], WinInfo | None]:
    st = b.seat(seat)
    conc = st.concealed  # sorted
    distinct = dict.fromkeys(conc)
    opts = list(map(DISCARD[seat].__getitem__, distinct))
    kongs: list[Tile] = []
    if b.remaining() > 0:  # a kong needs a replacement draw
        if len(distinct) <= len(conc) - 3:  # else no tile is held four times
            kongs = [conc[i] for i in range(len(conc) - 3) if conc[i] == conc[i + 3]]
        for m in st.melds:
            if m.kind is MeldKind.PONG and m.tile in conc:
                kongs.append(m.tile)
    if kongs:
        opts.extend(KONG[seat][t] for t in sorted(kongs))
    win: WinInfo | None = None
    source = b.get("draw_source")
    # a declaration may be made on any turn, including one a pong or kong of the last set began
    win = declaration_win(st, b.rules)
    if source != "claim":
        drawn = st.drawn
        if drawn is not None and (st.waits is None or drawn in st.waits):
            rep = source if source in ("flower", "kong", "kong_on_kong") else None
            special = _special_for_self_draw(b, seat)
            normal = hand_win(st, drawn, self_drawn=True, seat_wind=(seat - b.s.dealer) % 4,
                              prevailing=b.s.prevailing, rules=b.rules, replacement=rep,
                              flower_replacements=max(1, b.get("flower_chain")),
                              last_tile=b.get("last_tile"), special=special)  # type: ignore[arg-type]
            # the better of a complete hand and a declaration (a complete hand on a tie)
            if normal is not None and (win is None or not win.valid
                                       or (normal.valid and normal.result.tai >= win.result.tai)):
                win = normal
    if win is not None and win.valid:
        opts.append(WIN[seat])
    return tuple(opts), win

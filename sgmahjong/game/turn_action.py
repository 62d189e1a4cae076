"""The seat on turn plays its action: a self-drawn win, a discard (opening its claim window) or a
kong. Above :mod:`.claims` and :mod:`.kongs`, which begin the next turn through :mod:`.turn`."""

from __future__ import annotations

from . import claims, ending, kongs, liability
from .actions import Action
from .builder import Builder, seat_waits
from .wins import WinInfo


def declaration_shooter(b: Builder, win: WinInfo) -> int | None:
    """A declaration on the turn that a pong or kong of its last set began is paid as a win off that
    discard (RULES.md §3); otherwise (and for every other win on a turn) it is self-drawn."""
    claimed = b.get("claimed")
    if claimed is None:
        return None
    source, tile = claimed
    if win.kind == "declare_three_dragons" and tile.is_dragon:
        return int(source)
    if win.kind == "declare_four_winds" and tile.is_wind:
        return int(source)
    return None


def do_turn(b: Builder, a: Action) -> None:
    """Play the turn action ``a``: a self-drawn win, a discard (opening its claim window) or a kong."""
    seat = a.seat
    st = b.seat(seat)
    if a.kind == "win":
        win = b.s.turn_win
        assert win is not None
        ending.finish_win(b, seat, declaration_shooter(b, win), win, st.drawn)
        return
    assert a.tile is not None
    t = a.tile
    b.f["kong_liable"] = None  # a discard ends the turn; another kong takes its own replacement
    if a.kind == "discard":
        conc = list(st.concealed)
        conc.remove(t)
        # discarding the tile just drawn leaves the hand as it was before the draw, waits included
        waits = st.waits if t == st.drawn and st.waits is not None else seat_waits(conc)
        f = b.f
        seen = list(f["seen"])
        seen[t] += 1
        f["last_fresh"] = liability.is_fresh(b.s, b.seats, t)
        b.upd(seat, concealed=tuple(conc), drawn=None, discards=(*st.discards, t), waits=waits,
              barred=st.barred | {t})
        f["seen"] = tuple(seen)
        f["last_discard"] = (seat, t)
        f["discards_made"] += 1
        f["turn_options"] = ()
        f["turn_win"] = None
        b.emit("discard", seat, tile=t.notation)
        claims.open_discard_window(b, seat, t)
        return
    kongs.declare_kong(b, seat, t)

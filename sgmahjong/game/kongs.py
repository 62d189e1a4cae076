"""Kongs: robbing them (an added kong by any win, a concealed kong by thirteen wonders), completing
them with their instant payment (包杠 included) and the replacement draw."""

from __future__ import annotations

from ..melds import MeldKind
from ..tiles import NUM_PLAYING, Tile
from . import draws, liability
from .actions import Action
from .builder import PASS, WIN, Builder
from .state import CLAIM, SetRec, Window
from .wins import WinInfo, discard_win, is_thirteen_wonders


def rob_options(b: Builder, seat: int, t: Tile, *, concealed: bool) -> tuple[tuple[Action, ...], ...]:
    """Seats that may rob a kong of ``t`` (any win for an added kong; thirteen wonders only for a
    concealed kong)."""
    options: list[tuple[Action, ...]] = [(), (), (), ()]
    wins: list[WinInfo | None] = [None, None, None, None]
    for other in range(4):
        if other == seat:
            continue
        ost = b.seat(other)
        if concealed:
            counts = [0] * NUM_PLAYING
            for x in ost.concealed:
                counts[x] += 1
            counts[t] += 1
            if ost.melds or not is_thirteen_wonders(counts):
                continue
        win = discard_win(b, other, seat, t, robbed=True)
        if win is not None and win.valid:
            options[other] = (WIN[other], PASS[other])
            wins[other] = win
    b.set(window_wins=tuple(wins))
    return tuple(options)


def kong_payment(b: Builder, seat: int, t: Tile, kind: str, source: int | None) -> int | None:
    """The kong's instant payment; returns the discarder liable for it under 包杠 (who then also pays
    the whole win on this kong's replacement draw), else ``None``."""
    payer = None
    if source is not None and liability.bao_kong(b.s, b.remaining(), b.get("last_fresh")):
        payer = source
    draws.instant(b, seat, "concealed_kong" if kind == "concealed_kong" else "exposed_kong", liable=payer)
    return payer


def complete_kong(b: Builder, seat: int, t: Tile, kind: str, source: int | None) -> None:
    st = b.seat(seat)
    conc = list(st.concealed)
    if kind == "concealed_kong":
        for _ in range(4):
            conc.remove(t)
        melds = (*st.melds, SetRec(MeldKind.KONG, t, True, None))
    else:
        conc.remove(t)
        melds = tuple(SetRec(MeldKind.KONG, m.tile, False, m.source)
                      if m.kind is MeldKind.PONG and m.tile == t else m for m in st.melds)
    b.upd(seat, concealed=tuple(conc), melds=melds, drawn=None)
    b.emit("kong", seat, tile=t.notation, kong_kind="concealed" if kind == "concealed_kong" else "added")
    kong_payment(b, seat, t, kind, None)
    b.set(kongs_in_turn=b.get("kongs_in_turn") + 1, kong_made=True, window=None, window_wins=(None,) * 4)
    draws.replacement(b, seat, "kong")


def declare_kong(b: Builder, seat: int, t: Tile) -> None:
    """``seat`` declares a concealed kong (four in hand) or adds ``t`` to its exposed pong: a window
    opens for the seats that may rob it, else the kong completes at once."""
    b.f["kong_liable"] = None  # a win on this kong's replacement is not the konged discard's
    concealed = b.seat(seat).concealed.count(t) == 4
    kind = "concealed_kong" if concealed else "added_kong"
    options = rob_options(b, seat, t, concealed=concealed)
    if any(options) or b.s.pause_windows:  # no tells: every kong's window opens
        b.set(phase=CLAIM, window=Window(kind, seat, t, options), turn_options=(), turn_win=None)
        b.emit("window", seat, window_kind=kind, tile=t.notation, asked=[s for s in range(4) if options[s]])
        return
    complete_kong(b, seat, t, kind, None)

"""Draws from the front, replacement draws from the back, bonus tiles laid out with their instant
payments, and robbing the eighth flower."""

from __future__ import annotations

from bisect import insort
from typing import Any

from ..tiles import FLOWERS, NUM_PLAYING, Tile
from . import ending, scoring_bridge, turn
from .actions import Action
from .builder import PASS, WIN, Builder
from .state import CLAIM, Window


def take(b: Builder, seat: int, *, back: bool) -> Tile:
    """Take the next tile from the front or back of the wall (the caller checked one is left)."""
    wall = b.s.wall
    f = b.f
    t: Tile
    if back:
        nb = f["back"]
        t = wall[len(wall) - 1 - nb]
        f["back"] = nb + 1
    else:
        nf = f["front"]
        t = wall[nf]
        f["front"] = nf + 1
    b.emit("draw", seat, tile=t.notation, source="back" if back else "front")
    return t


def lay_out(b: Builder, seat: int, tiles: tuple[Tile, ...], *, dealt: bool = False) -> None:
    """Bonus tiles go face up; instant payments for any event they complete (double for the dealt
    hand, 暗咬)."""
    st = b.seat(seat)
    b.upd(seat, bonus=(*st.bonus, *tiles))
    for t in tiles:
        b.emit("bonus", seat, tile=t.notation)
    for kind in scoring_bridge.bonus_payment_kinds(st.bonus, tiles, seat, dealt=dealt):
        instant(b, seat, kind, dealt=dealt)


def instant(b: Builder, seat: int, kind: str, *, dealt: bool = False, liable: int | None = None) -> None:
    """An instant payment to ``seat`` (or all of it from ``liable``, 包杠)."""
    pays = scoring_bridge.instant_payment(kind, seat, b.rules, dealt=dealt, liable=liable)
    if not any(pays):
        return
    b.pay(pays)
    b.set(instant=(*b.get("instant"), (kind, seat, tuple(pays), liable)))
    b.emit("payment", seat, reason=kind, amounts=pays, liable=liable)


def draw_turn(b: Builder, seat: int) -> None:
    """``seat`` begins its turn by drawing from the front."""
    if b.remaining() <= 0:
        ending.drawn_game(b)
        return
    f = b.f
    f["kongs_in_turn"] = 0
    f["flower_chain"] = 0
    f["last_discard"] = None
    f["claimed"] = None
    f["kong_liable"] = None
    t = take(b, seat, back=False)
    f["last_tile"] = b.remaining() == 0
    receive(b, seat, t, "front", barred=frozenset(), has_drawn=True)


def replacement(b: Builder, seat: int, reason: str) -> None:
    """A replacement draw from the back after a bonus tile or a kong."""
    if b.remaining() <= 0:
        ending.drawn_game(b)
        return
    t = take(b, seat, back=True)
    b.set(last_tile=False)
    receive(b, seat, t, reason)


def receive(b: Builder, seat: int, t: Tile, source: str, **changes: Any) -> None:
    """``seat`` receives the drawn tile ``t``: a bonus tile is laid out (and replaced), a playing tile
    joins the hand and the seat's turn begins. ``changes`` to the seat are made with it."""
    if t >= NUM_PLAYING:
        if changes:
            b.upd(seat, **changes)
        lay_out(b, seat, (t,))
        b.set(flower_chain=b.get("flower_chain") + 1)
        if t in FLOWERS and open_eighth(b, seat, t):
            return
        replacement(b, seat, "flower")
        return
    st = b.seat(seat)
    concealed = list(st.concealed)
    insort(concealed, t)
    b.upd(seat, concealed=tuple(concealed), drawn=t, waits=st.waits, **changes)
    turn.begin_turn(b, seat, source)


def open_eighth(b: Builder, seat: int, tile: Tile) -> bool:
    """Another seat holding seven flowers may rob the eighth flower just laid out."""
    if not b.rules.robbing_the_eighth:
        return False
    options: list[tuple[Action, ...]] = [(), (), (), ()]
    for other in range(4):
        if other == seat:
            continue
        if sum(1 for f in b.seat(other).bonus if f in FLOWERS) == 7:
            options[other] = (WIN[other], PASS[other])
    if not any(options):
        return False
    b.set(phase=CLAIM, window=Window("eighth", seat, tile, tuple(options)))
    b.emit("window", seat, window_kind="eighth", tile=tile.notation,
           asked=[s for s in range(4) if options[s]])
    return True

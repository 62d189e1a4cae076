"""What the order of the discards tells: the tiles each seat may not win on until its next turn.

A player view shows each seat's pile in order and, for every discard another seat claimed, its place in
the pile and who took it (``taken``). From these :func:`discard_order` rebuilds the order of every
discard of the hand: the dealer discards first; after a discard the next seat discards, or the seat
that claimed it (a kong changes nothing: the same seat discards after its replacement).

A seat may not win on (or pong) its own latest discard until its next turn, nor on a discard it let
pass since (the engine's missed discard, 过水): :func:`barred` gives each seat those tiles, as the
engine holds them. A seat that always takes a win when one is offered (every bot does) let those
discards pass because its hand does not win on them: :func:`passed` gives the tiles each seat is shown
not to be waiting on, which the expert's deals can respect (:mod:`.determinise`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .perception import tile_of

Order = list[tuple[int, int]]  # every discard of the hand in order: (seat, tile)


def whole_pile(pile: Sequence[int],
               taken: Sequence[Sequence[Any]]) -> tuple[list[int], dict[int, int]] | None:
    """A seat's whole pile, every discard it has made in order, from the tiles still in its pile and
    its view's ``taken`` entries (``[place, tile, by]``), and place -> the seat that claimed it;
    ``None`` when the places do not fit the pile."""
    claimed = {int(x[0]): x for x in taken}
    made = len(pile) + len(taken)
    if len(claimed) != len(taken) or any(not 0 <= p < made for p in claimed):
        return None
    out: list[int] = []
    takers: dict[int, int] = {}
    rest = iter(pile)  # the pile's tiles fill the places no claim took
    for place in range(made):
        x = claimed.get(place)
        if x is None:
            out.append(int(next(rest)))
        else:
            out.append(int(tile_of(x[1])))
            takers[place] = int(x[2])
    return out, takers


def discard_order(dealer: int, piles: Sequence[Sequence[int]],
                  taken: Sequence[Mapping[int, int]]) -> Order | None:
    """Every discard in the order it was made, from each seat's whole pile (claimed discards in their
    places) and ``taken[seat]`` (place in the pile -> the seat that claimed it); ``None`` when the
    piles cannot come from one hand's turns."""
    at = [0, 0, 0, 0]
    total = sum(len(p) for p in piles)
    out: Order = []
    seat = dealer
    while len(out) < total:
        i = at[seat]
        if i >= len(piles[seat]):
            return None
        out.append((seat, piles[seat][i]))
        at[seat] = i + 1
        by = taken[seat].get(i)
        seat = (seat + 1) % 4 if by is None else by
    return out


def barred(order: Order, *, on_turn: int | None, window_open: bool) -> tuple[frozenset[int], ...]:
    """Each seat's barred tiles: its latest discard and the discards of the others since, which it let
    pass (none for ``on_turn``, the seat whose turn it is: a draw or a claim clears them). With
    ``window_open`` the last discard's claim window is still open: nobody has let it pass yet (it is
    barred to its discarder all the same)."""
    out: list[frozenset[int]] = []
    for s in range(4):
        if s == on_turn:
            out.append(frozenset())
            continue
        tiles: set[int] = set()
        done = order[:-1] if window_open and order and order[-1][0] != s else order
        for seat, t in reversed(done):
            tiles.add(t)
            if seat == s:
                break
        out.append(frozenset(tiles))
    return tuple(out)


def passed(order: Order, bars: Sequence[frozenset[int]]) -> tuple[frozenset[int], ...]:
    """Each seat's barred tiles less its own latest discard: the discards it let pass, so the tiles a
    seat that always wins is not waiting on (its own latest discard tells nothing: it was barred)."""
    latest: list[int | None] = [None, None, None, None]
    for seat, t in order:
        latest[seat] = t
    return tuple(b - {latest[s]} if latest[s] is not None else b for s, b in enumerate(bars))


@dataclass(frozen=True, slots=True)
class Piles:
    """Each seat's discards as a view shows them, put in order."""

    piles: tuple[tuple[int, ...], ...]  # each seat's whole pile (its pile as it lies where the places
    # of its claimed discards do not fit)
    order: Order | None  # every discard of the hand in order; None when it cannot be rebuilt
    barred: tuple[frozenset[int], ...]  # each seat's barred tiles (none without the order)


def read_piles(view: Mapping[str, Any]) -> Piles:
    """The :class:`Piles` of a player view: whole piles, their order and the barred tiles."""
    piles: list[tuple[int, ...]] = [(), (), (), ()]
    takers: list[dict[int, int]] = [{}, {}, {}, {}]
    fits = True
    for s in view.get("seats") or ():
        i = int(s["seat"])
        pile = [int(tile_of(x)) for x in s.get("discards") or ()]
        whole = whole_pile(pile, s.get("taken") or ())
        if whole is None:
            fits = False
            piles[i] = tuple(pile)
        else:
            piles[i] = tuple(whole[0])
            takers[i] = whole[1]
    order = discard_order(int(view.get("dealer") or 0), piles, takers) if fits else None
    if order is None:
        return Piles(tuple(piles), None, (frozenset(),) * 4)
    phase = str(view.get("phase"))
    window = view.get("window")
    on_turn = int(view.get("turn") or 0) if phase == "turn" else None
    window_open = phase == "claim" and isinstance(window, Mapping) and window.get("kind") == "discard"
    return Piles(tuple(piles), order, barred(order, on_turn=on_turn, window_open=window_open))

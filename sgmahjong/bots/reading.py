"""Reading the opponents (issue 30): how each seat at the table plays, from one seat's view alone.

The expert's playouts play every opponent by one cheap policy. Opponents differ: some claim nearly
everything and never fold, some fold at the first threat. A few public counts tell them apart within
a hand, and pick the rollout style the search plays each opponent by (:data:`QUICK` as before,
:data:`CAUTIOUS`, :data:`EAGER`; see :func:`forward.quick_choice`):

* **eager**: a seat that has claimed :data:`EAGER_SETS` sets from discards, or :data:`EAGER_EARLY_SETS`
  within its first :data:`EAGER_EARLY_TURNS` discards (claims come quicker than an efficient player's);
* **cautious**: a seat whose discards, once the hand is under way (from its :data:`OPENING`-th), have
  been at least :data:`CAUTIOUS_SHARE` "safe-looking" over at least :data:`CAUTIOUS_MIN` of them: a
  tile another seat had already discarded (earlier in the pile order), or an honour of which a copy
  was already in sight; and which has claimed at most one set;
* **quick** otherwise, and always for the reading seat itself.

Only what every seat sees is read: pools in order with the places of the claimed tiles (``taken``), and
sets with the seat they were claimed from. ``bench/bench_reading.py`` prints how often each test style
is read as what.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from .forward import STYLE_CAUTIOUS, STYLE_EAGER, STYLE_QUICK
from .perception import tile_of

QUICK: Final = STYLE_QUICK
CAUTIOUS: Final = STYLE_CAUTIOUS
EAGER: Final = STYLE_EAGER
STYLE_NAMES: Final = ("quick", "cautious", "eager")

EAGER_SETS: Final = 3  # sets claimed from discards that make a seat eager
EAGER_EARLY_SETS: Final = 2  # ... or this many ...
EAGER_EARLY_TURNS: Final = 8  # ... within its first this many discards
OPENING: Final = 4  # the first discards of a seat are not read for caution (everyone sheds honours)
CAUTIOUS_MIN: Final = 3  # discards after the opening needed to read caution
CAUTIOUS_SHARE: Final = 0.67  # the share of them that looked safe
HONOUR_BASE: Final = 27  # tiles from here on are honours (winds, dragons)


def _pile(seat: Mapping[str, Any]) -> list[int]:
    """A seat's whole discard pile in order (a tile's index is its place): its pool with its claimed
    tiles put back at their places."""
    pool = (int(tile_of(x)) for x in seat.get("discards") or ())
    out: list[int] = []
    for where, tile in sorted((int(t[0]), int(tile_of(t[1]))) for t in seat.get("taken") or ()):
        while len(out) < where and (nxt := next(pool, None)) is not None:
            out.append(nxt)
        out.append(tile)
    out.extend(pool)
    return out


def read_styles(view: Mapping[str, Any]) -> tuple[int, ...]:
    """The style each seat is read as (index by seat; the view's own seat is :data:`QUICK`)."""
    me = int(view.get("seat") or 0)
    dealer = int(view.get("dealer") or 0)
    seats: Sequence[Mapping[str, Any]] = view.get("seats") or ()
    piles: dict[int, list[int]] = {}
    claimed: dict[int, int] = {}
    for s in seats:
        i = int(s["seat"])
        piles[i] = _pile(s)
        claimed[i] = sum(1 for m in s.get("melds") or () if m.get("from") is not None)
    # every discard's approximate time: the round of its place, then the seat's order from the dealer
    timeline = sorted((place * 4 + (i - dealer) % 4, i, t) for i, pile in piles.items()
                      for place, t in enumerate(pile))
    first_seen: dict[tuple[int, int], int] = {}  # (tile, seat) -> time a seat first discarded it
    honour_seen: dict[int, int] = {}  # honour -> time its first copy was discarded
    for when, i, t in timeline:
        first_seen.setdefault((t, i), when)
        if t >= HONOUR_BASE:
            honour_seen.setdefault(t, when)
    out = [QUICK, QUICK, QUICK, QUICK]
    for i, pile in piles.items():
        if i == me or not 0 <= i < 4:
            continue
        n_claimed = claimed.get(i, 0)
        if n_claimed >= EAGER_SETS or (n_claimed >= EAGER_EARLY_SETS and len(pile) <= EAGER_EARLY_TURNS):
            out[i] = EAGER
            continue
        if n_claimed > 1:
            continue
        safe = counted = 0
        for place, t in enumerate(pile):
            if place < OPENING:
                continue
            counted += 1
            when = place * 4 + (i - dealer) % 4
            if any(first_seen.get((t, j), when) < when for j in piles if j != i) or (
                    t >= HONOUR_BASE and honour_seen.get(t, when) < when):
                safe += 1
        if counted >= CAUTIOUS_MIN and safe >= CAUTIOUS_SHARE * counted:
            out[i] = CAUTIOUS
    return tuple(out)

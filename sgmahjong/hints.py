"""Beginner hints for one seat, from that seat's own information only: how far the hand is from ready
(shanten), and when it is ready the tiles it waits on, how many of each the seat has not seen, and
the tai each would score on a discard and self-drawn (the same scorer as a real win). A wait whose
every copy the seat can see (its own tiles and sets, the discards, every exposed set) is *dead*: it
is listed under ``dead``, never offered among the ``waits``.

Pure: the inputs are what the seat may see (its concealed tiles, its sets, its bonus tiles, the winds
and the counts of tiles visible to it: discards and exposed sets), so nothing hidden can leak.

>>> from sgmahjong.notation import parse_tiles
>>> h = seat_hints(parse_tiles("123m456m789p4588s"), (), (), 0, 0, [0] * 34, RuleSet())
>>> [(w["tile"], w["unseen"], w["discard"]["tai"]) for w in h["waits"]]
[('3s', 4, 4), ('6s', 4, 4)]
>>> from sgmahjong.notation import parse_hand
>>> p = parse_hand("333444555m7p[777p]")  # ready on 7p, but the seat holds all four
>>> h = seat_hints(p.concealed, p.melds, p.bonus, 0, 0, visible_counts([], [p.melds]), RuleSet())
>>> h["shanten"], h["waits"], h["dead"]
(0, [], ['7p'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .analysis.shanten import shanten
from .analysis.waits import waits
from .hand import Hand
from .melds import Meld
from .notation import format_hand, parse_tile, parse_tiles
from .rules import RuleSet
from .scoring import WinContext, score
from .tiles import NUM_PLAYING, Tile


def _counts(tiles: Sequence[Tile]) -> list[int]:
    counts = [0] * NUM_PLAYING
    for t in tiles:
        if t < NUM_PLAYING:
            counts[t] += 1
    return counts


def _held(concealed: Sequence[Tile], melds: Sequence[Meld]) -> list[int]:
    """The 34-long count of the seat's own copies: its concealed tiles and every tile of its sets
    (concealed kongs included)."""
    counts = _counts(concealed)
    for m in melds:
        for t in m.tiles:
            counts[t] += 1
    return counts


def _scored(hand: Hand, seat_wind: int, prevailing: int, self_drawn: bool, rules: RuleSet) -> dict[str, Any]:
    ctx = WinContext(seat_wind=seat_wind, prevailing_wind=prevailing, self_drawn=self_drawn)
    r = score(hand, ctx, rules)
    return {"valid": r.valid, "tai": r.tai, "limit": r.limit,
            "patterns": [{"name": p.name, "tai": p.tai} for p in r.patterns]}


def ready_hints(concealed: Sequence[Tile], melds: Sequence[Meld], bonus: Sequence[Tile], seat_wind: int,
                prevailing: int, rules: RuleSet) -> dict[str, Any]:
    """The part that depends on the seat's own tiles only (cache it on them): for a 13-tile hand,
    ``shanten`` (0 = ready) and ``waits``, each ``{"tile", "hand", "discard", "self_drawn"}`` where
    ``hand`` is the winning hand string (``sgmahjong score`` takes it) and the two scores are
    ``{"valid", "tai", "limit", "patterns"}``; the top-level ``hand`` (the ready hand's string) is
    None unless ready. ``dead`` lists (as notation) the waits the seat holds all four copies of, in its
    concealed tiles and its sets: no fifth copy can complete the hand. For a 14-tile hand (before a
    discard): ``shanten`` after the best discard (-1 = a complete hand) and no waits."""
    counts = _counts(concealed)
    out: dict[str, Any] = {"tiles": len(concealed), "shanten": shanten(counts), "hand": None, "waits": [],
                           "dead": []}
    if len(concealed) % 3 != 1 or out["shanten"] != 0:
        return out  # (the hand string, and the validation building it costs, only for a ready hand)
    out["hand"] = format_hand(Hand(tuple(concealed), tuple(melds), None, tuple(bonus)))
    held = _held(concealed, melds)
    for index in waits(counts):
        tile = Tile(index)
        if held[index] >= 4:
            out["dead"].append(tile.notation)  # the seat holds all four: no copy can be the winning tile
            continue
        hand = Hand(tuple(concealed), tuple(melds), tile, tuple(bonus))
        out["waits"].append({
            "tile": tile.notation,
            "hand": format_hand(hand),
            "discard": _scored(hand, seat_wind, prevailing, False, rules),
            "self_drawn": _scored(hand, seat_wind, prevailing, True, rules),
        })
    return out


def unseen(tile: str | Tile, concealed: Sequence[Tile], visible: Sequence[int]) -> int:
    """Copies of ``tile`` the seat has not seen: four less its own concealed copies and the ``visible``
    ones (a 34-long count of the tiles in discards and sets, its own sets included)."""
    index = int(parse_tiles(tile)[0]) if isinstance(tile, str) else int(tile)
    own = sum(1 for t in concealed if t == index)
    return max(0, 4 - own - visible[index])


def seat_hints(concealed: Sequence[Tile], melds: Sequence[Meld], bonus: Sequence[Tile], seat_wind: int,
               prevailing: int, visible: Sequence[int], rules: RuleSet,
               drawn: Tile | None = None) -> dict[str, Any]:
    """The hints of one seat. ``concealed`` includes the ``drawn`` tile; with a drawn tile the waits
    are those of the hand before the draw, ``drawn_wins`` says whether the drawn tile completes the
    hand and ``drawn_keeps_ready`` whether discarding it keeps the hand ready (with the same waits).
    Each wait also has ``unseen``."""
    tiles = list(concealed)
    drawn_wins = False
    if drawn is not None and drawn in tiles:
        drawn_wins = shanten(_counts(tiles)) == -1
        tiles.remove(drawn)
    out = ready_hints(tiles, melds, bonus, seat_wind, prevailing, rules)
    return with_unseen(out, concealed, visible, drawn, drawn_wins)


def with_unseen(ready: dict[str, Any], concealed: Sequence[Tile], visible: Sequence[int],
                drawn: Tile | None, drawn_wins: bool) -> dict[str, Any]:
    """``ready`` (from :func:`ready_hints`) with the unseen counts and the drawn tile's facts added; a
    wait with no unseen copy left moves to ``dead`` (the waits and the dead ones in tile order)."""
    out = dict(ready)
    live: list[dict[str, Any]] = []
    dead = list(ready["dead"])
    for w in ready["waits"]:
        n = unseen(w["tile"], concealed, visible)
        if n > 0:
            live.append({**w, "unseen": n})
        else:
            dead.append(w["tile"])
    out["waits"] = live
    out["dead"] = sorted(dead, key=lambda notation: int(parse_tile(notation)))
    out["drawn"] = drawn.notation if drawn is not None else None
    out["drawn_wins"] = drawn_wins
    out["drawn_keeps_ready"] = drawn is not None and not drawn_wins and ready["shanten"] == 0
    return out


def visible_counts(discards: Sequence[Sequence[Tile]], melds: Sequence[Sequence[Meld]]) -> list[int]:
    """The 34-long count of tiles in every seat's ``discards`` and sets (what any seat sees)."""
    counts = [0] * NUM_PLAYING
    for pile in discards:
        for t in pile:
            if t < NUM_PLAYING:
                counts[t] += 1
    for seat_melds in melds:
        for m in seat_melds:
            for t in m.tiles:
                counts[t] += 1
    return counts

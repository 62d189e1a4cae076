"""包 (paying for all) as the engine applies it: which seat is liable, and fresh tiles (生牌).

RULES.md §5. Claim-triggered liabilities (dragons, winds, limit, arhats) are recorded on the claiming
seat when it pongs or kongs; win-triggered ones (flush, terminals, 包生) are decided at the win.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..melds import MeldKind
from ..tiles import Tile
from .state import HandState, SeatState


def is_fresh(state: HandState, tile: Tile) -> bool:
    """A tile in no discard pool (pong/kong claims count as discarded, chows do not); with
    ``fresh_tile=discards_or_exposed`` also in no exposed set."""
    if state.seen[tile]:
        return False
    if state.rules.fresh_tile == "discards_or_exposed":
        for st in state.seats:
            for m in st.melds:
                if not m.concealed and tile in m.meld.tiles:
                    return False
    return True


def _honour_value(tile: Tile, seat_wind: int, prevailing: int) -> int:
    if tile.is_dragon:
        return 1
    if tile.is_wind:
        w = tile - 27
        return int(w == seat_wind) + int(w == prevailing)
    return 0


def claim_liability(state: HandState, seats: Sequence[SeatState], claimer: int, feeder: int, tile: Tile,
                    kind: str) -> str | None:
    """The 包 reason if ``feeder``'s discard of ``tile``, ponged or konged by ``claimer``, makes the
    feeder liable for the claimer's win; ``None`` otherwise."""
    rules = state.rules
    st = seats[claimer]
    exposed = [m for m in st.melds if not m.concealed and m.kind is not MeldKind.CHOW]
    if rules.bao_dragons and tile.is_dragon and sum(1 for m in exposed if m.tile.is_dragon) == 2:
        return "bao_dragons"
    if rules.bao_winds and tile.is_wind and sum(1 for m in exposed if m.tile.is_wind) == 3:
        return "bao_winds"
    seat_wind = (claimer - state.dealer) % 4
    if rules.bao_limit and tile.is_honour:
        before = sum(_honour_value(m.tile, seat_wind, state.prevailing) for m in exposed)
        gain = _honour_value(tile, seat_wind, state.prevailing)
        if gain and before < rules.limit <= before + gain:
            return "bao_limit"
    if (rules.bao_arhats and kind == "kong" and state.seen[tile] == 1
            and sum(1 for m in st.melds if m.kind is MeldKind.KONG and not m.concealed) == 3):
        return "bao_arhats"
    return None


def bao_kong(state: HandState, remaining: int) -> bool:
    """包杠: the konged discard was fresh and fewer than ``bao_kong_tiles`` drawable tiles are left."""
    return state.rules.bao_kong and state.last_fresh and remaining < state.rules.bao_kong_tiles


def win_liability(state: HandState, seats: Sequence[SeatState], winner: int, shooter: int | None,
                  win: Any, window: Any, remaining: int) -> tuple[int | None, str | None]:
    """The liable seat (or ``None``) for a win, with the 包 rule that made it liable."""
    rules = state.rules
    st = seats[winner]
    on_discard = shooter is not None and window is not None and window.kind == "discard"
    if win.kind in ("eight_flowers", "robbing_the_eighth"):
        return None, None
    if (st.liable is not None and st.liable != winner
            and not (rules.payout == "shooter_pays" and shooter is not None)):
        return st.liable, st.liable_reason
    if not on_discard or rules.payout == "shooter_pays" or win.kind != "normal":
        return None, None
    assert shooter is not None
    tile: Tile = window.tile
    exposed = [m for m in st.melds if not m.concealed]
    if rules.bao_flush and win.hand is not None:
        suits = {m.tile.suit for m in exposed}
        if len(exposed) >= 3 and len(suits) == 1 and tile.suit in suits:
            hand_suits = {t.suit for t in win.hand.all_tiles() if not t.is_bonus}
            if len(hand_suits - {"z"}) <= 1:
                return shooter, "bao_flush"
    if rules.bao_terminals and tile.is_terminal:
        terminals = [m for m in exposed if m.kind is not MeldKind.CHOW and m.tile.is_terminal]
        if len(terminals) >= 3 and any(p.name == "pure_terminals" for p in win.result.patterns):
            return shooter, "bao_terminals"
    if (rules.bao_fresh and state.last_fresh and remaining < rules.bao_fresh_tiles
            and not win.thirteen_wonders):
        return shooter, "bao_fresh"
    return None, None

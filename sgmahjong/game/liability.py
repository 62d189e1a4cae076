"""包 (paying for all) as the engine applies it, asking the predicates of :mod:`sgmahjong.bao`.

Claim-triggered liabilities (dragons, winds, limit, arhats) are recorded on the claiming seat when it
pongs or kongs; win-triggered ones (flush, terminals, green, 包生) are decided at the win.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import bao
from ..melds import Meld
from ..tiles import Tile
from . import scoring_bridge
from .state import HandState, SeatState


def _pools(seats: Sequence[SeatState]) -> list[tuple[Tile, ...]]:
    return [st.discards for st in seats]


def _melds(seats: Sequence[SeatState]) -> list[Meld]:
    return [m.meld for st in seats for m in st.melds]


def is_fresh(state: HandState, seats: Sequence[SeatState], tile: Tile) -> bool:
    """Whether ``tile``, about to be discarded, is fresh (生牌) by the rule set's definition."""
    if state.seen[tile]:  # in a pool or claimed for a pong/kong: not fresh by any definition
        return False
    if state.rules.fresh_tile == "discards":
        # ``seen`` counts exactly the pools and the tiles claimed for pongs/kongs: what
        # bao.is_fresh looks at under this definition (a test checks they agree)
        return True
    return bao.is_fresh(tile, _pools(seats), _melds(seats), state.rules)


def claim_liability(state: HandState, seats: Sequence[SeatState], claimer: int, feeder: int, tile: Tile,
                    kind: str) -> str | None:
    """The 包 rule that makes ``feeder`` liable when ``claimer`` pongs/kongs its discard ``tile``
    (``seats`` as they are with the tile taken out of the feeder's pool, before the new set)."""
    st = seats[claimer]
    unseen = kind == "kong" and bao.is_unseen(tile, _pools(seats), _melds(seats))
    return bao.claim_liability([m.meld for m in st.melds], tile, kong=kind == "kong",
                               seat_wind=(claimer - state.dealer) % 4, prevailing_wind=state.prevailing,
                               rules=state.rules, unseen=unseen)


def bao_kong(state: HandState, remaining: int, fresh: bool) -> bool:
    """包杠: the konged discard was fresh and few drawable tiles are left."""
    return bao.bao_kong_applies(remaining, fresh, state.rules)


def win_liability(state: HandState, seats: Sequence[SeatState], winner: int, shooter: int | None,
                  win: Any, window: Any, remaining: int) -> tuple[int | None, str | None]:
    """The liable seat (or ``None``) for a win, with the 包 rule that made it liable. ``seats`` are
    before the winning tile joins the winner's hand."""
    rules = state.rules
    self_drawn = shooter is None
    if win.kind in ("eight_flowers", "robbing_the_eighth") or win.thirteen_wonders:
        return None, None
    if not scoring_bridge.liability_applies(rules, self_drawn):
        return None, None
    st = seats[winner]
    if st.liable is not None and st.liable != winner:
        return st.liable, st.liable_reason
    if (shooter is None and win.kind == "normal" and state.kong_liable is not None
            and state.turn == winner and state.draw_source != "front"):
        # 包杠: a win on the replacement draw of a kong made from a fresh discard late in the hand
        return state.kong_liable, "bao_kong"
    if shooter is None or window is None or window.kind != "discard" or win.kind != "normal":
        return None, None
    tile: Tile = window.tile
    name = bao.win_liability([m.meld for m in st.melds], tile, rules)
    if name is not None:
        return shooter, name
    if bao.bao_fresh_applies(remaining, state.last_fresh, rules, thirteen_wonders=win.thirteen_wonders):
        return shooter, "bao_fresh"
    return None, None

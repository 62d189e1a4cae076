"""The end of a hand: a win (payments, 包, the result) or a drawn hand; hands and wall revealed."""

from __future__ import annotations

from typing import Any

from ..tiles import Tile
from . import liability
from .builder import Builder
from .state import ENDED, SeatState
from .wall import SCHEME
from .wins import WinInfo


def take_discard(src: SeatState, t: Tile, by: int) -> dict[str, Any]:
    """The fields of ``src`` once ``by`` took its last discard ``t``: off the pile, noted as taken."""
    place = len(src.discards) + len(src.taken) - 1
    return {"discards": src.discards[:-1], "taken": (*src.taken, (place, t, by))}


def _reveal(b: Builder) -> dict[str, Any]:
    """The hand's instant payments (each: reason, the seat paid, the four amounts, the seat liable
    under 包杠), the hands and the wall. A hand shuffled from a secret reveals it (it is also the commitment's
    salt) with the scheme and the dealer, so anyone can recompute the wall (docs/wall.md)."""
    reveal: dict[str, Any] = {"salt": b.s.salt, "wall": [t.notation for t in b.s.wall]}
    if isinstance(b.s.seed, str):
        reveal.update(scheme=SCHEME, secret=b.s.seed, dealer=b.s.dealer, stacked=b.s.stacked)
    return {
        "revealed": {str(s): [t.notation for t in b.seat(s).concealed] for s in range(4)},
        "wall_reveal": reveal,
        "instant": [{"reason": r, "seat": s, "amounts": list(a), "liable": liable}
                    for r, s, a, liable in b.get("instant")],
    }


def drawn_game(b: Builder) -> None:
    result: dict[str, Any] = {"winner": None, "shooter": None, "self_drawn": False, "hand": None,
                              "tai": 0, "limit": False, "patterns": [], "payments": [0, 0, 0, 0],
                              "liable": None, "drawn_game": True, "kong_made": bool(b.get("kong_made")),
                              **_reveal(b)}
    b.set(phase=ENDED, window=None, turn_options=(), turn_win=None, result=result)
    b.emit("drawn_game", None, kong_made=result["kong_made"])
    b.emit("hand_end", None, **result)


def finish_win(b: Builder, winner: int, shooter: int | None, win: WinInfo, tile: Tile | None) -> None:
    from ..notation import format_hand
    from .scoring_bridge import win_payments

    w = b.get("window")
    self_drawn = shooter is None
    liable, reason = liability.win_liability(b.s, b.seats, winner, shooter, win, w, b.remaining())
    if w is not None and tile is not None:
        # the claimed tile moves to the winner
        src = b.seat(w.source)
        if w.kind == "discard":
            b.upd(w.source, **take_discard(src, tile, winner))
            st = b.seat(winner)
            b.upd(winner, concealed=tuple(sorted((*st.concealed, tile))))
        elif w.kind == "eighth":
            bonus = list(src.bonus)
            bonus.remove(tile)
            b.upd(w.source, bonus=tuple(bonus))
            st = b.seat(winner)
            b.upd(winner, bonus=(*st.bonus, tile))
        else:  # a robbed kong: the tile leaves the robbed hand
            conc = list(src.concealed)
            conc.remove(tile)
            b.upd(w.source, concealed=tuple(conc))
            st = b.seat(winner)
            b.upd(winner, concealed=tuple(sorted((*st.concealed, tile))))

    res = win.result
    pays = win_payments(tai=res.tai, winner=winner, shooter=shooter, self_drawn=self_drawn,
                        liable=liable, thirteen_wonders=res.thirteen_wonders,
                        robbed_kong=w is not None and w.kind in ("added_kong", "concealed_kong"),
                        rules=b.rules)
    b.pay(pays)
    result: dict[str, Any] = {
        "winner": winner, "shooter": shooter, "self_drawn": self_drawn,
        "hand": format_hand(win.hand) if win.hand is not None else None, "kind": win.kind,
        "tai": res.tai, "limit": res.limit,
        "patterns": [{"name": p.name, "tai": p.tai} for p in res.patterns],
        "payments": pays, "liable": liable, "liable_reason": reason, "drawn_game": False,
        "kong_made": bool(b.get("kong_made")), **_reveal(b),
    }
    b.set(phase=ENDED, window=None, turn_options=(), turn_win=None, result=result)
    b.emit("win", winner, shooter=shooter, self_drawn=self_drawn, tai=res.tai, win_kind=win.kind,
           robbed=w is not None and w.kind in ("added_kong", "concealed_kong"),
           hand=result["hand"], patterns=result["patterns"], payments=pays, liable=liable)
    b.emit("hand_end", None, **{("win_kind" if k == "kind" else k): v for k, v in result.items()})

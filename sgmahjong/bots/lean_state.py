"""The state of an imagined hand in the expert's lean forward model, and the steps it takes by itself.

:class:`SimState` holds a hand as plain mutable lists (see :mod:`.lean`) and plays what follows
without a decision, as the engine's lower layers do (:mod:`sgmahjong.game.turn`, ``draws``,
``ending``): what is asked of whom, a seat's turn beginning (its options and self-drawn win), the win
on a discard, draws and bonus tiles with their instant payments, and the end of the hand. The
decisions and what they cause (a discard's claim window, a claim, a kong) are :class:`~.lean.Sim`'s,
a subclass, so this module calls nothing above it.
"""

from __future__ import annotations

from typing import Final

from .. import bao, payments
from ..game.actions import Action
from ..game.state import CLAIM, ENDED, TURN
from ..game.wins import WinInfo, declaration_win, hand_win
from ..melds import Meld
from ..rules import RuleSet
from ..tiles import NUM_PLAYING, Tile
from .lean_seat import (
    DISCARD,
    FLOWER_TILES,
    KONG,
    NO_ACTIONS,
    NO_WINS,
    PASS,
    PONG_KIND,
    TILES,
    WIN,
    LSeat,
    complete,
)

SIM_FIELDS: Final[tuple[str, ...]] = (
    "back",
    "claimed",
    "claims_made",
    "dealer",
    "discards_made",
    "draw_source",
    "flower_chain",
    "front",
    "kong_liable",
    "kong_made",
    "kongs_in_turn",
    "last_discard",
    "last_fresh",
    "last_tile",
    "ledger",
    "liable",
    "phase",
    "prevailing",
    "rules",
    "seats",
    "seen",
    "shooter",
    "tai",
    "turn",
    "turn_options",
    "turn_win",
    "w_decisions",
    "w_kind",
    "w_options",
    "w_source",
    "w_tile",
    "wall",
    "win_kind",
    "window_wins",
    "winner",
)
"""The attributes of a :class:`~.lean.Sim` (its base's ``__slots__``; compiled, the classes have none)."""


class SimState:
    """An imagined hand's state and its automatic steps; :class:`~.lean.Sim` plays its decisions."""

    __slots__ = SIM_FIELDS

    def __init__(self, rules: RuleSet, dealer: int, prevailing: int, wall: list[int],
                 seats: list[LSeat] | None = None) -> None:
        self.rules = rules
        self.dealer = dealer
        self.prevailing = prevailing
        self.wall = wall
        self.front = 0
        self.back = 0
        self.seats = seats if seats is not None else [LSeat() for _ in range(4)]
        self.phase = TURN
        self.turn = 0
        self.w_kind: str | None = None  # the open window (None: no window)
        self.w_source = 0
        self.w_tile = 0
        self.w_options: list[tuple[Action, ...]] = [NO_ACTIONS] * 4
        self.w_decisions: list[Action | None] = [None] * 4
        self.window_wins: list[WinInfo | None] = list(NO_WINS)
        self.turn_options: tuple[Action, ...] = NO_ACTIONS
        self.turn_win: WinInfo | None = None
        self.last_discard: tuple[int, int] | None = None
        self.draw_source = "front"
        self.flower_chain = 0
        self.kongs_in_turn = 0
        self.last_tile = False
        self.kong_made = False
        self.claims_made = False
        self.discards_made = 0
        self.seen = [0] * NUM_PLAYING
        self.ledger = [0, 0, 0, 0]
        self.last_fresh = False
        self.claimed: tuple[int, int] | None = None
        self.kong_liable: int | None = None
        self.winner: int | None = None  # the result (winner None at the end: a drawn hand)
        self.shooter: int | None = None
        self.tai = 0
        self.liable: int | None = None
        self.win_kind: str | None = None

    # -- what is asked -----------------------------------------------------------------------------
    @property
    def remaining(self) -> int:
        """Drawable tiles left (the last 15 are never drawn)."""
        return len(self.wall) - self.front - self.back - 15

    def awaiting(self) -> int:
        """The seat whose decision is awaited (the lowest undecided seat of a window); -1 at the end."""
        if self.phase == TURN:
            return self.turn
        if self.phase == CLAIM:
            opts, dec = self.w_options, self.w_decisions
            for s in range(4):
                if opts[s] and dec[s] is None:
                    return s
        return -1

    def options(self, seat: int) -> tuple[Action, ...]:
        """``seat``'s legal actions now (as ``legal_actions``)."""
        if self.phase == TURN:
            return self.turn_options if seat == self.turn else NO_ACTIONS
        if self.phase == CLAIM:
            return self.w_options[seat] if self.w_decisions[seat] is None else NO_ACTIONS
        return NO_ACTIONS

    def _is_fresh(self, t: int) -> bool:
        if self.seen[t]:
            return False
        if self.rules.fresh_tile == "discards":
            return True
        return bao.is_fresh(TILES[t], self._pools(), self._table_sets(), self.rules)

    def _pools(self) -> list[list[Tile]]:
        return [[TILES[t] for t in s.discards] for s in self.seats]

    def _table_sets(self) -> list[Meld]:
        return [m.meld for s in self.seats for m in s.melds]

    # -- the seat on turn --------------------------------------------------------------------------
    def _begin_turn(self, seat: int, source: str) -> None:
        if source == "kong" and self.kongs_in_turn >= 2:
            source = "kong_on_kong"
        self.phase = TURN
        self.turn = seat
        self.w_kind = None
        self.draw_source = source
        self._turn_options(seat)

    def _turn_options(self, seat: int) -> None:
        st = self.seats[seat]
        c = st.c
        d = DISCARD[seat]
        opts: list[Action] = []
        fours: list[int] = []
        for t in range(NUM_PLAYING):
            n = c[t]
            if n:
                opts.append(d[t])
                if n == 4:
                    fours.append(t)
        if self.remaining > 0:
            kongs = fours
            for m in st.melds:
                if m.kind is PONG_KIND and c[m.tile]:
                    kongs.append(int(m.tile))
            if kongs:
                k = KONG[seat]
                opts.extend(k[t] for t in sorted(kongs))
        win = self._declaration(st)
        source = self.draw_source
        if source != "claim":
            drawn = st.drawn
            if drawn is not None and (st.waits is None or drawn in st.waits) and complete(c, len(st.melds)):
                rep = source if source in ("flower", "kong", "kong_on_kong") else None
                normal = hand_win(st.seat_state(), TILES[drawn], self_drawn=True,
                                  seat_wind=(seat - self.dealer) % 4, prevailing=self.prevailing,
                                  rules=self.rules, replacement=rep,  # type: ignore[arg-type]
                                  flower_replacements=max(1, self.flower_chain), last_tile=self.last_tile,
                                  special=self._special_for_self_draw(seat))  # type: ignore[arg-type]
                if normal is not None and (win is None or not win.valid
                                           or (normal.valid and normal.result.tai >= win.result.tai)):
                    win = normal
        if win is not None and win.valid:
            opts.append(WIN[seat])
        self.turn_options = tuple(opts)
        self.turn_win = win

    def _declaration(self, st: LSeat) -> WinInfo | None:
        """``wins.declaration_win`` (its cheap exit on the counts)."""
        if len(st.bonus) < 8:
            c = st.c
            honours = c[27] + c[28] + c[29] + c[30] + c[31] + c[32] + c[33]
            for m in st.melds:
                if m.tile >= 27:
                    honours += 3
            if honours < 9:
                return None
        return declaration_win(st.seat_state(), self.rules)

    def _special_for_self_draw(self, seat: int) -> str | None:
        if self.claims_made:
            return None
        if seat == self.dealer:
            return "heavenly" if self.discards_made == 0 else None
        if self.discards_made <= (seat - self.dealer) % 4:
            return "earthly"
        return None

    # -- a win on a discard --------------------------------------------------------------------------
    def _discard_win(self, seat: int, source: int, t: int, *, robbed: bool) -> WinInfo | None:
        """``wins.discard_win``: the win of ``seat`` on ``t`` (``None``: not a complete hand)."""
        st = self.seats[seat]
        c = st.c
        if st.waits is not None:
            if t not in st.waits:
                return None
        else:
            c[t] += 1
            ok = complete(c, len(st.melds))
            c[t] -= 1
            if not ok:
                return None
        special = None
        if not self.claims_made and not st.has_drawn and seat != self.dealer and not robbed:
            special = "earthly" if source == self.dealer and self.discards_made == 1 else "humanly"
        return hand_win(st.seat_state(), TILES[t], self_drawn=False, seat_wind=(seat - self.dealer) % 4,
                        prevailing=self.prevailing, rules=self.rules, robbed_kong=robbed,
                        special=special)  # type: ignore[arg-type]

    # -- draws and bonus tiles -----------------------------------------------------------------------
    def _instant(self, seat: int, kind: str, *, dealt: bool = False, liable: int | None = None) -> None:
        pays = payments.instant_payment(kind, seat, self.rules, dealt=dealt, liable=liable)
        if any(pays):
            led = self.ledger
            for i in range(4):
                led[i] += pays[i]

    def _draw_turn(self, seat: int) -> None:
        if self.remaining <= 0:
            self._drawn_game()
            return
        self.kongs_in_turn = 0
        self.flower_chain = 0
        self.last_discard = None
        self.claimed = None
        self.kong_liable = None
        t = self.wall[self.front]
        self.front += 1
        self.last_tile = self.remaining == 0
        st = self.seats[seat]
        st.barred = set()
        st.has_drawn = True
        self._receive(seat, t, "front")

    def _replacement(self, seat: int, reason: str) -> None:
        if self.remaining <= 0:
            self._drawn_game()
            return
        wall = self.wall
        t = wall[len(wall) - 1 - self.back]
        self.back += 1
        self.last_tile = False
        self._receive(seat, t, reason)

    def _receive(self, seat: int, t: int, source: str) -> None:
        st = self.seats[seat]
        if t >= NUM_PLAYING:
            before = st.bonus[:]
            st.bonus.append(t)
            new = payments.instant_events_for_bonus(before, TILES[t], seat)  # type: ignore[arg-type]
            for kind in new:
                self._instant(seat, kind)
            self.flower_chain += 1
            if t in FLOWER_TILES and self._open_eighth(seat, t):
                return
            self._replacement(seat, "flower")
            return
        st.c[t] += 1
        st.drawn = t
        self._begin_turn(seat, source)

    def _open_eighth(self, seat: int, tile: int) -> bool:
        if not self.rules.robbing_the_eighth:
            return False
        options: list[tuple[Action, ...]] = [NO_ACTIONS, NO_ACTIONS, NO_ACTIONS, NO_ACTIONS]
        found = False
        for other in range(4):
            if other == seat:
                continue
            if sum(1 for f in self.seats[other].bonus if f in FLOWER_TILES) == 7:
                options[other] = (WIN[other], PASS[other])
                found = True
        if not found:
            return False
        self._open_window("eighth", seat, tile, options)
        return True

    def _open_window(self, kind: str, source: int, tile: int, options: list[tuple[Action, ...]]) -> None:
        """A claim window of ``kind`` on ``source``'s ``tile``: ``options`` by seat, nobody decided yet."""
        self.phase = CLAIM
        self.w_kind = kind
        self.w_source = source
        self.w_tile = tile
        self.w_options = options
        self.w_decisions = [None, None, None, None]

    # -- the end -----------------------------------------------------------------------------------
    def _drawn_game(self) -> None:
        self.phase = ENDED
        self.w_kind = None
        self.turn_options = NO_ACTIONS
        self.turn_win = None

    def _finish_win(self, winner: int, shooter: int | None, win: WinInfo) -> None:
        kind = self.w_kind
        self_drawn = shooter is None
        liable = self._win_liability(winner, shooter, win)
        res = win.result
        pays = payments.win_payments(res.tai, winner=winner, shooter=shooter, self_drawn=self_drawn,
                                     rules=self.rules, liable=liable, thirteen_wonders=res.thirteen_wonders,
                                     robbed_kong=kind in ("added_kong", "concealed_kong"))
        led = self.ledger
        for i in range(4):
            led[i] += pays[i]
        self.winner = winner
        self.shooter = shooter
        self.tai = res.tai
        self.liable = liable
        self.win_kind = win.kind
        self.phase = ENDED
        self.w_kind = None
        self.turn_options = NO_ACTIONS
        self.turn_win = None

    def _win_liability(self, winner: int, shooter: int | None, win: WinInfo) -> int | None:
        """``liability.win_liability`` (the liable seat only)."""
        rules = self.rules
        self_drawn = shooter is None
        if win.kind in ("eight_flowers", "robbing_the_eighth") or win.thirteen_wonders:
            return None
        if not payments.liability_applies(rules, self_drawn):
            return None
        st = self.seats[winner]
        if st.liable is not None and st.liable != winner:
            return st.liable
        if (shooter is None and win.kind == "normal" and self.kong_liable is not None
                and self.turn == winner and self.draw_source != "front"):
            return self.kong_liable
        if shooter is None or self.w_kind != "discard" or win.kind != "normal":
            return None
        if bao.win_liability([m.meld for m in st.melds], TILES[self.w_tile], rules) is not None:
            return shooter
        if bao.bao_fresh_applies(self.remaining, self.last_fresh, rules,
                                 thirteen_wonders=win.thirteen_wonders):
            return shooter
        return None

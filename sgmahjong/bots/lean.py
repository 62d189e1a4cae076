"""The expert's lean forward model (issue 15): the engine's rules for imagined hands, mutated in place.

A :class:`Sim` is one imagined hand as plain mutable lists — each seat's concealed tiles as a count
array, its sets, bonus tiles, pool and barred tiles; the wall as a list with two cursors; the ledger —
and :meth:`Sim.step` plays one decision and every automatic step it causes (draws, bonus tiles and
their replacements, claim windows, kongs and their payments, the end of the hand) by the same rules
as :func:`sgmahjong.game.apply`, in the same order, offering the same legal actions (the same shared
:class:`~sgmahjong.game.actions.Action` objects, in the same order). What it leaves out is what only
real games need: no events, no action log, no result dict or reveal, no frozen copies, no check that
an action is legal (the caller picks one of :meth:`Sim.options`), no paused windows.

Scoring, payments and 包 are the real ones (:mod:`sgmahjong.game.wins`, :mod:`sgmahjong.payments`,
:mod:`sgmahjong.bao`), called only where the engine calls them; a seat's shape waits are cached as the
engine caches them, so a tile that cannot complete a hand costs a set lookup. ``tests/test_bots_lean.py``
plays the same actions from the same states through both and checks the legal actions at every step
and the final ledger and result agree.

:func:`sim_of` copies an engine :class:`~sgmahjong.game.HandState` (any phase but a paused window or a
deal paused by the eighth flower) into a :class:`Sim`; :meth:`Sim.copy` copies a Sim (cheaper: the
expert samples a hand once and copies it for each candidate).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final

from .. import bao, payments
from ..analysis.decompose import is_standard_complete
from ..analysis.waits import waits as shape_waits
from ..game import builder
from ..game.actions import Action
from ..game.scoring_bridge import score_special
from ..game.state import CLAIM, ENDED, TURN, HandState, SeatState, SetRec
from ..game.wins import WinInfo, declaration_win, hand_win, is_thirteen_wonders
from ..melds import Meld, MeldKind
from ..rules import RuleSet
from ..tiles import NUM_PLAYING, Tile
from .determinise import Table, deal_hidden
from .forward import quick_choice

_FLOWERS: Final = frozenset(range(34, 42))
_NOWIN: Final[list[WinInfo | None]] = [None, None, None, None]
_EMPTY: Final[tuple[Action, ...]] = ()
_PONG: Final = MeldKind.PONG
_KONG: Final = MeldKind.KONG
_CHOW: Final = MeldKind.CHOW
# the engine's shared actions (``game.builder``), as constants the compiled module reads without a lookup
CHOW: Final = builder.CHOW
DISCARD: Final = builder.DISCARD
KONG: Final = builder.KONG
PASS: Final = builder.PASS
PONG: Final = builder.PONG
WIN: Final = builder.WIN
_TILE: Final = tuple(Tile(i) for i in range(46))


def _waits_of(c: list[int]) -> frozenset[int]:
    return frozenset(shape_waits(c))


def _complete(c: list[int], n_melds: int) -> bool:
    """Sets and a pair, or thirteen wonders with no sets (``wins.complete_shape``)."""
    if n_melds == 0 and is_thirteen_wonders(c):
        return True
    return is_standard_complete(c)


SEAT_FIELDS: Final[tuple[str, ...]] = (
    "barred",
    "bonus",
    "c",
    "discards",
    "drawn",
    "has_drawn",
    "liable",
    "liable_reason",
    "melds",
    "waits",
)
"""The attributes of an :class:`LSeat` (its ``__slots__``; compiled, the class has none)."""


class LSeat:
    """One seat of a :class:`Sim` (the fields of :class:`~sgmahjong.game.state.SeatState`, mutable;
    ``c`` counts the concealed tiles, the drawn tile included)."""

    __slots__ = SEAT_FIELDS

    def __init__(self) -> None:
        self.c: list[int] = [0] * NUM_PLAYING
        self.drawn: int | None = None
        self.melds: list[SetRec] = []
        self.bonus: list[int] = []
        self.discards: list[int] = []
        self.barred: set[int] = set()
        self.has_drawn = False
        self.liable: int | None = None
        self.liable_reason: str | None = None
        self.waits: frozenset[int] | None = None

    def copy(self) -> LSeat:
        n = LSeat()
        n.c = self.c[:]
        n.drawn = self.drawn
        n.melds = self.melds[:]
        n.bonus = self.bonus[:]
        n.discards = self.discards[:]
        n.barred = set(self.barred)
        n.has_drawn = self.has_drawn
        n.liable = self.liable
        n.liable_reason = self.liable_reason
        n.waits = self.waits
        return n

    def concealed(self) -> tuple[Tile, ...]:
        """The concealed tiles, sorted (as the engine keeps them)."""
        out: list[Tile] = []
        for t, n in enumerate(self.c):
            if n:
                out.extend((_TILE[t],) * n)
        return tuple(out)

    def seat_state(self) -> SeatState:
        """A :class:`SeatState` with the fields the scorer reads (concealed tiles, sets, bonus)."""
        return SeatState(concealed=self.concealed(), melds=tuple(self.melds),
                         bonus=tuple(_TILE[t] for t in self.bonus))


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
"""The attributes of a :class:`Sim` (its ``__slots__``; compiled, the class has none)."""


class Sim:
    """An imagined hand, played in place (see the module docstring)."""

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
        self.w_options: list[tuple[Action, ...]] = [_EMPTY] * 4
        self.w_decisions: list[Action | None] = [None] * 4
        self.window_wins: list[WinInfo | None] = list(_NOWIN)
        self.turn_options: tuple[Action, ...] = _EMPTY
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

    def copy(self) -> Sim:
        n = Sim(self.rules, self.dealer, self.prevailing, self.wall, [s.copy() for s in self.seats])
        n.back = self.back
        n.claimed = self.claimed
        n.claims_made = self.claims_made
        n.discards_made = self.discards_made
        n.draw_source = self.draw_source
        n.flower_chain = self.flower_chain
        n.front = self.front
        n.kong_liable = self.kong_liable
        n.kong_made = self.kong_made
        n.kongs_in_turn = self.kongs_in_turn
        n.last_discard = self.last_discard
        n.last_fresh = self.last_fresh
        n.last_tile = self.last_tile
        n.ledger = self.ledger[:]
        n.liable = self.liable
        n.phase = self.phase
        n.seen = self.seen[:]
        n.shooter = self.shooter
        n.tai = self.tai
        n.turn = self.turn
        n.turn_options = self.turn_options
        n.turn_win = self.turn_win
        n.w_decisions = self.w_decisions[:]
        n.w_kind = self.w_kind
        n.w_options = self.w_options[:]
        n.w_source = self.w_source
        n.w_tile = self.w_tile
        n.win_kind = self.win_kind
        n.window_wins = self.window_wins[:]
        n.winner = self.winner
        return n

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
            return self.turn_options if seat == self.turn else _EMPTY
        if self.phase == CLAIM:
            return self.w_options[seat] if self.w_decisions[seat] is None else _EMPTY
        return _EMPTY

    # -- playing -----------------------------------------------------------------------------------
    def step(self, a: Action) -> None:
        """Play one of the legal actions (as ``apply``, in place)."""
        if self.phase == TURN:
            self._do_turn(a)
        else:
            self._do_decision(a)

    def _do_turn(self, a: Action) -> None:
        seat = a.seat
        st = self.seats[seat]
        if a.kind == "win":
            win = self.turn_win
            assert win is not None
            self._finish_win(seat, self._declaration_shooter(win), win)
            return
        assert a.tile is not None
        t = int(a.tile)
        self.kong_liable = None
        if a.kind == "discard":
            c = st.c
            c[t] -= 1
            st.waits = st.waits if t == st.drawn and st.waits is not None else _waits_of(c)
            self.last_fresh = self._is_fresh(t)
            st.drawn = None
            st.discards.append(t)
            st.barred.add(t)
            self.seen[t] += 1
            self.last_discard = (seat, t)
            self.discards_made += 1
            self.turn_options = _EMPTY
            self.turn_win = None
            self._open_discard_window(seat, t)
            return
        self._declare_kong(seat, t)

    def _is_fresh(self, t: int) -> bool:
        if self.seen[t]:
            return False
        if self.rules.fresh_tile == "discards":
            return True
        return bao.is_fresh(_TILE[t], self._pools(), self._table_sets(), self.rules)

    def _pools(self) -> list[list[Tile]]:
        return [[_TILE[t] for t in s.discards] for s in self.seats]

    def _table_sets(self) -> list[Meld]:
        return [m.meld for s in self.seats for m in s.melds]

    def _declaration_shooter(self, win: WinInfo) -> int | None:
        claimed = self.claimed
        if claimed is None:
            return None
        source, tile = claimed
        if win.kind == "declare_three_dragons" and tile >= 31:
            return source
        if win.kind == "declare_four_winds" and 27 <= tile <= 30:
            return source
        return None

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
                if m.kind is _PONG and c[m.tile]:
                    kongs.append(int(m.tile))
            if kongs:
                k = KONG[seat]
                opts.extend(k[t] for t in sorted(kongs))
        win = self._declaration(st)
        source = self.draw_source
        if source != "claim":
            drawn = st.drawn
            if drawn is not None and (st.waits is None or drawn in st.waits) and _complete(c, len(st.melds)):
                rep = source if source in ("flower", "kong", "kong_on_kong") else None
                normal = hand_win(st.seat_state(), _TILE[drawn], self_drawn=True,
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

    # -- claim windows -----------------------------------------------------------------------------
    def _discard_win(self, seat: int, source: int, t: int, *, robbed: bool) -> WinInfo | None:
        """``wins.discard_win``: the win of ``seat`` on ``t`` (``None``: not a complete hand)."""
        st = self.seats[seat]
        c = st.c
        if st.waits is not None:
            if t not in st.waits:
                return None
        else:
            c[t] += 1
            ok = _complete(c, len(st.melds))
            c[t] -= 1
            if not ok:
                return None
        special = None
        if not self.claims_made and not st.has_drawn and seat != self.dealer and not robbed:
            special = "earthly" if source == self.dealer and self.discards_made == 1 else "humanly"
        return hand_win(st.seat_state(), _TILE[t], self_drawn=False, seat_wind=(seat - self.dealer) % 4,
                        prevailing=self.prevailing, rules=self.rules, robbed_kong=robbed,
                        special=special)  # type: ignore[arg-type]

    def _open_discard_window(self, source: int, t: int) -> None:
        options: list[tuple[Action, ...]] | None = None
        wins: list[WinInfo | None] | None = None
        remaining = self.remaining
        for k in (1, 2, 3):
            seat = (source + k) % 4
            st = self.seats[seat]
            c = st.c
            n = c[t]
            barred = t in st.barred
            known = st.waits
            may_win = not barred and (t in known if known is not None else True)
            chow = k == 1 and t < 27
            if n < 2 and not may_win:
                if chow and (chows := _chows(seat, c, t)):
                    if options is None:
                        options = [_EMPTY, _EMPTY, _EMPTY, _EMPTY]
                    options[seat] = (*chows, PASS[seat])
                continue
            opts = _chows(seat, c, t) if chow else []
            if n >= 2 and not barred:
                opts.append(PONG[seat])
            if n == 3 and remaining > 0:
                opts.append(KONG[seat][t])
            if may_win:
                win = self._discard_win(seat, source, t, robbed=False)
                if win is not None:
                    if wins is None:
                        wins = [None, None, None, None]
                    wins[seat] = win
                    if win.valid:
                        opts.append(WIN[seat])
            if opts:
                opts.append(PASS[seat])
                if options is None:
                    options = [_EMPTY, _EMPTY, _EMPTY, _EMPTY]
                options[seat] = tuple(opts)
        if options is None:
            self.w_kind = None
            self.window_wins = list(_NOWIN)
            self._draw_turn((source + 1) % 4)
            return
        self._open_window("discard", source, t, options)
        self.window_wins = wins if wins is not None else list(_NOWIN)

    def _do_decision(self, a: Action) -> None:
        seat = a.seat
        kind = a.kind
        if self.w_kind != "eighth" and kind != "win":
            opts = self.w_options[seat]
            if any(o.kind == "win" for o in opts) or (kind == "pass" and any(o.kind == "pong" for o in opts)):
                self.seats[seat].barred.add(self.w_tile)
        dec = self.w_decisions
        dec[seat] = a
        opts_all = self.w_options
        for s in range(4):
            if opts_all[s] and dec[s] is None:
                return
        self._resolve()

    def _resolve(self) -> None:
        source = self.w_source
        kind = self.w_kind
        tile = self.w_tile
        dec = self.w_decisions
        order = ((source + 1) % 4, (source + 2) % 4, (source + 3) % 4)
        winners = [s for s in order if (d := dec[s]) is not None and d.kind == "win"]
        if winners:
            if kind == "eighth":
                self._finish_win(winners[0], source, WinInfo(score_special("robbing_the_eighth", self.rules),
                                                              "robbing_the_eighth"))
                return
            wins = self.window_wins
            thirteen = [s for s in winners if (wi := wins[s]) is not None and wi.thirteen_wonders]
            winner = (thirteen or winners)[0]
            info = wins[winner]
            assert info is not None
            self._finish_win(winner, source, info)
            return
        self.w_kind = None
        self.window_wins = list(_NOWIN)
        self.phase = TURN
        if kind == "eighth":
            self._replacement(source, "flower")
            return
        if kind == "added_kong" or kind == "concealed_kong":
            self._complete_kong(source, tile, kind)
            return
        for want in ("pong", "kong", "chow"):
            for s in order:
                d = dec[s]
                if d is not None and d.kind == want:
                    self._claim(s, source, tile, d)
                    return
        self._draw_turn((source + 1) % 4)

    def _claim(self, seat: int, source: int, t: int, a: Action) -> None:
        self.seats[source].discards.pop()
        st = self.seats[seat]
        c = st.c
        self.claims_made = True
        self.last_discard = None
        self.kongs_in_turn = 0
        self.flower_chain = 0
        self.claimed = None if a.kind == "chow" else (source, t)
        self.kong_liable = None
        st.barred = set()
        st.drawn = None
        st.waits = None
        if a.kind == "chow":
            assert a.tile is not None
            lo = int(a.tile)
            for x in (lo, lo + 1, lo + 2):
                if x != t:
                    c[x] -= 1
            self.seen[t] -= 1
            st.melds.append(SetRec(_CHOW, _TILE[lo], False, source))
            self._begin_turn(seat, "claim")
            return
        c[t] -= 2 if a.kind == "pong" else 3
        liable = None
        kong = a.kind == "kong"
        rules = self.rules
        unseen = kong and bao.is_unseen(_TILE[t], self._pools(), self._table_sets())
        liable = bao.claim_liability([m.meld for m in st.melds], _TILE[t], kong=kong,
                                     seat_wind=(seat - self.dealer) % 4, prevailing_wind=self.prevailing,
                                     rules=rules, unseen=unseen)
        st.melds.append(SetRec(_KONG if kong else _PONG, _TILE[t], False, source))
        if liable is not None and st.liable is None:
            st.liable = source
            st.liable_reason = liable
        if not kong:
            self._begin_turn(seat, "claim")
            return
        payer = self._kong_payment(seat, "exposed", source)
        self.kongs_in_turn = 1
        self.kong_made = True
        self.kong_liable = payer
        self._replacement(seat, "kong")

    # -- kongs ---------------------------------------------------------------------------------------
    def _kong_payment(self, seat: int, kind: str, source: int | None) -> int | None:
        payer = None
        if source is not None and bao.bao_kong_applies(self.remaining, self.last_fresh, self.rules):
            payer = source
        self._instant(seat, "concealed_kong" if kind == "concealed_kong" else "exposed_kong", liable=payer)
        return payer

    def _declare_kong(self, seat: int, t: int) -> None:
        self.kong_liable = None
        concealed = self.seats[seat].c[t] == 4
        kind = "concealed_kong" if concealed else "added_kong"
        options: list[tuple[Action, ...]] = [_EMPTY, _EMPTY, _EMPTY, _EMPTY]
        wins: list[WinInfo | None] = [None, None, None, None]
        any_option = False
        for other in range(4):
            if other == seat:
                continue
            ost = self.seats[other]
            if concealed:
                c = ost.c
                c[t] += 1
                thirteen = not ost.melds and is_thirteen_wonders(c)
                c[t] -= 1
                if not thirteen:
                    continue
            win = self._discard_win(other, seat, t, robbed=True)
            if win is not None and win.valid:
                options[other] = (WIN[other], PASS[other])
                wins[other] = win
                any_option = True
        self.window_wins = wins
        if any_option:
            self._open_window(kind, seat, t, options)
            self.turn_options = _EMPTY
            self.turn_win = None
            return
        self._complete_kong(seat, t, kind)

    def _complete_kong(self, seat: int, t: int, kind: str) -> None:
        st = self.seats[seat]
        if kind == "concealed_kong":
            st.c[t] -= 4
            st.melds.append(SetRec(_KONG, _TILE[t], True, None))
        else:
            st.c[t] -= 1
            st.melds = [SetRec(_KONG, m.tile, False, m.source) if m.kind is _PONG and m.tile == t else m
                        for m in st.melds]
        st.drawn = None
        st.waits = None
        self._kong_payment(seat, kind, None)
        self.kongs_in_turn += 1
        self.kong_made = True
        self.w_kind = None
        self.window_wins = list(_NOWIN)
        self._replacement(seat, "kong")

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
            new = payments.instant_events_for_bonus(before, _TILE[t], seat)  # type: ignore[arg-type]
            for kind in new:
                self._instant(seat, kind)
            self.flower_chain += 1
            if t in _FLOWERS and self._open_eighth(seat, t):
                return
            self._replacement(seat, "flower")
            return
        st.c[t] += 1
        st.drawn = t
        self._begin_turn(seat, source)

    def _open_eighth(self, seat: int, tile: int) -> bool:
        if not self.rules.robbing_the_eighth:
            return False
        options: list[tuple[Action, ...]] = [_EMPTY, _EMPTY, _EMPTY, _EMPTY]
        found = False
        for other in range(4):
            if other == seat:
                continue
            if sum(1 for f in self.seats[other].bonus if f in _FLOWERS) == 7:
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
        self.turn_options = _EMPTY
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
        self.turn_options = _EMPTY
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
        if bao.win_liability([m.meld for m in st.melds], _TILE[self.w_tile], rules) is not None:
            return shooter
        if bao.bao_fresh_applies(self.remaining, self.last_fresh, rules,
                                 thirteen_wonders=win.thirteen_wonders):
            return shooter
        return None


def _chows(seat: int, c: list[int], t: int) -> list[Action]:
    """``claims._chows`` on a count array."""
    rank = t % 9
    lo = rank >= 1 and c[t - 1] > 0
    hi = rank <= 7 and c[t + 1] > 0
    out: list[Action] = []
    ch = CHOW[seat]
    if lo and rank >= 2 and c[t - 2]:
        out.append(ch[t - 2])
    if lo and hi:
        out.append(ch[t - 1])
    if hi and rank <= 6 and c[t + 2]:
        out.append(ch[t])
    return out


def sim_of(state: HandState) -> Sim:
    """The :class:`Sim` of an engine state (not a paused window, not a deal paused by the eighth)."""
    if state.pause_windows or state.deal_pos is not None:
        raise ValueError("the lean model plays neither paused windows nor a paused deal")
    sim = Sim(state.rules, state.dealer, state.prevailing, [int(t) for t in state.wall])
    sim.front = state.front
    sim.back = state.back
    for i, ss in enumerate(state.seats):
        ls = sim.seats[i]
        for t in ss.concealed:
            ls.c[t] += 1
        ls.drawn = None if ss.drawn is None else int(ss.drawn)
        ls.melds = list(ss.melds)
        ls.bonus = [int(t) for t in ss.bonus]
        ls.discards = [int(t) for t in ss.discards]
        ls.barred = {int(t) for t in ss.barred}
        ls.has_drawn = ss.has_drawn
        ls.liable = ss.liable
        ls.liable_reason = ss.liable_reason
        ls.waits = ss.waits
    sim.phase = state.phase
    sim.turn = state.turn
    w = state.window
    if w is not None:
        sim.w_kind = w.kind
        sim.w_source = w.source
        sim.w_tile = int(w.tile)
        sim.w_options = list(w.options)
        sim.w_decisions = list(w.decisions)
    sim.window_wins = list(state.window_wins)
    sim.turn_options = state.turn_options
    sim.turn_win = state.turn_win
    sim.last_discard = None if state.last_discard is None else (state.last_discard[0],
                                                                int(state.last_discard[1]))
    sim.draw_source = state.draw_source
    sim.flower_chain = state.flower_chain
    sim.kongs_in_turn = state.kongs_in_turn
    sim.last_tile = state.last_tile
    sim.kong_made = state.kong_made
    sim.claims_made = state.claims_made
    sim.discards_made = state.discards_made
    sim.seen = list(state.seen)
    sim.ledger = list(state.ledger)
    sim.last_fresh = state.last_fresh
    sim.claimed = None if state.claimed is None else (state.claimed[0], int(state.claimed[1]))
    sim.kong_liable = state.kong_liable
    return sim


def sample_sim(tb: Table, rng: random.Random) -> Sim | None:
    """:func:`determinise.sample_state` straight into a :class:`Sim` (equal to ``sim_of`` of it for
    the same random numbers: a test checks), without building the engine's state."""
    k = tb.k
    if k.phase not in ("claim", "turn"):
        return None
    window = k.window
    claim = k.phase == "claim"
    if claim and (window is None or window[0] != "discard"):
        return None
    if not claim and k.turn != k.seat:
        return None
    hands, wall = deal_hidden(tb, rng)
    sim = Sim(tb.rules, k.dealer, k.prevailing, [int(t) for t in wall])
    for s in range(4):
        ls = sim.seats[s]
        c = ls.c
        if s == k.seat:
            for t in k.own:
                c[t] += 1
            ls.drawn = None if k.drawn is None else int(k.drawn)
        else:
            for t in hands[s]:
                c[t] += 1
        if (len(k.own) if s == k.seat else len(hands[s])) % 3 == 1:
            ls.waits = _waits_of(c)
        ls.melds = list(k.melds[s])
        ls.bonus = [int(t) for t in k.bonus[s]]
        ls.discards = [int(t) for t in k.discards[s]]
        ls.has_drawn = bool(k.discards[s] or k.melds[s]) or s == k.turn
        ls.liable, ls.liable_reason = tb.liable[s]
    sim.turn = k.turn
    sim.ledger = list(k.ledger)
    sim.seen = list(tb.seen)
    sim.discards_made = tb.discards_made
    sim.claims_made = tb.claims_made
    sim.kong_made = tb.kong_made
    if claim:
        assert window is not None
        src, tile = window[1], int(window[2])
        sim.last_discard = (src, tile)
        sim.last_fresh = tb.seen[tile] <= 1
        sim._open_discard_window(src, tile)
        if sim.phase != CLAIM or not sim.w_options[k.seat]:
            return None
        return sim
    sim._begin_turn(k.seat, "front" if k.drawn is not None else "claim")
    return sim


LeanPolicy = Callable[[Sim, int, Sequence[Action]], Action]


def lean_playout(sim: Sim, policies: Sequence[LeanPolicy], *, stop: Callable[[], bool] | None = None,
                 check_every: int = 1, max_steps: int = 1000) -> Sim | None:
    """Play ``sim`` to the end of the hand in place, ``policies[seat]`` deciding for each seat; ``None``
    if ``stop()`` turns true first (checked after every ``check_every``-th decision) or the hand runs
    past ``max_steps``."""
    steps = 0
    while sim.phase != ENDED:
        seat = sim.awaiting()
        legal = sim.options(seat)
        sim.step(legal[0] if len(legal) == 1 else policies[seat](sim, seat, legal))
        steps += 1
        if (stop is not None and steps % check_every == 0 and stop()) or steps > max_steps:
            return None
    return sim


def result_of(sim: Sim) -> dict[str, Any]:
    """The end of the hand (for tests): winner, shooter, tai, liable seat, win kind and ledger."""
    return {"winner": sim.winner, "shooter": sim.shooter, "tai": sim.tai, "liable": sim.liable,
            "kind": sim.win_kind, "ledger": list(sim.ledger)}


# -- the rollout policy on a Sim ---------------------------------------------------------------------


def lean_quick_policy(sim: Sim, seat: int, legal: Sequence[Action]) -> Action:
    """:func:`forward.quick_policy` on a :class:`Sim` (the same choice in the same hand: a test
    checks; both are :func:`forward.quick_choice`): always win; discard to the lowest distance (ties by
    copies and neighbours), folding to tiles a shown threat discarded when far from winning; kong when
    it keeps the distance; pong or chow when it brings the hand closer."""
    st = sim.seats[seat]
    w = sim.w_kind
    return quick_choice(st.c[:], len(st.melds), None if w is None else sim.w_tile, sim.seats,
                        sim.remaining, seat, sim.dealer, sim.prevailing, legal, DISCARD[seat])

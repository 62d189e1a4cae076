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

The model is layered like the engine: :mod:`.lean_seat` (a seat, the shared constants),
:mod:`.lean_state` (:class:`~.lean_state.SimState`: the hand's state and the steps taken without a
decision: a turn beginning, draws and bonus tiles, the end) and this module (:class:`Sim`, its
subclass: the decisions and what they cause: discards and their claim windows, claims, kongs; and
the ways in: :func:`sim_of`, :func:`sample_sim`, :func:`lean_playout`). The rollout policies that
decide for the seats are in :mod:`.lean_policy`. All four are compiled together.

:func:`sim_of` copies an engine :class:`~sgmahjong.game.HandState` (any phase but a paused window or a
deal paused by the eighth flower) into a :class:`Sim`; :meth:`Sim.copy` copies a Sim (cheaper: the
expert samples a hand once and copies it for each candidate).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from .. import bao
from ..game.actions import Action
from ..game.scoring_bridge import score_special
from ..game.state import CLAIM, ENDED, TURN, HandState, SetRec
from ..game.wins import WinInfo, is_thirteen_wonders
from .determinise import Table, deal_hidden
from .lean_seat import (
    CHOW_KIND,
    KONG,
    KONG_KIND,
    NO_ACTIONS,
    NO_WINS,
    PASS,
    PONG,
    PONG_KIND,
    SEAT_FIELDS,
    TILES,
    WIN,
    LSeat,
    chow_actions,
    waits_of,
)
from .lean_state import SIM_FIELDS, SimState

__all__ = ["SEAT_FIELDS", "SIM_FIELDS", "LSeat", "LeanPolicy", "Sim", "lean_playout", "result_of",
           "sample_sim", "sim_of"]


class Sim(SimState):
    """An imagined hand, played in place (see the module docstring): the state and automatic steps
    of :class:`~.lean_state.SimState`, and the decisions."""

    __slots__ = ()

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
            st.waits = st.waits if t == st.drawn and st.waits is not None else waits_of(c)
            self.last_fresh = self._is_fresh(t)
            st.drawn = None
            st.discards.append(t)
            st.barred.add(t)
            self.seen[t] += 1
            self.last_discard = (seat, t)
            self.discards_made += 1
            self.turn_options = NO_ACTIONS
            self.turn_win = None
            self._open_discard_window(seat, t)
            return
        self._declare_kong(seat, t)

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
                if chow and (chows := chow_actions(seat, c, t)):
                    if options is None:
                        options = [NO_ACTIONS, NO_ACTIONS, NO_ACTIONS, NO_ACTIONS]
                    options[seat] = (*chows, PASS[seat])
                continue
            opts = chow_actions(seat, c, t) if chow else []
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
                    options = [NO_ACTIONS, NO_ACTIONS, NO_ACTIONS, NO_ACTIONS]
                options[seat] = tuple(opts)
        if options is None:
            self.w_kind = None
            self.window_wins = list(NO_WINS)
            self._draw_turn((source + 1) % 4)
            return
        self._open_window("discard", source, t, options)
        self.window_wins = wins if wins is not None else list(NO_WINS)

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
        self.window_wins = list(NO_WINS)
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
            st.melds.append(SetRec(CHOW_KIND, TILES[lo], False, source))
            self._begin_turn(seat, "claim")
            return
        c[t] -= 2 if a.kind == "pong" else 3
        liable = None
        kong = a.kind == "kong"
        rules = self.rules
        unseen = kong and bao.is_unseen(TILES[t], self._pools(), self._table_sets())
        liable = bao.claim_liability([m.meld for m in st.melds], TILES[t], kong=kong,
                                     seat_wind=(seat - self.dealer) % 4, prevailing_wind=self.prevailing,
                                     rules=rules, unseen=unseen)
        st.melds.append(SetRec(KONG_KIND if kong else PONG_KIND, TILES[t], False, source))
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
        options: list[tuple[Action, ...]] = [NO_ACTIONS, NO_ACTIONS, NO_ACTIONS, NO_ACTIONS]
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
            self.turn_options = NO_ACTIONS
            self.turn_win = None
            return
        self._complete_kong(seat, t, kind)

    def _complete_kong(self, seat: int, t: int, kind: str) -> None:
        st = self.seats[seat]
        if kind == "concealed_kong":
            st.c[t] -= 4
            st.melds.append(SetRec(KONG_KIND, TILES[t], True, None))
        else:
            st.c[t] -= 1
            st.melds = [SetRec(KONG_KIND, m.tile, False, m.source)
                        if m.kind is PONG_KIND and m.tile == t else m for m in st.melds]
        st.drawn = None
        st.waits = None
        self._kong_payment(seat, kind, None)
        self.kongs_in_turn += 1
        self.kong_made = True
        self.w_kind = None
        self.window_wins = list(NO_WINS)
        self._replacement(seat, "kong")


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
            ls.waits = waits_of(c)
        ls.melds = list(k.melds[s])
        ls.bonus = [int(t) for t in k.bonus[s]]
        ls.discards = [int(t) for t in k.discards[s]]
        ls.has_drawn = bool(k.discards[s] or k.melds[s]) or s == k.turn
        ls.liable, ls.liable_reason = tb.liable[s]
        if tb.barred:
            ls.barred = set(tb.barred[s])
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

"""No tells (RULES.md §3), in the engine: with ``pause_windows`` every discard and every kong opens its
claim window whether or not anyone may claim; decisions stay private and keep the version; the table's
``close`` resolves the window one version later. A seat that is not asked sees the same either way."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from sgmahjong.game import (
    Action,
    IllegalActionError,
    apply,
    awaiting,
    closable,
    legal_actions,
    new_hand,
    player_view,
    redact_event,
)
from sgmahjong.game.log import replay, to_log
from sgmahjong.game.testing import close_action, deal, play, random_action
from sgmahjong.rules import RuleSet
from sgmahjong.tiles import full_set

E, S, W, N = 0, 1, 2, 3


def visible(events: list[Any], seat: int | None) -> list[dict[str, Any]]:
    return [r for e in events if (r := redact_event(e, seat)) is not None]


def shape(messages: list[dict[str, Any]]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple((m["kind"], tuple(sorted(m))) for m in messages)


def test_a_discard_nobody_can_claim_still_opens_the_window_and_waits_for_close():
    st = deal(pause_windows=True)
    v = st.version
    st, evs = play(st, "E discard N")
    assert st.phase == "claim" and st.window.kind == "discard" and awaiting(st) == []
    assert st.version == v + 1 and closable(st)
    assert all(legal_actions(st, s) == [] for s in range(4))  # close is nobody's choice
    st, evs = apply(st, Action(E, "close"))
    assert st.version == v + 2 and st.phase == "turn" and st.turn == S
    assert [e.kind for e in evs] == ["draw"]


def test_the_unasked_seats_see_the_same_whether_or_not_someone_can_pong():
    seen = {}
    for label, south in (("nobody", None), ("pong", "NN 1m 4m 7m 2p 5p 8p 3s 6s 9s C F")):
        st = deal(S=south, E="N", pause_windows=True)
        v = st.version
        st, evs = play(st, "E discard N")
        views = {s: player_view(st, s) for s in (W, N, E, None)}
        trace = {s: visible(evs, s) for s in views}
        if label == "pong":
            assert awaiting(st) == [S] and "pong" in [str(a) for a in legal_actions(st, S)]
            assert player_view(st, S)["legal_actions"] == ["pong", "pass"]
            st, evs = play(st, "S pass")
            assert st.version == v + 1  # a decision keeps the version
            assert visible(evs, S) and all(visible(evs, s) == [] for s in views)
            assert all(player_view(st, s) == views[s] for s in views)  # nothing they see changed
            with pytest.raises(IllegalActionError, match="already decided"):
                apply(st, Action(S, "pong"))
        st, evs = apply(st, Action(E, "close"))
        assert st.version == v + 2 and st.turn == S
        for s in views:
            trace[s] = shape(trace[s]) + shape(visible(evs, s))
        seen[label] = (trace, {s: (views[s]["version"], views[s]["phase"], views[s]["awaiting"],
                                   views[s]["window"], views[s]["legal_actions"]) for s in views})
    assert seen["nobody"] == seen["pong"]


def test_a_pong_decided_in_the_window_happens_at_close():
    st = deal(S="NN 1m 4m 7m 2p 5p 8p 3s 6s 9s C F", E="N", pause_windows=True)
    st, _ = play(st, "E discard N", "S pong")
    assert st.phase == "claim" and closable(st) and not st.seats[S].melds
    with pytest.raises(IllegalActionError, match="source seat"):
        apply(st, Action(W, "close"))
    st, evs = apply(st, Action(E, "close"))
    assert [e.kind for e in evs] == ["pong"] and st.turn == S and st.seats[S].melds


def test_close_is_refused_before_every_asked_seat_decided_and_outside_a_paused_window():
    st = deal(S="NN 1m 4m 7m 2p 5p 8p 3s 6s 9s C F", E="N", pause_windows=True)
    with pytest.raises(IllegalActionError, match="no paused claim window"):
        apply(st, Action(E, "close"))
    st, _ = play(st, "E discard N")
    with pytest.raises(IllegalActionError, match="every asked seat"):
        apply(st, Action(E, "close"))
    plain = deal(S="NN 1m 4m 7m 2p 5p 8p 3s 6s 9s C F", E="N")
    plain, _ = play(plain, "E discard N")
    with pytest.raises(IllegalActionError, match="no paused claim window"):
        apply(plain, Action(E, "close"))


ROB = dict(E="5p 8m9m 3s6s9s 1p2p7p8p 7s E S W", S="5p5p 2s 8s 3p 9p ESWN F P 7m",
           N="1p 4p 7p 2m 5m 8m 3s 6s 9s S W N P", draws="F P N 5p")


def _kong_trace(robber: bool):
    west = "123m 456m CCC 11s 46p" if robber else "123m 456m CCC 11s 49p"
    st = deal(**ROB, W=west, pause_windows=True)
    steps = ["E discard 5p", *(["W pass"] if robber else []), "S pong", "S discard 2s",
             "W discard F", "N discard P", "E discard N"]
    st, _ = play(st, *steps)
    st, _ = play(st, "S kong 5p")  # the pending window of E's discard closes first
    assert st.phase == "claim" and st.window.kind == "added_kong"
    assert awaiting(st) == ([W] if robber else [])
    v = st.version
    unasked = (N, E, None)
    views = {s: player_view(st, s) for s in unasked}
    if robber:
        st, evs = play(st, "W pass")
        assert all(visible(evs, s) == [] for s in unasked)
        assert all(player_view(st, s) == views[s] for s in unasked) and st.version == v
    st, evs = apply(st, Action(S, "close"))
    assert st.version == v + 1 and st.turn == S and st.seats[S].melds[-1].kind.value == "kong"
    return {s: (views[s]["phase"], views[s]["window"], views[s]["awaiting"], views[s]["legal_actions"],
                shape(visible(evs, s))) for s in unasked}


def test_an_added_kong_looks_the_same_to_the_unasked_with_or_without_a_possible_robber():
    assert _kong_trace(robber=True) == _kong_trace(robber=False)


def test_a_concealed_kong_opens_a_paused_window_too():
    st = deal(E="EEEE 2m5m8m 3p6p 4s7s 2s5s", pause_windows=True)
    st, evs = play(st, "E kong E")
    assert st.window.kind == "concealed_kong" and awaiting(st) == [] and closable(st)
    assert [r["kind"] for r in visible(evs, S)] == ["action", "window"]
    assert "asked" not in visible(evs, S)[1]
    st, _ = apply(st, Action(E, "close"))
    assert st.phase == "turn" and st.turn == E and st.seats[E].melds[-1].concealed


# -- properties over random hands in the paused mode ---------------------------------------------

RULES = [RuleSet(), RuleSet(payout="shooter_pays", min_tai=0, bao_kong_tiles=60, bao_fresh_tiles=60)]


def _all_tiles(state) -> Counter:
    c: Counter = Counter()
    for st in state.seats:
        c.update(st.concealed)
        c.update(st.bonus)
        c.update(st.discards)
        for m in st.melds:
            c.update(m.meld.tiles)
    c.update(state.wall[state.front:len(state.wall) - state.back])
    return c


def test_random_paused_hands_keep_every_invariant_replay_and_show_the_unasked_one_shape():
    full = Counter(full_set())
    shapes: dict[bool, set] = {True: set(), False: set()}
    for seed in range(120):
        rng = random.Random(seed)
        state, _ = new_hand(RULES[seed % 2], seed=seed, dealer=seed % 4, pause_windows=True)
        pending: dict[int | None, list] | None = None  # unasked seats' messages since a discard/kong
        claimable = False
        while not state.ended:
            a = random_action(state, rng, win_bias=0.7)
            before = {s: player_view(state, s) for s in (0, 1, 2, 3, None)}
            state, evs = apply(state, a)
            assert _all_tiles(state) == full and sum(state.ledger) == 0
            for s in (0, 1, 2, 3, None):
                view = player_view(state, s)
                json.dumps(view)
                for other in range(4):
                    if other != s and not state.ended:
                        assert view["seats"][other]["concealed"] is None
                if state.phase == "claim":
                    assert set(view["awaiting"]) <= {s}
            if a.kind in ("pass", "pong", "chow", "kong", "win") and state.phase == "claim" \
                    and a.seat != state.turn and evs and evs[0].kind == "decision":
                # a decision in a paused window: nothing changes for anyone else
                for s in (0, 1, 2, 3, None):
                    if s != a.seat:
                        assert visible(evs, s) == [] and player_view(state, s) == before[s]
            if pending is not None:
                for s in pending:
                    pending[s].extend(shape(visible(evs, s)))
                    if player_view(state, s) != before[s]:
                        pending[s].append(("view", (str(state.version - pending[s][0]),)))
                if a.kind == "close":
                    for msgs in pending.values():
                        shapes[claimable].add((msgs[1], tuple(m for m in msgs[2:] if m[0] == "view")))
                    pending = None
            if state.phase == "claim" and state.window is not None and state.window.kind == "discard" \
                    and a.kind == "discard":
                w = state.window
                asked = set(w.asked)
                claimable = bool(asked)
                pending = {s: [state.version - 1, shape(visible(evs, s))]
                           for s in (0, 1, 2, 3, None) if s not in asked and s != w.source}
        again, _ = replay(to_log(state))
        assert again.result == state.result and again.ledger == state.ledger and again.seats == state.seats
        assert again.version == state.version
    # after a discard (at v+1) an unasked seat sees nothing change until the close's view (v+2), and the
    # same messages, whether or not anyone could claim
    assert shapes[True] and shapes[False]
    assert shapes[True] == shapes[False]
    (only,) = shapes[True]
    assert only[1] == (("view", ("2",)),)  # nothing more until the close, at v+2


def test_illegal_actions_in_a_paused_window_are_refused_with_a_reason():
    st = deal(S="NN 1m 4m 7m 2p 5p 8p 3s 6s 9s C F", E="N", pause_windows=True)
    st, _ = play(st, "E discard N")
    for a in (Action(W, "pass"), Action(S, "chow", None), Action(E, "discard", st.window.tile)):
        with pytest.raises(IllegalActionError) as info:
            apply(st, a)
        assert str(info.value)
    assert close_action(st) is None

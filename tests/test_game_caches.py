"""The engine's speed-ups must not change what it decides: the cached waits of every seat match a
fresh computation, and a discard's claim window asks exactly the seats a brute-force check (every
chow, pong, kong and win tried, no cache) finds something for."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from sgmahjong.bots import make_bot
from sgmahjong.bots.base import Bot
from sgmahjong.game import Action, HandState, apply, awaiting, legal_actions, new_hand, player_view
from sgmahjong.game.builder import Builder, seat_waits
from sgmahjong.game.claims import discard_win
from sgmahjong.game.state import CLAIM, TURN
from sgmahjong.game.testing import random_action
from sgmahjong.rules import RuleSet
from sgmahjong.tiles import Tile


def _hand13(state: HandState, seat: int) -> list[Tile]:
    st = state.seats[seat]
    conc = list(st.concealed)
    if st.drawn is not None:
        conc.remove(st.drawn)
    return conc


def _check_waits(state: HandState) -> None:
    for seat, st in enumerate(state.seats):
        if st.waits is not None:
            assert st.waits == seat_waits(_hand13(state, seat)), (seat, st)


def _brute_force_options(before: HandState, discard: Action) -> list[tuple[Action, ...]]:
    """What each seat may do about ``discard``, found without the engine's shortcuts."""
    source, t = discard.seat, discard.tile
    assert t is not None
    b = Builder(before)  # the seats as they are once the tile has left the discarder's hand
    st = b.seat(source)
    conc = list(st.concealed)
    conc.remove(t)
    b.upd(source, concealed=tuple(conc), drawn=None, discards=(*st.discards, t))
    b.f["discards_made"] += 1
    remaining = b.remaining()
    out: list[tuple[Action, ...]] = [(), (), (), ()]
    for k in (1, 2, 3):
        seat = (source + k) % 4
        other = b.seat(seat)
        held = other.concealed
        opts: list[Action] = []
        if k == 1 and t < 27:
            for lo in (t - 2, t - 1, t):
                tiles = [x for x in (lo, lo + 1, lo + 2) if x != t]
                if lo >= 0 and lo % 9 <= 6 and lo // 9 == t // 9 and all(x in held for x in tiles):
                    opts.append(Action(seat, "chow", Tile(lo)))
        barred = t in other.barred
        if held.count(t) >= 2 and not barred:
            opts.append(Action(seat, "pong"))
        if held.count(t) == 3 and remaining > 0:
            opts.append(Action(seat, "kong", t))
        if not barred:
            win = discard_win(b, seat, source, t, robbed=False)
            if win is not None and win.valid:
                opts.append(Action(seat, "win"))
        if opts:
            opts.append(Action(seat, "pass"))
        out[seat] = tuple(opts)
    return out


def _play_checked(rules: RuleSet, seed: int, choose: Callable[[HandState, int], Action]) -> tuple[int, int]:
    """Play one hand, checking every state's waits and every discard's window; the number of discard
    windows and of those offering a win."""
    windows = wins = 0
    state, _ = new_hand(rules, seed=seed, dealer=seed % 4)
    while not state.ended:
        _check_waits(state)
        a = choose(state, awaiting(state)[0])
        after, _ = apply(state, a)
        if state.phase == TURN and a.kind == "discard":
            expected = _brute_force_options(state, a)
            if after.phase == CLAIM and after.window is not None and after.window.kind == "discard":
                windows += 1
                wins += any(o.kind == "win" for opts in expected for o in opts)
                assert list(after.window.options) == expected
            else:
                assert not any(expected)
        state = after
    _check_waits(state)
    return windows, wins


@pytest.mark.parametrize("rules", [RuleSet(), RuleSet(min_tai=0)], ids=["default", "min_tai_0"])
def test_cached_waits_and_claim_windows_match_a_brute_force_check(rules: RuleSet) -> None:
    windows = wins = 0
    for seed in range(30):  # random play, claiming half the time: many windows, melds, chows
        rng = random.Random(seed)

        def claim_or_random(state: HandState, seat: int, rng: random.Random = rng) -> Action:
            claims = [a for a in legal_actions(state, seat) if a.kind in ("chow", "pong", "kong")]
            return claims[0] if claims and rng.random() < 0.5 else random_action(state, rng, win_bias=1.0)

        n, w = _play_checked(rules, seed, claim_or_random)
        windows, wins = windows + n, wins + w
    for seed in range(8):  # greedy bots reach ready hands: windows with wins (and passed-up wins)
        bots = [make_bot("greedy", seed * 4 + i, rules) for i in range(4)]

        def bot(state: HandState, seat: int, bots: list[Bot] = bots) -> Action:
            return bots[seat].choose(player_view(state, seat), legal_actions(state, seat))

        n, w = _play_checked(rules, 100 + seed, bot)
        windows, wins = windows + n, wins + w
    assert windows > 100
    assert wins > 5


@pytest.mark.parametrize("pause_windows", [False, True], ids=["plain", "no_tells"])
def test_seat_views_give_the_same_views_and_reuse_unchanged_seats(pause_windows: bool) -> None:
    """The server's cache of seat entries (SeatViews) builds, at every version of random hands, the
    same view for every viewer as a fresh ``player_view`` (so no stale entry is ever reused), and most
    seats, unchanged by an action, keep the very same entry object (what makes the deltas cheap)."""
    from sgmahjong.game import SeatViews

    reused = rebuilt = 0
    for seed in range(12):
        rng = random.Random(seed)
        cache = SeatViews()
        state, _ = new_hand(RuleSet(), seed=seed, pause_windows=pause_windows)
        before: dict[int | None, list[object]] = {}
        last: dict[str, Any] | None = None
        shared: dict[str, Any] | None = None
        while True:
            for viewer in (None, 0, 1, 2, 3):
                view = player_view(state, viewer, seat_views=cache)
                assert view == player_view(state, viewer)
                old = before.get(viewer)
                if old is not None:
                    for a, b in zip(old, view["seats"], strict=True):
                        reused += a is b
                        rebuilt += a is not b
                before[viewer] = view["seats"]
                # the fields every viewer sees alike: one object for all viewers, kept while equal
                if viewer is not None and shared is not None:
                    assert view["hand_ledger"] is shared["hand_ledger"]
                if last is not None and view["hand_ledger"] == last["hand_ledger"]:
                    assert view["hand_ledger"] is last["hand_ledger"]
                shared = view
            last, shared = shared, None
            if state.ended:
                break
            state, _ = apply(state, random_action(state, rng, win_bias=0.3))
    assert reused > rebuilt > 0, (reused, rebuilt)  # an action changes one or two of the four seats

"""Property tests over many seeded random legal hands: tiles accounted for, zero-sum ledgers, exact
replay, refusal of every illegal action, and no leak of another seat's concealed tiles."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from sgmahjong.game import (
    Action,
    HandState,
    IllegalActionError,
    SeatState,
    apply,
    awaiting,
    legal_actions,
    new_hand,
    player_view,
    redact_event,
)
from sgmahjong.game.log import replay, to_log
from sgmahjong.game.testing import random_action
from sgmahjong.rules import RuleSet
from sgmahjong.tiles import NUM_PLAYING, Tile, full_set

RULESETS = [
    RuleSet(),
    RuleSet(payout="shooter_pays", min_tai=0, bao_kong_tiles=60, bao_fresh_tiles=60),
    RuleSet(limit=10, instant_payments="animals_only", fresh_tile="discards_or_exposed",
            declare_three_dragons=False),
]


def all_tiles(state: HandState) -> Counter[Tile]:
    c: Counter[Tile] = Counter()
    for st in state.seats:
        c.update(st.concealed)
        c.update(st.bonus)
        c.update(st.discards)
        for m in st.melds:
            c.update(m.meld.tiles)
    c.update(state.wall[state.front:len(state.wall) - state.back])
    return c


FULL = Counter(full_set())
STATE_FIELDS = {f.name for f in dataclasses.fields(HandState)}
SEAT_FIELDS = {f.name for f in dataclasses.fields(SeatState)}


def check_invariants(state: HandState) -> None:
    # states are derived by copying field dicts: a misspelt field name would add a stray attribute
    assert vars(state).keys() == STATE_FIELDS
    assert all(vars(st).keys() == SEAT_FIELDS for st in state.seats)
    assert all_tiles(state) == FULL
    assert sum(state.ledger) == 0
    assert state.wall_remaining >= 0
    for st in state.seats:
        if not state.ended:
            assert st.size in (13, 14)
        assert all(t < NUM_PLAYING for t in st.concealed)
        assert all(t >= NUM_PLAYING for t in st.bonus)


def play_random(seed: int, rules: RuleSet, check=None) -> tuple[HandState, list]:
    rng = random.Random(seed)
    state, events = new_hand(rules, seed=seed, dealer=seed % 4, prevailing=(seed // 4) % 4)
    check_invariants(state)
    steps = 0
    while not state.ended:
        a = random_action(state, rng, win_bias=0.7)
        state, evs = apply(state, a)
        events.extend(evs)
        steps += 1
        check_invariants(state)
        if check is not None:
            check(state, evs, rng)
    assert steps > 0
    return state, events


@pytest.mark.parametrize("rules", RULESETS, ids=["default", "shooter_pays", "limit10"])
def test_random_hands_account_for_all_tiles_and_zero_sum(rules):
    ended = Counter()
    for seed in range(400):
        state, _ = play_random(seed, rules)
        r = state.result
        assert r is not None
        ended["drawn" if r["drawn_game"] else "won"] += 1
        if not r["drawn_game"]:
            assert r["payments"][r["winner"]] > 0 and sum(r["payments"]) == 0
    assert ended["drawn"] > 0 and ended["won"] > 0


def _every_action(seat: int) -> list[Action]:
    out = [Action(seat, k) for k in ("pong", "win", "pass")]
    for t in range(NUM_PLAYING):
        out.append(Action(seat, "discard", Tile(t)))
        out.append(Action(seat, "kong", Tile(t)))
        if t < 27 and t % 9 <= 6:
            out.append(Action(seat, "chow", Tile(t)))
    return out


ALL_ACTIONS = [_every_action(s) for s in range(4)]


def test_every_action_not_legal_is_refused_and_every_legal_one_accepted():
    def check(state, _evs, rng):
        if rng.random() > 0.3:
            return
        for seat in range(4):
            legal = set(legal_actions(state, seat))
            for a in ALL_ACTIONS[seat]:
                if a in legal:
                    new, _ = apply(state, a)
                    assert new.version == state.version + 1
                else:
                    with pytest.raises(IllegalActionError) as info:
                        apply(state, a)
                    assert str(info.value)

    for seed in range(40):
        play_random(seed, RULESETS[seed % 3], check)


def test_replay_reproduces_the_hand_and_the_log():
    for seed in range(150):
        state, _ = play_random(seed, RULESETS[seed % 3])
        log = to_log(state)
        again, _ = replay(log)
        assert again.seats == state.seats and again.ledger == state.ledger
        assert again.version == state.version and again.result == state.result
        assert to_log(again) == log
        # a prefix of the log replays to the state at that version
        lines = log.splitlines()
        cut = len(lines) // 2
        part, _ = replay("\n".join(lines[:cut]))
        assert part.version == cut - 1


def _tile_names(obj, out: Counter) -> None:
    if isinstance(obj, str):
        for word in obj.split():
            out[word] += 1
    elif isinstance(obj, dict):
        for k, v in obj.items():
            if k not in ("wall_hash", "kind", "reason", "action", "wind", "last_discard"):
                _tile_names(v, out)
    elif isinstance(obj, list):
        for v in obj:
            _tile_names(v, out)


def test_no_concealed_tile_of_another_seat_leaks():
    def check(state, evs, _rng):
        if state.ended:
            return
        public: Counter[str] = Counter()
        for st in state.seats:
            public.update(t.notation for t in st.bonus)
            public.update(t.notation for t in st.discards)
            public.update(t.notation for _, t, _ in st.taken)  # a claimed discard, shown where it lay
            for m in st.melds:
                public.update(t.notation for t in m.meld.tiles)
        if state.window is not None:
            public[state.window.tile.notation] += 1
        for seat in (0, 1, 2, 3, None):
            view = player_view(state, seat)
            json.dumps(view)
            for other in range(4):
                if other != seat:
                    assert view["seats"][other]["concealed"] is None
                    assert view["seats"][other]["drawn"] is None
            if state.phase == "claim":  # who else may claim is not shown (unless asked for)
                assert set(view["awaiting"]) <= {seat}
                full = player_view(state, seat, private_awaiting=False)
                assert full["awaiting"] == awaiting(state) and full["seats"] == view["seats"]
            allowed = Counter(public)
            if seat is not None:
                allowed.update(t.notation for t in state.seats[seat].concealed)
            seen: Counter[str] = Counter()
            _tile_names({k: v for k, v in view.items() if k != "legal_actions"}, seen)
            for name, n in seen.items():
                if name in _NAMES:
                    assert n <= allowed[name], (seat, name, view)
            for ev in evs:
                red = redact_event(ev, seat)
                json.dumps(red)
                assert red["kind"] == ev.kind  # no data key shadows the event's kind
                assert "seed" not in red and "wall" not in red and "salt" not in red
                if ev.kind in ("deal", "draw") and ev.seat != seat:
                    assert "tile" not in red and "tiles" not in red
                if ev.kind in ("action", "pass") and ev.seat != seat:
                    assert "action" not in red and red["seat"] is None  # decisions stay private
                if ev.kind == "window":
                    assert "asked" not in red

    for seed in range(60):
        play_random(seed, RULESETS[seed % 3], check)


_NAMES = {t.notation for t in Tile}


def test_hand_start_event_hides_the_seed_but_states_the_commitment():
    state, events = new_hand(RuleSet(), seed=7)
    start = events[0]
    assert start.kind == "hand_start" and start.data["seed"] == 7
    red = redact_event(start, 0)
    assert "seed" not in red and red["wall_hash"] == state.wall_hash


def test_same_seed_same_hand_and_different_seed_different_wall():
    a, _ = new_hand(RuleSet(), seed=11)
    b, _ = new_hand(RuleSet(), seed=11)
    c, _ = new_hand(RuleSet(), seed=12)
    assert a == b and a.wall_hash == b.wall_hash
    assert a.wall != c.wall and a.wall_hash != c.wall_hash


def test_fresh_tile_fast_path_agrees_with_bao():
    from sgmahjong import bao
    from sgmahjong.game.liability import is_fresh

    def check(state, _evs, _rng):
        if state.ended:  # a won discard leaves the pool; freshness no longer matters
            return
        melds = [m.meld for st in state.seats for m in st.melds]
        pools = [st.discards for st in state.seats]
        for t in range(NUM_PLAYING):
            tile = Tile(t)
            assert is_fresh(state, state.seats, tile) == bao.is_fresh(tile, pools, melds, state.rules)

    for seed in range(25):
        play_random(seed, RULESETS[seed % 3], check)


@settings(max_examples=40, deadline=None)
@given(seed=hs.integers(0, 2**63), limit=hs.sampled_from([5, 10, 13]), min_tai=hs.integers(0, 3),
       payout=hs.sampled_from(["all_pay", "shooter_pays"]),
       instant=hs.sampled_from(["all", "animals_only", "none"]), bao_tiles=hs.integers(0, 100))
def test_hypothesis_random_hands_keep_the_invariants(seed, limit, min_tai, payout, instant, bao_tiles):
    rules = RuleSet(limit=limit, min_tai=min_tai, payout=payout, instant_payments=instant,
                    bao_kong_tiles=bao_tiles, bao_fresh_tiles=bao_tiles)
    state, _ = play_random(seed, rules)
    again, _ = replay(to_log(state))
    assert again.ledger == state.ledger and again.result == state.result

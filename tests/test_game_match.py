"""Matches: dealer rotation, rounds of prevailing wind, the match ledger and standings."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sgmahjong.game import (
    IllegalActionError,
    apply_match,
    match_view,
    new_match,
    next_hand,
)
from sgmahjong.game.match import match_from_snapshot, match_snapshot, next_dealer
from sgmahjong.game.testing import random_action
from sgmahjong.rules import RuleSet


def ended(match, *, winner=None, drawn=False, kong=False, ledger=(0, 0, 0, 0)):
    result = {"winner": winner, "drawn_game": drawn, "kong_made": kong}
    return replace(match, hand=replace(match.hand, phase="ended", result=result, ledger=ledger))


@pytest.fixture
def match():
    m, _ = new_match(RuleSet(), seed=3)
    return m


def test_dealer_keeps_the_deal_after_his_win(match):
    m, _ = next_hand(ended(match, winner=0))
    assert m.dealer == 0 and m.round == 0 and m.hand_number == 2 and m.hand.dealer == 0


def test_deal_passes_after_another_seat_wins(match):
    m, _ = next_hand(ended(match, winner=2))
    assert m.dealer == 1 and m.round == 0 and m.hand.dealer == 1


def test_drawn_hand_without_kong_keeps_the_deal(match):
    m, _ = next_hand(ended(match, drawn=True))
    assert m.dealer == 0


def test_drawn_hand_with_a_kong_passes_the_deal(match):
    m, _ = next_hand(ended(match, drawn=True, kong=True))
    assert m.dealer == 1


def test_deal_passing_from_north_starts_the_next_round(match):
    m = match
    for expected in (1, 2, 3):
        m, _ = next_hand(ended(m, winner=(m.dealer + 1) % 4))
        assert m.dealer == expected and m.round == 0
    m, _ = next_hand(ended(m, winner=0))
    assert m.dealer == 0 and m.round == 1 and m.hand.prevailing == 1


def test_match_ends_after_the_last_round_with_standings():
    m, _ = new_match(RuleSet(rounds=1), seed=1)
    for _ in range(3):
        m, _ = next_hand(ended(m, winner=(m.dealer + 1) % 4, ledger=(1, 2, -1, -2)))
    m, events = next_hand(ended(m, winner=1, ledger=(0, 4, -2, -2)))
    assert m.finished and events[0].kind == "match_end"
    assert m.ledger == (3, 10, -5, -8)
    view = match_view(m, 0)
    assert [s["seat"] for s in view["standings"]] == [1, 0, 2, 3]
    with pytest.raises(IllegalActionError):
        next_hand(m)


def test_next_hand_refused_before_the_hand_ends(match):
    with pytest.raises(IllegalActionError, match="not ended"):
        next_hand(match)


def test_next_dealer_rules(match):
    assert next_dealer(ended(match, winner=0).hand) == (0, False)
    assert next_dealer(ended(match, winner=3).hand) == (1, True)


def test_random_match_plays_to_the_end_and_sums_to_zero():
    rng = random.Random(5)
    m, _ = new_match(RuleSet(rounds=1), seed=5)
    hands = 0
    while not m.finished:
        while not m.hand.ended:
            m, _ = apply_match(m, random_action(m.hand, rng))
            assert sum(m.total_ledger) == 0
        m, _ = next_hand(m)
        hands += 1
        assert hands < 200
    assert hands >= 4 and sum(m.ledger) == 0 and len(m.history) == hands
    view = match_view(m, None)
    assert view["match_finished"] and len(view["standings"]) == 4


def test_match_replays_from_its_seed():
    a, _ = new_match(RuleSet(), seed=9)
    b, _ = new_match(RuleSet(), seed=9)
    assert a.hand.wall == b.hand.wall
    a2, _ = next_hand(ended(a, winner=1))
    b2, _ = next_hand(ended(b, winner=1))
    assert a2.hand.wall == b2.hand.wall != a.hand.wall


def _json(data):
    import json

    return json.loads(json.dumps(data))


@settings(max_examples=15)
@given(seed=st.integers(0, 2**32), secrets=st.booleans(), pause=st.booleans())
def test_a_match_rebuilt_from_each_hands_snapshot_equals_the_replayed_one(seed, secrets, pause):
    """Self-play a whole match; at each hand's start, the match rebuilt from the hand's (JSON-stored)
    snapshot, the rules, the match seed and the hand's secret equals the match as played, with the
    same opening events; and the rest of the hand, replayed on it, ends the same."""
    rng = random.Random(seed)
    rules = RuleSet(rounds=1)

    def secret(n):
        return f"{random.Random(f'{seed}/{n}').getrandbits(256):064x}" if secrets else None

    m, events = new_match(rules, seed=seed, secret=secret(1), pause_windows=pause)
    checked = 0
    while not m.finished:
        snap = _json(match_snapshot(m))
        rebuilt, rebuilt_events = match_from_snapshot(rules, snap, seed=seed, secret=secret(m.hand_number))
        assert rebuilt == m
        assert [e.to_json() for e in rebuilt_events] == [e.to_json() for e in events]
        checked += 1
        while not m.hand.ended:
            action = random_action(m.hand, rng)
            m, _ = apply_match(m, action)
            rebuilt, _ = apply_match(rebuilt, action)
        assert rebuilt == m
        if m.hand_number >= 12:
            break
        m, events = next_hand(m, secret=secret(m.hand_number + 1))
    assert checked >= 2


def test_a_snapshot_of_another_layout_is_refused(match):
    snap = {**match_snapshot(match), "v": 99}
    with pytest.raises(ValueError, match="layout 99"):
        match_from_snapshot(RuleSet(), snap, seed=3)


def test_a_duplicate_match_passes_the_deal_every_hand_and_stops_after_its_hands():
    rules = RuleSet(rotate_every_hand=True, match_hands=6)
    m, _ = new_match(rules, seed=1)
    seen = [(m.dealer, m.round)]
    m, _ = next_hand(ended(m, winner=0))  # the dealer's win does not keep the deal
    seen.append((m.dealer, m.round))
    m, _ = next_hand(ended(m, drawn=True))  # nor does a drawn hand
    seen.append((m.dealer, m.round))
    while not m.finished:
        m, _ = next_hand(ended(m, winner=2))
        if not m.finished:
            seen.append((m.dealer, m.round))
    assert seen == [(0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (1, 1)]
    assert len(m.history) == 6


@settings(max_examples=10)
@given(seed=st.integers(0, 2**32))
def test_tables_of_a_duplicate_round_are_dealt_the_same_walls_however_they_play(seed):
    """Two tables given the same secret per hand see the same wall at every hand, whatever each did."""
    rules = RuleSet(rotate_every_hand=True, match_hands=5)
    secret_rng = random.Random(seed)
    secrets = [secret_rng.getrandbits(256).to_bytes(32, "big").hex() for _ in range(5)]
    tables = []
    for play_seed in (seed, seed + 1):
        rng = random.Random(play_seed)
        m, _ = new_match(rules, seed=0, secret=secrets[0])
        walls = []
        for k in range(5):
            walls.append((m.hand.wall_hash, m.hand.dealer, m.round))
            while not m.hand.ended:
                m, _ = apply_match(m, random_action(m.hand, rng))
            m, _ = next_hand(m, secret=secrets[k + 1] if k + 1 < 5 else None)
        assert m.finished
        tables.append(walls)
    assert tables[0] == tables[1]
    assert [d for _, d, _ in tables[0]] == [0, 1, 2, 3, 0]


def test_a_long_match_of_hands_goes_round_the_winds_again():
    m, _ = new_match(RuleSet(rotate_every_hand=True, match_hands=20), seed=2)
    winds = [m.round]
    while not m.finished:
        m, _ = next_hand(ended(m, winner=1))
        if not m.finished:
            winds.append(m.round)
    assert len(winds) == 20 and winds[16:] == [0, 0, 0, 0] and max(winds) == 3

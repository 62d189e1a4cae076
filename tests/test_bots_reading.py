"""Reading the opponents (issue 30): the style each seat is read as from one seat's view, and the
rollout policies of the styles: the cautious one claims nothing and folds, the eager one claims every
set; the expert plays each opponent by its reading."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from sgmahjong.bots import make_bot
from sgmahjong.bots.arena import play_hand
from sgmahjong.bots.expert import ExpertBot
from sgmahjong.bots.lean import sim_of
from sgmahjong.bots.lean_policy import lean_cautious_policy, lean_eager_policy, lean_quick_policy
from sgmahjong.bots.reading import CAUTIOUS, EAGER, QUICK, _pile, read_styles
from sgmahjong.game import Action, HandState
from sgmahjong.game.state import CLAIM
from sgmahjong.rules import RuleSet


def seat(i: int, discards: list[str], melds: list[dict[str, Any]] | None = None,
         taken: list[list[Any]] | None = None) -> dict[str, Any]:
    return {"seat": i, "discards": discards, "melds": melds or [], "taken": taken or [], "bonus": [],
            "concealed_count": 13}


def pong(tile: str, source: int | None) -> dict[str, Any]:
    return {"kind": "pong", "tiles": [tile] * 3, "from": source}


def view(seats: list[dict[str, Any]], me: int = 0) -> dict[str, Any]:
    return {"seat": me, "dealer": 0, "seats": seats}


def test_a_seat_that_claimed_three_sets_is_eager_and_the_reader_itself_is_always_quick() -> None:
    v = view([seat(0, ["E", "S"], [pong("5m", 3), pong("6m", 3), pong("7m", 3)]),
              seat(1, ["E", "9m"], [pong("1p", 0), pong("2p", 0), pong("3p", 0)]),
              seat(2, ["E"], [pong("4p", 1)]),
              seat(3, ["E"], [{"kind": "kong", "tiles": ["5p"] * 4, "from": None, "concealed": True}])])
    assert read_styles(v) == (QUICK, EAGER, QUICK, QUICK)


def test_two_early_claims_are_eager_but_two_late_ones_are_not() -> None:
    early = seat(1, ["E"] * 3, [pong("1p", 0), pong("2p", 0)])
    late = seat(1, ["E", "S", "W", "N", "C", "F", "P", "9m", "9p"], [pong("1p", 0), pong("2p", 0)])
    assert read_styles(view([seat(0, []), early, seat(2, []), seat(3, [])]))[1] == EAGER
    assert read_styles(view([seat(0, []), late, seat(2, []), seat(3, [])]))[1] == QUICK


def test_a_seat_that_throws_only_tiles_already_discarded_reads_cautious_and_fresh_tiles_do_not() -> None:
    opening = ["E", "S", "9m", "1p"]
    others = ["3m", "4m", "5m", "6m", "7m", "8m", "2s", "3s"]
    # seat 2 (after seats 0 and 1 in turn order) follows with tiles seat 0 threw a round or more before
    safe = seat(2, [*opening, "3m", "4m", "5m", "6m"])
    fresh = seat(2, [*opening, "4p", "5p", "6s", "7s"])
    for pool, want in ((safe, CAUTIOUS), (fresh, QUICK)):
        v = view([seat(0, ["C", "F", "P", "1s", *others]), seat(1, ["9s"] * 8), pool, seat(3, ["2m"] * 8)],
                 me=3)
        assert read_styles(v)[2] == want


def test_claimed_tiles_go_back_in_the_pile_at_their_places() -> None:
    s = seat(1, ["1m", "2m", "3m"], taken=[[1, "5p", 2], [4, "7s", 0]])
    assert _pile(s) == [0, 13, 1, 2, 24]  # 1m 5p 2m 3m 7s: 5p at place 1, 7s at place 4


def _claim_states(seed: int) -> list[Any]:
    """Engine states with an open discard window, from a hand played by ``greedy`` bots."""
    rules = RuleSet()
    bots = [make_bot("greedy", seed * 4 + s, rules) for s in range(4)]
    out = []

    def keep(state: HandState, seat: int, view: dict[str, Any], legal: list[Action]) -> None:
        if state.phase == CLAIM and state.window is not None and state.window.kind == "discard":
            out.append(state)

    play_hand(rules, bots, seed=seed, watch=keep)
    return out


def test_the_cautious_style_claims_nothing_but_a_win_and_the_eager_one_every_set() -> None:
    claims = eager_claims = 0
    for seed in range(30):
        for state in _claim_states(seed):
            sim = sim_of(state)
            s = sim.awaiting()
            legal = sim.options(s)
            kinds = {a.kind for a in legal}
            cautious, eager = lean_cautious_policy(sim, s, legal), lean_eager_policy(sim, s, legal)
            if "win" in kinds:
                assert cautious.kind == eager.kind == "win"
                continue
            assert cautious.kind == "pass"
            if kinds & {"kong", "pong", "chow"}:
                claims += 1
                assert eager.kind != "pass"
                if "kong" in kinds:
                    assert eager.kind == "kong"
                elif "pong" in kinds:
                    assert eager.kind == "pong"
                eager_claims += lean_quick_policy(sim, s, legal).kind == "pass"
    assert claims >= 20 and eager_claims >= 5  # offers the quick policy would pass on were claimed


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_reading_any_view_of_a_played_hand_never_raises(seed: int) -> None:
    rules = RuleSet()
    rng = random.Random(seed)
    levels = [rng.choice(["beginner", "greedy", "reckless", "defensive"]) for _ in range(4)]
    bots = [make_bot(levels[s], seed * 4 + s, rules) for s in range(4)]

    def read(state: HandState, seat: int, view: dict[str, Any], legal: list[Action]) -> None:
        styles = read_styles(view)
        assert len(styles) == 4 and styles[seat] == QUICK and set(styles) <= {QUICK, CAUTIOUS, EAGER}

    play_hand(rules, bots, seed=seed, watch=read)


def test_the_expert_plays_each_opponent_by_its_reading_when_told_to() -> None:
    v = view([seat(0, []), seat(1, ["E"], [pong("1p", 0), pong("2p", 0), pong("3p", 0)]), seat(2, []),
              seat(3, [])], me=2)
    assert ExpertBot(1, max_rounds=4, budget_ms=None, read=True).styles(v) == (QUICK, EAGER, QUICK, QUICK)
    assert ExpertBot(1, max_rounds=4, budget_ms=None).styles(v) == (QUICK,) * 4  # off by default

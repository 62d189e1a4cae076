"""The expert's lean forward model agrees with the engine: the same actions played from the same state
through ``apply`` and through :class:`~sgmahjong.bots.lean.Sim` offer the same legal actions at every
step and end with the same result and ledger — from the deal and from determinised decision points,
under default and other rules, with policies that claim, kong and win often (so windows, robbed
kongs, 包 and bonus payments are exercised)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sgmahjong.bots.determinise import knowledge, sample_state, table
from sgmahjong.bots.forward import playout, quick_policy
from sgmahjong.bots.lean import (
    SEAT_FIELDS,
    SIM_FIELDS,
    Sim,
    lean_playout,
    result_of,
    sample_sim,
    sim_of,
)
from sgmahjong.bots.lean_policy import lean_quick_policy
from sgmahjong.game import Action, HandState, apply, awaiting, legal_actions, new_hand, player_view
from sgmahjong.rules import RuleSet

RULESETS = [
    RuleSet(),
    RuleSet(fresh_tile="discards_or_exposed", min_tai=0, payout="shooter_pays", bao_kong_tiles=40,
            bao_fresh_tiles=40),
    RuleSet(min_tai=3, instant_payments="animals_only", robbing_the_eighth=False, declare_four_winds=False),
]


def _pick(state: HandState, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """A policy that plays like :func:`quick_policy` three times in four and otherwise wins, kongs and
    claims often at random: hands are won and lost as in real play, and every kind of step occurs."""
    if len(legal) > 1 and rng.random() < 0.75:
        return quick_policy(state, seat, legal)
    kinds = {a.kind for a in legal}
    for want, p in (("win", 0.9), ("kong", 0.7), ("pong", 0.6), ("chow", 0.4)):
        if want in kinds and rng.random() < p:
            return rng.choice([a for a in legal if a.kind == want])
    rest = [a for a in legal if a.kind in ("discard", "pass")] or legal
    return rng.choice(rest)


def _result(state: HandState) -> dict[str, object]:
    r = state.result or {}
    return {"winner": r.get("winner"), "shooter": r.get("shooter"), "tai": r.get("tai") or 0,
            "liable": r.get("liable"), "kind": r.get("kind"), "ledger": list(state.ledger)}


def _both(state: HandState, rng: random.Random) -> HandState:
    """Play ``state`` to its end through the engine and the lean model with the same random choices,
    checking the legal actions at every step; the engine's final state."""
    sim = sim_of(state)
    steps = 0
    while not state.ended:
        seat = awaiting(state)[0]
        legal = legal_actions(state, seat)
        assert sim.awaiting() == seat
        assert list(sim.options(seat)) == legal, (steps, seat)
        a = _pick(state, seat, legal, rng)
        state, _ = apply(state, a)
        sim.step(a)
        steps += 1
        assert sim.ledger == list(state.ledger)
    assert sim.phase == "ended"
    assert sim.awaiting() == -1
    assert result_of(sim) == _result(state)
    return state


def _decision_point(rules: RuleSet, seed: int, rng: random.Random) -> HandState | None:
    """A determinised state at a decision a few moves into a seeded hand."""
    state, _ = new_hand(rules, seed=seed, dealer=seed % 4, prevailing=(seed // 4) % 4)
    for _ in range(rng.randrange(0, 60)):
        if state.ended:
            return None
        seat = awaiting(state)[0]
        state, _ = apply(state, _pick(state, seat, legal_actions(state, seat), rng))
    if state.ended:
        return None
    seat = awaiting(state)[0]
    return sample_state(table(knowledge(player_view(state, seat)), rules), rng)


@pytest.mark.parametrize("r", range(len(RULESETS)))
def test_lean_agrees_with_engine_from_the_deal(r: int) -> None:
    rules = RULESETS[r]
    ended = 0
    for seed in range(60):
        state, _ = new_hand(rules, seed=seed + 100 * r, dealer=seed % 4)
        if state.deal_pos is not None:  # a deal paused by the eighth flower's window
            continue
        _both(state, random.Random(seed))
        ended += 1
    assert ended >= 50


@given(seed=st.integers(0, 10**6), r=st.integers(0, len(RULESETS) - 1))
@settings(max_examples=60, deadline=None)
def test_lean_agrees_with_engine_from_sampled_states(seed: int, r: int) -> None:
    rules = RULESETS[r]
    rng = random.Random(seed)
    state = _decision_point(rules, seed % 5000, rng)
    if state is None:
        return
    _both(state, rng)


def test_lean_plays_every_kind_of_ending() -> None:
    """Over many hands the agreement covers self-drawn wins, wins on discards, 包 and drawn hands."""
    seen: set[str] = set()
    for seed in range(150):
        rules = RULESETS[seed % len(RULESETS)]
        rng = random.Random(seed)
        state = _decision_point(rules, seed, rng)
        if state is None:
            continue
        end = _both(state, random.Random(seed))
        r = end.result or {}
        if r.get("winner") is None:
            seen.add("drawn")
        elif r.get("shooter") is None:
            seen.add("self")
        else:
            seen.add("discard")
        if r.get("liable") is not None:
            seen.add("liable")
    assert {"drawn", "self", "discard", "liable"} <= seen


def test_lean_quick_policy_chooses_as_quick_policy() -> None:
    """The lean rollout policy is :func:`forward.quick_policy` on the Sim: the same choice at every
    decision, so the playouts through both models end the same."""
    rules = RuleSet()
    for seed in range(40):
        rng = random.Random(seed)
        state = _decision_point(rules, seed, rng)
        if state is None:
            continue
        sim = sim_of(state)
        while not state.ended:
            seat = awaiting(state)[0]
            legal = legal_actions(state, seat)
            a = legal[0] if len(legal) == 1 else quick_policy(state, seat, legal)
            b = legal[0] if len(legal) == 1 else lean_quick_policy(sim, seat, sim.options(seat))
            assert a is b
            state, _ = apply(state, a)
            sim.step(b)
        assert sim.ledger == list(state.ledger)


def test_lean_playout_and_copy() -> None:
    """A copied Sim plays independently of its original; a playout ends with the engine's ledger."""
    rules = RuleSet()
    state = None
    seed = 0
    while state is None:
        seed += 1
        state = _decision_point(rules, seed, random.Random(seed))
    sim = sim_of(state)
    twin = sim.copy()
    end = lean_playout(sim, [lean_quick_policy] * 4)
    assert end is sim and sim.phase == "ended"
    assert twin.phase == state.phase and twin.ledger == list(state.ledger)
    real = playout(state, [quick_policy] * 4)
    assert real is not None and list(real.ledger) == sim.ledger
    again = lean_playout(twin, [lean_quick_policy] * 4)
    assert again is not None and again.ledger == sim.ledger
    stopped = lean_playout(sim_of(state), [lean_quick_policy] * 4, stop=lambda: True)
    assert stopped is None


def test_sim_rejects_paused_windows() -> None:
    state, _ = new_hand(RuleSet(), seed=3, pause_windows=True)
    with pytest.raises(ValueError):
        sim_of(state)


def _fields(sim: Sim) -> dict[str, object]:
    out: dict[str, object] = {name: getattr(sim, name) for name in SIM_FIELDS if name != "seats"}
    out["seats"] = [{name: getattr(s, name) for name in SEAT_FIELDS} for s in sim.seats]
    return out


@pytest.mark.parametrize("options", [{}, {"barred": True, "passed": True}])
def test_sample_sim_equals_the_sampled_engine_state(options: dict[str, bool]) -> None:
    """Sampling straight into a Sim gives the Sim of :func:`sample_state`'s hand for the same random
    numbers (so it too reads the view only: ``test_determinising_uses_only_the_view``), with the
    seats' barred tiles and the passed discards respected or not."""
    compared = 0
    for seed in range(60):
        rules = RULESETS[seed % len(RULESETS)]
        rng = random.Random(seed)
        state, _ = new_hand(rules, seed=seed, dealer=seed % 4)
        for _ in range(rng.randrange(0, 70)):
            if state.ended:
                break
            seat = awaiting(state)[0]
            state, _ = apply(state, _pick(state, seat, legal_actions(state, seat), rng))
        if state.ended:
            continue
        for seat in range(4):
            tb = table(knowledge(player_view(state, seat)), rules, **options)
            real = sample_state(tb, random.Random(seed))
            sim = sample_sim(tb, random.Random(seed))
            if real is None:
                assert sim is None
                continue
            assert sim is not None
            assert _fields(sim) == _fields(sim_of(real))
            compared += 1
    assert compared > 40

"""The rollout policy's honours style and the bench that measures how like ``strong`` a rollout plays."""

from __future__ import annotations

from bench.bench_rollout_fidelity import run, styled
from sgmahjong.bots import efficiency as ef
from sgmahjong.bots.forward import STYLE_HONOURS, STYLE_QUICK
from sgmahjong.bots.lean import sim_of
from sgmahjong.bots.lean_policy import lean_honours_policy, lean_quick_policy, lean_style_policy
from sgmahjong.bots.strong import StrongBot
from sgmahjong.game import apply, awaiting, legal_actions, new_hand, player_view
from sgmahjong.game.testing import deal
from sgmahjong.notation import parse_tile
from sgmahjong.rules import RuleSet
from sgmahjong.tiles import counts34


def test_the_honours_style_throws_a_lone_dragon_where_the_quick_policy_keeps_it() -> None:
    """Every discard of a lone tile keeps the distance: the quick policy keeps the red dragon (a
    scoring honour) and throws the lowest lone terminal; the honours style throws the dragon first."""
    state = deal(E="123m 456p 789s 55m C 1s 9p")
    sim = sim_of(state)
    legal = sim.options(0)
    assert lean_quick_policy(sim, 0, legal).tile == parse_tile("9p")
    assert lean_honours_policy(sim, 0, legal).tile == parse_tile("C")
    assert lean_style_policy(STYLE_HONOURS) is lean_honours_policy
    engine_legal = legal_actions(state, 0)
    assert styled(STYLE_HONOURS)(state, 0, engine_legal).tile == parse_tile("C")
    assert styled(STYLE_QUICK)(state, 0, engine_legal).tile == parse_tile("9p")


def test_the_honours_style_keeps_the_quick_policys_distance_and_plays_alike_through_the_lean_model() -> None:
    """At every turn of some hands of ``strong`` bots: the honours style discards to the same distance
    as the quick policy, the lean model's choice is the engine's, and the two styles differ somewhere."""
    rules = RuleSet()
    checked = differ = 0
    for seed in range(8):
        bots = [StrongBot(seed * 4 + i, rules) for i in range(4)]
        state, _ = new_hand(rules, seed=seed, dealer=seed % 4)
        while not state.ended:
            seat = awaiting(state)[0]
            legal = legal_actions(state, seat)
            choice = bots[seat].choose(player_view(state, seat), legal)
            if len(legal) > 1 and any(a.kind == "discard" for a in legal) and not any(
                    a.kind == "win" for a in legal):
                sim = sim_of(state)
                honours = styled(STYLE_HONOURS)(state, seat, legal)
                quick = styled(STYLE_QUICK)(state, seat, legal)
                lean = lean_honours_policy(sim, seat, sim.options(seat))
                assert (lean.kind, lean.tile) == (honours.kind, honours.tile)
                if honours.kind == quick.kind == "discard" and honours.tile != quick.tile:
                    counts = counts34(state.seats[seat].concealed)
                    n = len(state.seats[seat].melds)
                    after = []
                    for a in (honours, quick):
                        assert a.tile is not None
                        counts[a.tile] -= 1
                        after.append(ef.distance(counts, n))
                        counts[a.tile] += 1
                    assert after[0] == after[1]
                    differ += 1
                checked += 1
            state, _ = apply(state, choice)
    assert checked > 100 and differ > 10


def test_the_fidelity_bench_counts_strong_as_itself_and_the_quick_policy_short_of_it() -> None:
    r = run(hands=6, seed=7000)
    assert r["turns"] > 50 and r["claim_windows"] > 5
    assert r["policies"]["strong"]["same_all"] == 1.0
    for name in ("quick", "honours", "greedy"):
        assert 0.2 < r["policies"][name]["same_turn"] < 1.0, (name, r["policies"][name])
    assert r["policies"]["cautious"]["claims_taken"] == 0.0 and r["policies"]["eager"]["claims_taken"] == 1.0

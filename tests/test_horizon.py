"""The value at a horizon (bots/horizon.py), the expert's ``cut`` option and bench/train_horizon.py."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bench.train_horizon import ceiling, ceiling_rows, hand_rows, predict
from bench.train_horizon import main as train_main
from sgmahjong.bots.determinise import knowledge, table
from sgmahjong.bots.expert import ExpertBot
from sgmahjong.bots.horizon import (
    NAMES,
    VALUES,
    WIDE_NAMES,
    cut_result,
    features,
    network_value,
    seat_facts,
    value,
    wide_features,
)
from sgmahjong.bots.horizon_weights import WEIGHTS
from sgmahjong.bots.lean import Sim, lean_playout, sample_sim
from sgmahjong.bots.lean_policy import lean_quick_policy
from sgmahjong.game import Action, HandState, awaiting, new_hand, player_view
from sgmahjong.game.state import ENDED
from sgmahjong.rules import RuleSet
from tests.test_bots_expert import _play

RULES = RuleSet()
QUICK = [lean_quick_policy] * 4


def _sims(n: int, seed: int = 5) -> list[Sim]:
    """``n`` imagined hands dealt from the first decision of seeded hands."""
    out: list[Sim] = []
    for h in range(n):
        state, _ = new_hand(RULES, seed=seed + h, dealer=h % 4)
        tb = table(knowledge(player_view(state, awaiting(state)[0])), RULES)
        sim = sample_sim(tb, random.Random(h))
        assert sim is not None
        out.append(sim)
    return out


def test_the_weights_match_the_inputs() -> None:
    assert len(WEIGHTS) == len(NAMES) == len(set(NAMES))
    for sim in _sims(3):
        facts = [seat_facts(sim, s) for s in range(4)]
        assert all(len(features(sim, s, facts)) == len(NAMES) for s in range(4))
        assert all(f[0] >= 1 for f in facts)  # no hand is complete at the deal's first decision here


def test_a_cut_past_the_end_is_the_whole_playout_and_no_cut_is_the_value() -> None:
    """Cut after more decisions than the hand has, the result is the playout's, the value at the end 0;
    cut after none, it is the ledger so far plus the value, which differs between positions."""
    values = set()
    for sim in _sims(6):
        whole = lean_playout(sim.copy(), QUICK)
        assert whole is not None and value(whole, 0) == 0.0
        for seat in range(4):
            assert cut_result(sim.copy(), QUICK, 1000, seat) == whole.ledger[seat]
        here = sim.copy()
        assert cut_result(here, QUICK, 0, 2) == here.ledger[2] + value(here, 2)
        values.add(round(value(here, 2), 6))
        cut = sim.copy()
        cut_result(cut, QUICK, 5, 1)
        assert cut.phase == ENDED or cut.remaining < sim.remaining  # played on in place
    assert len(values) > 1


def test_the_expert_with_a_cut_plays_legally_and_reproducibly() -> None:
    with pytest.raises(ValueError, match="cut"):
        ExpertBot(1, RULES, budget_ms=None, max_rounds=8, cut=-1)
    with pytest.raises(ValueError, match="horizon value 'deep'; values: linear, network"):
        ExpertBot(1, RULES, budget_ms=None, max_rounds=8, cut=4, horizon="deep")
    expert = ExpertBot(1, RULES, budget_ms=None, max_rounds=8, cut=4, horizon="network")
    assert expert.horizon is network_value
    picks: list[tuple[Action, Action]] = []

    def check(state: HandState, seat: int, view: dict[str, Any], legal: list[Action]) -> None:
        if seat != 0 or len(legal) < 2 or len(picks) >= 6:
            return
        a = ExpertBot(11, RULES, budget_ms=None, max_rounds=12, cut=8).choose(view, legal)
        b = ExpertBot(11, RULES, budget_ms=None, max_rounds=12, cut=8).choose(view, legal)
        assert a in legal
        picks.append((a, b))

    _play(406, check, ("strong",) * 4)
    assert len(picks) == 6 and all(a == b for a, b in picks)


def test_the_training_samples_and_a_small_run(capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    """A hand's samples: one per seat every third decision of each playout, the inputs' width, the
    same again from the seed; a small run prints the held-out share and writes loadable weights."""
    rows = hand_rows((91, 3, 2, False))
    assert rows and len(rows) % 4 == 0 and all(len(x) == len(NAMES) for x, _ in rows)
    assert hand_rows((91, 3, 2, False)) == rows
    assert any(y != 0 for _, y in rows)
    out = tmp_path / "w.py"
    train_main(["--hands", "12", "--deals", "3", "--seed", "91", "--workers", "1", "--out", str(out)])
    printed = capsys.readouterr().out
    assert "held out" in printed and "explained" in printed
    space: dict[str, Any] = {}
    exec(out.read_text(encoding="utf-8"), space)
    assert len(space["WEIGHTS"]) == len(NAMES)


def test_the_ceiling_is_the_share_the_position_explains() -> None:
    """``ceiling``: positions whose playouts all agree explain everything, pure noise (the same spread
    everywhere) about nothing; ``ceiling_rows`` gives each position and seat its k playouts."""
    rng = random.Random(3)
    assert ceiling([[float(i)] * 4 for i in range(50)]) == pytest.approx(1.0)
    assert abs(ceiling([[rng.gauss(0, 1) for _ in range(8)] for _ in range(400)])) < 0.05
    groups = ceiling_rows((91, 0, 3, 5))
    assert groups and len(groups) % 4 == 0 and all(len(g) == 5 for g in groups)
    assert any(len(set(g)) > 1 for g in groups)  # the walls shuffled again give other ends
    assert ceiling_rows((91, 0, 3, 5)) == groups


def test_the_wide_inputs_and_the_network_value(capsys: pytest.CaptureFixture[str], tmp_path: Any,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """``--wide`` adds :data:`WIDE_NAMES` after the value's inputs (a ready seat's live waits counted in
    the undrawn wall); ``--network`` prints a network's held-out share; ``--network-out`` writes the
    network, and :func:`network_value` with its weights gives what numpy's forward pass gives."""
    rows = hand_rows((91, 0, 3, True))
    assert rows and all(len(x) == len(NAMES) + len(WIDE_NAMES) for x, _ in rows)
    assert [x[:len(NAMES)] for x, _ in rows] == [x for x, _ in hand_rows((91, 0, 3, False))]
    checked = 0
    for sim in _sims(6):
        while sim.phase != ENDED and checked < 3:
            for s in range(4):
                waits = sim.seats[s].waits
                if waits:
                    undrawn = sim.wall[sim.front:len(sim.wall) - sim.back - 15]
                    x = wide_features(sim, s)
                    assert len(x) == len(WIDE_NAMES)
                    assert x[0] * 4 == sum(1 for t in undrawn if t in waits)
                    checked += 1
            cut_result(sim, QUICK, 1, 0)
    assert checked >= 3
    out = tmp_path / "net.py"
    train_main(["--hands", "12", "--deals", "3", "--seed", "91", "--workers", "1", "--network",
                "--network-out", str(out)])
    printed = capsys.readouterr().out
    assert "a network on the value's inputs" in printed and "with the wide inputs" in printed
    space: dict[str, Any] = {}
    exec(out.read_text(encoding="utf-8"), space)
    import numpy as np

    import sgmahjong.bots.horizon as horizon
    for name in ("MEAN", "SCALE", "HIDDEN", "OUT", "OUT_BIAS"):
        monkeypatch.setattr(horizon, name, space[name])
    first, second = space["HIDDEN"]
    params = [np.array(first[0]).T, np.array(first[1]), np.array(second[0]).T, np.array(second[1]),
              np.array(space["OUT"])[:, None], np.array([space["OUT_BIAS"]])]
    net = (params, np.array(space["MEAN"]), np.array(space["SCALE"]))
    for sim in _sims(3):
        facts = [seat_facts(sim, s) for s in range(4)]
        x = np.array([features(sim, 1, facts) + wide_features(sim, 1)])
        assert network_value(sim, 1) == pytest.approx(float(predict(net, x)[0]), rel=1e-6, abs=1e-9)
    assert VALUES["network"] is network_value and VALUES["linear"] is value

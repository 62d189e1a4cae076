"""The learned reading of the discards (bots/danger.py), its training (bench/train_danger.py), the
bench's variants that play by it or by the true hands (bench/bench_strong_tuning.py) and the expert's
options that use it (``danger``, ``base="wary"``) or ``strong``'s own defence (``guard``)."""

from __future__ import annotations

import importlib.util
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bench.bench_strong_tuning import Oracle, make
from bench.train_danger import WIDE_NAMES, auc, collect, main
from sgmahjong.bots import danger, make_bot
from sgmahjong.bots.arena import play_hand
from sgmahjong.bots.danger_weights import WEIGHTS
from sgmahjong.bots.expert import ExpertBot
from sgmahjong.bots.perception import perceive
from sgmahjong.bots.strong import StrongBot
from sgmahjong.commands.duplicate import Setup, run_walls
from sgmahjong.rules import RuleSet

RULES = RuleSet()


def _turns(hands: int = 6) -> list[tuple[dict[str, Any], list[Any]]]:
    """Every turn's view and legal actions in a few hands of four ``strong``."""
    out: list[tuple[dict[str, Any], list[Any]]] = []

    def watch(state: Any, seat: int, view: dict[str, Any], legal: list[Any]) -> None:
        if any(a.kind == "discard" for a in legal):
            out.append((view, legal))

    for h in range(hands):
        play_hand(RULES, [make_bot("strong", h * 4 + s, RULES) for s in range(4)], seed=500 + h, watch=watch)
    return out


def _views(hands: int = 6) -> list[dict[str, Any]]:
    return [view for view, _ in _turns(hands)]


def test_the_reading_rebuilds_the_piles_and_the_barred_tiles() -> None:
    views = _views()
    claimed = [v for v in views if any(s.get("taken") for s in v["seats"])]
    assert claimed, "no claimed discard in these hands"
    for v in claimed:
        r = danger.read(v)
        for s in v["seats"]:
            # a whole pile holds the discards still in it and the claimed ones in their places
            assert len(r.piles[s["seat"]]) == len(s.get("discards") or ()) + len(s.get("taken") or ())
        turn = int(v["turn"])
        for opp in range(4):
            if opp != turn and r.piles[opp]:
                assert r.piles[opp][-1] in r.safe[opp]  # its own latest discard is barred to it
        assert r.safe[turn] == frozenset()


def test_the_chance_is_a_probability_and_nil_on_a_barred_tile() -> None:
    assert len(WEIGHTS) == len(danger.NAMES)
    for v in _views(2)[10:40]:
        p = perceive(v)
        r = danger.read(v)
        for opp in range(4):
            if opp == p.seat:
                continue
            assert len(danger.features(p, r, opp, 0)) == len(danger.NAMES)
            for t in range(34):
                q = danger.chance(p, r, opp, t)
                assert 0.0 <= q < 1.0
                if t in r.safe[opp]:
                    assert q == 0.0


def test_the_learned_chance_reads_the_discards_better_than_strongs_guess() -> None:
    rows = collect(seed=77, hands=60, workers=1)  # hands make train-danger does not play (its seed is 1)
    y = np.array([r[1] for r in rows], dtype=float)
    assert 50 < y.sum() < len(y) / 10
    learned = np.array([1 / (1 + np.exp(-sum(w * x for w, x in zip(WEIGHTS, r[0], strict=True))))
                        for r in rows])
    guess = np.array([r[2] for r in rows])
    assert auc(learned, y) > 0.8
    assert auc(learned, y) > auc(guess, y) + 0.05


def test_training_writes_a_weights_module(tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "weights.py"
    main(["--hands", "20", "--seed", "5", "--workers", "1", "--out", str(out)])
    printed = capsys.readouterr().out
    assert "learned" in printed and "strong's guess" in printed
    spec = importlib.util.spec_from_file_location("weights", out)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert len(module.WEIGHTS) == len(danger.NAMES) and any(w != 0 for w in module.WEIGHTS)


def test_the_wide_features_are_measured_and_never_written(tmp_path: Path, capsys: Any) -> None:
    rows = collect(seed=78, hands=3, workers=1, wide=True)
    assert rows and all(len(r[0]) == len(danger.NAMES) + len(WIDE_NAMES) for r in rows)
    main(["--hands", "20", "--seed", "5", "--workers", "1", "--wide"])
    assert "learned, wide" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--hands", "20", "--wide", "--out", str(tmp_path / "w.py")])
    assert "writes no weights" in capsys.readouterr().err and not (tmp_path / "w.py").exists()


def test_the_oracle_bound_and_the_reader_in_duplicate_runs() -> None:
    assert isinstance(make("strong+oracle=1", 1, RULES), Oracle)
    assert isinstance(make("strong+read=1", 1, RULES), danger.StrongReader)
    setup = Setup(pair=("strong+oracle=1", "strong"), others=("strong", "strong", "strong"), seed=11,
                  rules=RULES, budget_ms=None, rounds=None)
    results = run_walls(setup, 40, 1, make=make)
    dealt = [sum(r[side]["dealt_in"] for r in results) for side in "ab"]
    # strong deals in on some of these walls; the oracle, shown the true hands, almost never does
    assert dealt[1] >= 4 and dealt[0] <= dealt[1] // 4
    read = run_walls(Setup(pair=("strong+read=1", "strong"), others=setup.others, seed=11, rules=RULES,
                           budget_ms=None, rounds=None), 16, 1, make=make)
    assert any(r["a"]["net"] != r["b"]["net"] for r in read)
    seen = run_walls(replace(setup, pair=("strong+seen=1+safety=1", "strong")), 40, 1, make=make)
    # strong's own defence, given the true chance of each tile and a large safety weight, deals in less
    assert sum(r["a"]["dealt_in"] for r in seen) < dealt[1]


def test_the_expert_weighs_an_overrules_risk_of_dealing_in() -> None:
    expert = ExpertBot(1, RULES, budget_ms=None, max_rounds=8, danger=True)
    shifted = 0
    for view, legal in _turns(3)[::3]:
        cands = expert.review_candidates(view, legal)
        shift = expert._risk_over_base(view, perceive(view), cands)
        assert len(shift) == len(cands) and shift[0] == 0.0
        tiles = [int(a.tile) for a in cands if a.kind == "discard"]
        cost = danger.deal_in_cost(perceive(view), danger.read(view), tiles, RULES)
        base = cost[int(cands[0].tile)] if cands[0].kind == "discard" else 0.0
        for a, d in zip(cands, shift, strict=True):
            if a.kind == "discard":  # the candidate's expected loss over that of strong's choice
                assert d == pytest.approx(cost[int(a.tile)] - base)
        shifted += any(abs(d) > 0.01 for d in shift)
        assert expert.choose(view, legal) in legal
    assert shifted >= 3


def test_the_expert_may_start_from_strong_reading_the_discards() -> None:
    wary = make_bot("expert+wary", 3, RULES, budget_ms=None, max_rounds=8)
    assert isinstance(wary, ExpertBot) and isinstance(wary.strong, danger.StrongReader)
    assert wary.strong.params.safety == 0.02
    assert type(ExpertBot(3, RULES, budget_ms=None, max_rounds=8).strong) is StrongBot
    with pytest.raises(ValueError, match="unknown base"):
        ExpertBot(3, RULES, budget_ms=None, max_rounds=8, base="bold")
    # the base reads each view before it chooses: its choices follow the learned chance
    turns = _turns(2)
    plain = ExpertBot(3, RULES, budget_ms=None, max_rounds=8)
    picks = [(wary.choose(v, legal), plain.choose(v, legal)) for v, legal in turns]
    assert all(a in legal and b in legal for (a, b), (_, legal) in zip(picks, turns, strict=True))
    assert wary.strong.reading.piles == danger.read(turns[-1][0]).piles
    assert any(a != b for a, b in picks)


def test_the_expert_may_keep_strongs_discard_where_strong_defends() -> None:
    with pytest.raises(ValueError, match="unknown guard"):
        ExpertBot(1, RULES, budget_ms=None, max_rounds=8, guard="never")
    strong = StrongBot(0, RULES)
    defended = []
    for view, legal in _turns(6):
        choice = strong.decide(view, legal)
        if strong.last_risk:  # strong defended: each discard's expected loss to the threats
            assert set(strong.last_risk) == {int(a.tile) for a in legal if a.kind == "discard"}
            defended.append((view, legal, choice, dict(strong.last_risk)))
    assert 5 <= len(defended) < 60  # a few turns of 261, not most of them
    # overruling at any lead (z=0), the plain expert leaves strong's discard at some defended turns;
    # guarded, never ("all"), or only for a discard strong rates no riskier ("risk")
    options = {"budget_ms": None, "max_rounds": 16, "z": 0.0}
    plain, kept, safer = (ExpertBot(1, RULES, **options, guard=g) for g in (None, "all", "risk"))
    left = 0
    for view, legal, choice, risk in defended[:12]:
        left += plain.choose(view, legal) != choice
        assert kept.choose(view, legal) == choice
        pick = safer.choose(view, legal)
        assert pick == choice or risk[int(pick.tile)] <= risk[int(choice.tile)]
    assert left >= 2

"""The learned advantage of a discard over ``strong``'s (bots/advantage.py), its training
(bench/train_advantage.py) and the bench's ``strong+learned=MARGIN`` that plays by it."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from bench.bench_strong_tuning import make
from bench.train_advantage import hand_rows, main, picks, true_values
from sgmahjong.bots import known_level, make_bot
from sgmahjong.bots.advantage import NAMES, AdvisedStrong, advantage, features, read_turn
from sgmahjong.bots.advantage_weights import WEIGHTS
from sgmahjong.bots.arena import play_hand
from sgmahjong.bots.expert import ExpertBot
from sgmahjong.bots.perception import perceive
from sgmahjong.bots.strong import StrongBot
from sgmahjong.game import legal_actions
from sgmahjong.rules import RuleSet

RULES = RuleSet()


def _turns(hands: int = 4) -> list[tuple[Any, dict[str, Any], list[Any]]]:
    """Every turn's true state, view and legal actions in a few hands of four ``strong``."""
    out: list[tuple[Any, dict[str, Any], list[Any]]] = []

    def watch(state: Any, seat: int, view: dict[str, Any], legal: list[Any]) -> None:
        if any(a.kind == "discard" for a in legal):
            out.append((state, view, legal))

    for h in range(hands):
        play_hand(RULES, [make_bot("strong", h * 4 + s, RULES) for s in range(4)], seed=800 + h, watch=watch)
    return out


def test_weights_match_the_features() -> None:
    assert len(WEIGHTS) == len(NAMES) and len(set(NAMES)) == len(NAMES)


def test_read_turn_puts_strongs_choice_first_and_features_have_every_name() -> None:
    reader = StrongBot(0, RULES)
    read = 0
    for _state, view, legal in _turns():
        turn = read_turn(view, legal, RULES, reader)
        discards = {int(a.tile) for a in legal if a.kind == "discard"}
        if turn is None:
            assert len(discards) < 2 or any(a.kind == "win" for a in legal)
            continue
        read += 1
        assert turn.tiles[0] == int(reader.decide(view, legal).tile)  # type: ignore[arg-type]
        assert set(turn.tiles) <= discards and len(set(turn.tiles)) == len(turn.tiles) <= 3
        assert advantage(turn, turn.tiles[0]) == 0.0
        for c in turn.tiles[1:]:
            x = features(turn, c)
            assert len(x) == len(NAMES) and x[0] == 1.0
            assert all(v == v and abs(v) < 100 for v in x)  # finite, bounded
            ones = [0.0] * len(NAMES)
            ones[1] = 1.0  # a model of the score gap alone
            assert advantage(turn, c, ones) == pytest.approx(turn.scores[turn.tiles[0]] - turn.scores[c])
    assert read > 20


def test_true_values_are_paired_against_strongs_choice() -> None:
    reader = StrongBot(0, RULES)
    for state, view, legal in _turns(1)[3:6]:
        turn = read_turn(view, legal, RULES, reader)
        if turn is None:
            continue
        by_tile = {int(a.tile): a for a in legal if a.kind == "discard"}
        cands = [by_tile[t] for t in turn.tiles]
        values = true_values(state, view["seat"], cands, 3, 11)
        assert values is not None and values[0] == 0.0 and len(values) == len(cands)
        assert values == true_values(state, view["seat"], cands, 3, 11)  # seeded


def test_hand_rows_are_seeded_and_labelled() -> None:
    rows = hand_rows((1, 0, 2))
    assert rows and rows == hand_rows((1, 0, 2))
    assert all(h == 0 and len(x) == len(NAMES) for h, _k, x, _v in rows)


def test_picks_take_the_best_candidate_ahead_by_the_margin() -> None:
    pred, labels, turns = [0.1, 0.6, 0.3, -1.0], [5.0, -2.0, 1.0, 9.0], [0, 0, 1, 2]
    assert picks(pred, labels, turns, 0.0) == (-2.0 + 1.0, 2)
    assert picks(pred, labels, turns, 0.5) == (-2.0, 1)
    assert picks(pred, labels, turns, 1.0) == (0.0, 0)


def test_advised_strong_plays_legal_moves_and_follows_strong_at_a_high_margin() -> None:
    bots = [AdvisedStrong(s, RULES, margin=0.0) for s in range(2)] + [StrongBot(s, RULES) for s in (2, 3)]
    result = play_hand(RULES, list(bots), seed=901)
    assert result is not None
    shy = AdvisedStrong(5, RULES, margin=1e9)
    plain = StrongBot(5, RULES)
    for state, view, _legal in _turns(2):
        legal = legal_actions(state, view["seat"])
        assert shy.decide(view, legal) == plain.decide(view, legal)
    assert isinstance(make("strong+learned=0.5", 1, RULES), AdvisedStrong)


def test_advice_follows_the_model_and_needs_a_look_at_the_view() -> None:
    eager = AdvisedStrong(5, RULES, margin=-1e9)  # any candidate the model rates at all overrules
    plain = StrongBot(5, RULES)
    differ = 0
    for _state, view, legal in _turns(2):
        turn = read_turn(view, legal, RULES, StrongBot(5, RULES))
        pick = eager.decide(view, legal)
        if turn is None:
            continue
        best = max(turn.tiles[1:], key=lambda c: advantage(turn, c))
        assert pick.kind == "discard" and int(pick.tile) == best  # type: ignore[arg-type]
        differ += pick != plain.decide(view, legal)
        # without a look at the view, decide_perceived is strong's own
        assert eager.decide_perceived(perceive(view), legal, RULES) == plain.decide(view, legal)
    assert differ > 10


def test_the_expert_may_start_from_the_advised_strong() -> None:
    advised = make_bot("expert+advised", 3, RULES, budget_ms=None, max_rounds=8)
    assert isinstance(advised, ExpertBot) and isinstance(advised.strong, AdvisedStrong)
    assert known_level("expert+advised")
    plain = ExpertBot(3, RULES, budget_ms=None, max_rounds=8)
    turns = [(v, legal) for _s, v, legal in _turns(1)]
    picks = [(advised.choose(v, legal), plain.choose(v, legal)) for v, legal in turns]
    assert all(a in legal and b in legal for (a, b), (_, legal) in zip(picks, turns, strict=True))


def test_training_writes_a_module_of_weights(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "w.py"
    samples = tmp_path / "s.jsonl"
    main(["--hands", "10", "--deals", "2", "--workers", "1", "--out", str(out), "--samples", str(samples)])
    text = capsys.readouterr().out
    assert "held out" in text and "picks ahead by more than 0.50" in text
    spec = importlib.util.spec_from_file_location("w", out)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert len(module.WEIGHTS) == len(NAMES)
    first = module.WEIGHTS
    main(["--hands", "10", "--out", str(out), "--samples", str(samples)])  # refit from the kept samples
    spec.loader.exec_module(module)
    assert pytest.approx(first) == module.WEIGHTS


def test_the_experts_veto_keeps_strongs_discard_where_the_model_puts_the_pick_behind() -> None:
    with pytest.raises(ValueError, match="veto"):
        ExpertBot(3, RULES, budget_ms=None, max_rounds=8, veto=float("nan"))
    vetoed = make_bot("expert+vetoed", 3, RULES, budget_ms=None, max_rounds=8)
    assert isinstance(vetoed, ExpertBot) and vetoed.veto == 1.0 and ExpertBot(3, RULES).veto is None
    options: dict[str, Any] = {"budget_ms": None, "max_rounds": 24, "z": 0.5}  # z 0.5: overrules often
    plain, lenient = ExpertBot(3, RULES, **options), ExpertBot(3, RULES, veto=1e9, **options)
    strict = ExpertBot(3, RULES, veto=-1e9, **options)  # every overrule the model has a say on is vetoed
    overruled = 0
    for _state, view, legal in _turns(2):
        turn = read_turn(view, legal, RULES, StrongBot(3, RULES))
        pick, kept = plain.choose(view, legal), strict.choose(view, legal)
        assert lenient.choose(view, legal) == pick
        if turn is not None and pick.kind == "discard" and int(pick.tile) in turn.tiles[1:]:  # type: ignore[arg-type]
            overruled += 1
            assert kept.kind == "discard" and int(kept.tile) == turn.tiles[0]  # type: ignore[arg-type]
        else:
            assert kept == pick
    assert overruled >= 10  # 24 on these hands


def test_the_experts_blend_adds_the_learned_advantage_to_the_search() -> None:
    """``blend``: the learned advantage of each of strong's best discards, times ``blend``, added to the
    search's means, where candidates are dropped and where the rule overrules; at a huge weight the
    expert plays the discard the model puts furthest ahead, or strong's where it puts none ahead."""
    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="blend"):
            ExpertBot(3, RULES, budget_ms=None, max_rounds=8, blend=bad)
    blended = make_bot("expert+blended", 3, RULES, budget_ms=None, max_rounds=8)
    assert isinstance(blended, ExpertBot) and (blended.blend, blended.z) == (1.0, 1.5)
    assert ExpertBot(3, RULES).blend == 0.0 and known_level("expert+blended")
    options: dict[str, Any] = {"budget_ms": None, "max_rounds": 24}
    led = kept = 0
    for _state, view, legal in _turns(2):
        if any(a.kind == "kong" for a in legal):  # a kong candidate has no learned advantage
            continue
        pick = ExpertBot(3, RULES, blend=1e6, **options).choose(view, legal)
        turn = read_turn(view, legal, RULES, StrongBot(3, RULES))
        assert turn is not None
        best = max(turn.tiles[1:], key=lambda t: advantage(turn, t))
        ahead = advantage(turn, best) > 0
        led += ahead
        kept += not ahead
        assert pick.kind == "discard" and pick.tile is not None
        if ahead:  # the model's best (of equals, the search's)
            assert advantage(turn, int(pick.tile)) == advantage(turn, best) != advantage(turn, turn.tiles[0])
        else:
            assert int(pick.tile) == turn.tiles[0]
    assert led >= 5 and kept >= 5  # 22 and 44 on these hands
    claims: list[tuple[dict[str, Any], list[Any]]] = []

    def watch(state: Any, seat: int, view: dict[str, Any], legal: list[Any]) -> None:
        if len(legal) > 1 and not any(a.kind == "discard" for a in legal):
            claims.append((view, legal))

    for h in range(3):
        play_hand(RULES, [make_bot("strong", h * 4 + s, RULES) for s in range(4)], seed=800 + h, watch=watch)
    assert len(claims) >= 5
    for view, legal in claims:  # nothing for the model to weigh: the search alone, as without the blend
        assert (ExpertBot(3, RULES, blend=1e6, **options).choose(view, legal)
                == ExpertBot(3, RULES, **options).choose(view, legal))

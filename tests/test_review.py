"""The review of a finished hand against the strong bot (``sgmahjong.review``, ``sgmahjong review``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from sgmahjong.bots import Bot, make_bot
from sgmahjong.cli import main
from sgmahjong.game import Action, HandState
from sgmahjong.game.log import to_log
from sgmahjong.game.testing import random_hand
from sgmahjong.review import ReviewError, bot_hand_log, review_log
from sgmahjong.rules import RuleSet
from tests.broken_hand import broken_ready_hand

RULES = RuleSet()


def _bots(levels: Sequence[str], seed: int) -> list[Bot]:
    return [make_bot(level, seed * 10 + i, RULES) for i, level in enumerate(levels)]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seat_played_by_the_strong_bot_agrees_fully(seed: int) -> None:
    levels = ("strong", "greedy", "strong", "random")
    log = bot_hand_log(RULES, _bots(levels, seed), seed=seed)
    for seat in (0, 2):
        review = review_log(log, seat)
        assert review.decisions, "a hand gives every seat decisions"
        assert review.agreement == 1.0 and review.flagged == 0
        assert all(d.player == d.bot for d in review.decisions)
    # a random player disagrees somewhere, and the summary counts it
    review = review_log(log, 3)
    assert review.agreed < len(review.decisions)
    assert review.summary()["decisions"] == len(review.decisions)


def test_a_discard_breaking_a_ready_hand_is_flagged() -> None:
    log, number = broken_ready_hand(RULES)
    review = review_log(log, 0)
    bad = [d for d in review.decisions if d.number == number]
    assert len(bad) == 1
    d = bad[0]
    assert not d.agree and d.flagged and d.bot_shanten == 0 and d.player_shanten is not None
    assert d.player_shanten > 0 and d.reason is not None and "broke a ready hand" in d.reason
    # every other decision is the strong bot's own: agreed and not flagged
    others = [x for x in review.decisions if x is not d]
    assert all(x.agree and not x.flagged for x in others)
    assert review.flagged == 1 and review.agreed == len(review.decisions) - 1


def test_an_unfinished_hand_is_not_reviewed() -> None:
    state, _ = random_hand(RULES, 5)
    lines = to_log(state).splitlines()
    assert len(lines) > 12
    with pytest.raises(ReviewError, match="not ended"):
        review_log("\n".join(lines[:12]) + "\n", 0)


def test_cli_review_text_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = bot_hand_log(RULES, _bots(["strong", "random", "greedy", "strong"], 7), seed=7)
    path = tmp_path / "hand.jsonl"
    path.write_text(log, encoding="utf-8")
    assert main(["review", str(path), "--seat", "S", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = review_log(log, 1)
    assert data["summary"] == expected.summary()
    assert [d["player"] for d in data["decisions"]] == [d.player for d in expected.decisions]
    assert main(["review", str(path), "--seat", "0"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("Seat E:") and "agreement with the strong bot 100%" in out[-1]
    assert main(["review", str(tmp_path / "missing.jsonl"), "--seat", "E"]) == 2
    assert "no such file" in capsys.readouterr().err


def test_each_flag_has_a_reason_code_with_its_params() -> None:
    from sgmahjong.review import REASON_CODES, Decision, _judge_deal_in, _judge_discard

    def disc(ps: int, pu: int, bs: int, bu: int) -> Decision:
        d = Decision(5, 0, "turn", ["discard 1m", "discard 9p"], "discard 1m", "discard 9p", False,
                     player_shanten=ps, player_useful=pu, bot_shanten=bs, bot_useful=bu)
        _judge_discard(d, "1m", "9p")
        return d

    cases = [
        (disc(1, 20, 0, 8), "broke_ready", {"tile": "1m", "bot_tile": "9p", "shanten": 1, "bot_useful": 8}),
        (disc(2, 20, 1, 8), "further_from_ready",
         {"tile": "1m", "bot_tile": "9p", "shanten": 2, "bot_shanten": 1}),
        (disc(1, 4, 1, 20), "fewer_useful",
         {"tile": "1m", "bot_tile": "9p", "shanten": 1, "useful": 4, "bot_useful": 20}),
    ]
    d = Decision(9, 0, "turn", [], "discard 1m", "discard 9p", False, player_risk=3.5, bot_risk=0.5)
    _judge_deal_in(d, "1m", "9p", 2)
    cases.append((d, "dealt_in", {"tile": "1m", "bot_tile": "9p", "winner": 2, "risk": 3.5, "bot_risk": 0.5}))
    for d, code, params in cases:
        assert d.flagged and d.reason and d.reason_code == code and d.reason_params == params
        assert set(params) == set(REASON_CODES[code])
        assert d.to_json()["reason_code"] == code and d.to_json()["reason_params"] == params
    # close enough: not flagged, no code
    assert disc(1, 18, 1, 20).reason_code is None and not disc(1, 18, 1, 20).flagged


@pytest.mark.parametrize("phase,code", [("claim", "passed_up_win"), ("turn", "undeclared_self_drawn")])
def test_a_win_passed_up_is_flagged_with_its_code(phase: str, code: str) -> None:
    passed: dict[str, int] = {}

    def tamper(state: HandState, seat: int, legal: Sequence[Action], choice: Action) -> Action:
        if seat != 0 or passed or choice.kind != "win":
            return choice
        if (state.phase == "claim") != (phase == "claim"):
            return choice
        other = [a for a in legal if a.kind in ("pass", "discard")]
        if not other:
            return choice
        passed["version"] = state.version + 1
        return other[0]

    log = ""
    for seed in range(1, 200):
        passed.clear()
        log = bot_hand_log(RULES, _bots(["strong"] * 4, seed), seed=seed, tamper=tamper)
        if passed:
            break
    assert passed, f"some seeded hand lets seat E win ({phase})"
    review = review_log(log, 0)
    flagged = [d for d in review.decisions if d.flagged and d.reason_code == code]
    assert flagged and flagged[0].reason_params == {} and flagged[0].reason

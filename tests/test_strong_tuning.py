"""``strong``'s weights as one object (bots/strong.py ``StrongParams``) and the bench that tries other
weights in duplicate runs (bench/bench_strong_tuning.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bench.bench_strong_tuning import HonourKeeper, main, make, parse
from sgmahjong.bots.strong import ACCEPTANCE, StrongBot, StrongParams
from sgmahjong.commands.duplicate import Setup, run_walls
from sgmahjong.review import bot_hand_log
from sgmahjong.rules import RuleSet

RULES = RuleSet()


def _logs(params: StrongParams | None, hands: int = 12) -> list[str]:
    return [bot_hand_log(RULES, [StrongBot(h * 4 + s, RULES, params) for s in range(4)], seed=h)
            for h in range(hands)]


def test_the_default_weights_are_the_constants_and_the_weights_are_played() -> None:
    assert StrongParams().acceptance == ACCEPTANCE
    assert _logs(StrongParams()) == _logs(None)
    # without the acceptance tie-break strong throws other tiles in some of these hands
    assert _logs(replace(StrongParams(), acceptance=0.0)) != _logs(None)


def test_a_variant_is_named_by_its_weights() -> None:
    assert parse("strong+safety=0.02+claim_margin=1.5") == {"safety": 0.02, "claim_margin": 1.5}
    bot = make("strong+late_wall=40+far=3", 1, RULES)
    assert isinstance(bot, StrongBot) and bot.params.late_wall == 40 and bot.params.far == 3.0
    keeper = make("strong+keep=0.1+valued=1", 1, RULES)
    assert isinstance(keeper, HonourKeeper) and keeper.keep == 0.1 and keeper.valued
    assert type(make("greedy", 1, RULES)).__name__ == "GreedyBot"
    for bad in ("strong", "greedy+safety=1", "strong+nerve=2", "strong+safety", "strong+safety=lots"):
        with pytest.raises(ValueError):
            parse(bad)


def _played(results: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """What each wall gave each side (its decision times aside)."""
    return [tuple((r[s]["net"], r[s]["won"], r[s]["tai"], r[s]["dealt_in"], len(r[s]["times"])) for s in "ab")
            for r in results]


def test_a_duplicate_run_of_a_variant() -> None:
    setup = Setup(pair=("strong+keep=0.3", "strong"), others=("strong", "strong", "strong"), seed=3,
                  rules=RULES, budget_ms=None, rounds=None)
    one = run_walls(setup, 8, 1, make=make)
    # two workers load the bench's bot maker and play the same
    assert _played(one) == _played(run_walls(setup, 8, 2, make=make))
    # keeping lone honours changes the play of some walls, and the same bot against itself none
    assert any(r["a"]["net"] != r["b"]["net"] for r in one)
    same = replace(setup, pair=("strong+acceptance=" + str(ACCEPTANCE), "strong"))
    assert all(a == b for a, b in _played(run_walls(same, 8, 1, make=make)))


def test_the_bench_prints_each_variant(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--walls", "4", "--workers", "1", "--seed", "3", "strong+safety=0.05"])
    out = capsys.readouterr().out
    assert "4 walls, seed 3" in out and "strong+safety=0.05" in out and "+0.000 [+0.000, +0.000]" in out
    assert "dealt in" in out and "(strong " in out
    with pytest.raises(SystemExit):
        main(["--walls", "4", "strong+nerve=1"])
    assert "NAME one of" in capsys.readouterr().err

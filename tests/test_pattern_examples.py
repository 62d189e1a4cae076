"""The Scoring page's example hands (static/js/pattern-examples.js): one for every pattern the scorer
knows, each scoring its pattern with the core (the calculator's request, or for a special win, the
table's state machine from a stacked wall)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sgmahjong.calculator import score_answer
from sgmahjong.game.testing import deal, play
from sgmahjong.scoring import BY_ID, SPECIAL_WINS

SOURCE = (Path(__file__).resolve().parent.parent / "sgmahjong" / "server" / "static" / "js"
          / "pattern-examples.js").read_text(encoding="utf-8")
EXAMPLES: dict[str, dict[str, Any]] = json.loads(SOURCE[SOURCE.index("{"):SOURCE.rindex("}") + 1])
HANDS = {k: v for k, v in EXAMPLES.items() if not v.get("special")}


def test_every_pattern_has_an_example() -> None:
    assert set(EXAMPLES) == set(BY_ID) | set(SPECIAL_WINS)


@pytest.mark.parametrize("pattern", sorted(HANDS))
def test_the_example_scores_its_pattern(pattern: str) -> None:
    body = {k: v for k, v in HANDS[pattern].items()}
    status, answer = score_answer(body)
    assert status == 200, answer
    assert answer["valid"], answer
    assert pattern in [p["name"] for p in answer["patterns"]]


def _eighth() -> Any:
    """East holds seven flowers; South draws the eighth and East may rob it."""
    ex = EXAMPLES["robbing_the_eighth"]["hand"]
    flowers = ex.split("/")[1]
    eighth = ex.split("+")[1].split("/")[0].strip()
    state = deal(E=f"{flowers} 123m", draws=eighth, back="1s 3s 5s 7s 9s 2p 4p 1p")
    state, _ = play(state, "E discard 1m", "E win")
    return state


def test_robbing_the_eighth_is_won_at_the_table() -> None:
    state = _eighth()
    assert state.result is not None and state.result["kind"] == "robbing_the_eighth"
    assert [p["name"] for p in state.result["patterns"]] == ["robbing_the_eighth"]


@pytest.mark.parametrize("pattern", ["declare_three_dragons", "declare_four_winds"])
def test_a_declaration_is_won_at_the_table(pattern: str) -> None:
    state = deal(E=EXAMPLES[pattern]["hand"])
    state, _ = play(state, "E win")
    assert state.result is not None and state.result["kind"] == pattern
    assert [p["name"] for p in state.result["patterns"]] == [pattern]

"""The tutorial's first hand (static/js/tutorial-hand.js) is the core's: the committed file is what
tools/make_tutorial.py makes, and replaying its moves through the core's state machine from the
stacked wall, every player's move is legal where the tutorial asks for it, every position the page
draws is the core's, and the win scores two tai (a dragon pong and the seat flower) paid as it says."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from typing import Any

from sgmahjong.game.actions import format_action, parse_action
from sgmahjong.game.engine import apply, legal_actions
from sgmahjong.game.state import CLAIM
from sgmahjong.game.testing import pass_all

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "sgmahjong" / "server" / "static" / "js" / "tutorial-hand.js"


def _tool() -> Any:
    spec = importlib.util.spec_from_file_location("make_tutorial", ROOT / "tools" / "make_tutorial.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_tutorial"] = module
    spec.loader.exec_module(module)
    return module


def _committed() -> dict[str, Any]:
    text = SCRIPT.read_text(encoding="utf-8")
    match = re.search(r"export default (\{.*\});\n\Z", text, re.S)
    assert match is not None
    data: dict[str, Any] = json.loads(match.group(1))
    return data


def test_the_committed_script_is_current() -> None:
    tool = _tool()
    assert SCRIPT.read_text(encoding="utf-8") == tool.render(), "run python tools/make_tutorial.py"
    assert tool.main(["--check"]) == 0


def test_the_script_replays_legally_through_the_core_and_wins_with_two_tai() -> None:
    tool = _tool()
    data = _committed()
    state = tool.start()
    mine = iter(data["steps"])
    asked = 0
    for who, text in tool.SCRIPT:
        seat = "ESWN".index(who)
        action = parse_action(text, seat)
        if state.phase == CLAIM and action not in legal_actions(state, seat):
            state, _ = pass_all(state)  # the others' windows: everyone passes
        legal = legal_actions(state, seat)
        assert action in legal, (who, text)
        if who == "E":
            step = next(mine)
            asked += 1
            assert step["do"] == text == format_action(action)
            assert step["legal"] == sorted(format_action(a) for a in legal)
            assert step["before"] == tool.position(state)  # what the page draws is this position
            if action.kind != "discard":  # a claim: the discard on the table is the one taken
                assert state.phase == CLAIM and state.last_discard is not None
                assert step["before"]["discard"]["tile"] == state.last_discard[1].notation
        state, _ = apply(state, action)
    assert asked == len(data["steps"]) == 6
    # the four moves the tutorial teaches, in order
    kinds = [s["do"].split(" ")[0] for s in data["steps"]]
    assert kinds == ["discard", "chow", "discard", "pong", "discard", "win"]
    assert state.ended and state.result is not None
    res = state.result
    assert res["winner"] == 0 and res["shooter"] == 1 and not res["self_drawn"]
    assert res["tai"] == data["result"]["tai"] == 2
    assert sorted(p["name"] for p in res["patterns"]) == ["dragon_pong", "seat_flower"]
    assert [p["id"] for p in data["result"]["patterns"]] == [p["name"] for p in res["patterns"]]
    # 2 tai: 2 from each loser, double from the shooter (South): the winner gets 8
    assert res["payments"] == [8, -4, -2, -2]
    assert data["result"]["payments"] == {"E": 8, "S": -4, "W": -2, "N": -2}
    assert data["end"] == tool.position(state)

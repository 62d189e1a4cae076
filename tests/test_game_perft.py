"""Perft: the number of distinct action sequences to a depth from fixed positions, pinned in
tests/data/perft.json. On a mismatch the per-first-action breakdown shows where it changed.

Regenerate (only after an intended rule change): ``.venv/bin/python tests/test_game_perft.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from sgmahjong.game import HandState, new_hand
from sgmahjong.game.perft import divide
from sgmahjong.game.testing import deal, play
from sgmahjong.rules import RuleSet

DATA = Path(__file__).parent / "data" / "perft.json"


def position(case: dict) -> HandState:
    if case.get("script"):
        st = deal(**case["deal"])
        st, _ = play(st, *case["script"])
        return st
    st, _ = new_hand(RuleSet(), seed=case["seed"], dealer=case.get("dealer", 0))
    return st


CASES = [
    {"name": "seed1", "seed": 1, "depth": 3},
    {"name": "seed2-dealer2", "seed": 2, "dealer": 2, "depth": 3},
    {"name": "seed3", "seed": 3, "depth": 4},
    {"name": "claims", "depth": 3, "script": ["E discard 5p"],
     "deal": {"E": "5p 8m9m 3s6s9s 1p2p7p8p 7s E S W", "S": "5p5p 2s 8s 3p 9p ESWN F P 7m",
              "W": "123m 456m CCC 11s 46p", "N": "1p 4p 7p 2m 5m 8m 3s 6s 9s S W N P"}},
]


def _pinned() -> dict[str, dict]:
    return {c["name"]: c for c in json.loads(DATA.read_text())["cases"]}


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_perft_matches_the_pinned_counts(case):
    pinned = _pinned()[case["name"]]
    got = divide(position(case), case["depth"])
    if got != pinned["divide"]:
        lines = [f"perft {case['name']} depth {case['depth']}: {sum(got.values())} "
                 f"(pinned {pinned['nodes']})"]
        for key in sorted(set(got) | set(pinned["divide"])):
            a, b = got.get(key), pinned["divide"].get(key)
            if a != b:
                lines.append(f"  {key}: got {a}, pinned {b}")
        pytest.fail("\n".join(lines))
    assert sum(got.values()) == pinned["nodes"]


def regenerate() -> None:
    out = []
    for case in CASES:
        d = divide(position(case), case["depth"])
        out.append({**case, "nodes": sum(d.values()), "divide": d})
        print(case["name"], sum(d.values()))
    DATA.parent.mkdir(exist_ok=True)
    DATA.write_text(json.dumps({"cases": out}, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    regenerate()
    sys.exit(0)

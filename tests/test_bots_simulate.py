"""The ``simulate`` command: text and JSON output, rotation of seats, clear errors."""

from __future__ import annotations

import json

import pytest

from sgmahjong.cli import main


def test_simulate_text(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--bots", "greedy,random,random,random", "--hands", "8", "--seed", "2",
                 "--no-progress"])
    out = capsys.readouterr()
    assert code == 0
    assert "8 hands (2 walls" in out.out
    lines = {line.split()[0]: line for line in out.out.splitlines() if line.split()}
    assert "greedy" in lines and "random" in lines
    assert "hands/s" in out.out
    assert "95% CI" in out.out
    assert out.err == ""


def test_simulate_json_is_consistent(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--bots", "strong,greedy,greedy,greedy", "--hands", "8", "--seed", "5",
                 "--json", "--rule", "limit=10"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hands"] == 8 and data["walls"] == 2
    assert data["rules"] == {"limit": 10}
    levels = {s["level"]: s for s in data["levels"]}
    assert set(levels) == {"strong", "greedy"}
    assert levels["strong"]["seat_hands"] == 8 and levels["greedy"]["seat_hands"] == 24
    wins = sum(s["wins"] for s in data["levels"])
    assert wins + data["drawn_games"] == 8
    total = sum(s["net_per_hand"] * s["seat_hands"] for s in data["levels"])
    assert abs(total) < 1e-9  # payments are zero-sum
    for s in data["levels"]:
        lo, hi = s["net_ci95"]
        assert lo <= s["net_per_hand"] <= hi
        assert 0 <= s["self_drawn_share"] <= 1
    assert data["hands_per_second"] > 0


def test_simulate_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    runs = []
    for _ in range(2):
        assert main(["simulate", "--bots", "greedy", "--hands", "4", "--seed", "11", "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        runs.append([(s["wins"], s["net_per_hand"]) for s in data["levels"]])
    assert runs[0] == runs[1]


def test_progress_bar_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--bots", "random", "--hands", "20", "--seed", "1", "--progress", "--json"]) == 0
    out = capsys.readouterr()
    assert "20/20 hands" in out.err
    json.loads(out.out)


@pytest.mark.parametrize(("args", "message"), [
    (["--bots", "greedy,genius,random,random"], "unknown bot level 'genius'"),
    (["--bots", "greedy,random"], "--bots needs four levels"),
    (["--hands", "0"], "--hands must be at least 1"),
    (["--rule", "limit=two"], "rule limit must be a whole number"),
    (["--rule", "colour=red"], "unknown rule 'colour'"),
])
def test_clear_errors(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    assert main(["simulate", *args]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err

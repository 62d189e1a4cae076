"""The ``simulate`` command: text and JSON output, rotation of seats, clear errors."""

from __future__ import annotations

import json
from typing import Any

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
    (["--bots", "greedy,random"], "--bots needs 4 levels"),
    (["--compare", "expert+wise,strong"], "unknown bot level 'expert+wise'"),
    (["--hands", "0"], "--hands must be at least 1"),
    (["--rule", "limit=two"], "rule limit must be a whole number"),
    (["--rule", "colour=red"], "unknown rule 'colour'"),
])
def test_clear_errors(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    assert main(["simulate", *args]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


# -- duplicate comparison (issue 15) -------------------------------------------------------------


def test_compare_reports_the_paired_difference(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--compare", "strong,greedy", "--others", "greedy,greedy,greedy", "--walls", "8",
                 "--seed", "4", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["walls"] == 8 and data["compare"] == ["strong", "greedy"]
    a, b = data["a"], data["b"]
    assert abs(data["difference"] - (a["net_per_hand"] - b["net_per_hand"])) < 1e-9
    lo, hi = data["difference_ci95"]
    assert lo <= data["difference"] <= hi
    assert a["decisions"] > 0 and a["median_ms"] <= a["p99_ms"] <= a["max_ms"]
    assert 0 <= data["same_result_walls"] <= 8


def test_compare_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--compare", "greedy,beginner", "--others", "greedy", "--walls", "4",
                 "--seed", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "paired difference greedy - beginner" in out and "95% CI" in out and "4 walls" in out


def test_compare_against_the_test_styles(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--compare", "strong,greedy", "--others", "defensive,reckless,defensive",
                 "--walls", "2", "--seed", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["others"] == ["defensive", "reckless", "defensive"] and data["walls"] == 2
    assert main(["simulate", "--compare", "strong,greedy", "--others", "timid"]) == 2
    assert "test styles: defensive, reckless" in capsys.readouterr().err


def test_compare_with_workers_gives_the_same_results() -> None:
    from sgmahjong.commands.duplicate import Setup, run_walls
    from sgmahjong.rules import RuleSet

    setup = Setup(("strong", "greedy"), ("greedy", "strong", "beginner"), 9, RuleSet(), None, None)
    one = run_walls(setup, 6, 1)
    two = run_walls(setup, 6, 2)

    def strip(rs: list[dict[str, Any]]) -> list[Any]:
        return [[(r["index"], r["seat"], r[s]["net"], r[s]["won"], len(r[s]["times"])) for s in "ab"]
                for r in rs]

    assert strip(one) == strip(two)
    assert [r["seat"] for r in one] == [0, 1, 2, 3, 0, 1]


def test_compare_expert_with_fixed_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--compare", "expert,strong", "--others", "greedy", "--walls", "1",
                 "--seed", "2", "--time-budget-ms", "0", "--expert-rounds", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["expert_rounds"] == 1 and data["time_budget_ms"] is None and data["budget_clock"] == "wall"
    assert data["a"]["level"] == "expert" and data["a"]["decisions"] > 0
    # the expert with an option on (expert+told) and another seed (@1) sits in the compared seat
    assert main(["simulate", "--compare", "expert+told@1,strong", "--others", "greedy", "--walls", "1",
                 "--seed", "2", "--time-budget-ms", "0", "--expert-rounds", "1", "--json"]) == 0
    told = json.loads(capsys.readouterr().out)
    assert told["compare"] == ["expert+told@1", "strong"] and told["a"]["decisions"] > 0


@pytest.mark.parametrize(("args", "message"), [
    (["--compare", "strong"], "--compare needs 2 levels"),
    (["--compare", "strong,greedy", "--others", "greedy,greedy"], "--others needs 3 levels"),
    (["--compare", "strong,greedy", "--workers", "0"], "--workers must be between 1 and 64"),
    (["--compare", "strong,greedy", "--walls", "0"], "--walls must be at least 1"),
    (["--time-budget-ms", "0"], "--time-budget-ms 0 needs --expert-rounds"),
    (["--time-budget-ms", "-5"], "--time-budget-ms must be 0 or more"),
])
def test_compare_clear_errors(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    assert main(["simulate", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_compare_stopped_by_sigterm_reports_the_walls_done() -> None:
    import os
    import signal
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-m", "sgmahjong", "simulate", "--compare", "greedy,random", "--others", "random",
         "--walls", "100000", "--seed", "3", "--json", "--progress"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stderr is not None
    seen = ""
    while " walls" not in seen:  # the first progress line: some walls are done
        ch = proc.stderr.read(1)
        assert ch, "simulate ended before any progress"
        seen += ch
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0
    data = json.loads(out)
    assert data["interrupted"] is True and 1 <= data["walls"] < 100000


def test_a_stopped_comparison_continues_from_its_results_file(
        tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--compare", "strong,greedy", "--others", "greedy,strong,beginner", "--walls", "6",
            "--seed", "12", "--json", "--no-progress"]
    assert main(args) == 0
    whole = json.loads(capsys.readouterr().out)
    results = tmp_path / "run.jsonl"
    assert main([*args, "--results", str(results)]) == 0
    capsys.readouterr()
    lines = results.read_text().splitlines()
    assert len(lines) == 7 and json.loads(lines[0])["compare"] == ["strong", "greedy"]
    # a run killed after three walls, in the middle of writing the fourth
    results.write_text("\n".join(lines[:4]) + "\n" + lines[4][:20])
    assert main([*args, "--results", str(results)]) == 0
    captured = capsys.readouterr()
    resumed = json.loads(captured.out)
    assert "resuming: 3 of 6 walls" in captured.err
    for key in ("walls", "difference", "difference_ci95", "same_result_walls"):
        assert resumed[key] == whole[key], key
    assert resumed["a"]["net_per_hand"] == whole["a"]["net_per_hand"]
    # the file can be read whole again and holds each wall once
    assert main([*args, "--results", str(results)]) == 0
    assert json.loads(capsys.readouterr().out)["difference"] == whole["difference"]
    # another setup is refused rather than mixed in
    assert main([*args[:-4], "--seed", "13", "--json", "--results", str(results)]) == 2
    assert "other settings (seed)" in capsys.readouterr().err


def test_the_control_compares_a_bot_with_itself_on_another_seed(capsys: pytest.CaptureFixture[str]) -> None:
    """expert,expert@1: the same deterministic expert with another seed plays differently on some wall
    (so the control measures the noise of the comparison); expert,expert plays every wall alike."""
    args = ["--others", "greedy", "--walls", "10", "--seed", "5", "--time-budget-ms", "0",
            "--expert-rounds", "8", "--json"]
    assert main(["simulate", "--compare", "expert,expert@1", *args]) == 0
    control = json.loads(capsys.readouterr().out)
    assert control["compare"] == ["expert", "expert@1"] and control["walls"] == 10
    assert control["same_result_walls"] < 10  # another seed: other deals, other choices
    assert main(["simulate", "--compare", "expert,expert", *args]) == 0
    same = json.loads(capsys.readouterr().out)
    assert same["difference"] == 0 and same["same_result_walls"] == 10
    assert control["a"]["decisions"] == same["a"]["decisions"]  # side A is the same bot in both runs
    assert main(["simulate", "--compare", "expert,expert@x"]) == 2
    assert "after @ comes a number" in capsys.readouterr().err


def test_progress_follows_the_recent_pace_after_a_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from sgmahjong.commands import simulate

    now = [1000.0]
    monkeypatch.setattr("sgmahjong.commands.simulate.time.perf_counter", lambda: now[0])
    out = io.StringIO()
    bar = simulate._Progress(8000, out, True, unit="walls", already=300)
    for done in range(301, 361):  # one wall every 5 s
        now[0] += 5.0
        bar.update(done)
    assert out.getvalue().rsplit("\r", 1)[-1].strip().endswith("360/8000 walls, 0.20 walls/s, 10:36:40 left")
    now[0] += 3600.0  # paused an hour (SIGSTOP), then on at the same pace
    bar.update(361)
    assert "0.01 walls/s" in out.getvalue().rsplit("\r", 1)[-1]
    for done in range(362, 362 + simulate.PACE_WINDOW):
        now[0] += 5.0
        bar.update(done)
    assert out.getvalue().rsplit("\r", 1)[-1].strip().endswith(", 0.20 walls/s, 10:32:25 left")
    assert [simulate.clock(s) for s in (0, 59, 61, 3599, 3600, 45296)] == [
        "0:00", "0:59", "1:01", "59:59", "1:00:00", "12:34:56"]

"""``sgmahjong score``: JSON and text output, not-a-win (exit 0), bad input (exit 2, one line)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from sgmahjong.cli import main


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["score", *argv, "--json"]) == 0
    out = capsys.readouterr().out
    data: dict[str, Any] = json.loads(out)
    return data


def test_valid_win_on_a_discard_with_shooter(capsys: pytest.CaptureFixture[str]) -> None:
    d = run_json(capsys, "123m456m789p4588s +6s", "--shooter", "S")
    assert d == {"valid": True, "tai": 4, "limit": False,
                 "patterns": [{"name": "ping_hu", "tai": 4}],
                 "payments": {"E": 32, "S": -16, "W": -8, "N": -8}}


def test_hand_may_be_given_in_several_words(capsys: pytest.CaptureFixture[str]) -> None:
    d = run_json(capsys, "23s55p", "[123m]", "[456m]", "[789p]", "+4s", "/1f1a", "--self-drawn")
    assert d["tai"] == 3 and sum(d["payments"].values()) == 0 and d["payments"]["E"] == 3 * 8


def test_no_payments_without_known_payers(capsys: pytest.CaptureFixture[str]) -> None:
    d = run_json(capsys, "123m456m789p4588s +6s")
    assert d["valid"] and "payments" not in d


def test_self_drawn_limit_and_rules(capsys: pytest.CaptureFixture[str]) -> None:
    d = run_json(capsys, "111333555777m9m +9m", "--self-drawn", "--seat", "S", "--rule", "limit=13",
                 "--rule", "base=10")
    assert d["tai"] == 13 and d["limit"] is True
    assert d["patterns"] == [{"name": "hidden_treasure", "tai": 13}]
    assert d["payments"] == {"E": -81920, "S": 245760, "W": -81920, "N": -81920}  # 2 x 10 x 2^12


def test_options_reach_the_scorer(capsys: pytest.CaptureFixture[str]) -> None:
    d = run_json(capsys, "123m456p5s[7777s][8888p]+5s", "--replacement", "kong-on-kong",
                 "--rule", "limit=13")
    assert d["patterns"] == [{"name": "kong_on_kong", "tai": 10}]
    d = run_json(capsys, "123m456m789p4588s +6s", "--robbed-kong", "--shooter", "W", "--wind", "S")
    assert d["tai"] == 5 and d["payments"]["W"] == -32
    d = run_json(capsys, "123m456m789p4588s +6s", "--earthly", "--seat", "N", "--shooter", "E")
    assert d["patterns"] == [{"name": "earthly_hand", "tai": 5}]
    d = run_json(capsys, "123m456m789p4588s +6s", "--last-tile")
    assert d["tai"] == 5 and d["payments"]["E"] == 3 * 32
    d = run_json(capsys, "123m456m789p4588s +6s", "--shooter", "N", "--bao", "W")
    assert d["payments"] == {"E": 32, "S": 0, "W": -32, "N": 0}
    d = run_json(capsys, "19m19p19s ESWNCFP +1m")
    assert d["payments"] == {"E": 96, "S": -32, "W": -32, "N": -32}  # everyone pays: 13 wonders


def test_not_a_win_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    d = run_json(capsys, "123m456m789p1288s +3s", "--shooter", "N")
    assert d["valid"] is False and d["reason"] == "scores 0 tai; the minimum is 1"
    assert d["reason_code"] == "under_min" and d["reason_params"] == {"tai": 0, "min": 1}
    assert "payments" not in d
    d = run_json(capsys, "123m456m789p1288s +9s")
    assert d["valid"] is False and d["reason"].startswith("not a winning hand")
    assert d["reason_code"] == "not_sets_and_pair" and d["reason_params"] == {}


def test_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "CCC FFF PP 123m 55s +5s", "--shooter", "W"]) == 0
    out = capsys.readouterr().out
    assert "small_three_dragons" in out and "小三元" in out and "3 tai" in out
    assert "W -8" in out and "E +16" in out
    assert main(["score", "123m456m789p1288s +3s"]) == 0
    assert "not a win: scores 0 tai" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ["123m456m789p1288s +3"],                               # notation
    ["123m456m789p1288s +3s", "--shooter", "E"],            # shooter is the winner
    ["123m456m789p1288s +3s", "--seat", "X"],
    ["123m456m789p1288s +3s", "--rule", "limit=x"],
    ["123m456m789p1288s +3s", "--rule", "nonsense=1"],
    ["123m456m789p1288s +3s", "--replacement", "wall"],
    ["123m456m789p1288s +3s", "--self-drawn", "--shooter", "S"],
    ["123m456m789p1288s +3s", "--robbed-kong", "--self-drawn"],
    ["123m456m789p1288s +3s", "--heavenly", "--seat", "S"],
    ["123m456m789p1288s +3s", "--bao", "E"],
    ["123m456m789p1288s"],                                  # no winning tile
    ["1111m1111m +2m"],                                     # impossible hand
])
def test_bad_input_exits_2_with_one_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert main(["score", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("sgmahjong score: error: ")
    assert "Traceback" not in err


def test_subprocess_round_trip() -> None:
    ok = subprocess.run([sys.executable, "-m", "sgmahjong", "score", "EEE 123m 456p 789s 5s +5s",
                         "--self-drawn", "--json"], capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0, ok.stderr
    d = json.loads(ok.stdout)
    assert d["tai"] == 2 and d["payments"] == {"E": 12, "S": -4, "W": -4, "N": -4}
    bad = subprocess.run([sys.executable, "-m", "sgmahjong", "score", "12x", "--json"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr


class _ClosedPipe:
    """A stdout whose reader has gone away (``sgmahjong ... | head``)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        pass

    def fileno(self) -> int:
        return self.fd


def test_a_closed_pipe_ends_the_command_quietly(tmp_path: Any, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    sink = tmp_path / "sink"
    with open(sink, "w") as f:
        monkeypatch.setattr(sys, "stdout", _ClosedPipe(f.fileno()))
        assert main(["score", "23s55p[123m][456m][789p]+4s"]) == 141
    assert capsys.readouterr().err == ""

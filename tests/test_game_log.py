"""The event log, `sgmahjong replay`, action notation and the wall."""

from __future__ import annotations

import random

import pytest

from sgmahjong.cli import main
from sgmahjong.errors import NotationError
from sgmahjong.game import Action, format_action, parse_action
from sgmahjong.game.log import LogError, replay, to_log
from sgmahjong.game.testing import deal, play, random_hand
from sgmahjong.game.wall import STACKS, break_wall, commitment, verify_commitment
from sgmahjong.rules import RuleSet
from sgmahjong.tiles import Tile, full_set


@pytest.mark.parametrize("text", ["discard 5p", "chow 345s", "pong", "kong 7m", "win", "pass"])
def test_action_notation_round_trips(text):
    assert format_action(parse_action(text, 2)) == text


def test_action_parser_accepts_variants_and_rejects_bad_text():
    assert parse_action("chow 3s", 1) == Action(1, "chow", Tile.S3)
    assert parse_action("  KONG 7777m ", 0) == Action(0, "kong", Tile.M7)
    for bad in ("", "dance", "discard", "chow 357s", "discard 5p6p", "win 5p", "chow 89m"):
        with pytest.raises(NotationError):
            parse_action(bad, 0)


def test_wall_layout_and_break():
    assert sum(STACKS) * 2 == 148
    ring = full_set()
    wall = break_wall(ring, 0, (1, 1, 1))
    assert sorted(wall) == sorted(ring) and len(wall) == 148
    assert break_wall(ring, 0, (1, 2, 3)) != break_wall(ring, 0, (2, 2, 3))


def test_commitment_detects_a_changed_wall():
    wall = full_set()
    h = commitment("ab", wall)
    names = [t.notation for t in wall]
    assert verify_commitment(h, "ab", names)
    names[0], names[-1] = names[-1], names[0]
    assert not verify_commitment(h, "ab", names)
    assert not verify_commitment(h, "ac", [t.notation for t in wall])


def test_replay_of_a_stacked_hand_and_log_round_trip():
    st = deal(S="123m 456m 999p 11s 46p", draws="2s 8s 8m 9s 5p")
    st, _ = play(st, "E discard N", "S discard 2s")
    log = to_log(st)
    again, events = replay(log)
    assert again == st and to_log(again) == log
    assert events[0].kind == "hand_start" and "wall" in events[0].data


def test_replay_errors_name_the_line():
    state, _ = random_hand(RuleSet(), 3)
    lines = to_log(state).splitlines()
    bad = [*lines[:3], '{"seat": 0, "action": "discard 5z"}']
    with pytest.raises(LogError, match="line 4"):
        replay("\n".join(bad))
    with pytest.raises(LogError, match="line 2"):
        replay("\n".join([lines[0], '{"seat": 1, "action": "win"}']))
    with pytest.raises(LogError, match="empty"):
        replay("")


def test_replay_command_prints_readable_text(tmp_path, capsys):
    state, _ = random_hand(RuleSet(), 21)
    f = tmp_path / "hand.jsonl"
    f.write_text(to_log(state))
    assert main(["replay", str(f)]) == 0
    out = capsys.readouterr().out
    assert "is dealt" in out and "discards" in out and "commitment verified" in out
    assert main(["replay", "--json", str(f)]) == 0
    assert capsys.readouterr().out.startswith("{")


def test_replay_command_one_line_errors(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2
    err = capsys.readouterr().err.strip()
    assert "no such file" in err and "\n" not in err
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    assert main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert "line 1" in err and "\n" not in err


def test_random_hands_are_deterministic():
    a, n = random_hand(RuleSet(), 77)
    b, m = random_hand(RuleSet(), 77)
    assert a == b and n == m
    assert random.Random(1).random() == random.Random(1).random()


def test_replay_text_of_a_robbed_kong(tmp_path, capsys):
    from tests.test_game_scripted import ROB

    st = deal(**ROB, draws="F P N 5p")
    st, _ = play(st, "E discard 5p", "W pass", "S pong", "S discard 2s", "W discard F", "N discard P",
                 "E discard N", "S kong 5p", "W win")
    f = tmp_path / "rob.jsonl"
    f.write_text(to_log(st))
    assert main(["replay", str(f)]) == 0
    out = capsys.readouterr().out
    assert "S pongs 5p from E" in out and "W may rob it" in out
    assert "W wins by robbing S's kong" in out and "robbing_the_kong" in out

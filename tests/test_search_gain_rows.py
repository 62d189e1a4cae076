"""The real-judge bench's rows read back (bench/search_gain_rows.py, ``bench_search_gain --rows``): where
two players choose differently, split by kind and by who overrules, each split adding up to the whole;
and a run stopped part way continued from its file."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path
from typing import Any

import pytest

from bench.bench_search_gain import main, run_hands
from bench.search_gain_rows import by_context, differences, hands_of, paired, players_of, read_rows


def _row(hand: int, kind: str, a: tuple[int, float], b: tuple[int, float]) -> dict[str, Any]:
    def player(pick: int, real: float) -> dict[str, Any]:
        return {"pick": pick, "gain": 0.0, "se": 0.0, "playouts": 100, "real": real,
                "real_se": 0.1 if pick else 0.0}

    # the decision's context, as bench_search_gain writes it, before the players' entries
    return {"hand": hand, "kind": kind, "wall": 40, "sets": 1, "waits": [[3, 6]], "tiles": [3, 9, None],
            "a": player(*a), "b": player(*b)}


ROWS = [
    _row(0, "turn", (0, 0.0), (1, 2.0)),   # b overrules at a turn, a does not: +2
    _row(0, "turn", (1, 1.0), (1, 1.0)),   # alike
    _row(1, "claim", (1, -1.0), (0, 0.0)),  # a overrules in a claim window, b does not: +1
    _row(2, "turn", (2, 3.0), (3, -1.0)),  # both overrule, differently: -4
    _row(3, "turn", (0, 0.0), (0, 0.0)),   # alike (hand 3: no difference)
]


def test_the_splits_add_up_to_the_whole_difference() -> None:
    assert players_of(ROWS) == ["a", "b"] and hands_of(ROWS) == 4
    n, mean, _ = paired(ROWS, 4, "a", "b", lambda r: True)
    assert n == 5 and mean == pytest.approx((2 + 1 - 4) / 4)
    out = io.StringIO()
    differences(ROWS, 4, "a", "b", out)
    text = out.getvalue()
    assert "3 decisions, b - a -0.25" in text
    lines = {line.strip().rsplit(None, 6)[0]: line for line in text.splitlines()[1:]}
    assert "+0.50" in lines["at a turn: b overrules strong, a does not"]
    assert "+0.25" in lines["in a claim window: a overrules strong, b does not"]
    assert "-1.00" in lines["at a turn: both overrule, to different choices"]
    assert "at a turn: a overrules strong, b does not" not in lines  # none such: no line
    by_pick = [float(line.split()[-5]) for key, line in lines.items() if key.startswith("b plays candidate")]
    assert sum(by_pick) == pytest.approx(-0.25)


def test_where_the_overrules_pay_splits_add_up_to_the_whole() -> None:
    out = io.StringIO()
    by_context(ROWS, 4, "b", out)
    text = out.getvalue()
    blocks = text.split("     by ")[1:]
    assert len(blocks) == 3  # the stage, the other seats, the decision
    for block in blocks:  # b's overrules pay (2 + 1 - 1) / 4 hands in all; each split adds up to it
        assert sum(float(line.split()[-5]) for line in block.splitlines()[1:]) == pytest.approx(0.5)
    # strong's discard (tile 3) is in the ready seat's waits, b's candidate 1 (tile 9) is not
    assert "an overrule out of them: strong's discard in, its own not" in text
    assert "1 other seat one tile from winning" in text and "middle (31 to 60)" in text
    out = io.StringIO()
    by_context([{k: v for k, v in r.items() if k not in ("wall", "sets", "waits", "tiles")} for r in ROWS],
               4, "b", out)
    assert "no row holds the decision's context" in out.getvalue()


def test_rows_from_a_file_report_again_and_bad_files_are_clear_errors(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "rows.jsonl"
    good.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    assert read_rows(str(good)) == ROWS
    packed = tmp_path / "rows.jsonl.gz"
    packed.write_bytes(gzip.compress(good.read_bytes()))
    assert read_rows(str(packed)) == ROWS
    main(["--rows", str(good)])
    out = capsys.readouterr().out
    assert "5 searched decisions over 4 hands" in out
    assert "where b and a choose differently: 3 decisions" in out
    main(["--rows", str(good), "--players", "b,a"])
    assert "where a and b choose differently: 3 decisions, a - b +0.25" in capsys.readouterr().out
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"hand": 0, "kind": "turn"}\nnot json\n', encoding="utf-8")
    for args, said in ((["--rows", str(bad)], "bad.jsonl:2: not a row of JSON"),
                       (["--rows", str(tmp_path / "none.jsonl")], "No such file"),
                       (["--rows", str(good), "--players", "a,c"], "holds no decisions of c; it holds a, b")):
        with pytest.raises(SystemExit) as e:
            main(args)
        assert e.value.code == 2 and said in capsys.readouterr().err


def _fake_hand(h: int, played: str) -> list[dict[str, Any]]:
    """A hand's rows without playing (odd hands have no searched decision), noting that it was played."""
    with open(played, "a", encoding="utf-8") as f:
        f.write(f"{h}\n")
    return [] if h % 2 else [_row(h, "turn", (0, 0.0), (1, float(h))), _row(h, "claim", (0, 0.0), (0, 0.0))]


def test_a_stopped_run_continues_from_its_file(tmp_path: Path) -> None:
    out, played = tmp_path / "rows.jsonl", tmp_path / "played"
    tasks = [(h, str(played)) for h in range(7)]
    whole = run_hands(_fake_hand, tasks, 1, str(out))
    assert len(whole) == 8 and read_rows(str(out)) == whole
    # stopped in hand 4's rows: hands 0-3 whole, then a line cut short
    lines = out.read_text(encoding="utf-8").splitlines()
    out.write_text("\n".join(lines[:5]) + "\n" + lines[5][:20], encoding="utf-8")
    played.write_text("", encoding="utf-8")
    again = run_hands(_fake_hand, tasks, 2, str(out), resume=True)
    assert again == whole and read_rows(str(out)) == whole
    # hand 4 is played again (its rows may be cut short), hands 0-3 are not
    assert sorted(int(x) for x in played.read_text(encoding="utf-8").split()) == [4, 5, 6]
    played.write_text("", encoding="utf-8")
    assert run_hands(_fake_hand, tasks, 1, str(tmp_path / "new.jsonl"), resume=True) == whole
    assert len(played.read_text(encoding="utf-8").split()) == 7  # no file yet: every hand is played
    with pytest.raises(SystemExit) as e:
        main(["--resume", "--hands", "1"])
    assert e.value.code == 2

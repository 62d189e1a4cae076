"""bench/strength_pool.py: several strength runs read together."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from bench.strength_pool import main, mean_se, pool, run_differences


def _run(path: Path, diffs: list[int], compare: str = "expert,strong") -> str:
    head = {"compare": compare.split(","), "others": ["strong"] * 3, "seed": 1, "walls": len(diffs)}
    rows = [{"index": i, "seat": i % 4, "a": {"net": d}, "b": {"net": 0}} for i, d in enumerate(diffs)]
    path.write_text("\n".join(json.dumps(x) for x in [head, *reversed(rows)]) + "\n", encoding="utf-8")
    return str(path)


def test_the_pool_weighs_each_run_by_its_precision_and_q_measures_their_disagreement() -> None:
    assert mean_se([1.0, 3.0]) == (2.0, pytest.approx(1.0))
    m, se, q = pool([(1.0, 1.0), (3.0, 1.0)])
    assert (m, se, q) == (pytest.approx(2.0), pytest.approx(1 / math.sqrt(2)), pytest.approx(2.0))
    m, se, q = pool([(1.0, 0.5), (4.0, 1.0)])  # the precise run weighs four times as much
    assert m == pytest.approx((4 * 1.0 + 4.0) / 5) and se == pytest.approx(1 / math.sqrt(5))
    assert pool([(0.5, 0.1), (0.5, 0.3)])[2] == pytest.approx(0.0)


def test_runs_are_read_from_their_results_files_in_wall_order(tmp_path: Path, capsys: Any) -> None:
    a = _run(tmp_path / "a.jsonl", [2, -2, 6, 0])
    b = _run(tmp_path / "b.jsonl", [1, 1, 1, 3])
    head, diffs = run_differences(a)
    assert head["compare"] == ["expert", "strong"] and diffs == [2.0, -2.0, 6.0, 0.0]
    main([a, b])
    out = capsys.readouterr().out
    assert "| 4 | +1.500 ± 1.708 |" in out and "| 4 | +1.500 ± 0.500 |" in out
    assert "pooled: +1.500 ±" in out and "Cochran's Q 0.00 on 1 degrees of freedom" in out


def test_a_file_that_is_not_a_run_is_an_error_not_a_traceback(tmp_path: Path, capsys: Any) -> None:
    bad = tmp_path / "notes.txt"
    bad.write_text("hello\n", encoding="utf-8")
    one = _run(tmp_path / "one.jsonl", [1])
    for path in (str(bad), one, str(tmp_path / "missing.jsonl")):
        with pytest.raises(SystemExit) as exc:
            main([path])
        assert exc.value.code == 2
        assert capsys.readouterr().err.startswith(f"error: {path}")

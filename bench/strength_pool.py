"""What several strength runs say together: each run's A − B per hand, and their pool.

Each run of ``simulate --compare`` (a results file in ``bench/strength/``) estimates the same kind of
figure, the compared bot's paired edge per hand, on its own walls. Where runs measure bots that play
alike, their estimates can be read together: this prints each run's mean and standard error over its
walls, the inverse-variance pool of them (its 95% interval), and Cochran's Q against its degrees of
freedom (Q near the degrees of freedom: the runs agree within their noise; far above: they measure
different things and the pool means little):

    python -m bench.strength_pool bench/strength/run-12.jsonl bench/strength/run-16.jsonl \\
        bench/strength/run-17.jsonl

A reading of runs already made, not a run: a pool is no pre-registered result, and the strength page
reports runs one by one.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections.abc import Sequence
from typing import Any


class RunFileError(ValueError):
    """A file that is not a results file of ``simulate --compare``, or holds fewer than two walls."""


def run_differences(path: str) -> tuple[dict[str, Any], list[float]]:
    """A results file's header and its walls' paired differences (A's net − B's net), in wall order."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        head = json.loads(lines[0]) if lines else None
        rows = [json.loads(x) for x in lines[1:] if x.strip()]
        diffs = [float(r["a"]["net"] - r["b"]["net"]) for r in sorted(rows, key=lambda r: int(r["index"]))]
    except (OSError, json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
        raise RunFileError(f"{path}: not a results file of simulate --compare ({exc})") from None
    if not isinstance(head, dict) or len(diffs) < 2:
        raise RunFileError(f"{path}: a results file with at least two walls is needed")
    return head, diffs


def mean_se(xs: Sequence[float]) -> tuple[float, float]:
    """The mean of ``xs`` and its standard error."""
    return sum(xs) / len(xs), statistics.stdev(xs) / math.sqrt(len(xs))


def pool(estimates: Sequence[tuple[float, float]]) -> tuple[float, float, float]:
    """The inverse-variance pool of (mean, standard error) pairs: its mean, standard error and
    Cochran's Q (with ``len(estimates) - 1`` degrees of freedom)."""
    weights = [1.0 / (se * se) for _, se in estimates]
    total = sum(weights)
    mean = sum(w * m for w, (m, _) in zip(weights, estimates, strict=True)) / total
    q = sum(w * (m - mean) ** 2 for w, (m, _) in zip(weights, estimates, strict=True))
    return mean, 1.0 / math.sqrt(total), q


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.strength_pool", description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+", help="results files of simulate --compare (--results)")
    args = ap.parse_args(argv)
    estimates: list[tuple[float, float]] = []
    print("| run | compare | others | walls | A − B per hand ± se | sd a wall |")
    print("|---|---|---|---|---|---|")
    for path in args.files:
        try:
            head, diffs = run_differences(path)
        except RunFileError as exc:
            print(f"error: {exc}", file=sys.stderr)
            raise SystemExit(2) from None
        m, se = mean_se(diffs)
        estimates.append((m, se))
        print(f"| {path} | {','.join(map(str, head.get('compare') or ()))} | "
              f"{','.join(map(str, head.get('others') or ()))} | {len(diffs):,} | {m:+.3f} ± {se:.3f} | "
              f"{statistics.stdev(diffs):.2f} |")
    if len(estimates) > 1:
        m, se, q = pool(estimates)
        lo, hi = m - 1.96 * se, m + 1.96 * se
        print(f"\npooled: {m:+.3f} ± {se:.3f} a hand, 95% interval [{lo:+.2f}, {hi:+.2f}]; "
              f"Cochran's Q {q:.2f} on {len(estimates) - 1} degrees of freedom")


if __name__ == "__main__":
    main()

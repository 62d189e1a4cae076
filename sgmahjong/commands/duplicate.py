"""Duplicate comparison for ``sgmahjong simulate --compare A,B --others X,Y,Z`` (issue 15).

Each seeded wall is played twice: once with ``A`` in the compared seat, once with ``B``; the other
three seats hold ``X, Y, Z`` (in turn order after the compared seat) with the same seeds both times.
The compared seat moves round the table from wall to wall (the dealer is always seat 0). The result
is the paired difference of the compared seat's net payment per wall, ``A - B``, with its 95%
interval: the luck of the tiles cancels, so far fewer walls decide a comparison than separate runs.

Every wall is independent (fresh bots seeded from the run's seed and the wall's number), so
``--workers N`` spreads walls over processes and gives the same results as one process (bots
without a clock: the expert is deterministic only with ``--time-budget-ms 0 --expert-rounds N``).
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..bots import Bot, make_bot
from ..bots.arena import play_hand
from ..rules import RuleSet


@dataclass(frozen=True, slots=True)
class Setup:
    """What every wall of a comparison shares (sent once to each worker)."""

    pair: tuple[str, str]
    others: tuple[str, str, str]
    seed: int
    rules: RuleSet
    budget_ms: float | None
    rounds: int | None
    clock: str = "wall"


def wall_seeds(seed: int, walls: int) -> list[int]:
    """The walls' seeds: the same for a run's seed whatever the number of workers."""
    rng = random.Random(seed)
    return [rng.getrandbits(62) for _ in range(walls)]


BotMaker = Callable[..., Bot]  # make_bot's signature: a bot from its name, seed, rules and budget


def play_wall(setup: Setup, index: int, wall_seed: int, make: BotMaker = make_bot) -> dict[str, Any]:
    """Play wall ``index`` once with each compared bot; the compared seat's figures. ``make`` builds
    each bot from its name (a bench may name bots ``make_bot`` does not know)."""
    seat = index % 4
    prevailing = (index // 4) % 4
    seeds = random.Random(wall_seed ^ setup.seed).sample(range(1 << 30), 4)
    out: dict[str, Any] = {"index": index, "seat": seat}
    for side, level in zip(("a", "b"), setup.pair, strict=True):
        bots = []
        for s in range(4):
            name = level if s == seat else setup.others[(s - seat) % 4 - 1]
            name, _, salt = name.partition("@")  # expert@1: the expert with another seed (the control)
            bots.append(make(name, seeds[s] + int(salt or 0), setup.rules, budget_ms=setup.budget_ms,
                                 max_rounds=setup.rounds, budget_clock=setup.clock))
        # a bench's bound (an oracle) may watch the whole state through the arena's hook (no game bot has one)
        watch = getattr(bots[seat], "watch", None)
        rec = play_hand(setup.rules, bots, seed=wall_seed, dealer=0, prevailing=prevailing,
                        clock=time.perf_counter, watch=watch)
        won = rec.winner == seat
        out[side] = {"net": rec.net[seat], "won": won, "tai": rec.tai if won else 0,
                     "dealt_in": rec.shooter == seat and rec.winner is not None,
                     "times": rec.decision_times[seat]}
    return out


_SETUP: Setup | None = None
_MAKE: BotMaker = make_bot


def _init(setup: Setup, make: BotMaker = make_bot) -> None:
    global _SETUP, _MAKE
    _SETUP, _MAKE = setup, make


def _task(job: tuple[int, int]) -> dict[str, Any]:
    assert _SETUP is not None
    return play_wall(_SETUP, job[0], job[1], _MAKE)


def header(setup: Setup, walls: int) -> dict[str, Any]:
    """The first line of a results file: what its walls were played with (a resumed run must match)."""
    return {"compare": list(setup.pair), "others": list(setup.others), "seed": setup.seed,
            "rules": setup.rules.changed_from_default(), "time_budget_ms": setup.budget_ms,
            "expert_rounds": setup.rounds, "budget_clock": setup.clock, "walls": walls}


class ResultsFileError(ValueError):
    """A results file that cannot continue this run (another setup, or not a results file)."""


def load_results(path: str, setup: Setup, walls: int) -> dict[int, dict[str, Any]]:
    """The walls a results file already holds (JSON lines: the header, then one wall a line), by index.
    A missing file holds none; a last line cut short by a kill is ignored."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return {}
    if not lines:
        return {}
    try:
        head = json.loads(lines[0])
    except json.JSONDecodeError as exc:
        raise ResultsFileError(f"{path} is not a results file of simulate --compare") from exc
    want = header(setup, walls)
    differ = [k for k in want if k != "walls" and head.get(k) != want[k]]
    if differ:
        raise ResultsFileError(f"{path} was played with other settings ({', '.join(differ)}); "
                               "use another file or the same options")
    done: dict[int, dict[str, Any]] = {}
    for n, line in enumerate(lines[1:], start=2):
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            if n == len(lines):
                break  # the line being written when the run was killed
            raise ResultsFileError(f"{path}: line {n} is not a wall's result") from None
        if isinstance(row, dict) and isinstance(row.get("index"), int) and row["index"] < walls:
            done[row["index"]] = row
    return done


class ResultsFile:
    """Appends each finished wall to a results file as it comes (flushed: a kill loses at most the
    wall being written), writing the header first if the file is new."""

    def __init__(self, path: str, setup: Setup, walls: int, fresh: bool) -> None:
        if not fresh:  # drop a last line cut short by a kill, so the next wall starts a line of its own
            with open(path, "rb+") as f:
                data = f.read()
                if data and not data.endswith(b"\n"):
                    f.truncate(data.rfind(b"\n") + 1)
        self.f = open(path, "a", encoding="utf-8")  # noqa: SIM115 (closed by close())
        if fresh:
            self.write(header(setup, walls))

    def write(self, row: dict[str, Any]) -> None:
        self.f.write(json.dumps(row, allow_nan=False) + "\n")
        self.f.flush()
        os.fsync(self.f.fileno())

    def close(self) -> None:
        self.f.close()


def run_walls(setup: Setup, walls: int, workers: int,
              progress: Callable[[int], None] | None = None,
              done: dict[int, dict[str, Any]] | None = None,
              sink: Callable[[dict[str, Any]], None] | None = None,
              make: BotMaker = make_bot) -> list[dict[str, Any]]:
    """Every wall's figures, in wall order (one process or ``workers`` processes): the walls of
    ``done`` (a resumed run's) are not played again; each newly played wall goes to ``sink`` as it
    finishes. Interrupted (Ctrl-C, or SIGTERM from ``simulate``) in one process, the walls so far.
    ``make`` (a module-level function, so that worker processes can load it) builds the bots."""
    done = dict(done or {})
    jobs = [(i, s) for i, s in enumerate(wall_seeds(setup.seed, walls)) if i not in done]
    results: list[dict[str, Any]] = list(done.values())

    def take(r: dict[str, Any]) -> None:
        results.append(r)
        if sink is not None:
            sink(r)
        if progress is not None:
            progress(len(results))

    if workers <= 1:
        try:
            for i, s in jobs:
                take(play_wall(setup, i, s, make))
        except KeyboardInterrupt:
            if len(results) == len(done):
                raise
    else:
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(workers, initializer=_init, initargs=(setup, make)) as pool:
            for r in pool.imap(_task, jobs):
                take(r)
    return sorted(results, key=lambda r: int(r["index"]))


def _interval(xs: list[float]) -> tuple[float, float, float]:
    mean = sum(xs) / len(xs) if xs else float("nan")
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) >= 2 else float("nan")
    return mean, mean - half, mean + half


def _times(ts: list[float]) -> dict[str, float]:
    if not ts:
        return {"median_ms": float("nan"), "p99_ms": float("nan"), "max_ms": float("nan")}
    ts = sorted(ts)
    return {"median_ms": 1000 * ts[len(ts) // 2], "p99_ms": 1000 * ts[min(len(ts) - 1, int(0.99 * len(ts)))],
            "max_ms": 1000 * ts[-1]}


def summarise(setup: Setup, results: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    """The comparison's figures: each side's net per hand and the paired difference, with 95%
    intervals over walls."""
    diffs = [float(r["a"]["net"] - r["b"]["net"]) for r in results]
    mean, lo, hi = _interval(diffs)
    sides = {}
    for side, level in zip(("a", "b"), setup.pair, strict=True):
        nets = [float(r[side]["net"]) for r in results]
        m, lo_s, hi_s = _interval(nets)
        wins = sum(r[side]["won"] for r in results)
        sides[side] = {
            "level": level, "net_per_hand": m, "net_ci95": [lo_s, hi_s], "wins": wins,
            "win_rate": wins / len(results) if results else 0.0,
            "deal_in_rate": sum(r[side]["dealt_in"] for r in results) / len(results) if results else 0.0,
            "avg_tai_of_wins": sum(r[side]["tai"] for r in results) / wins if wins else 0.0,
            "decisions": sum(len(r[side]["times"]) for r in results),
            **_times([t for r in results for t in r[side]["times"]]),
        }
    return {
        "compare": list(setup.pair), "others": list(setup.others), "walls": len(results), "seed": setup.seed,
        "rules": setup.rules.changed_from_default(), "time_budget_ms": setup.budget_ms,
        "expert_rounds": setup.rounds, "budget_clock": setup.clock, "a": sides["a"], "b": sides["b"],
        "difference": mean, "difference_ci95": [lo, hi],
        "same_result_walls": sum(1 for d in diffs if d == 0),
        "seconds": seconds,
    }


def _f(x: float, spec: str) -> str:
    return "n/a" if isinstance(x, float) and math.isnan(x) else format(x, spec)


def render(data: dict[str, Any]) -> str:
    rules = data["rules"]
    a, b = data["a"], data["b"]
    budget = data["time_budget_ms"]
    budget_text = "none" if budget is None else f"{budget:g} ms ({data['budget_clock']} clock)"
    lines = [
        f"duplicate: {a['level']} vs {b['level']} in the same seat (rotated), others "
        f"{','.join(data['others'])}; {data['walls']} walls, seed {data['seed']}, rules: "
        f"{', '.join(f'{k}={v}' for k, v in rules.items()) if rules else 'default'}; expert budget "
        f"{budget_text}"
        + (f", {data['expert_rounds']} deals max" if data["expert_rounds"] else ""),
        "",
        f"{'level':<9} {'net/hand':>9} {'95% CI':>19} {'win%':>6} {'deal-in':>8} {'avg tai':>7} "
        f"{'decide ms: median':>18} {'p99':>8} {'max':>8}",
    ]
    for s in (a, b):
        lo, hi = s["net_ci95"]
        lines.append(f"{s['level']:<9} {s['net_per_hand']:>+9.3f} [{_f(lo, '+.3f'):>8}, {_f(hi, '+.3f'):>8}] "
                     f"{100 * s['win_rate']:>5.1f}% {100 * s['deal_in_rate']:>7.1f}% "
                     f"{s['avg_tai_of_wins']:>7.2f} {_f(s['median_ms'], '.2f'):>18} "
                     f"{_f(s['p99_ms'], '.2f'):>8} {_f(s['max_ms'], '.1f'):>8}")
    lo, hi = data["difference_ci95"]
    lines += ["", f"paired difference {a['level']} - {b['level']}: {data['difference']:+.3f} per hand, "
              f"95% CI [{_f(lo, '+.3f')}, {_f(hi, '+.3f')}] over {data['walls']} walls "
              f"({data['same_result_walls']} walls with the same result); {data['seconds']:.1f} s"]
    return "\n".join(lines)

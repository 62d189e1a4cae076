"""``sgmahjong simulate``: seeded self-play between bots, with per-level results.

Each seeded wall is played four times with the line-up rotated, so every bot sits in every seat
(dealer included) on the same tiles. Prints, per bot level: hands won, self-drawn share, deal-in
rate, average tai of wins, net payment per hand with a 95% confidence interval, and the speed.

``--compare A,B --others X,Y,Z`` is the duplicate comparison of :mod:`.duplicate` (paired difference
per wall, ``--workers N`` processes).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import signal
import sys
import time
from collections import deque
from typing import Any, TextIO

from ..bots import (
    BUDGET_MS,
    LEVELS,
    STYLES,
    Bot,
    known_level,
    make_bot,
    unknown_level_message,
    variant_levels,
)
from ..bots.arena import play_hand
from ..bots.tally import Tally
from ..cli import CliError
from ..rules import RuleSet, parse_rule_assignment


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bots", default="strong,greedy,greedy,greedy",
                        help=f"four comma-separated levels, seat order ({', '.join(LEVELS)}; test styles: "
                             f"{', '.join(STYLES)}; the expert with an option on: "
                             f"{', '.join(variant_levels())})")
    parser.add_argument("--hands", type=int, default=400, help="hands to play (default 400)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the walls and the bots")
    parser.add_argument("--rule", action="append", default=[], metavar="K=V",
                        help="a rule option, e.g. --rule limit=10 (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--progress", action="store_true",
                        help="show a progress bar on stderr even when it is not a terminal")
    parser.add_argument("--no-progress", action="store_true", help="never show the progress bar")
    parser.add_argument("--compare", metavar="A,B",
                        help="duplicate comparison: play each wall with A and with B in the same seat "
                             "(rotated over walls) and report the paired difference A - B; LEVEL@K is "
                             "LEVEL with its own seed moved by K (expert,expert@1: the control)")
    parser.add_argument("--others", default="strong,strong,strong", metavar="X,Y,Z",
                        help="with --compare: the three other seats (default strong,strong,strong)")
    parser.add_argument("--walls", type=int, default=200, help="with --compare: walls to play (default 200)")
    parser.add_argument("--results", metavar="FILE",
                        help="with --compare: append each wall's result to FILE (JSON lines) as it finishes; "
                             "run again with the same options and FILE to continue a run that was stopped")
    parser.add_argument("--workers", type=int, default=1,
                        help="with --compare: processes to spread the walls over (same results as one)")
    parser.add_argument("--time-budget-ms", type=float, default=BUDGET_MS,
                        help=f"the expert's time budget per decision (default {BUDGET_MS:g}; 0 = none, "
                             "with --expert-rounds)")
    parser.add_argument("--budget-clock", choices=("wall", "cpu"), default="wall",
                        help="the expert's budget by the wall clock (default) or by its thread's CPU time")
    parser.add_argument("--expert-rounds", type=int, default=None,
                        help="the expert's deals per decision (a search still unsure after them goes on "
                             "to at most 4 times as many; with --time-budget-ms 0 the expert is "
                             "deterministic)")


def parse_lineup(text: str, count: int = 4, option: str = "--bots", fill: bool = True) -> list[str]:
    """``count`` bot levels from ``a,b,c,d`` (a single level fills all the seats if ``fill``)."""
    names = [x.strip().lower() for x in text.split(",") if x.strip()]
    if len(names) == 1 and fill:
        names = names * count
    if len(names) != count:
        raise CliError(f"{option} needs {count} levels (or one for all), got {len(names)}: {text!r}")
    for n in names:
        if option == "--compare":  # LEVEL@K: the same bot with its own seed moved by K (a control)
            n, _, salt = n.partition("@")
            if salt and not (salt.isdigit() and len(salt) <= 6):
                raise CliError(f"{option}: after @ comes a number (a seed's offset), got {salt!r}")
        if not known_level(n):
            raise CliError(unknown_level_message(n))
    return names


def parse_rules(pairs: list[str]) -> RuleSet:
    assignments: dict[str, str] = {}
    for text in pairs:
        key, value = parse_rule_assignment(text)
        assignments[key] = value
    return RuleSet().with_strings(assignments)


PACE_WINDOW = 50  # steps of the count the progress bar's rate is measured over


def clock(seconds: int) -> str:
    """``m:ss``, or ``h:mm:ss`` from an hour: how a progress bar writes the time left."""
    h, rest = divmod(seconds, 3600)
    return f"{h}:{rest // 60:02d}:{rest % 60:02d}" if h else f"{rest // 60}:{rest % 60:02d}"


class _Progress:
    """A one-line progress bar on a stream (stderr), redrawn at most five times a second.

    The rate and the time left follow the recent pace (the last :data:`PACE_WINDOW` steps of the count),
    so a run paused, resumed or slowed by other work shows it within a window instead of for the rest
    of the run.
    """

    def __init__(self, total: int, stream: TextIO, enabled: bool, unit: str = "hands",
                 already: int = 0) -> None:
        self.unit = unit
        self.total = total
        self.stream = stream
        self.enabled = enabled
        self.last = 0.0
        # (time, count) when the count moved; the first: done before this run (a resumed comparison)
        self.pace: deque[tuple[float, int]] = deque([(time.perf_counter(), already)], maxlen=PACE_WINDOW)

    def update(self, done: int, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if done != self.pace[-1][1]:
            self.pace.append((now, done))
        if not force and now - self.last < 0.2:
            return
        self.last = now
        frac = done / self.total if self.total else 1.0
        width = 30
        filled = int(width * frac)
        since, then = self.pace[0]
        rate = (done - then) / (now - since) if now > since else 0.0
        eta = f", {clock(int((self.total - done) / rate))} left" if rate > 0 and done < self.total else ""
        digits = 2 if rate < 1 else 1
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {100 * frac:5.1f}% "
                          f"{done}/{self.total} {self.unit}, {rate:.{digits}f} {self.unit}/s{eta} ")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


def simulate(lineup: list[str], hands: int, seed: int, rules: RuleSet,
             progress: _Progress | None = None, *, budget_ms: float | None = BUDGET_MS,
             rounds: int | None = None, budget_clock: str = "wall") -> dict[str, Any]:
    """Play ``hands`` hands (blocks of four rotations per wall) and return the results dict."""
    rng = random.Random(seed)
    bots: list[Bot] = [make_bot(level, seed * 4 + i, rules, budget_ms=budget_ms, max_rounds=rounds,
                                budget_clock=budget_clock)
                       for i, level in enumerate(lineup)]
    tally = Tally(lineup)
    clock = time.perf_counter
    start = clock()
    played = 0
    block = 0
    decisions = 0
    while played < hands:
        wall_seed = rng.getrandbits(62)
        prevailing = block % 4
        for r in range(4):
            if played >= hands:
                break
            seat_bots = [bots[(s + r) % 4] for s in range(4)]
            levels = [lineup[(s + r) % 4] for s in range(4)]
            rec = play_hand(rules, seat_bots, seed=wall_seed, dealer=0, prevailing=prevailing, clock=clock)
            decisions += rec.decisions
            tally.add(rec, levels)
            played += 1
            if progress is not None:
                progress.update(played)
        tally.end_block()
        block += 1
    if progress is not None:
        progress.update(played, force=True)
    elapsed = clock() - start
    return {
        "bots": lineup,
        "hands": played,
        "walls": block,
        "seed": seed,
        "rules": rules.changed_from_default(),
        "drawn_games": tally.drawn,
        "drawn_share": tally.drawn / played if played else 0.0,
        "seconds": elapsed,
        "hands_per_second": played / elapsed if elapsed > 0 else 0.0,
        "decisions": decisions,
        "levels": tally.summary(),
    }


def _fmt(x: float, spec: str) -> str:
    return "n/a" if isinstance(x, float) and math.isnan(x) else format(x, spec)


def render_text(data: dict[str, Any]) -> str:
    rules = data["rules"]
    rules_text = ", ".join(f"{k}={v}" for k, v in rules.items()) if rules else "default"
    lines = [
        f"{data['hands']} hands ({data['walls']} walls, line-up rotated through the seats), "
        f"seed {data['seed']}, bots {','.join(data['bots'])}, rules: {rules_text}",
        "",
        f"{'level':<8} {'seats':>6} {'won':>6} {'win%':>6} {'self-drawn':>10} {'deal-in':>8} "
        f"{'avg tai':>7} {'net/hand':>9} {'95% CI':>19} {'decide ms':>9}",
    ]
    counts = {lv: data["bots"].count(lv) for lv in data["bots"]}
    for s in data["levels"]:
        lo, hi = s["net_ci95"]
        lines.append(
            f"{s['level']:<8} {counts[s['level']]:>6} {s['wins']:>6} {100 * s['win_rate']:>5.1f}% "
            f"{100 * s['self_drawn_share']:>9.1f}% {100 * s['deal_in_rate']:>7.1f}% "
            f"{s['avg_tai_of_wins']:>7.2f} {s['net_per_hand']:>+9.3f} "
            f"[{_fmt(lo, '+.3f'):>8}, {_fmt(hi, '+.3f'):>8}] {_fmt(s['median_decision_ms'], '.3f'):>9}")
    lines.append("")
    lines.append(f"drawn games {data['drawn_games']} ({100 * data['drawn_share']:.1f}%); "
                 f"{data['hands_per_second']:.1f} hands/s ({data['seconds']:.1f} s, "
                 f"{data['decisions']} decisions)")
    lines.append("win% and deal-in are per seat-hand; net/hand is the hand ledger (instant + win "
                 "payments) per seat-hand, CI over walls.")
    return "\n".join(lines)


def _expert_options(args: argparse.Namespace) -> tuple[float | None, int | None]:
    budget = args.time_budget_ms
    if budget < 0:
        raise CliError(f"--time-budget-ms must be 0 or more, got {budget:g}")
    rounds = args.expert_rounds
    if rounds is not None and rounds < 1:
        raise CliError(f"--expert-rounds must be at least 1, got {rounds}")
    if budget == 0 and rounds is None:
        raise CliError("--time-budget-ms 0 needs --expert-rounds N (the expert needs a limit)")
    return (None if budget == 0 else budget), rounds


def run(args: argparse.Namespace) -> int:
    rules = parse_rules(args.rule)
    budget, rounds = _expert_options(args)
    if args.compare:
        return _run_compare(args, rules, budget, rounds)
    lineup = parse_lineup(args.bots)
    if args.hands < 1:
        raise CliError(f"--hands must be at least 1, got {args.hands}")
    show = not args.no_progress and (args.progress or sys.stderr.isatty()) and args.hands >= 20
    progress = _Progress(args.hands, sys.stderr, show)
    try:
        data = simulate(lineup, args.hands, args.seed, rules, progress, budget_ms=budget, rounds=rounds,
                        budget_clock=args.budget_clock)
    finally:
        progress.close()
    if args.json:
        print(json.dumps(_finite(data), indent=2, allow_nan=False))
    else:
        print(render_text(data))
    return 0


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _run_compare(args: argparse.Namespace, rules: RuleSet, budget: float | None, rounds: int | None) -> int:
    from . import duplicate

    a, b = parse_lineup(args.compare, 2, "--compare", fill=False)
    others = parse_lineup(args.others, 3, "--others")
    if args.walls < 1:
        raise CliError(f"--walls must be at least 1, got {args.walls}")
    if not 1 <= args.workers <= 64:
        raise CliError(f"--workers must be between 1 and 64, got {args.workers}")
    setup = duplicate.Setup((a, b), (others[0], others[1], others[2]), args.seed, rules, budget, rounds,
                            args.budget_clock)
    done: dict[int, dict[str, Any]] = {}
    out: duplicate.ResultsFile | None = None
    if args.results:
        try:
            done = duplicate.load_results(args.results, setup, args.walls)
            fresh = not os.path.exists(args.results) or os.path.getsize(args.results) == 0
            out = duplicate.ResultsFile(args.results, setup, args.walls, fresh)
        except (duplicate.ResultsFileError, OSError) as exc:
            raise CliError(str(exc)) from None
        if done:
            print(f"resuming: {len(done)} of {args.walls} walls already in {args.results}", file=sys.stderr)
    show = not args.no_progress and (args.progress or sys.stderr.isatty())
    progress = _Progress(args.walls, sys.stderr, show, unit="walls", already=len(done))
    start = time.perf_counter()
    old = signal.signal(signal.SIGTERM, _interrupt)  # a TERM (kill PID) reports the walls done, as Ctrl-C
    try:
        results = duplicate.run_walls(setup, args.walls, args.workers, progress.update, done,
                                      out.write if out is not None else None)
        progress.update(len(results), force=True)
    finally:
        signal.signal(signal.SIGTERM, old)
        progress.close()
        if out is not None:
            out.close()
    data = duplicate.summarise(setup, results, time.perf_counter() - start)
    data["workers"] = args.workers
    data["interrupted"] = len(results) < args.walls
    if args.json:
        print(json.dumps(_finite(data), indent=2, allow_nan=False))
    else:
        print(duplicate.render(data))
    return 0


def _finite(obj: Any) -> Any:
    """The results with NaN (an interval from a single wall) replaced by null for JSON."""
    if isinstance(obj, float):
        return None if math.isnan(obj) else obj
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_finite(v) for v in obj]
    return obj

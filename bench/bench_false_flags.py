"""The review's false flags: the expert reviewing its own play, where it should find nothing to flag.

Each hand is a seeded deal played by the expert (a fixed number of deals per decision, no time budget:
reproducible) in one seat (the seats rotate over the hands) against three ``strong`` bots (or
``--others expert``), then reviewed for that seat by ``review_by_expert`` at the review's defaults. A
flag there says the expert's own move cost it points: where the review and the player are the same
search, that is a false flag (or a move the expert's shorter search got wrong). Prints the share of
hands with any flag with its 95% interval (Wilson), the share with a first-stage candidate (what a
one-stage rule at ``COST_Z`` standard errors would have shown), and the review's CPU time per hand
(median, p90).

A flag on the expert's own move is not necessarily false: the expert's own search (a few dozen to
200 deals, candidates dropped early) misses real gaps. ``--verify DEALS`` checks every flag with a long
search on a third seed stream (the choice against the review's pick, ``DEALS`` deals): a flag the long
search does not confirm (its cost not beyond two standard errors) is counted false.

``--player thorough`` has the reviewed seat play as the review searches: every candidate on every one
of its deals, none dropped early, on its own seeds. Its choices still cost points now and then: like
the expert it keeps ``strong``'s choice unless another is two standard errors ahead on its own deals,
so a real gap of a unit or two is often left unplayed (docs/bots.md, flags that hold). The players
(``--player``): ``expert`` (the expert's defaults: an unsure search goes on up to four times its
deals), ``unextended`` (the expert before that: ``extend=1``), ``thorough`` (every candidate on every
deal, ``extend=1``), ``extended`` (``extend=4``) and ``thorough-extended`` (both).

Results are appended to a JSON-lines file, one line per hand (``--out``, default
``build/bench/false_flags.jsonl``; the long checks beside it, ``.verify.jsonl``): a run stopped and
started again with the same settings goes on where it stopped (each hand records the commit that ran
it; a file from other settings is set aside as ``.old``).

    python -m bench.bench_false_flags --hands 200 --workers 2 --verify 2000
    python -m bench.bench_false_flags --hands 200 --workers 2 --verify 2000 --player thorough \
        --out build/bench/false_flags_thorough.jsonl
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from sgmahjong import coach
from sgmahjong.bots import Bot, make_bot
from sgmahjong.bots.expert import ExpertBot
from sgmahjong.coach import DEFAULT_DEALS, review_by_expert
from sgmahjong.game import legal_actions
from sgmahjong.review import bot_hand_log
from sgmahjong.rules import RuleSet

SEED = 38_000
HANDS = 200
EXPERT_DEALS = 200  # the playing expert's deals per decision at most (its search drops candidates early)
OUT = Path("build/bench/false_flags.jsonl")
PLAYERS: dict[str, dict[str, Any]] = {  # --player: the ExpertBot options the reviewed seat plays with
    "expert": {}, "unextended": {"extend": 1}, "thorough": {"eliminate": False, "extend": 1},
    "extended": {"extend": 4}, "thorough-extended": {"eliminate": False, "extend": 4},
    "patient": {"extend": 4, "evidence": 4}, "patient8": {"extend": 4, "evidence": 8},
    "wide": {"extend": 4, "drop_z": 2.0}, "wide3": {"extend": 4, "drop_z": 3.0},
    "wide-patient": {"extend": 4, "drop_z": 2.0, "evidence": 4}, "narrow": {"extend": 4, "drop_z": 1.0}}
LONG_SEED = 1 << 44  # the long checks' seeds (--verify): apart from the review's two streams


def _commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                             check=True, cwd=Path(__file__).parent)
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def hand_log(i: int, seed: int, others: str, expert_deals: int, player: str = "expert") -> str:
    """Hand ``i``'s log: seed ``seed + i``, the expert in seat ``i % 4`` (``expert_deals`` deals per
    decision, no time budget; ``player``: the options it plays with, :data:`PLAYERS`), ``others`` in the
    other seats, the dealer moving every four hands."""
    rules = RuleSet()
    hand_seed = seed + i
    seat = i % 4
    bots: list[Bot] = []
    for s in range(4):
        if s == seat or others == "expert":
            bots.append(ExpertBot(hand_seed * 4 + s, rules, budget_ms=None, max_rounds=expert_deals,
                                  **PLAYERS[player]))
        else:
            bots.append(make_bot(others, hand_seed * 4 + s, rules))
    return bot_hand_log(rules, bots, seed=hand_seed, dealer=(i // 4) % 4)


def one_hand(i: int, seed: int, others: str, expert_deals: int, deals: int,
             player: str = "expert") -> dict[str, Any]:
    """Hand ``i``: played, then the expert's seat reviewed; what the review flagged and its time."""
    hand_seed, seat = seed + i, i % 4
    cpu = time.process_time()
    log = hand_log(i, seed, others, expert_deals, player)
    play = time.process_time() - cpu
    cpu, wall = time.process_time(), time.perf_counter()
    review = review_by_expert(log, seat, deals=deals, seed=hand_seed)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    ds = review.decisions
    return {"hand": i, "seed": hand_seed, "seat": seat, "decisions": len(ds),
            "deals": sum(d.options[0].deals for d in ds),
            "candidates": [[d.number, round(d.first_cost, 3), round(d.first_cost_se, 3)]
                           for d in ds if d.recheck_deals],
            "flags": [[d.number, round(d.cost, 3), round(d.cost_se, 3)] for d in ds if d.costly],
            "disagree": sum(1 for d in ds if not d.agree),
            "review_cpu": round(cpu, 3), "review_wall": round(wall, 3), "play_cpu": round(play, 3)}


def verify(i: int, seed: int, others: str, expert_deals: int, number: int, deals: int,
           player: str = "expert") -> dict[str, Any]:
    """A flag of hand ``i`` (its decision ``number``) checked by a long search: the cost of the choice
    against the review's pick on ``deals`` deals of a third seed stream (neither the first deals nor
    the fresh ones)."""
    hand_seed, seat = seed + i, i % 4
    steps = coach._fold(hand_log(i, seed, others, expert_deals, player))[0]
    state, action = steps[number - 1]
    legal = legal_actions(state, seat)
    chosen = next(a for a in legal if a == action)
    priced = coach._price(state, number - 1, seat, legal, chosen, DEFAULT_DEALS, hand_seed)
    assert priced.pick is not None
    mean, se, n = coach._recheck(state, number - 1, seat, priced.pick, chosen, deals, LONG_SEED + hand_seed)
    return {"hand": i, "number": number, "mean": round(mean, 3), "se": round(se, 3), "deals": n,
            "confirmed": mean > 2 * se and mean > 0}


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a proportion ``k / n``."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _quantile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def _settings(header: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in header.items() if k != "commit"}


def _load(path: Path, header: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The hands already done under the same settings (else the old file is set aside)."""
    if not path.exists():
        return {}
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines or _settings(json.loads(lines[0])) != _settings(header):
        path.replace(path.with_suffix(path.suffix + ".old"))
        return {}
    done: dict[int, dict[str, Any]] = {}
    for line in lines[1:]:
        try:
            row = json.loads(line)
        except json.JSONDecodeError:  # a line cut short by a kill
            continue
        done[int(row["hand"])] = row
    return done


def report(rows: list[dict[str, Any]], out: Any = sys.stdout,
           checks: dict[tuple[int, int], dict[str, Any]] | None = None) -> None:
    n = len(rows)
    if not n:
        print("   no hands done", file=out)
        return
    flagged = sum(1 for r in rows if r["flags"])
    cand = sum(1 for r in rows if r["candidates"])
    lo, hi = wilson(flagged, n)
    clo, chi = wilson(cand, n)
    decisions = sum(r["decisions"] for r in rows)
    cpu = [r["review_cpu"] for r in rows]
    wall = [r["review_wall"] for r in rows]
    print(f"   {n} hands, {decisions} decisions reviewed; the expert disagreed with its own review's pick at "
          f"{sum(r['disagree'] for r in rows)}", file=out)
    print(f"   hands with any flag:            {flagged:4d}  {100 * flagged / n:5.1f}%  "
          f"[{100 * lo:.1f}%, {100 * hi:.1f}%]  aim <= 5%", file=out)
    print(f"   hands with a first-stage candidate (the one-stage rule): {cand:4d}  {100 * cand / n:5.1f}%  "
          f"[{100 * clo:.1f}%, {100 * chi:.1f}%]  ({sum(len(r['candidates']) for r in rows)} candidates, "
          f"{sum(len(r['flags']) for r in rows)} kept)", file=out)
    print(f"   review per hand (CPU): median {statistics.median(cpu):.2f} s  "
          f"p90 {_quantile(cpu, 0.9):.2f} s  max {max(cpu):.2f} s; wall median "
          f"{statistics.median(wall):.2f} s  p90 {_quantile(wall, 0.9):.2f} s", file=out)
    if checks is not None:
        false = sum(1 for r in rows if any(not checks[(r["hand"], n)]["confirmed"] for n, _, _ in r["flags"]))
        confirmed = sum(c["confirmed"] for c in checks.values())
        flo, fhi = wilson(false, n)
        print(f"   flags confirmed by a long search: {confirmed} of {len(checks)}; hands with a flag it "
              f"does not confirm (false flags): {false}  {100 * false / n:.1f}%  "
              f"[{100 * flo:.1f}%, {100 * fhi:.1f}%]", file=out)
    print(f"   first-stage deals per decision: mean {sum(r['deals'] for r in rows) / max(1, decisions):.0f}",
          file=out)


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench.bench_false_flags", description=__doc__.split("\n")[0])
    p.add_argument("--hands", type=int, default=HANDS)
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--others", choices=("strong", "expert"), default="strong")
    p.add_argument("--expert-deals", type=int, default=EXPERT_DEALS)
    p.add_argument("--player", choices=list(PLAYERS), default="expert",
                   help="how the reviewed expert plays: expert (its defaults), unextended (no search "
                        "beyond its deals), thorough (every candidate on every deal, as the review "
                        "searches, no search beyond its deals), extended, thorough-extended")
    p.add_argument("--deals", type=int, default=DEFAULT_DEALS, help="the review's deals per decision")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--out", type=Path, default=OUT, help="the resumable results file (JSON lines)")
    p.add_argument("--verify", type=int, default=0, metavar="DEALS",
                   help="check every flag with a long search of DEALS deals (0: no check)")
    p.add_argument("--stop-at", type=float, default=0.0,
                   help="a Unix time after which no new hand starts (0: none)")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args([] if argv is None else argv)
    header = {"bench": "false_flags", "seed": args.seed, "others": args.others,
              "expert_deals": args.expert_deals, "deals": args.deals, "commit": _commit()}
    if args.player != "expert":  # (files of the default player keep their header)
        header["player"] = args.player
    args.out.parent.mkdir(parents=True, exist_ok=True)
    done = _load(args.out, header)
    if not args.out.exists():
        args.out.write_text(json.dumps(header) + "\n", encoding="utf-8")
    todo = [i for i in range(args.hands) if i not in done]
    print(f"false flags: the {args.player} expert ({args.expert_deals} deals per decision) against 3 "
          f"{args.others}, {args.hands} hands from seed {args.seed}, review at {args.deals} deals; "
          f"{len(done)} done already, "
          f"{len(todo)} to go, {args.workers} worker(s); results in {args.out}", flush=True)
    start = time.perf_counter()
    new = 0
    with args.out.open("a", encoding="utf-8") as f, ProcessPoolExecutor(max(1, args.workers)) as pool:
        pending = {}
        queue = list(todo)

        def submit() -> None:
            if queue and not (args.stop_at and time.time() > args.stop_at):
                i = queue.pop(0)
                pending[pool.submit(one_hand, i, args.seed, args.others, args.expert_deals, args.deals,
                                     args.player)] = i

        for _ in range(max(1, args.workers)):
            submit()
        while pending:
            fut = next(as_completed(pending))
            del pending[fut]
            row = fut.result()
            row["commit"] = header["commit"]
            f.write(json.dumps(row) + "\n")
            f.flush()
            done[row["hand"]] = row
            new += 1
            submit()
            rate = (time.perf_counter() - start) / new
            left = len(queue) + len(pending)
            flagged = sum(1 for r in done.values() if r["flags"])
            print(f"\r   {len(done)}/{args.hands} hands, {flagged} flagged, {rate:.1f} s a hand, "
                  f"about {rate * left / 60:.0f} min left   ", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    rows = [done[i] for i in sorted(done) if i < args.hands]
    checks = _verify(args, rows) if args.verify else None
    report(rows, checks=checks)


def _verify(args: argparse.Namespace, rows: list[dict[str, Any]]) -> dict[tuple[int, int], dict[str, Any]]:
    """Every flag of ``rows`` checked by a long search (kept beside the results, resumable)."""
    path = args.out.with_suffix(".verify.jsonl")
    checks: dict[tuple[int, int], dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            with contextlib.suppress(json.JSONDecodeError, KeyError):
                c = json.loads(line)
                if c["deals"] == args.verify or c.get("asked") == args.verify:
                    checks[(c["hand"], c["number"])] = c
    todo = [(r["hand"], n) for r in rows for n, _, _ in r["flags"] if (r["hand"], n) not in checks]
    with path.open("a", encoding="utf-8") as f, ProcessPoolExecutor(max(1, args.workers)) as pool:
        futures = [pool.submit(verify, i, args.seed, args.others, args.expert_deals, n, args.verify,
                               args.player) for i, n in todo]
        for k, fut in enumerate(as_completed(futures), start=1):
            c = fut.result()
            c["asked"] = args.verify
            f.write(json.dumps(c) + "\n")
            f.flush()
            checks[(c["hand"], c["number"])] = c
            print(f"\r   long checks {k}/{len(todo)}   ", end="", file=sys.stderr, flush=True)
    if todo:
        print(file=sys.stderr)
    return checks


if __name__ == "__main__":
    main(sys.argv[1:])

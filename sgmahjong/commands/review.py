"""``sgmahjong review LOGFILE --seat S [--by strong|expert]``: each decision of a seat beside the
``strong`` bot's (fast), or priced by the expert's search (``--by expert``: every option's mean net
for the hand and the cost of the player's choice, with standard errors)."""

from __future__ import annotations

import argparse
import json
import sys

from ..cli import CliError, read_log
from ..review import SEATS, review_log, review_text


def _seat(text: str) -> int:
    t = text.strip().upper()
    if t in tuple(SEATS):
        return SEATS.index(t)
    if t.isdigit() and 0 <= int(t) < 4:
        return int(t)
    raise argparse.ArgumentTypeError(f"a seat is E, S, W, N or 0-3; got {text!r}")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from ..coach import DEFAULT_DEALS

    parser.add_argument("file", help="a finished hand's log (JSON lines, as `replay` reads)")
    parser.add_argument("--seat", type=_seat, required=True, help="the seat to review: E S W N or 0-3")
    parser.add_argument("--by", choices=("strong", "expert"), default="strong",
                        help="strong: beside the strong bot's choices, flagging clear mistakes (fast; the "
                             "default); expert: every option priced by the expert's search (seconds)")
    parser.add_argument("--deals", type=int, default=DEFAULT_DEALS,
                        help=f"with --by expert: deals per decision (default {DEFAULT_DEALS}); more deals, "
                             "smaller errors, longer runs")
    parser.add_argument("--seed", type=int, default=0,
                        help="with --by expert: the seed of the deals (default 0)")
    parser.add_argument("--json", action="store_true", help="print the review as one JSON object")
    parser.add_argument("--no-progress", action="store_true",
                        help="with --by expert: no progress bar on stderr (shown on a terminal)")


def run(args: argparse.Namespace) -> int:
    text = read_log(args.file)
    if args.by == "expert":
        return _run_expert(args, text)
    review = review_log(text, args.seat)
    if args.json:
        print(json.dumps(review.to_json(), sort_keys=True))
    else:
        for line in review_text(review):
            print(line)
    return 0


def _run_expert(args: argparse.Namespace, text: str) -> int:
    from .. import coach
    from .simulate import _Progress

    if not coach.MIN_DEALS <= args.deals <= coach.MAX_DEALS:
        raise CliError(f"--deals must be from {coach.MIN_DEALS} to {coach.MAX_DEALS}, got {args.deals}")
    bar: list[_Progress] = []
    show = not args.no_progress and sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if not bar:
            bar.append(_Progress(total, sys.stderr, show, unit="decisions"))
        bar[0].update(done, force=done == total)

    try:
        review = coach.review_by_expert(text, args.seat, deals=args.deals, seed=args.seed, progress=progress)
    finally:
        if bar:
            bar[0].close()
    if args.json:
        print(json.dumps(review.to_json(), sort_keys=True, allow_nan=False))
    else:
        for line in coach.review_text(review):
            print(line)
    return 0

"""``sgmahjong review LOGFILE --seat S``: each decision of a seat beside the ``strong`` bot's."""

from __future__ import annotations

import argparse
import json

from ..cli import read_log
from ..review import SEATS, review_log, review_text


def _seat(text: str) -> int:
    t = text.strip().upper()
    if t in tuple(SEATS):
        return SEATS.index(t)
    if t.isdigit() and 0 <= int(t) < 4:
        return int(t)
    raise argparse.ArgumentTypeError(f"a seat is E, S, W, N or 0-3; got {text!r}")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a finished hand's log (JSON lines, as `replay` reads)")
    parser.add_argument("--seat", type=_seat, required=True, help="the seat to review: E S W N or 0-3")
    parser.add_argument("--json", action="store_true", help="print the review as one JSON object")


def run(args: argparse.Namespace) -> int:
    text = read_log(args.file)
    review = review_log(text, args.seat)
    if args.json:
        print(json.dumps(review.to_json(), sort_keys=True))
    else:
        for line in review_text(review):
            print(line)
    return 0

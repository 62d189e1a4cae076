"""``sgmahjong ladder alts|void CODE|recompute``: the operator's view of the ranked ladder
(docs/security.md): accounts seen together at rated tables (by device and address), voiding a rated
match, and every rating computed again from the record of rated matches."""

from __future__ import annotations

import argparse
import json

from ..cli import CliError
from .backup import add_database_argument, resolve


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=("alts", "void", "recompute"),
                        help="alts: accounts seen together at rated tables; void CODE: void the rated match"
                             " of a table and recompute; recompute: every rating again from the record")
    parser.add_argument("code", nargs="?", help="the table's code (void)")
    parser.add_argument("--limit", type=int, default=100, help="rated matches looked at (alts; default 100)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_database_argument(parser)


def run(args: argparse.Namespace) -> int:
    from ..server.ranking import operator
    from ..server.settings import ServerSettings
    from ..server.store import open_store

    if args.action == "void" and not args.code:
        raise CliError("void needs the table's code: sgmahjong ladder void CODE")
    leave_points = ServerSettings.from_env().leave_points
    store = open_store(resolve(args.database))
    try:
        if args.action == "alts":
            rows = operator.seen_together(store, args.limit)
            answer = {"matches": rows, "pairs": operator.pairs(rows)}
            if not args.json:
                for p in answer["pairs"]:
                    print(f"{' & '.join(p['accounts'])}: together at {p['matches']} rated match(es)")
                for row in rows:
                    shared = "; ".join(f"{s['kind']} {s['value']}: {', '.join(s['accounts'])}"
                                       for s in row["shared"])
                    print(f"table {row['table']}{' (voided)' if row['voided'] else ''}: {shared}")
                if not rows:
                    print("no rated match had two accounts seen on one device or from one address")
                return 0
        elif args.action == "void":
            answer = operator.void(store, args.code, leave_points)
            if not answer["voided"]:
                raise CliError(str(answer["error"]))
        else:
            answer = operator.recompute(store, leave_points)
        print(json.dumps(answer, indent=2) if args.json else
              ", ".join(f"{k}: {v}" for k, v in answer.items()))
        return 0
    finally:
        store.close()

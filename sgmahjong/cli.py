"""The ``sgmahjong`` command. Each subcommand lives in :mod:`sgmahjong.commands`."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path

# name -> module under sgmahjong.commands exposing add_arguments(parser) and run(args) -> int
COMMANDS: dict[str, str] = {
    "score": "score the tai and payments of a winning hand",
    "replay": "print a hand's event log as readable text",
    "review": "a seat's decisions in a finished hand beside the strong bot's, or priced by the expert",
    "simulate": "play seeded hands between bots and report results",
    "serve": "start the web server",
    "build-static": "build the static files' hashed, compressed copies (the server does it when needed)",
    "cluster": "run a local cluster: PostgreSQL, several servers and HAProxy (make cluster)",
    "backup": "copy the store (SQLite or PostgreSQL) into a file while the server runs",
    "restore": "put a backup back into the store, with the server stopped",
    "ladder": "the operator's view of the ranked ladder: accounts seen together, void a match, recompute",
}


def read_log(file: str) -> str:
    """The text of a hand's log file, or a :class:`CliError` saying why it cannot be read."""
    path = Path(file)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CliError(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"cannot read {path}: {exc}") from None


class CliError(Exception):
    """A bad command-line input: printed as one line on stderr, exit code 2. ``reason_code``, where
    set, names it for pages that say it in their language (the calculator's /api/score)."""

    def __init__(self, message: str, reason_code: str | None = None) -> None:
        super().__init__(message)
        self.reason_code = reason_code


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sgmahjong", description="Singapore Mahjong")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, help_text in COMMANDS.items():
        try:
            module = importlib.import_module(f"sgmahjong.commands.{name.replace('-', '_')}")
        except ModuleNotFoundError:
            continue
        p = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(p)
        p.set_defaults(_module=module)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from .errors import SgMahjongError

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args._module.run(args)
    except (SgMahjongError, CliError) as exc:
        print(f"sgmahjong {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (`sgmahjong replay log | head`): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
    return code


if __name__ == "__main__":
    sys.exit(main())

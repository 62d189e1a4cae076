"""The scoring calculator: ``sgmahjong score HAND`` (the tai and payments of a winning hand), whose
arguments and ``--json`` answer the server's ``/api/score`` uses too.

::

    sgmahjong score HAND [--seat E|S|W|N] [--wind E|S|W|N] [--self-drawn] [--shooter SEAT]
        [--replacement flower|kong|kong-on-kong] [--robbed-kong] [--last-tile]
        [--heavenly | --earthly | --humanly] [--bao SEAT] [--rule KEY=VALUE ...] [--json]

:func:`score_request` answers the same for a JSON object (the body of the server's ``POST /api/score``,
and the page's offline scorer running this module in the browser under Pyodide): it checks the body,
spells it as these arguments and returns the ``--json`` object; :func:`score_answer` adds the HTTP
status and the error object both give for a bad request.

The winner sits at ``--seat`` (East by default); ``--wind`` is the prevailing wind (East). The win is
on a discard unless ``--self-drawn`` (a replacement, the last tile and a heavenly hand are
self-drawn by nature). Payments are shown when the payers are known: a self-drawn win, a shooter
given, or thirteen wonders (everyone pays). Exit 0 with ``valid: false`` and a reason when the tiles
are not a win; exit 2 with one line on stderr for bad input.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from .cli import CliError
from .errors import SgMahjongError
from .notation import parse_hand
from .payments import win_payments
from .rules import RuleSet, parse_rule_assignment
from .scoring import BY_ID, SPECIAL_WINS, ScoreResult, WinContext, score
from .tiles import SEAT_NAMES

_REPLACEMENTS = {"flower": "flower", "kong": "kong", "kong-on-kong": "kong_on_kong"}


def _seat(text: str | None, option: str) -> int | None:
    if text is None:
        return None
    t = text.strip().upper()
    if len(t) == 1 and t in SEAT_NAMES:
        return SEAT_NAMES.index(t)
    raise CliError(f"{option} takes a seat E, S, W or N; got {text!r}")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("hand", nargs="+", metavar="HAND",
                        help="hand string, e.g. '23s55p [123m] [456m] [789p] +4s /1f1a'")
    parser.add_argument("--seat", default="E", metavar="E|S|W|N",
                        help="the winner's seat (default E)")
    parser.add_argument("--wind", default="E", metavar="E|S|W|N",
                        help="the prevailing wind (default E)")
    parser.add_argument("--self-drawn", action="store_true", help="the winning tile was self-drawn")
    parser.add_argument("--shooter", default=None, metavar="SEAT",
                        help="the seat that discarded the winning tile")
    parser.add_argument("--replacement", default=None, metavar="flower|kong|kong-on-kong",
                        help="won on a replacement draw for a bonus tile, a kong, or a second kong")
    parser.add_argument("--robbed-kong", action="store_true", help="won by robbing a kong")
    parser.add_argument("--last-tile", action="store_true", help="won on the last drawable tile")
    special = parser.add_mutually_exclusive_group()
    special.add_argument("--heavenly", action="store_true", help="heavenly hand (天胡)")
    special.add_argument("--earthly", action="store_true", help="earthly hand (地胡)")
    special.add_argument("--humanly", action="store_true", help="humanly hand (人胡)")
    parser.add_argument("--bao", default=None, metavar="SEAT",
                        help="a player liable (包) for the whole win")
    parser.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                        help="override a rule option (repeatable); preset=NAME starts from a preset")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _rules(assignments: list[str]) -> RuleSet:
    pairs: dict[str, str] = {}
    preset = "default"
    for text in assignments:
        key, value = parse_rule_assignment(text)
        if key == "preset":
            preset = value
        else:
            pairs[key] = value
    return RuleSet.preset(preset).with_strings(pairs)


def _resolve(args: argparse.Namespace) -> None:
    """Turn the string options into seats (CliError, one line, for a bad value)."""
    args.seat = _seat(args.seat, "--seat")
    args.wind = _seat(args.wind, "--wind")
    args.shooter = _seat(args.shooter, "--shooter")
    args.bao = _seat(args.bao, "--bao")
    if args.replacement is not None and args.replacement not in _REPLACEMENTS:
        raise CliError(f"--replacement is one of {', '.join(_REPLACEMENTS)}; got {args.replacement!r}")


def _context(args: argparse.Namespace) -> WinContext:
    special = "heavenly" if args.heavenly else "earthly" if args.earthly else (
        "humanly" if args.humanly else None)
    replacement = _REPLACEMENTS[args.replacement] if args.replacement else None
    self_drawn = bool(args.self_drawn or replacement or args.last_tile or special == "heavenly")
    if args.shooter is not None:
        if args.shooter == args.seat:
            raise CliError("the shooter cannot be the winner's own seat", "score.shooter_is_winner")
        if self_drawn:
            raise CliError("a self-drawn win has no shooter", "score.self_drawn_shooter")
    if args.bao is not None and args.bao == args.seat:
        raise CliError("the winner cannot be liable (包) for his own win", "score.bao_is_winner")
    if args.robbed_kong and self_drawn:
        raise CliError("robbing the kong is a win on another player's tile, not self-drawn",
                       "score.robbed_self_drawn")
    return WinContext(seat_wind=args.seat, prevailing_wind=args.wind, self_drawn=self_drawn,
                      replacement=replacement,  # type: ignore[arg-type]
                      robbed_kong=args.robbed_kong, last_tile=args.last_tile,
                      special=special)  # type: ignore[arg-type]


def _payments(result: ScoreResult, ctx: WinContext, args: argparse.Namespace,
              rules: RuleSet) -> list[int] | None:
    if not result.valid:
        return None
    shooter = args.shooter
    if not ctx.self_drawn and shooter is None and not result.thirteen_wonders:
        return None
    self_drawn = ctx.self_drawn
    if result.thirteen_wonders and not self_drawn and shooter is None:
        self_drawn = True  # everyone pays as on a self-drawn win; the discarder does not matter
    return win_payments(result.tai, winner=ctx.seat_wind, shooter=None if self_drawn else shooter,
                        self_drawn=self_drawn, rules=rules, liable=args.bao,
                        thirteen_wonders=result.thirteen_wonders, robbed_kong=ctx.robbed_kong)


def result_json(result: ScoreResult, rules: RuleSet, payments: list[int] | None) -> dict[str, Any]:
    """The ``--json`` object."""
    out: dict[str, Any] = {
        "valid": result.valid,
        "tai": result.tai,
        "limit": result.limit,
        "patterns": [{"name": p.name, "tai": p.tai} for p in result.patterns],
    }
    if result.reason is not None:
        out["reason"] = result.reason
    if result.reason_code is not None:
        out["reason_code"] = result.reason_code
        out["reason_params"] = dict(result.reason_params)
    if payments is not None:
        out["payments"] = {SEAT_NAMES[i]: payments[i] for i in range(4)}
    return out


def _describe(name: str) -> str:
    p = BY_ID.get(name)
    if p is not None:
        return f"{p.name} {p.chinese}"
    s = SPECIAL_WINS.get(name)
    return f"{s.name} {s.chinese}" if s is not None else name


def result_text(hand_text: str, ctx: WinContext, result: ScoreResult, rules: RuleSet,
                payments: list[int] | None, args: argparse.Namespace) -> str:
    """The readable table."""
    how = "self-drawn" if ctx.self_drawn else (
        f"on a discard from {SEAT_NAMES[args.shooter]}" if args.shooter is not None else "on a discard")
    lines = [f"{hand_text}  (seat {SEAT_NAMES[ctx.seat_wind]}, prevailing {SEAT_NAMES[ctx.prevailing_wind]}, "
             f"{how})"]
    for p in result.patterns:
        lines.append(f"  {p.name:<26} {p.tai:>3}  {_describe(p.name)}")
    cap = ", the limit" if result.limit else f" (limit {rules.limit})"
    lines.append(f"  {'total':<26} {result.tai:>3} tai{cap}")
    if not result.valid:
        lines.append(f"not a win: {result.reason}")
    if payments is not None:
        cells = (f"{SEAT_NAMES[i]} {payments[i]:+d}" if payments[i] else f"{SEAT_NAMES[i]} 0"
                 for i in range(4))
        lines.append("payments: " + "  ".join(cells))
    return "\n".join(lines)


def evaluate(args: argparse.Namespace) -> tuple[str, WinContext, ScoreResult, RuleSet, list[int] | None]:
    """Score the hand the parsed arguments describe: (hand text, context, result, rules, payments).
    Raises :class:`CliError` (or a notation error) for a hand or option that cannot be scored."""
    hand_text = " ".join(args.hand)
    _resolve(args)
    rules = _rules(args.rule)
    hand = parse_hand(hand_text)
    if hand.winning_tile is None:
        raise CliError("the hand needs its winning tile after '+', e.g. '... +4s'", "score.no_winning_tile")
    ctx = _context(args)
    try:
        result = score(hand, ctx, rules)
        payments = _payments(result, ctx, args, rules)
    except ValueError as exc:
        if isinstance(exc, SgMahjongError):
            raise
        raise CliError(str(exc)) from None
    return hand_text, ctx, result, rules, payments


def score_json(args: argparse.Namespace) -> dict[str, Any]:
    """What ``sgmahjong score --json`` prints, as a dict (the server's ``/api/score`` answers it)."""
    _, _, result, rules, payments = evaluate(args)
    return result_json(result, rules, payments)


def run(args: argparse.Namespace) -> int:
    if args.json:
        print(json.dumps(score_json(args), ensure_ascii=False))
        return 0
    hand_text, ctx, result, rules, payments = evaluate(args)
    print(result_text(hand_text, ctx, result, rules, payments, args))
    return 0


# -- a JSON request: POST /api/score, and the page's offline scorer ---------------------------------------

HAND_MAX = 200
"""The longest hand a request may spell (characters)."""
PRESET_MAX = 40
"""The longest preset name a request may give (characters)."""
_SEATS = ("E", "S", "W", "N")
_SEAT_WHY = ("literal['E','S','W','N']", "Input should be 'E', 'S', 'W' or 'N'")
_FLAGS = ("self_drawn", "robbed_kong", "last_tile", "heavenly", "earthly", "humanly")


class ScoreRequestError(SgMahjongError):
    """A calculator request the command would refuse (the message says why; ``reason_code``, where set,
    names it for the page)."""


def _is_seat(value: Any) -> bool:
    return (isinstance(value, str) and value in _SEATS) or (type(value) is int and 0 <= value <= 3)


def _text_problem(limit: int, least: int = 0) -> Callable[[Any], tuple[str, str] | None]:
    def problem(value: Any) -> tuple[str, str] | None:
        if not isinstance(value, str):
            return "", "Input should be a valid string"
        if len(value) < least:
            return "", f"String should have at least {least} character{'s' if least > 1 else ''}"
        if len(value) > limit:
            return "", f"String should have at most {limit} characters"
        return None
    return problem


def _seat_problem(value: Any) -> tuple[str, str] | None:
    return None if _is_seat(value) else _SEAT_WHY


def _optional_seat_problem(value: Any) -> tuple[str, str] | None:
    return None if value is None else _seat_problem(value)


def _flag_problem(value: Any) -> tuple[str, str] | None:
    return None if isinstance(value, bool) else ("", "Input should be a valid boolean")


def _replacement_problem(value: Any) -> tuple[str, str] | None:
    if value is None or (isinstance(value, str) and value in _REPLACEMENTS):
        return None
    return "", "Input should be 'flower', 'kong' or 'kong-on-kong'"


def _rules_problem(value: Any) -> tuple[str, str] | None:
    if not isinstance(value, dict):
        return "", "Input should be a valid dictionary"
    for key, v in value.items():
        if not isinstance(v, bool | int | str):
            return f"{key}.bool", "Input should be a valid boolean"
    return None


#: the body's fields in the order they are checked: (the check, the default; ``...``: required)
_FIELDS: dict[str, tuple[Callable[[Any], tuple[str, str] | None], Any]] = {
    "hand": (_text_problem(HAND_MAX, least=1), ...),
    "seat": (_seat_problem, "E"), "wind": (_seat_problem, "E"),
    "self_drawn": (_flag_problem, False), "shooter": (_optional_seat_problem, None),
    "replacement": (_replacement_problem, None), "robbed_kong": (_flag_problem, False),
    "last_tile": (_flag_problem, False), "heavenly": (_flag_problem, False),
    "earthly": (_flag_problem, False), "humanly": (_flag_problem, False),
    "bao": (_optional_seat_problem, None), "preset": (_text_problem(PRESET_MAX), "default"),
    "rules": (_rules_problem, {}),
}


def _checked(body: Any) -> dict[str, Any]:
    """The body's fields with their defaults, or :class:`ScoreRequestError` naming the first problem
    ("missing field 'hand'", "unknown field 'x'", "field 'seat...': why"): the fields in order, then
    any unknown one."""
    if not isinstance(body, dict):
        raise ScoreRequestError("the body is a JSON object with at least a 'hand'")
    fields: dict[str, Any] = {}
    for name, (problem, default) in _FIELDS.items():
        if name not in body:
            if default is ...:
                raise ScoreRequestError(f"missing field {name!r}")
            fields[name] = default
            continue
        found = problem(body[name])
        if found is not None:
            where = ".".join(p for p in (name, found[0]) if p)
            raise ScoreRequestError(f"field {where!r}: {found[1]}")
        fields[name] = body[name]
    for name in body:
        if name not in _FIELDS:
            raise ScoreRequestError(f"unknown field {name!r}")
    if sum((fields["heavenly"], fields["earthly"], fields["humanly"])) > 1:
        raise ScoreRequestError("heavenly, earthly and humanly exclude each other")
    return fields


def _seat_text(seat: str | int) -> str:
    return _SEATS[seat] if isinstance(seat, int) else seat


def request_argv(fields: dict[str, Any]) -> list[str]:
    """The ``sgmahjong score`` arguments that ask what a checked request asks."""
    argv = [fields["hand"], "--seat", _seat_text(fields["seat"]), "--wind", _seat_text(fields["wind"]),
            "--json"]
    argv += ["--" + flag.replace("_", "-") for flag in _FLAGS if fields[flag]]
    for name in ("shooter", "bao"):
        if fields[name] is not None:
            argv += [f"--{name}", _seat_text(fields[name])]
    if fields["replacement"] is not None:
        argv += ["--replacement", fields["replacement"]]
    argv += ["--rule", f"preset={fields['preset']}"]
    for key, value in fields["rules"].items():
        text = ("true" if value else "false") if isinstance(value, bool) else str(value)
        argv += ["--rule", f"{key}={text}"]
    return argv


def score_request(body: Any) -> dict[str, Any]:
    """What ``sgmahjong score --json`` prints for the inputs a JSON object spells (``{"hand": ...,
    "seat": "E", "shooter": "S", "rules": {"limit": 10}, ...}``). Raises :class:`ScoreRequestError`
    (or the notation's :class:`SgMahjongError`) for a request that cannot be scored."""
    argv = request_argv(_checked(body))
    parser = argparse.ArgumentParser(prog="sgmahjong score", exit_on_error=False, add_help=False)
    add_arguments(parser)
    try:
        args = parser.parse_args(argv)
    except argparse.ArgumentError as exc:
        raise ScoreRequestError(str(exc)) from None
    try:
        return score_json(args)
    except CliError as exc:
        err = ScoreRequestError(str(exc))
        err.reason_code = exc.reason_code
        raise err from None


def score_answer(body: Any) -> tuple[int, dict[str, Any]]:
    """The HTTP status and JSON answer to a calculator request: 200 and :func:`score_request`'s object,
    or 400 and ``{"error": message}`` with the ``code`` (and its ``params``) the page says in its
    language, where the error has one."""
    try:
        return 200, score_request(body)
    except (SgMahjongError, ValueError, TypeError) as exc:
        answer: dict[str, Any] = {"error": str(exc)}
        code = getattr(exc, "reason_code", None)
        if code is not None:
            answer["code"] = code
            params = getattr(exc, "params", None)
            if params:
                answer["params"] = params
        return 400, answer

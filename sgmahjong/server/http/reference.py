"""The reference JSON endpoints: the rules, the pattern reference of a rule set and the scoring calculator.

Both call the scoring code itself, so the pages never hand-copy a rule: ``/api/reference`` is
``sgmahjong.scoring.pattern_reference(rules)``, and ``/api/score`` runs the very ``sgmahjong score
--json`` command (``sgmahjong.calculator``) on the arguments the JSON body spells.
"""

from __future__ import annotations

import argparse
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...cli import CliError
from ...errors import SgMahjongError
from ...rules import PRESETS, RuleSet, parse_rule_assignment
from ..options import TableOptions
from ..protocol import BOT_LEVEL_INFO, BOT_LEVELS, OFFERED_BOT_LEVELS, ProtocolError, validation_message
from .common import error, json_body

SeatName = Literal["E", "S", "W", "N"]
Seat = SeatName | Annotated[int, Field(ge=0, le=3)]


class ScoreRequestError(SgMahjongError):
    """A calculator request the CLI would refuse (the message says why; ``reason_code``, where set,
    names it for the page)."""

    reason_code: str | None = None


class ScoreRequest(BaseModel):
    """The body of ``POST /api/score``: the options of ``sgmahjong score``, as JSON."""

    model_config = ConfigDict(extra="forbid", strict=True)

    hand: Annotated[str, Field(min_length=1, max_length=200)]
    seat: Seat = "E"
    wind: Seat = "E"
    self_drawn: bool = False
    shooter: Seat | None = None
    replacement: Literal["flower", "kong", "kong-on-kong"] | None = None
    robbed_kong: bool = False
    last_tile: bool = False
    heavenly: bool = False
    earthly: bool = False
    humanly: bool = False
    bao: Seat | None = None
    preset: Annotated[str, Field(max_length=40)] = "default"
    rules: dict[str, bool | int | str] = Field(default_factory=dict)


def rules_from_query(preset: str, assignments: list[str]) -> RuleSet:
    """The rule set of ``?preset=NAME&rule=KEY=VALUE...``."""
    pairs = dict(parse_rule_assignment(a) for a in assignments)
    return RuleSet.preset(preset).with_strings(pairs)


def reference(rules: RuleSet) -> dict[str, Any]:
    """``{"rules": ..., "patterns": pattern_reference(rules)}``."""
    from ...scoring import pattern_reference

    return {"rules": rules.to_dict(), "patterns": pattern_reference(rules)}


def _seat_text(seat: str | int) -> str:
    return "ESWN"[seat] if isinstance(seat, int) else seat


def score_argv(req: ScoreRequest) -> list[str]:
    """The ``sgmahjong score`` arguments that ask what ``req`` asks."""
    argv = [req.hand, "--seat", _seat_text(req.seat), "--wind", _seat_text(req.wind), "--json"]
    flags = {
        "--self-drawn": req.self_drawn, "--robbed-kong": req.robbed_kong, "--last-tile": req.last_tile,
        "--heavenly": req.heavenly, "--earthly": req.earthly, "--humanly": req.humanly,
    }
    argv += [flag for flag, on in flags.items() if on]
    if req.shooter is not None:
        argv += ["--shooter", _seat_text(req.shooter)]
    if req.bao is not None:
        argv += ["--bao", _seat_text(req.bao)]
    if req.replacement is not None:
        argv += ["--replacement", req.replacement]
    argv += ["--rule", f"preset={req.preset}"]
    for key, value in req.rules.items():
        text = ("true" if value else "false") if isinstance(value, bool) else str(value)
        argv += ["--rule", f"{key}={text}"]
    return argv


def score(body: Any) -> dict[str, Any]:
    """What ``sgmahjong score --json`` prints for the same inputs, given as a JSON object."""
    from ... import calculator as command

    if not isinstance(body, dict):
        raise ScoreRequestError("the body is a JSON object with at least a 'hand'")
    try:
        req = ScoreRequest.model_validate(body)
    except ValidationError as exc:
        raise ScoreRequestError(validation_message(exc, whole="body", most=1)) from None
    if sum((req.heavenly, req.earthly, req.humanly)) > 1:
        raise ScoreRequestError("heavenly, earthly and humanly exclude each other")
    parser = argparse.ArgumentParser(prog="sgmahjong score", exit_on_error=False, add_help=False)
    command.add_arguments(parser)
    try:
        args = parser.parse_args(score_argv(req))
    except argparse.ArgumentError as exc:
        raise ScoreRequestError(str(exc)) from None
    try:
        return command.score_json(args)
    except CliError as exc:
        err = ScoreRequestError(str(exc))
        err.reason_code = exc.reason_code
        raise err from None


def routes() -> list[BaseRoute]:
    """The rules (options, presets, table options, bot levels), the pattern reference and the
    scoring calculator."""

    async def rules(request: Request) -> Response:
        return JSONResponse({
            "options": RuleSet.describe(),
            "presets": {name: r.to_dict() for name, r in PRESETS.items()},
            "table_options": TableOptions.describe(),
            "bot_levels": list(BOT_LEVELS),
            "bot_level_info": [
                {"level": lv, "name": BOT_LEVEL_INFO[lv][0], "description": BOT_LEVEL_INFO[lv][1]}
                for lv in OFFERED_BOT_LEVELS
            ],
        })

    async def pattern_reference(request: Request) -> Response:
        try:
            preset = request.query_params.get("preset", "default")
            ruleset = rules_from_query(preset, request.query_params.getlist("rule"))
            return JSONResponse(reference(ruleset))
        except SgMahjongError as exc:
            return error(400, str(exc))

    async def calculate(request: Request) -> Response:
        try:
            body = await json_body(request)
            return JSONResponse(score(body))
        except ProtocolError as exc:
            return error(400, exc.message)
        except (SgMahjongError, ValueError, TypeError) as exc:
            # a code the calculator says in its language (the English message for any other)
            return error(400, str(exc), getattr(exc, "reason_code", None), getattr(exc, "params", None))

    return [
        Route("/api/rules", rules),
        Route("/api/reference", pattern_reference),
        Route("/api/score", calculate, methods=["POST"]),
    ]

"""The reference JSON endpoints: the rules, the pattern reference of a rule set and the scoring calculator.

Both call the scoring code itself, so the pages never hand-copy a rule: ``/api/reference`` is
``sgmahjong.scoring.pattern_reference(rules)``, and ``/api/score`` answers what
``sgmahjong.calculator.score_answer`` gives for the JSON body (the very ``sgmahjong score --json``
command; the calculator page's offline scorer runs the same function in the browser).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...calculator import score_answer
from ...errors import SgMahjongError
from ...rules import PRESETS, RuleSet, parse_rule_assignment
from ..options import TableOptions
from ..protocol import BOT_LEVEL_INFO, BOT_LEVELS, OFFERED_BOT_LEVELS, ProtocolError
from .common import error, json_body


def rules_from_query(preset: str, assignments: list[str]) -> RuleSet:
    """The rule set of ``?preset=NAME&rule=KEY=VALUE...``."""
    pairs = dict(parse_rule_assignment(a) for a in assignments)
    return RuleSet.preset(preset).with_strings(pairs)


def reference(rules: RuleSet) -> dict[str, Any]:
    """``{"rules": ..., "patterns": pattern_reference(rules)}``."""
    from ...scoring import pattern_reference

    return {"rules": rules.to_dict(), "patterns": pattern_reference(rules)}


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
        except ProtocolError as exc:
            return error(400, exc.message)
        status, answer = score_answer(body)  # the pure core's answer, as the offline scorer gives it
        return JSONResponse(answer, status_code=status)

    return [
        Route("/api/rules", rules),
        Route("/api/reference", pattern_reference),
        Route("/api/score", calculate, methods=["POST"]),
    ]

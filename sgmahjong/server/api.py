"""The reference JSON endpoints: the pattern reference of a rule set and the scoring calculator.

Both call the scoring package's own functions (the same code as ``sgmahjong score --json``), so the
pages never hand-copy a rule.
"""

from __future__ import annotations

import importlib
from typing import Any

from ..errors import SgMahjongError
from ..rules import RuleSet, parse_rule_assignment


class UnavailableError(SgMahjongError):
    """A part of the rules core the endpoint needs is not installed."""


def rules_from_query(preset: str, assignments: list[str]) -> RuleSet:
    """The rule set of ``?preset=NAME&rule=KEY=VALUE...``."""
    pairs = dict(parse_rule_assignment(a) for a in assignments)
    return RuleSet.preset(preset).with_strings(pairs)


def reference(rules: RuleSet) -> dict[str, Any]:
    """``{"rules": ..., "patterns": pattern_reference(rules)}``."""
    scoring = importlib.import_module("sgmahjong.scoring")
    fn = getattr(scoring, "pattern_reference", None)
    if fn is None:
        raise UnavailableError("the scoring reference is not available")
    return {"rules": rules.to_dict(), "patterns": fn(rules)}


def score(body: Any) -> dict[str, Any]:
    """What ``sgmahjong score --json`` prints for the same inputs, given as a JSON object."""
    if not isinstance(body, dict):
        raise SgMahjongError("the body is a JSON object with at least a 'hand'")
    command = importlib.import_module("sgmahjong.commands.score")
    fn = getattr(command, "score_json", None)
    if fn is None:
        raise UnavailableError("the scoring calculator is not available")
    result: dict[str, Any] = fn(body)
    return result

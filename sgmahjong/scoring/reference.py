"""The scoring reference for a rule set (the web client's table of patterns)."""

from __future__ import annotations

from typing import Any

from ..rules import RuleSet
from . import patterns as _patterns  # noqa: F401  (fills the registry)
from .registry import FIXED, LIMIT, PATTERNS, Pattern, enabled, tai_for_reference
from .special import SPECIAL_WINS


def _tai_text(p: Pattern, rules: RuleSet) -> str:
    if p.value == LIMIT:
        return f"limit ({rules.limit})"
    if p.value == FIXED:
        return f"{p.tai_text.split(' ')[0]} (at most the limit: {tai_for_reference(p, rules)})"
    if p.id == "win_on_flower_replacement":
        return {"one": "+1", "per_replacement": "+1 per consecutive replacement",
                "five": "+1 (5 for two or more in a row)"}[rules.flower_on_flower]
    if p.id == "fully_concealed" and rules.fully_concealed == "self_drawn_only":
        return "+1 (self-drawn only)"
    return p.tai_text


def pattern_reference(rules: RuleSet) -> list[dict[str, Any]]:
    """Every pattern a table with ``rules`` plays, in report order, then the special wins. Each is
    ``{"id", "name", "chinese", "tai" (int or None), "tai_text", "kind" (add|fixed|limit|special),
    "extra" (does not count toward min_tai), "family", "description"}``."""
    out: list[dict[str, Any]] = []
    for p in PATTERNS:
        if not enabled(p, rules):
            continue
        out.append({
            "id": p.id, "name": p.name, "chinese": p.chinese, "tai": tai_for_reference(p, rules),
            "tai_text": _tai_text(p, rules), "kind": p.value,
            "extra": p.extra and not rules.extras_count_toward_min, "family": p.family,
            "description": p.doc.split("\n\n")[0].replace("\n", " "),
        })
    for s in SPECIAL_WINS.values():
        if not getattr(rules, s.option):
            continue
        tai = rules.limit if s.value is None else min(s.value, rules.limit)
        text = f"limit ({rules.limit})" if s.value is None else f"{s.value} (at most the limit: {tai})"
        out.append({
            "id": s.id, "name": s.name, "chinese": s.chinese, "tai": tai, "tai_text": text,
            "kind": "special", "extra": False, "family": "special", "description": s.doc,
        })
    return out

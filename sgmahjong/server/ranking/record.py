"""Which matches are ranked, and rating one as it finishes.

A match is ranked when its rules are the ranked preset (``ranked_preset`` with ``ranked_rounds``
rounds: the settings) and its four seats are four accounts (checked in the store, in the transaction
that rates it). When its last hand ends the table queues :meth:`~..store.Store.rate_match` right after
the hand's other writes, so group commit stores them in one transaction; the store rates a match once.
"""

from __future__ import annotations

import time
from typing import Any

from ...rules import RuleSet
from .ladder import season_of

#: set by the server from its settings (server/http/app.py)
RANKED_RULES: dict[str, Any] = RuleSet.preset("site").with_options(rounds=1).to_dict()
SEASON_MONTHS = 1


def configure(preset: str, rounds: int, season_months: int) -> None:
    global RANKED_RULES, SEASON_MONTHS
    RANKED_RULES = RuleSet.preset(preset).with_options(rounds=rounds).to_dict()
    SEASON_MONTHS = season_months


def is_ranked(rules: RuleSet) -> bool:
    return rules.to_dict() == RANKED_RULES


def current_season(now: float | None = None) -> str:
    return season_of(time.time() if now is None else now, SEASON_MONTHS)


def match_over(table: Any, match: Any, kinds: list[str]) -> None:
    """The match of ``table`` has finished: rate it if it is ranked. A player who is not at the table
    when it ends (gone, their seat played on by a bot) left it, and is placed last."""
    if not is_ranked(table.rules):
        return
    leavers = [seat for seat, kind in enumerate(kinds) if kind != "human" or not table.connected(seat)]
    now = time.time()
    table.store.rate_match(table.id, [int(x) for x in match.total_ledger], leavers, now, current_season(now))

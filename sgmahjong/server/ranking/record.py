"""Which matches are ranked, and rating one as it finishes.

A match is ranked when its rules are the ranked preset (``ranked_preset`` with ``ranked_rounds``
rounds: the settings) and its four seats are four accounts (checked in the store, in the transaction
that rates it). When its last hand ends the table queues :meth:`~..store.Store.rate_match` right after
the hand's other writes, so group commit stores them in one transaction; the store rates a match once.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ...rules import RuleSet
from .ladder import season_of


@dataclass(frozen=True, slots=True)
class RankedPolicy:
    """Which matches are ranked (``rules``: the ranked rule set as a dict) and how long a season is,
    made once from the server's settings (``ranked_preset``, ``ranked_rounds``, ``season_months``) and
    handed to the tables and routes that use it."""

    rules: dict[str, Any]
    season_months: int = 1

    @classmethod
    def of(cls, preset: str = "site", rounds: int = 1, season_months: int = 1) -> RankedPolicy:
        return cls(RuleSet.preset(preset).with_options(rounds=rounds).to_dict(), season_months)

    def is_ranked(self, rules: RuleSet) -> bool:
        return rules.to_dict() == self.rules

    def current_season(self, now: float | None = None) -> str:
        return season_of(time.time() if now is None else now, self.season_months)

    def match_over(self, table: Any, match: Any, kinds: list[str]) -> None:
        """The match of ``table`` has finished: rate it if it is ranked. A player who is not at the
        table when it ends (gone, their seat played on by a bot) left it, and is placed last."""
        if not self.is_ranked(table.rules):
            return
        leavers = [seat for seat, kind in enumerate(kinds) if kind != "human" or not table.connected(seat)]
        now = time.time()
        table.store.rate_match(table.id, [int(x) for x in match.total_ledger], leavers, now,
                               self.current_season(now))

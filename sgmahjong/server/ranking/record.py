"""Which matches are ranked, and rating one as it finishes.

Only the matches of tables the ranked queue opened are rated (the store keeps them: ``ranked_tables``,
with each seat's account); a private table may use the ranked rules and is never rated. When a ranked
match's last hand ends the table queues :meth:`~..store.Store.rate_match` right after the hand's other
writes, so group commit stores them in one transaction; the store rates a match once.

- A seat whose player never played (no action of theirs in the whole match) makes the match unrated
  for everyone, and counts as abandoning for that player.
- A player not at the table at the end (their seat played on by a bot: they closed the tab, lost the
  connection, signed out or were deleted) left: placed last, and loses rank points whatever their
  rank (:func:`.ladder.settle`). The others keep the places their scores give them among themselves.
- The queue opens its tables unattended (``matchmaking.matcher``): a match every player left is played
  on by bots to its end and rated so, never closed unrated by the idle sweep.
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
    leave_points: int = 20

    @classmethod
    def of(cls, preset: str = "site", rounds: int = 1, season_months: int = 1,
           leave_points: int = 20) -> RankedPolicy:
        return cls(RuleSet.preset(preset).with_options(rounds=rounds).to_dict(), season_months, leave_points)

    def is_ranked(self, rules: RuleSet) -> bool:
        return rules.to_dict() == self.rules

    def current_season(self, now: float | None = None) -> str:
        return season_of(time.time() if now is None else now, self.season_months)

    def match_over(self, table: Any, match: Any, kinds: list[str]) -> None:
        """The match of ``table`` has finished: rate it if the ranked queue opened it (the store
        knows; a table with other rules never was)."""
        if not self.is_ranked(table.rules):
            return
        played = table.flow.played | table.store.seats_that_played(table.id)
        absent = [kind != "human" or seat not in played for seat, kind in enumerate(kinds)]
        left = [not gone and not table.connected(seat) for seat, gone in enumerate(absent)]
        now = time.time()
        table.store.rate_match(table.id, [int(x) for x in match.total_ledger], left, absent, now,
                               self.current_season(now), self.leave_points)

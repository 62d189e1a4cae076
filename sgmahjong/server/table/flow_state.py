"""What a live table keeps for the match flow: the rematch votes and the new table's code (bounded: one
vote per seat at most), and the seats a human played in."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class FlowState:
    rematch_votes: set[int] = field(default_factory=set)  # seats that asked for a rematch
    rematch_code: str | None = None  # the new table once everyone agreed
    played: set[int] = field(default_factory=set)  # seats a human acted for since this worker took the table

    def summary(self) -> dict[str, Any]:
        return {"votes": sorted(self.rematch_votes), "code": self.rematch_code}

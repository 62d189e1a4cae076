"""What a live table keeps for the match flow (rematch votes, the new table's code) and the seats'
hints (the last computed and the last sent), bounded: one entry per seat at most."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class FlowState:
    rematch_votes: set[int] = field(default_factory=set)  # seats that asked for a rematch
    rematch_code: str | None = None  # the new table once everyone agreed
    hint_ready: dict[int, tuple[Any, dict[str, Any]]] = field(default_factory=dict)  # seat -> (key, part)
    hint_sent: dict[int, dict[str, Any]] = field(default_factory=dict)  # seat -> last hints sent
    # seat -> (hand number, the seat's tile tuples) when its last hints were sent without waits
    hint_same: dict[int, tuple[Any, ...]] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        return {"votes": sorted(self.rematch_votes), "code": self.rematch_code}

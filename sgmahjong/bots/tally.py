"""Per-level results of a self-play run: wins, self-drawn share, deal-ins, tai, net per hand.

Hands are played in *blocks*: one seeded wall played four times with the line-up rotated so every bot
sits in every seat. The 95% confidence interval of a level's net payment per hand is computed over
the block means (blocks are independent; hands inside a block share a wall), which is both valid and
tighter than treating hands as independent.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Any

from .arena import HandRecord


@dataclass(slots=True)
class LevelTally:
    """Totals for one bot level (all its seats)."""

    level: str
    seat_hands: int = 0
    wins: int = 0
    self_drawn: int = 0
    deal_ins: int = 0
    liable_payments: int = 0
    tai_sum: int = 0
    net_sum: int = 0
    block_means: list[float] = field(default_factory=list)  # net per seat-hand in each block
    decision_times: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        n = self.seat_hands or 1
        means = self.block_means
        mean = self.net_sum / n
        if len(means) >= 2:
            half = 1.96 * statistics.stdev(means) / math.sqrt(len(means))
        else:
            half = float("nan")
        times = sorted(self.decision_times)
        median_ms = 1000 * times[len(times) // 2] if times else float("nan")
        return {
            "level": self.level,
            "seat_hands": self.seat_hands,
            "wins": self.wins,
            "win_rate": self.wins / n,
            "self_drawn_share": self.self_drawn / self.wins if self.wins else 0.0,
            "deal_in_rate": self.deal_ins / n,
            "avg_tai_of_wins": self.tai_sum / self.wins if self.wins else 0.0,
            "net_per_hand": mean,
            "net_ci95": [mean - half, mean + half],
            "median_decision_ms": median_ms,
        }


class Tally:
    """Accumulates :class:`HandRecord` s; ``levels_by_seat`` says which level sat where."""

    def __init__(self, levels: list[str]) -> None:
        self.order: list[str] = []
        for lv in levels:
            if lv not in self.order:
                self.order.append(lv)
        self.levels = {lv: LevelTally(lv) for lv in self.order}
        self.hands = 0
        self.drawn = 0
        self._block: dict[str, list[int]] = {lv: [0, 0] for lv in self.order}

    def add(self, record: HandRecord, levels_by_seat: list[str]) -> None:
        self.hands += 1
        if record.winner is None:
            self.drawn += 1
        for seat, lv in enumerate(levels_by_seat):
            t = self.levels[lv]
            t.seat_hands += 1
            t.net_sum += record.net[seat]
            t.decision_times.extend(record.decision_times[seat])
            blk = self._block[lv]
            blk[0] += record.net[seat]
            blk[1] += 1
            if record.winner == seat:
                t.wins += 1
                t.tai_sum += record.tai
                if record.self_drawn:
                    t.self_drawn += 1
            if record.shooter == seat and record.winner is not None:
                t.deal_ins += 1
            if record.liable == seat:
                t.liable_payments += 1

    def end_block(self) -> None:
        """Close a block (a wall played in every rotation)."""
        for lv, blk in self._block.items():
            if blk[1]:
                self.levels[lv].block_means.append(blk[0] / blk[1])
            blk[0] = blk[1] = 0

    def summary(self) -> list[dict[str, Any]]:
        return [self.levels[lv].summary() for lv in self.order]

"""What an event is played by and what it keeps of each hand."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

FORMATS = ("swiss", "round_robin", "duplicate")
Format = Literal["swiss", "round_robin", "duplicate"]
Absent = Literal["zero", "bot"]

#: a table's four seats (East, South, West, North at the first hand): an entrant's id, or None for a bot
Table = tuple[str | None, str | None, str | None, str | None]


class EventError(ValueError):
    """An event that cannot be seated or scored as asked (a reason a person can read)."""


@dataclass(frozen=True)
class EventRules:
    """How an event is played and scored.

    ``hands``: hands per round (a duplicate round deals hand k from the same secret at every table); 0:
    a full match of the house rules' rounds (Swiss and round robin only: duplicate needs its walls).
    ``absent``: what an entrant whose seat a bot played is credited with: ``"zero"`` (nothing: in
    duplicate, the seat's par) or ``"bot"`` (what the bot made in their seat)."""

    format: Format = "swiss"
    rounds: int = 3
    hands: int = 4
    absent: Absent = "zero"

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise EventError(f"unknown format {self.format!r}")
        if not 1 <= self.rounds <= 20:
            raise EventError("an event has 1 to 20 rounds")
        if not (0 if self.format != "duplicate" else 1) <= self.hands <= 16:
            raise EventError("a round has 1 to 16 hands (or, but in duplicate, a full match: 0)")
        if self.absent not in ("zero", "bot"):
            raise EventError(f"unknown absent rule {self.absent!r}")


@dataclass(frozen=True)
class SeatResult:
    """One seat of one hand: who held it (None: a bot filling the table), what it won or paid (points,
    + won, − paid), and whether a bot played it for an absent entrant."""

    entrant: str | None
    net: int
    by_bot: bool = False


@dataclass(frozen=True)
class HandRecord:
    """One finished hand of an event, as stored: where it was played, the wall (its published hash: one
    wall for every table of a duplicate round's hand), the four seats, and the winning seat (None: a
    drawn hand)."""

    round: int
    table: int
    hand: int
    wall: str
    seats: tuple[SeatResult, SeatResult, SeatResult, SeatResult]
    winner: int | None = None

    def __post_init__(self) -> None:
        if len(self.seats) != 4:
            raise EventError("a hand has four seats")
        if sum(s.net for s in self.seats) != 0:
            raise EventError("a hand's payments sum to zero")
        if self.winner is not None and not 0 <= self.winner < 4:
            raise EventError("the winner is a seat 0..3")

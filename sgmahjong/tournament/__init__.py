"""Events: seating (Swiss, round robin, duplicate), duplicate scoring and standings.

Pure functions of what they are given (entrants, the stored hands' results, a seed): no I/O, no clock, no
randomness of their own, so the same record always gives the same seating and the same standings
(docs/events.md)."""

from sgmahjong.tournament.duplicate import deal_plan, seat_par
from sgmahjong.tournament.records import EventRules, HandRecord, SeatResult, Table
from sgmahjong.tournament.seating import repeated_groups, seat_round
from sgmahjong.tournament.standings import Row, standings

__all__ = ["EventRules", "HandRecord", "Row", "SeatResult", "Table", "deal_plan", "repeated_groups",
           "seat_par", "seat_round", "standings"]

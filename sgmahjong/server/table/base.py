"""What every part of a live table may use of the others: the table's fields and, for the type checker
only, the methods one part calls on another. :class:`~.table.Table` is the one class that has them all."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from ...rules import RuleSet
from ..options import TableOptions
from ..store import Store

if TYPE_CHECKING:
    from ...game import SeatViews
    from .connections import Connection
    from .flow_state import FlowState
    from .seats import Seat
    from .timers import Deadline, Since


class TableBase:
    """The fields of a live table (declared here, given values by the :class:`~.table.Table` dataclass)."""

    store: Store
    id: int
    code: str
    name: str
    private: bool
    rules: RuleSet
    options: TableOptions
    status: str
    seats: list[Seat]
    match: Any
    hand_number: int
    lock: asyncio.Lock
    conns: set[Connection]
    since: list[Since]
    deadline: Deadline | None
    away_since: dict[int, float]
    closed: bool
    flow: FlowState
    seat_views: SeatViews
    player_links: dict[int, int] | None
    _timer: asyncio.Task[None] | None
    _bots: dict[tuple[int, str], Any]
    _thinking: int | None
    _pause_version: int
    _pause_at: float

    if TYPE_CHECKING:
        # -- the core (table.py)
        def summary(self) -> dict[str, Any]: ...
        def act(self, seat: int, text: str, version: int, source: str) -> None: ...
        def _schedule(self) -> None: ...
        def _spawn(self, coro: Any) -> asyncio.Task[None]: ...
        def _start_next_hand(self) -> None: ...
        def _all_ready(self) -> bool: ...
        def begin(self) -> None: ...
        # -- seat_hints.py
        def _push_hints(self) -> None: ...
        def _hello_extras(self, conn: Connection) -> None: ...
        # -- seats.py
        def _require_seated(self, conn: Connection, ref: str) -> int: ...
        def _require_status(self, status: str, ref: str) -> None: ...
        def seat_of_token(self, token: str) -> int | None: ...
        # -- connections.py
        def connected(self, seat: int) -> bool: ...
        def _taken_over(self, seat: int) -> bool: ...
        def _broadcast_table(self) -> None: ...
        def view_message(self, seat: int | None) -> dict[str, Any]: ...
        # -- timers.py
        def _set_deadline(self) -> None: ...
        # -- claim_pause.py
        def _lone_human(self) -> bool: ...
        # -- table_bots.py
        def _bot_seats(self) -> list[int]: ...
        async def _bots_act(self, version: int) -> None: ...
        async def _after_storage_failure(self) -> None: ...

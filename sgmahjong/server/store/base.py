"""The storage interface: the rows the server reads and the :class:`Store` every backend implements.

Backends (``sqlite.py``, ``postgres.py``) share their SQL through :class:`~.sql.SqlStore`; a new
method is added once there (or, if its SQL differs, as a hook each backend fills in). Nothing in
the server asks which backend it has.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .accounts import AccountMethods
from .club_live_sql import ClubLiveMethods
from .club_ticks_sql import TickMethods
from .clubs_sql import ClubMethods
from .events_sql import EventMethods
from .identity_sql import IdentityMethods
from .push_sql import PushMethods
from .queue import QueueMethods
from .ratings import RatingMethods
from .reviews_sql import ReviewMethods


class StoreError(Exception):
    """A storage failure the server reports as a clear message (never a traceback)."""


class StorageUnavailable(StoreError):
    """The database refused a read or write (disk full, read-only, I/O error, gone): nothing of the
    change is applied; trying again later may succeed."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"storage unavailable, try again ({detail})")
        self.detail = detail


class LeaseLost(StoreError):
    """This process does not own the table (another worker does, or its database session ended), so
    it must not write to it."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"this worker does not own table {table_id}")
        self.table_id = table_id


@dataclass
class SeatRow:
    seat: int
    kind: str  # empty | human | bot
    name: str | None
    bot_level: str | None
    token_hash: str | None


@dataclass
class TableRow:
    id: int
    code: str
    name: str
    private: bool
    rules: dict[str, Any]
    options: dict[str, Any]
    status: str
    first_wall: str | None
    first_seed: int | None
    match_seed: int | None
    created: float


@dataclass
class HandRow:
    number: int
    seed: str
    wall_hash: str | None
    ended: float | None


@dataclass
class ActionRow:
    hand: int
    seq: int
    seat: int
    action: str
    version: int
    source: str
    worker: str = ""  # the process that applied it (the cluster test checks no table had two at once)
    lease: int = 0  # the owner's lease number on the table when it applied it


@dataclass
class ChatRow:
    """One chat message of a table (``step``: the hand's actions applied when it was said)."""

    seq: int
    hand: int
    step: int
    seat: int | None
    name: str
    kind: str
    body: str
    at: float


@dataclass
class PlayerRow:
    id: int
    name: str
    created: float


@dataclass
class PlayerHandRow:
    """One ended hand of a player: where, when, and how it went for the player's seat."""

    table_id: int
    hand: int
    seat: int
    ended: float
    won: bool
    dealt_in: bool
    drawn: bool  # nobody won (荒牌)
    tai: int  # the winner's tai (the player's when won)
    net: int  # the player's hand ledger (instant payments and the win payments)
    code: str = ""
    table_name: str = ""
    rules: dict[str, Any] | None = None
    wind: int | None = None  # the seat's wind that hand (0 East .. 3 North); None: recorded before kept


@dataclass(frozen=True)
class Write:
    """One write of a :meth:`Store.write_batch`: the name of a batchable write method and its
    arguments, exactly as the method takes them (``Write("add_action", (table_id, hand, ...))``)."""

    method: str
    args: tuple[Any, ...]
    kwargs: tuple[tuple[str, Any], ...] = ()


#: the write methods a batch may hold (every write that returns nothing)
BATCHABLE = frozenset({
    "set_status", "start_match", "set_seat", "add_hand", "end_hand", "add_action", "add_events",
    "add_player_hands", "rate_match", "add_chat",
})


class Store(ClubMethods, ClubLiveMethods, TickMethods, IdentityMethods, AccountMethods, RatingMethods,
            QueueMethods, ReviewMethods, EventMethods, PushMethods, abc.ABC):
    """A database of tables, seats, hands, and each hand's actions and events.

    Every write method commits before it returns (write-through), so a restart loses nothing a
    client was told; :meth:`write_batch` commits many writes in one transaction (group commit).

    Ownership: with several worker processes on one database, a table is owned by one worker at a
    time. :meth:`claim` takes it (False if another worker has it), :meth:`release` gives it back;
    every write to a table by a process that does not own it raises :class:`LeaseLost`. A store
    that is not :attr:`shared` (SQLite: one process) owns every table.
    """

    #: several processes may use this database at once (tables are then loaded lazily, on claim)
    shared: bool = False
    #: this process's name in the stored log of actions
    worker: str = ""
    #: a batch of writes is quick and never waits on another machine (an embedded file written without
    #: fsync at commit): group commit writes it on the event loop instead of in a thread, where every
    #: statement would wait to take the GIL back from the busy loop (server/store/committer.py)
    commits_inline: bool = False

    @abc.abstractmethod
    def describe(self) -> str:
        """Where the data is, for the start-up banner (no password)."""

    @abc.abstractmethod
    def close(self) -> None: ...

    # -- ownership ----------------------------------------------------------------------------------
    @abc.abstractmethod
    def claim(self, table_id: int) -> bool:
        """Own ``table_id`` (True), or False if another worker owns it."""

    @abc.abstractmethod
    def release(self, table_id: int) -> None: ...

    @abc.abstractmethod
    def owns(self, table_id: int) -> bool: ...

    @abc.abstractmethod
    def owned(self) -> set[int]:
        """The tables this process owns now (a lost database session empties it)."""

    @abc.abstractmethod
    def want(self, table_id: int) -> None:
        """Ask the worker holding ``table_id`` to hand it over (it is routed to this one now)."""

    @abc.abstractmethod
    def wanted(self) -> set[int]:
        """The tables this worker holds that another worker has asked for since it claimed them."""

    @abc.abstractmethod
    def heartbeat(self) -> set[int]:
        """Check the database session (a worker calls this every few seconds); the tables still owned."""

    # -- tables -------------------------------------------------------------------------------------
    @abc.abstractmethod
    def create_table(
        self, code: str, name: str, private: bool, rules: dict[str, Any], options: dict[str, Any],
        first_wall: str | None = None, first_seed: int | None = None,
    ) -> int:
        """A new table in the lobby with four empty seats (owned by this process); its id."""

    @abc.abstractmethod
    def tables(self, table_id: int | None = None) -> list[TableRow]:
        """Every table (or the one of ``table_id``), oldest first."""

    @abc.abstractmethod
    def live_tables(self) -> list[TableRow]:
        """The tables neither finished nor closed, oldest first (what a restart resumes)."""

    @abc.abstractmethod
    def waiting_tables(self, limit: int) -> list[TableRow]:
        """Quick play's candidates: public tables in their lobby with a human seated and a seat free,
        those with the fewest free seats first, then the oldest; at most ``limit``."""

    @abc.abstractmethod
    def open_tables(self, offset: int, limit: int) -> tuple[list[TableRow], int]:
        """The lobby's list: public tables in the lobby or in play (those in the lobby first, newest
        first), ``limit`` of them from ``offset``; and how many there are in all."""

    @abc.abstractmethod
    def table_by_code(self, code: str) -> TableRow | None: ...

    @abc.abstractmethod
    def set_status(self, table_id: int, status: str) -> None: ...

    @abc.abstractmethod
    def start_match(self, table_id: int, match_seed: int, hand_seed: int | str, wall_hash: str,
                    events: list[dict[str, Any]]) -> None:
        """Record the start of play: the match seed, hand 1 and its first events, status playing."""

    # -- seats --------------------------------------------------------------------------------------
    @abc.abstractmethod
    def seats(self, table_id: int) -> list[SeatRow]: ...

    @abc.abstractmethod
    def set_seat(self, table_id: int, row: SeatRow) -> None: ...

    # -- hands, actions, events ---------------------------------------------------------------------
    @abc.abstractmethod
    def add_hand(self, table_id: int, number: int, seed: int | str, wall_hash: str,
                 events: list[dict[str, Any]], snapshot: dict[str, Any] | None = None) -> None:
        """Record a new hand with its seed: the hand secret (revealed when it ends), or an integer seed
        derived from the match seed (test tables, old matches); and ``snapshot``, the match's state at
        the hand's start (``game.match_snapshot``), from which a restart rebuilds the match."""

    @abc.abstractmethod
    def end_hand(self, table_id: int, number: int, result: Any, status: str) -> None:
        """Record a hand's result and the table's new status (between_hands or finished)."""

    @abc.abstractmethod
    def hands(self, table_id: int, since: int = 1) -> list[HandRow]:
        """The table's hands numbered ``since`` or later, in order."""

    @abc.abstractmethod
    def last_snapshot(self, table_id: int) -> tuple[int, dict[str, Any]] | None:
        """The number and match snapshot of the table's latest hand stored with one (None: none is)."""

    @abc.abstractmethod
    def add_action(
        self, table_id: int, hand: int, seq: int, seat: int, action: str, version: int, source: str,
        events: list[dict[str, Any]], first_event_seq: int,
    ) -> None:
        """Record one applied action and the events it produced, in one transaction."""

    @abc.abstractmethod
    def add_events(self, table_id: int, hand: int, events: list[dict[str, Any]], first_seq: int) -> None: ...

    @abc.abstractmethod
    def actions(self, table_id: int, hand: int) -> list[ActionRow]: ...

    @abc.abstractmethod
    def events(self, table_id: int, hand: int) -> list[dict[str, Any]]: ...

    # -- chat at a table -------------------------------------------------------------------------
    @abc.abstractmethod
    def add_chat(self, table_id: int, seq: int, hand: int, step: int, seat: int | None, name: str,
                 kind: str, body: str, at: float) -> None:
        """Record one chat message (batchable)."""

    @abc.abstractmethod
    def chat(self, table_id: int, limit: int) -> list[ChatRow]:
        """The table's latest ``limit`` chat messages, oldest first."""

    @abc.abstractmethod
    def hand_chat(self, table_id: int, hand: int, limit: int) -> list[ChatRow]:
        """The first ``limit`` chat messages said during hand ``hand``, in order."""

    # -- avatars (a player's choice, kept with the identity) -----------------------------------------
    @abc.abstractmethod
    def set_avatar(self, player_id: int, avatar: str | None) -> bool:
        """Set the player's avatar; False when there is no such player."""

    @abc.abstractmethod
    def avatar(self, player_id: int) -> str | None: ...

    @abc.abstractmethod
    def table_avatars(self, table_id: int) -> dict[int, str]:
        """seat -> avatar of the table's seats linked to a player who chose one."""

    @abc.abstractmethod
    def lobby_avatars(self, table_ids: list[int]) -> dict[int, dict[int, str]]:
        """table id -> :meth:`table_avatars` of each of ``table_ids`` (one query, for the lobby)."""

    # -- group commit -------------------------------------------------------------------------------
    # -- players (browser-held identities) and their ended hands --------------------------------

    @abc.abstractmethod
    def link_seat_player(self, table_id: int, seat: int, player_id: int | None) -> None:
        """Whose seat this is (``None``: nobody's, e.g. a player without a browser identity)."""

    @abc.abstractmethod
    def seats_that_played(self, table_id: int) -> set[int]:
        """The seats of the table with an action of a human (not a bot's, a timer's or the table's)."""

    @abc.abstractmethod
    def seat_players(self, table_id: int) -> dict[int, int]:
        """seat -> player id of the table's seats that are a player's."""

    @abc.abstractmethod
    def add_player_hands(self, table_id: int, player_ids: dict[int, int],
                         row_of_seat: dict[int, PlayerHandRow]) -> None:
        """Record an ended hand of table ``table_id`` for the players (seat -> player id) of its seats,
        in one transaction (batchable: the server group-commits it with the hand's other writes)."""

    @abc.abstractmethod
    def player_hands(self, player_id: int | Sequence[int], limit: int, offset: int = 0, *,
                     newest_first: bool = True) -> list[PlayerHandRow]:
        """A page of the player's ended hands (newest first, or oldest first), with the table's code,
        name and rules (``player_id``: one player, or several: an account's)."""

    @abc.abstractmethod
    def player_totals(self, player_id: int | Sequence[int]) -> dict[str, int]:
        """hands, wins, deal_ins, win_tai (sum of the tai of wins), net, tables."""

    @abc.abstractmethod
    def write_batch(self, writes: list[Write]) -> None:
        """Apply ``writes`` (each a :data:`BATCHABLE` method's arguments) in order, in ONE
        transaction: all of them are stored, or none (the error is raised)."""

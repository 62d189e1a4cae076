"""Every live table of one database: created, loaded and resumed, found by code (handed over from
another worker in a cluster), archived, and watched (a table whose step stalled is armed again).

:class:`TableServer` is what the HTTP edge (``server.http``) and the match flow (``matchflow``) use;
it imports the table, cluster and store packages and never ``server.http``.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from typing import Annotated, Any, cast

from pydantic import BaseModel, ConfigDict, Field

from ..rules import RuleSet
from . import metrics
from .cluster.ownership import Ownership, TableElsewhere
from .events import log_event, set_worker
from .lobby import Upkeep, lobby_page
from .options import TableOptions
from .protocol import ProtocolError
from .ranking.record import RankedPolicy
from .settings import ServerSettings
from .store import StorageUnavailable, Store, TableRow, check_url, open_store
from .store.committer import GroupCommit
from .table import departures, engine
from .table.table import Table
from .text import check_text

log = logging.getLogger("sgmahjong.server")

CODE_RE = re.compile(r"^[A-Za-z0-9_-]{4,32}$")


class CreateTable(BaseModel):
    """Body of ``POST /api/tables``."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: Annotated[str, Field(min_length=1, max_length=40)]
    preset: str = "default"
    rules: dict[str, Any] = Field(default_factory=dict)
    options: dict[str, Any] = Field(default_factory=dict)
    private: bool = False
    seed: Annotated[int, Field(ge=0, lt=2**63)] | None = None  # test hook
    wall: Annotated[str, Field(max_length=2000)] | None = None  # test hook


class TableServer:
    """Every table of one database, loaded at startup and resumed where it was."""

    def __init__(
        self, database: str | None = None, *, test_hooks: bool = False, settings: ServerSettings | None = None
    ) -> None:
        self.database = check_url(database)
        self.test_hooks = test_hooks
        self.settings = settings or ServerSettings()
        self._store: Store | None = None
        self.commits: GroupCommit | None = None
        self.tables: dict[str, Table] = {}
        self.ownership = Ownership(self)
        self.quick_lock = asyncio.Lock()  # one quick-play pairing at a time
        self.upkeep = Upkeep(self.tables, self.settings)
        self.down: set[str] = set()  # tables closed by a storage failure, to load again (revive)
        self.ranked = RankedPolicy.of(self.settings.ranked_preset, self.settings.ranked_rounds,
                                      self.settings.season_months, self.settings.leave_points)

    def table_of(self, store: Store, row: TableRow) -> Table:
        """The table of ``row`` as stored, with its seats, made with this server's settings."""
        settings = self.settings
        table = Table.from_rows(store, row, store.seats(row.id), ranked=self.ranked,
                                retry_seconds=settings.storage_retry_seconds,
                                expert=engine.ExpertLimits(settings.expert_deals, settings.expert_time_ms))
        table.hand_secrets = store.table_secrets(row.id) or []  # a duplicate event's table (docs/events.md)
        return table

    @property
    def store(self) -> Store:
        """The store (group-committed), once :meth:`open` has opened it."""
        if self._store is None:
            raise RuntimeError("the table server is not open")
        return self._store

    @property
    def opened(self) -> bool:
        return self._store is not None

    def open(self) -> None:
        inner = open_store(self.database)
        # group commit for both backends; in a cluster a write to a table this worker no longer
        # holds raises LeaseLost to its sender when it is queued (GroupCommit checks the lease)
        self.commits = GroupCommit(inner, on_failed=self._storage_failed)
        store = self._store = cast(Store, self.commits)
        set_worker(store.worker)
        log_event("worker_started", database=store.describe(), shared=store.shared)
        if store.shared:
            return  # several workers share the database: each table is loaded where it is routed
        for row in store.live_tables():
            if not store.claim(row.id):
                continue  # another worker owns it
            table = self.table_of(store, row)
            try:
                table.resume(row.match_seed)
            except Exception:
                log.exception("table %s could not be resumed; it is left out", row.code)
                continue
            self.tables[row.code] = table

    def _storage_failed(self, table_ids: set[int]) -> None:
        """Tables whose writes could not be stored: their live state is ahead of the database, so
        they are closed (nothing of it was sent) and their connections dropped; a restart resumes
        them from what was stored."""
        for code, table in list(self.tables.items()):
            if table.id in table_ids:
                log.warning("table %s: closed after a storage failure; resumed once writes succeed", code)
                table.close()
                for c in list(table.conns):
                    c.closed = True
                    c.storage_down = True
                    c.finish()
                del self.tables[code]
                self.down.add(code)

    async def revive(self) -> None:
        """Every ``storage_retry_seconds``: load again the tables closed by a storage failure, from
        what was stored (their bots and timers go on; if writes still fail they close again)."""
        while True:
            await asyncio.sleep(self.settings.storage_retry_seconds)
            for code in list(self.down):
                try:
                    if code in self.tables or self.get(code) is not None:
                        log.info("table %s resumed after a storage failure", code)
                    self.down.discard(code)
                except TableElsewhere:
                    self.down.discard(code)
                except Exception as exc:  # reads fail too: try again later
                    log.warning("table %s: not resumed yet (%s)", code, exc)

    def table_id(self, code: str) -> int | None:
        """The id of the live table ``code`` here (None if it is not live in this worker)."""
        table = self.tables.get(code)
        return None if table is None else table.id

    def commit_mark(self) -> int:
        """How many writes are queued so far: taken before a change, given to :meth:`committed`."""
        return self.commits.submitted if self.commits is not None else 0

    async def committed(self, table_id: int | None = None, since: int = 0) -> None:
        """Wait until every write made so far is committed (before an HTTP answer tells of it); raise
        :class:`StorageUnavailable` if a write of ``table_id`` queued after ``since`` (a
        :meth:`commit_mark` taken before the change) failed: the answer must not tell of it."""
        if self.commits is not None:
            await self.commits.wait(self.commits.submitted)
            if table_id is not None and self.commits.lost_since(table_id, since):
                raise StorageUnavailable("the change could not be stored")

    def start_tasks(self) -> None:
        for table in self.tables.values():
            table.schedule()
        metrics.track_live_tables(lambda: len(self.tables))
        self.ownership.start()

    async def watchdog(self) -> None:
        """Every ``watchdog_seconds``: a live table that nothing will move (no task pending, yet a bot
        must act, a window may close or a deadline is set: :meth:`Table.stalled`) is armed again."""
        while True:
            await asyncio.sleep(self.settings.watchdog_seconds)
            for table in list(self.tables.values()):
                try:
                    async with table.lock:
                        if table.stalled():
                            log.warning("table %s: stalled with nothing scheduled; armed again", table.code)
                            metrics.ERRORS.labels("stalled").inc()
                            table.rearm()
                except Exception:
                    log.exception("table %s: the watchdog could not arm it", table.code)

    def close(self) -> None:
        self.ownership.stop()
        for table in self.tables.values():
            table.close()
        if self._store is not None:
            self._store.close()

    def allow_test_hooks(self, seed: int | None, wall: str | None) -> None:
        """Refuse a fixed seed or stacked wall unless this server runs with test hooks."""
        if (seed is not None or wall is not None) and not self.test_hooks:
            raise ProtocolError("invalid", "seed and wall are test hooks (set SGMAHJONG_TEST_HOOKS=1)")

    def create(self, body: CreateTable) -> Table:
        if len(self.tables) >= self.settings.max_tables:
            raise ProtocolError("server_full", "the server holds as many tables as it can; try again later")
        self.allow_test_hooks(body.seed, body.wall)
        name = " ".join(body.name.split())
        if not name:
            raise ProtocolError("invalid", "a table needs a name")
        check_text(name, self.settings.text_max_marks)
        rules = RuleSet.preset(body.preset).with_options(**body.rules)
        options = TableOptions.parse(body.options)
        wall = None
        if body.wall is not None:
            wall = engine.format_wall(engine.parse_wall(body.wall))
        code = secrets.token_urlsafe(6)
        while code in self.tables:
            code = secrets.token_urlsafe(6)
        table_id = self.store.create_table(
            code, name, body.private, rules.to_dict(), options.model_dump(), wall, body.seed
        )
        row = self.store.tables(table_id)[0]
        table = self.table_of(self.store, row)
        self.tables[code] = table
        return table

    def get(self, code: str) -> Table | None:
        """The live table of ``code`` (loaded from the store on first use), None if there is none;
        raises :class:`TableElsewhere` while another worker serves it."""
        if not CODE_RE.match(code):
            return None
        table = self.tables.get(code)
        if table is None and self.opened:
            table = self.ownership.load(code)
        return table

    async def find(self, code: str) -> Table | None:
        """:meth:`get`, waiting a few seconds for a table another worker is handing over."""
        if not CODE_RE.match(code):
            return None
        return await self.ownership.find(code)

    def lobby(self, offset: int, limit: int) -> dict[str, Any]:
        """A page of the lobby's open public tables, from the database (so every worker lists the
        same tables): live here, the table's own summary; served elsewhere, one from its rows."""
        rows, total = self.store.open_tables(offset, limit)
        avatars = self.store.lobby_avatars([row.id for row in rows])
        summaries = []
        for row in rows:
            table = self.tables.get(row.code)
            if table is None:
                table = self.table_of(self.store, row)
                table.hand_number = len(self.store.hands(row.id))
            summary = table.summary()
            chosen = avatars.get(row.id, {})
            for seat in summary["seats"]:  # a human seat's avatar (the list shows it beside the name)
                seat["avatar"] = chosen.get(seat["seat"]) if seat["kind"] == "human" else None
            summaries.append(summary)
        return lobby_page(summaries, total, offset, limit)

    async def players_gone(self, player_ids: list[int]) -> None:
        """Players about to be deleted: their seats at this worker's live tables pass to bots (the
        tables play on; at another worker's, nobody can open their seats any more)."""
        for table in list(self.tables.values()):
            if table.closed:
                continue
            async with table.lock:
                departures.players_gone(table, player_ids)

    async def sessions_ended(self, session_hashes: set[str]) -> None:
        """Sessions signed out: their sockets at this worker's live tables are sent away (a socket at
        another worker's table keeps its seat until it reconnects, which opens nothing of the account)."""
        for table in list(self.tables.values()):
            if not table.closed:
                async with table.lock:
                    departures.sessions_ended(table, session_hashes)

    async def archive(self, table: Table, status: str) -> None:
        """Take ``table`` out of the live set: finished, or closed (its humans left)."""
        async with table.lock:
            if self.tables.get(table.code) is not table:
                return
            if status != table.status:
                self.store.set_status(table.id, status)
                table.status = status
                table.broadcast_table()
            table.close()
            del self.tables[table.code]
            self.store.release(table.id)
        log.info("table %s archived (%s)", table.code, status)

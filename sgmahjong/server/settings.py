"""Server-wide limits and timeouts, in one frozen settings object.

Every field has a default fit for the open internet and can be set from the environment as
``SGMAHJONG_<FIELD NAME IN CAPITALS>`` (e.g. ``SGMAHJONG_HELLO_TIMEOUT=5``); lists are comma-separated.
README.md ("Server settings") lists them. Per-table settings are :class:`~.options.TableOptions`.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..errors import SgMahjongError

T = TypeVar("T")


class SettingsError(SgMahjongError, ValueError):
    """A server setting from the environment that is not of its type or out of range."""


@dataclass(frozen=True)
class ServerSettings:
    """The limits of one server process (see the field comments for what each bounds)."""

    # -- connections (enforced per TCP connection, before any request is parsed) ------------------
    header_timeout: float = 10.0  # seconds to send a request's headers (slow clients are closed)
    keep_alive_timeout: float = 5.0  # seconds an idle keep-alive HTTP connection stays open
    max_connections: int = 2000  # open connections in all (also kept below the open-file limit)
    max_connections_per_address: int = 64  # open connections (HTTP and WebSocket) of one client address
    unlimited_addresses: tuple[str, ...] = ()  # client addresses or networks not capped per address
    trusted_proxies: tuple[str, ...] = ()  # proxies (addresses, networks) whose X-Forwarded-For is believed
    # -- WebSockets ----------------------------------------------------------------------------------
    hello_timeout: float = 10.0  # a socket that has not sent hello within this is closed
    message_rate: float = 20.0  # inbound messages per second one socket may keep sending ...
    message_burst: int = 60  # ... after a burst of this many; beyond it: one error, then closed
    chat_rate: float = 0.5  # chat messages per second one person may keep sending (docs/talk.md) ...
    chat_burst: int = 5  # ... after a burst of this many; beyond it each is refused (the socket stays)
    ws_max_size: int = 1 << 16  # bytes of one inbound WebSocket message
    ws_ping_interval: float = 20.0  # seconds between pings (a dead peer is dropped)
    ws_ping_timeout: float = 20.0  # seconds to wait for the answer to a ping
    ws_deflate: bool = False  # compress messages (permessage-deflate) when the browser offers it
    # -- HTTP requests ---------------------------------------------------------------------------
    max_body: int = 64 * 1024  # bytes of a request body (refused by Content-Length before reading)
    max_json_depth: int = 32  # nesting of a JSON body
    allowed_origins: tuple[str, ...] = ()  # other origins allowed to post (the server's own always is)
    gzip_min_bytes: int = 1000  # dynamic answers (pages' JSON) this large or larger are gzipped when accepted
    # -- static files (http/assets.py; docs/delivery.md) -------------------------------------------
    static_dir: str = ""  # the static sources ("": the package's sgmahjong/server/static)
    static_build_dir: str = ""  # their hashed, compressed build ("": build/static in a checkout, or ~/.cache)
    static_builds_kept: int = 3  # builds kept and served (an open page of an older release loads its own)
    static_check_seconds: float = 1.0  # a page request rebuilds if the sources changed, checked this often
    pyodide_dir: str = ""  # Pyodide's npm package, for the calculator's offline scorer ("": tools/pyodide's)
    # -- tables ----------------------------------------------------------------------------------
    max_tables: int = 5000  # live tables in all (new ones refused beyond; closed ones read again not held)
    expert_deals: int = 0  # deals an expert bot searches a decision (0: no limit; if still unsure, up to 4x)
    expert_time_ms: float = 100.0  # ... and the time it may take per decision, by the wall clock (0: none)
    table_burst: int = 10  # tables one client address may create at once ...
    tables_per_hour: float = 60.0  # ... and then at this rate
    tracked_addresses: int = 10000  # client addresses remembered by the rate limits (least recent dropped)
    lobby_page: int = 50  # tables per page of GET /api/tables (a client may ask for up to 200)
    idle_table_seconds: float = 600.0  # a table with no human connected for this long is closed
    sweep_seconds: float = 15.0  # how often idle and finished tables are looked for
    storage_retry_seconds: float = 2.0  # bots and timers retry after a storage failure this often
    watchdog_seconds: float = 5.0  # how often a stalled table (nothing scheduled) is looked for (0: never)
    # -- a cluster (several workers on one PostgreSQL; see ownership.py) ---------------------------
    lease_watch_seconds: float = 0.2  # how often a worker checks its session, leases, hand-over requests
    handover_wait: float = 4.0  # seconds a request waits for a table another worker is handing over
    release_idle_seconds: float = 300.0  # a table nobody is connected to (no bot playing) is let go
    # -- accounts (docs/accounts.md) -----------------------------------------------------------------
    session_days: float = 30.0  # a signed-in session lasts this long (renewed when half of it has passed)
    sessions_per_account: int = 20  # signed-in devices of one account (the oldest is signed out beyond)
    passkeys_per_account: int = 10  # passkeys of one account
    link_code_seconds: float = 600.0  # a device link code is valid this long (and once)
    sign_ins_per_hour: float = 30.0  # passkey sign-ins and new account names tried per person ...
    sign_in_burst: int = 10  # ... after a burst of this many
    auth_flow_seconds: float = 300.0  # a passkey ceremony must finish within this
    webauthn_rp_id: str = ""  # the passkeys' relying party (a domain); empty: the request's host name
    webauthn_origins: tuple[str, ...] = ()  # origins a passkey may be used from; empty: the request's own
    ranked_preset: str = "site"  # the rules of ranked matches: this preset ...
    ranked_rounds: int = 1  # ... with this many rounds (a one-round match)
    season_months: int = 1  # a season of the leaderboard lasts this many months (from January)
    leaderboard_size: int = 100  # players listed on the leaderboard
    quick_countdown_seconds: float = 20.0  # a quick-play table starts with bots this long after it opened
    queue_interval_seconds: float = 0.5  # how often each worker matches the ranked queue
    queue_window: float = 100.0  # ratings this far apart are matched at once ...
    queue_widen_per_second: float = 10.0  # ... and the window widens by this much per second waited
    queue_stale_seconds: float = 30.0  # a queued player who has not asked for this long leaves the queue
    queue_max: int = 10000  # players waiting at most (the queue refuses more)
    queue_estimate_matched: int = 40  # the wait shown is the median of this many latest matched players' ...
    queue_estimate_seconds: float = 3600.0  # ... matched within this long (fewer than 4: no estimate)
    online_seconds: float = 900.0  # "online": signed in and seen within this long (5 min steps at best)
    queue_counts_seconds: float = 2.0  # the queue's counts are worked out at most this often per process
    # -- clubs (docs/clubs.md) ------------------------------------------------------------------------
    club_name_max: int = 40  # characters of a club's name
    clubs_per_player: int = 20  # clubs one player may own or belong to
    club_members_max: int = 50  # members of one club
    club_invites_max: int = 20  # usable invite links of one club at once
    club_invite_days: float = 7.0  # an invite link expires this many days after it was made (0: never)
    club_invite_label_max: int = 40  # characters of an invite link's label ("for Mei Ling")
    club_stake_max: int = 10000  # cents a point may be worth at most (a club's stake)
    club_tables_listed: int = 20  # open tables and recent matches each shown on a club's page
    club_periods_listed: int = 20  # past settle-up periods shown on a club's page
    club_time_zone: str = "Asia/Singapore"  # a club's clock: evenings, "tonight" (since the latest 06:00)
    # -- the live club page and the club's tables (docs/clubs.md, "The live club page") ----------------
    club_poll_seconds: float = 5.0  # a club's open page asks for its live summary this often
    club_online_seconds: float = 30.0  # a member is online who had the club's page open this recently
    club_polls_per_minute: float = 30.0  # live summaries one person may ask for a minute ...
    club_poll_burst: int = 20  # ... after a burst of this many (counted by identity and by address)
    club_address_polls_per_minute: float = 240.0  # live summaries one address (all its people) a minute
    club_turn_seconds_max: int = 300  # most seconds of a club table's turn timer (0, no timer, allowed too)
    # -- the expert's reviews and analysis board (server/analysis; docs/playing.md) --------------------
    analysis_workers: int = 1  # processes computing expert reviews and analyses (started on first use)
    analysis_queue: int = 64  # expert jobs queued or running at most (beyond: 503, "the reviewer is busy")
    analysis_deals: int = 0  # deals per decision of an expert review or analysis (0: the expert's default)
    analysis_cache: int = 256  # analyses of a replay step kept in memory (the oldest is dropped beyond)
    analysis_wait_seconds: float = 8.0  # a request for an analysis waits this long before "still working"
    # -- the process (``sgmahjong serve``) --------------------------------------------------------------
    gc_interval_seconds: float = 600.0  # a full gc pass this often, none between (0: Python's automatic)
    # -- memory (the memos: see memory.bound_memos; glibc's allocator: 0 = glibc's own default) ---------
    memo_limit: int = 5000  # entries each analysis and bot memo keeps (0: the library's, 5,000-50,000)
    malloc_arena_max: int = 2  # glibc malloc arenas (its default: 8 per core, each with its own free space)
    malloc_mmap_threshold: int = 128 * 1024  # bytes from which a block is mapped alone (freed to the system)
    # -- one identity for every visitor, and the ranked ladder (docs/security.md) ----------------------
    guest_session_days: float = 365.0  # a guest's session lasts this long (renewed when half has passed)
    identity_burst: int = 20  # new players (guest sessions) one address may make at once ...
    identities_per_hour: float = 60.0  # ... and then at this rate
    seat_sockets: int = 8  # sockets one seated player may hold open at their table (their tabs)
    spectators_per_table: int = 48  # spectator sockets one table admits in all ...
    spectators_per_address: int = 4  # ... and from one address (a seated player is always admitted)
    alt_window_days: float = 30.0  # the ranked queue keeps apart accounts seen from one address within this
    leave_points: int = 20  # rank points a player who abandons a ranked match loses at least (any rank)
    admin_token_sha256: str = ""  # SHA-256 (hex) of the operator's bearer token; empty: no operator routes
    # -- sign-in limits (docs/accounts.md, "Limits") --------------------------------------------------
    ceremonies_per_hour: float = 60.0  # passkey ceremonies begun, link codes made, per person ...
    ceremony_burst: int = 10  # ... after a burst of this many
    ceremonies_per_address: int = 3  # live passkey ceremonies of one address (a new one drops its oldest)
    ceremonies_max: int = 10000  # live passkey ceremonies in all (a new one drops the oldest)
    link_codes_per_account: int = 3  # live link codes of one account (a new one revokes the oldest)
    link_guesses_per_hour: float = 2.0  # link codes tried per person (address and identity) ...
    link_guess_burst: int = 5  # ... after a burst of this many
    limit_slots: int = 1 << 20  # buckets shared by hash beyond tracked_addresses (8 bytes each)
    # -- chat and names: per person, per address, and what text is shown (docs/talk.md) -------------------
    chat_address_rate: float = 2.0  # chat messages per second one address (all its people) may send ...
    chat_address_burst: int = 20  # ... after a burst of this many (a line needs a token of both limits)
    chat_tracked: int = 10000  # people and addresses whose chat allowance is kept (least recent forgotten)
    text_max_marks: int = 2  # combining marks (accents) on one letter of a chat line or a name, at most
    # -- fair shares per person (by identity and by address): expert jobs, new clubs, invite links --
    analysis_jobs_per_requester: int = 4  # expert jobs (hand reviews, analyses) one person may have queued
    clubs_per_day: int = 5  # clubs one person may create in 24 hours
    events_per_day: int = 5  # events one person may create in 24 hours
    event_codes_per_day: int = 20  # wrong join codes one person may try in 24 hours
    # -- events (server/tournaments; docs/events.md) ---------------------------------------------------
    event_entrants_max: int = 64  # entrants of one event
    event_name_max: int = 60  # characters of an event's name
    event_check_seconds: float = 2.0  # how often a worker looks for events to begin (start time, round ended)
    club_invites_per_day: int = 50  # club invite links one person may make in 24 hours
    # -- notifications and club evenings (docs/clubs.md, "Evenings and notifications") -----------------
    push_subscriptions_per_player: int = 10  # browsers one player may have notifications on (oldest dropped)
    push_queue: int = 1000  # notifications waiting to be sent (beyond: dropped, logged)
    push_senders: int = 4  # notifications sent at once
    push_timeout: float = 10.0  # seconds a push service may take to take one notification
    push_ttl: int = 3600  # seconds a push service keeps a notification for a browser that is offline
    push_contact: str = "mailto:operator@example.invalid"  # VAPID "sub": how push services reach the operator
    push_http_endpoints: bool = False  # accept http:// push endpoints (local tests only; real ones are https)
    session_players: int = 4  # players "in" for the owner to be offered the table (the owner may say)
    sessions_per_day: int = 5  # evenings one person (identity, and address) may propose in a club in 24 hours
    sessions_listed: int = 10  # upcoming evenings of one club at once
    rsvps_per_minute: float = 10.0  # answers to evenings, notification switches: one person (and address) ...
    rsvp_burst: int = 10  # ... after a burst of this many
    reminder_minutes: float = 60.0  # a reminder this long before an evening starts, to those in or maybe
    reminder_poll_seconds: float = 30.0  # how often the store is asked for reminders due
    club_ticks_per_day: int = 200  # settle-up transfers one person may tick as paid in 24 hours
    renames_per_hour: float = 120.0  # names one person (identity, and address) may give their player ...
    rename_burst: int = 20  # ... after a burst of this many

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, int | float) and not isinstance(value, bool) and value < 0:
                raise SettingsError(f"server setting {f.name} must not be negative; got {value}")
        for name in ("max_connections", "max_connections_per_address", "message_burst", "max_body",
                     "max_json_depth", "max_tables", "lobby_page", "tracked_addresses",
                     "static_builds_kept", "club_name_max", "club_members_max", "club_stake_max",
                     "club_tables_listed", "club_periods_listed", "analysis_workers", "analysis_queue",
                     "sign_in_burst", "ceremony_burst", "ceremonies_per_address", "ceremonies_max",
                     "link_codes_per_account", "link_guess_burst", "limit_slots", "chat_tracked",
                     "analysis_jobs_per_requester", "club_poll_burst", "event_entrants_max",
                     "event_name_max", "queue_estimate_matched", "push_queue", "push_senders",
                     "sessions_listed", "rsvp_burst", "session_players", "push_subscriptions_per_player",
                     "events_per_day", "event_codes_per_day", "rename_burst"):
            if getattr(self, name) < 1:
                raise SettingsError(f"server setting {name} must be at least 1")
        for name in ("unlimited_addresses", "trusted_proxies"):
            for entry in getattr(self, name):
                try:
                    ipaddress.ip_network(entry.strip(), strict=False)
                except ValueError:
                    raise SettingsError(f"server setting {name}: {entry!r} is not an IP address or network"
                                        " (e.g. 10.0.0.5 or 10.0.0.0/24)") from None
        for name in ("sign_ins_per_hour", "ceremonies_per_hour", "link_guesses_per_hour"):
            if getattr(self, name) <= 0:
                raise SettingsError(f"server setting {name} must be more than 0")
        for name in ("rsvps_per_minute", "reminder_poll_seconds", "push_timeout", "renames_per_hour"):
            if getattr(self, name) <= 0:
                raise SettingsError(f"server setting {name} must be more than 0")
        try:
            ZoneInfo(self.club_time_zone)
        except (ValueError, ZoneInfoNotFoundError):
            raise SettingsError(f"server setting club_time_zone: {self.club_time_zone!r} is not a time zone"
                                " (e.g. Asia/Singapore)") from None
        if self.club_poll_seconds <= 0:
            raise SettingsError("server setting club_poll_seconds must be more than 0")
        if self.expert_deals == 0 and self.expert_time_ms == 0:
            raise SettingsError("server settings expert_deals and expert_time_ms are both 0: the expert "
                                "needs a limit (a number of deals, a time, or both)")
        if self.queue_interval_seconds <= 0:
            raise SettingsError("server setting queue_interval_seconds must be more than 0")
        if self.malloc_mmap_threshold > 32 * 1024 * 1024:  # glibc's most on 64-bit (mallopt refuses more)
            raise SettingsError("server setting malloc_mmap_threshold must be at most 33554432 (32 MiB)")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> ServerSettings:
        """The defaults, overridden by ``SGMAHJONG_*`` variables of ``env`` (default ``os.environ``),
        then by ``overrides``."""
        return from_environment(cls, "SGMAHJONG_", env, **overrides)

    def replace(self, **changes: Any) -> ServerSettings:
        return dataclasses.replace(self, **changes)

    @classmethod
    def describe(cls) -> list[tuple[str, Any]]:
        """(environment variable, default) of every setting, for the README."""
        return [("SGMAHJONG_" + f.name.upper(), f.default) for f in fields(cls)]


def from_environment(cls: type[T], prefix: str, env: Mapping[str, str] | None = None, **overrides: Any) -> T:
    """A settings dataclass ``cls``: its defaults, overridden by the variables ``prefix`` + FIELD NAME
    of ``env`` (default ``os.environ``), then by ``overrides``. A field's type is its default's: a
    tuple is comma-separated (of whole numbers if the field is annotated ``tuple[int, ...]``)."""
    env = os.environ if env is None else env
    values: dict[str, Any] = {}
    for f in fields(cls):  # type: ignore[arg-type]
        name = prefix + f.name.upper()
        raw = env.get(name)
        if raw is None:
            continue
        default = f.default
        kind = ("1 or 0 (true or false)" if isinstance(default, bool)
                else "whole numbers, comma-separated" if isinstance(default, tuple)
                else "a whole number" if isinstance(default, int) else "a number")
        try:
            if isinstance(default, bool):
                values[f.name] = _boolean(raw)
            elif isinstance(default, tuple):
                items = tuple(x.strip() for x in raw.split(",") if x.strip())
                numbers = str(f.type).startswith("tuple[int")
                values[f.name] = tuple(int(x) for x in items) if numbers else items
            elif isinstance(default, int):
                values[f.name] = int(raw)
            elif isinstance(default, float):
                values[f.name] = float(raw)
            else:
                values[f.name] = raw
        except ValueError:
            raise SettingsError(f"{name} must be {kind}; got {raw!r}") from None
    values.update(overrides)
    return cls(**values)


def _boolean(raw: str) -> bool:
    text = raw.strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off", ""):
        return False
    raise ValueError(raw)

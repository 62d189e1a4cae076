"""Who is told what: a club table opened (the members who asked, not who opened it), the table of an
evening opened (those in), an evening's reminder (those in or maybe; claimed in the store first, so it
is sent once whichever server finds it). Each builds the notifications in the subscriber's language and
hands them to the :class:`~.sender.PushSender` (it never waits)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from typing import Protocol

from ..settings import ServerSettings
from ..store.clubs_sql import ClubRow
from ..store.push_sql import EveningRow, SubscriptionRow
from .evening import clock_text, when_text, words
from .sender import Notice

log = logging.getLogger("sgmahjong.push")


class PushStore(Protocol):
    """What the notifier reads of the store."""

    def club_push_targets(self, club_id: int, only: Sequence[int] | None = None) -> list[SubscriptionRow]: ...

    def due_reminders(self, until: float, since: float) -> list[EveningRow]: ...

    def claim_reminder(self, session_id: int, when: float) -> bool: ...

    def club_by_id(self, club_id: int) -> ClubRow | None: ...


class Notifier:
    def __init__(self, store: Callable[[], PushStore], send: Callable[[list[Notice]], None]) -> None:
        self._store, self._send = store, send

    def table_opened(self, club: ClubRow, code: str, name: str, opener: str,
                     opener_ids: Sequence[int]) -> int:
        """A club table opened by ``opener``: the members who asked are told (the opener is not)."""
        skip = set(opener_ids)
        targets = [s for s in self._store().club_push_targets(club.id) if s.player_id not in skip]
        notices = [self._notice(s, "table", club, f"/t/{code}", f"table-{code}", who=opener, table=name)
                   for s in targets]
        self._send(notices)
        return len(notices)

    def session_table(self, club: ClubRow, session: EveningRow, code: str) -> int:
        """The owner opened the table of an evening: those who said in are told."""
        ins = [r.player_id for r in session.answers if r.answer == "in"]
        targets = self._store().club_push_targets(club.id, only=ins) if ins else []
        notices = [self._notice(s, "session_table", club, f"/t/{code}", f"table-{code}",
                                time=when_text(session.starts, session.zone, s.lang)) for s in targets]
        self._send(notices)
        return len(notices)

    def remind_due(self, lead: float, now: float | None = None) -> int:
        """Send the reminders due (evenings starting within ``lead`` seconds), each claimed first: the
        reminders sent by this call."""
        now = time.time() if now is None else now
        store, sent = self._store(), 0
        for session in store.due_reminders(now + lead, now):
            if not store.claim_reminder(session.id, now):
                continue  # another server took it
            club = store.club_by_id(session.club_id)
            if club is None:
                continue
            coming = [r.player_id for r in session.answers if r.answer in ("in", "maybe")]
            n = sum(1 for r in session.answers if r.answer == "in")
            targets = store.club_push_targets(club.id, only=coming) if coming else []
            self._send([self._notice(s, "reminder", club, f"/club/{club.code}", f"session-{session.id}",
                                     time=when_text(session.starts, session.zone, s.lang), zone=session.zone,
                                     n=n, clock=clock_text(session.starts, session.zone)) for s in targets])
            sent += 1
            log.info("reminder of evening %d of club %d: %d browsers", session.id, club.id, len(targets))
        return sent

    @staticmethod
    def _notice(to: SubscriptionRow, kind: str, club: ClubRow, url: str, tag: str,
                **params: object) -> Notice:
        title, body = words(kind, to.lang, club=club.name, **params)
        return Notice(to, {"kind": kind, "title": title, "body": body, "url": url, "tag": tag,
                           "club": club.code, "lang": to.lang})


async def remind_loop(notifier: Notifier, settings: ServerSettings) -> None:
    """Look for the reminders due in the store now (at start, so those due while the server was down
    are sent) and every ``reminder_poll_seconds``; until cancelled. A failure is logged, and tried again
    on the next round."""
    lead = settings.reminder_minutes * 60
    while True:
        try:
            await asyncio.to_thread(notifier.remind_due, lead)
        except Exception:
            log.exception("reminders")
        await asyncio.sleep(settings.reminder_poll_seconds)

"""Sending notifications: a bounded queue drained by a few background tasks, each post made in a
thread with a timeout, so sending never holds a table's lock or a request. A push service that answers
404 or 410 has forgotten the subscription: it is removed (``gone``). Failures are logged, never raised;
a full queue drops the notification (logged)."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from py_vapid import Vapid  # type: ignore[import-untyped]
from pywebpush import WebPushException, webpush  # type: ignore[import-untyped]

from ..store.push_sql import SubscriptionRow

log = logging.getLogger("sgmahjong.push")
GONE = (404, 410)


@dataclass(frozen=True)
class Notice:
    """One notification for one browser: its subscription and what it says (JSON for the worker)."""

    to: SubscriptionRow
    payload: dict[str, Any]


class PushSender:
    """``keys()``: the VAPID private key PEM (asked once, on the first send); ``gone(endpoint)``:
    forget a subscription the push service no longer knows."""

    def __init__(self, keys: Callable[[], str], gone: Callable[[str], object], *, queue_max: int,
                 senders: int, timeout: float, ttl: int, contact: str) -> None:
        self._keys, self._gone = keys, gone
        self._vapid: Any = None
        self.queue: asyncio.Queue[Notice] | None = None
        self.queue_max, self.senders, self.timeout, self.ttl, self.contact = (
            queue_max, senders, timeout, ttl, contact)
        self.sent = 0
        self.dropped = 0

    def send(self, notices: list[Notice]) -> None:
        """Queue ``notices`` (never waits); those beyond the queue's room are dropped."""
        if self.queue is None:
            self.dropped += len(notices)
            log.warning("push: not running, %d notifications dropped", len(notices))
            return
        for notice in notices:
            try:
                self.queue.put_nowait(notice)
            except asyncio.QueueFull:
                self.dropped += 1
                log.warning("push: queue full, a notification dropped")

    async def run(self) -> None:
        """The background tasks (until cancelled)."""
        self.queue = asyncio.Queue(self.queue_max)
        await asyncio.gather(*(self._drain(self.queue) for _ in range(self.senders)))

    async def _drain(self, queue: asyncio.Queue[Notice]) -> None:
        while True:
            notice = await queue.get()
            try:
                await asyncio.wait_for(asyncio.to_thread(self._post, notice), self.timeout + 5)
            except Exception as exc:  # logged, never raised: one failure stops no other notification
                log.warning("push to %s failed: %s", notice.to.endpoint[:60], exc)

    def _post(self, notice: Notice) -> None:
        if self._vapid is None:
            self._vapid = Vapid.from_pem(self._keys().encode())
        try:
            webpush(subscription_info={"endpoint": notice.to.endpoint,
                                       "keys": {"p256dh": notice.to.p256dh, "auth": notice.to.auth}},
                    data=json.dumps(notice.payload, ensure_ascii=False), vapid_private_key=self._vapid,
                    vapid_claims={"sub": self.contact}, timeout=self.timeout, ttl=self.ttl)
            self.sent += 1
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            if status in GONE:
                self._gone(notice.to.endpoint)
                log.info("push: subscription gone (%s), removed", status)
            else:
                log.warning("push to %s refused: %s", notice.to.endpoint[:60], status or exc)

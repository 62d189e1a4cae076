"""Structured logging: one JSON line per notable event (a table claimed or released, a lease lost,
a worker started, a storage fault), on the ``sgmahjong.events`` logger.

``sgmahjong serve`` writes these lines to stderr; a log shipper can parse each line as JSON:
``{"ts": 1700000000.123, "event": "table_claimed", "worker": "host-123", "table": "AbCd12", ...}``.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any

from .store.sql import default_worker

events_log = logging.getLogger("sgmahjong.events")
_worker = ""


def set_worker(name: str) -> None:
    global _worker
    _worker = name


def log_event(event: str, **fields: Any) -> None:
    """Log one event as a JSON line (at INFO; errors use :func:`log_error`)."""
    if events_log.isEnabledFor(logging.INFO):
        line = {"ts": round(time.time(), 3), "event": event, "worker": _worker or default_worker(), **fields}
        events_log.info(json.dumps(line, default=str, sort_keys=False))


def setup(level: int = logging.INFO) -> None:
    """Send the event lines to stderr, one per line, nothing added (idempotent)."""
    if any(getattr(h, "_sgmahjong", False) for h in events_log.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    handler._sgmahjong = True  # type: ignore[attr-defined]
    events_log.addHandler(handler)
    events_log.setLevel(level)
    events_log.propagate = False

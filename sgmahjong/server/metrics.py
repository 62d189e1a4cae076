"""Prometheus metrics of one server process (``GET /metrics``, text format, prometheus_client).

Every name starts ``sgmahjong_``. Each worker of a cluster serves its own; Prometheus scrapes each
worker (not through HAProxy) and sums.
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CONTENT_TYPE_LATEST, Counter, Gauge, Histogram, generate_latest

LIVE_TABLES = Gauge("sgmahjong_live_tables", "Tables loaded and served by this process")
SOCKETS = Gauge("sgmahjong_sockets", "Open table WebSockets")
ACTIONS = Counter("sgmahjong_actions_applied_total", "Actions applied to tables", ["source"])
ACTION_LATENCY = Histogram(
    "sgmahjong_action_update_seconds",
    "From an action message received to every seat's update queued",
    buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
SEND_DELAY = Histogram(
    "sgmahjong_send_delay_seconds",
    "From a message queued for a connection to its socket write (waiting for its writes' commit)",
    buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
STORE_WRITE = Histogram(
    "sgmahjong_store_write_seconds",
    "One store transaction (a write or a batch of writes), begin to commit",
    buckets=(0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5),
)
REFUSALS = Counter("sgmahjong_refusals_total", "Messages and requests refused, by error code", ["code"])
ERRORS = Counter("sgmahjong_errors_total", "Errors by kind (server, store, lease_lost)", ["kind"])


GC_PAUSE = Histogram(
    "sgmahjong_gc_pause_seconds",
    "Garbage-collector passes (they pause every table), by generation",
    ["generation"],
    buckets=(0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)


def track_gc() -> None:
    """Time every garbage-collector pass into ``sgmahjong_gc_pause_seconds`` (``sgmahjong serve``)."""
    import gc
    import time

    children = [GC_PAUSE.labels(str(g)) for g in range(3)]
    started = [0.0]

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            children[min(2, info.get("generation", 0))].observe(time.perf_counter() - started[0])

    gc.callbacks.append(callback)


LOOP_LAG = Histogram(
    "sgmahjong_loop_lag_seconds",
    "How late the event loop runs a task that sleeps 0.1 s (every table waits as long)",
    buckets=(0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)


async def watch_loop_lag(period: float = 0.1) -> None:
    """Measure the event loop's lateness into ``sgmahjong_loop_lag_seconds``, forever."""
    import asyncio

    loop = asyncio.get_running_loop()
    while True:
        start = loop.time()
        await asyncio.sleep(period)
        LOOP_LAG.observe(max(0.0, loop.time() - start - period))


def track_live_tables(count: Callable[[], int]) -> None:
    LIVE_TABLES.set_function(lambda: float(count()))


def exposition() -> tuple[bytes, str]:
    """The metrics page and its content type."""
    return generate_latest(), CONTENT_TYPE_LATEST

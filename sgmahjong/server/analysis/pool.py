"""A bounded pool of processes for CPU-heavy jobs, with deduplication and progress.

:class:`JobPool` wraps a :class:`concurrent.futures.ProcessPoolExecutor` (``workers`` processes,
started by ``spawn`` on the first job: none is started for a server that never reviews). At most
``limit`` jobs are queued or running at once; one more raises :class:`PoolBusy`. A job is known by
its key: submitting a key already queued or running joins that job. A job that reports progress
gets a ``progress(done, total)`` callback in its process; the figures come back over a queue read by
one thread and are readable on :class:`Job`. Finished jobs are forgotten (their results are the
caller's to keep), except the latest few, kept for the pages that poll for them.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from ...errors import SgMahjongError

log = logging.getLogger("sgmahjong.server.analysis")

BUSY = "the reviewer is busy, try again in a minute"
FINISHED_KEPT = 64  # finished jobs remembered for pollers (the oldest is dropped beyond)
NICE = 10  # the workers yield the CPU to the server's own process (tables, sockets)

_progress: Any = None  # in a worker process: the queue its progress goes to


class PoolBusy(Exception):
    """The pool has ``limit`` jobs queued or running: try again later."""

    def __init__(self) -> None:
        super().__init__(BUSY)


class Cancelled(Exception):
    """A job cancelled before it ran (the pool was closed)."""


@dataclass(eq=False)
class Job:
    """One job: its key, its future, and the progress its process has reported."""

    key: Hashable
    number: int
    future: Future[Any]
    done: int = 0
    total: int = 0
    on_done: list[Callable[[Job], object]] = field(default_factory=list)

    @property
    def status(self) -> str:
        """queued | running | done | failed"""
        if self.future.done():
            return "failed" if self.future.cancelled() or self.future.exception() else "done"
        return "running" if self.total or self.future.running() else "queued"

    def error(self) -> BaseException | None:
        if not self.future.done():
            return None
        if self.future.cancelled():
            return Cancelled("cancelled: the server is stopping")
        return self.future.exception()

    def progress(self) -> dict[str, Any]:
        return {"status": self.status, "done": self.done, "total": self.total}


def _start_worker(queue: Any) -> None:
    global _progress
    _progress = queue
    with contextlib.suppress(OSError):  # not allowed here: run at the same priority
        os.nice(NICE)


def _call(number: int, fn: Callable[..., Any], args: tuple[Any, ...], report: bool) -> Any:
    """In a worker: run ``fn(*args)``, with ``progress=`` sending (number, done, total) home."""
    if not report:
        return fn(*args)

    def progress(done: int, total: int) -> None:
        _progress.put((number, done, total))

    return fn(*args, progress=progress)


class JobPool:
    """See the module docstring. Thread-safe; :meth:`close` stops the processes."""

    def __init__(self, workers: int, limit: int) -> None:
        self.workers = max(1, workers)
        self.limit = limit
        self.started = 0  # jobs started since the pool was made (what a test counts)
        self._lock = threading.Lock()
        self._executor: ProcessPoolExecutor | None = None
        self._queue: Any = None
        self._reader: threading.Thread | None = None
        self._active: dict[Hashable, Job] = {}
        self._by_number: dict[int, Job] = {}
        self._finished: OrderedDict[Hashable, Job] = OrderedDict()
        self._closed = False

    def job(self, key: Hashable) -> Job | None:
        """The job of ``key`` if it is queued, running or recently finished."""
        with self._lock:
            return self._active.get(key) or self._finished.get(key)

    def active(self) -> int:
        with self._lock:
            return len(self._active)

    def submit(self, key: Hashable, fn: Callable[..., Any], args: tuple[Any, ...], *,
               progress: bool = False, on_done: Callable[[Job], object] | None = None) -> Job:
        """Start ``fn(*args)`` (a module-level function: it is pickled to a worker), or join the
        job of the same ``key`` queued or running; raises :class:`PoolBusy` when ``limit`` jobs are."""
        try:
            return self._submit(key, fn, args, progress, on_done)
        except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh
            log.warning("the analysis pool broke; starting new workers")
            with self._lock:
                parts = self._detach()
            _shutdown(*parts, join_reader=False)
            return self._submit(key, fn, args, progress, on_done)

    def _submit(self, key: Hashable, fn: Callable[..., Any], args: tuple[Any, ...], progress: bool,
                on_done: Callable[[Job], object] | None) -> Job:
        with self._lock:
            if self._closed:
                raise PoolBusy
            job = self._active.get(key)
            if job is not None:
                if on_done is not None:
                    job.on_done.append(on_done)
                return job
            if len(self._active) >= self.limit:
                raise PoolBusy
            future = self._ensure().submit(_call, self.started + 1, fn, args, progress)
            self.started += 1
            job = Job(key, self.started, future, on_done=[on_done] if on_done else [])
            self._active[key] = job
            self._by_number[job.number] = job
        future.add_done_callback(lambda _f: self._finish(job))
        return job

    def _ensure(self) -> ProcessPoolExecutor:
        if self._executor is None:
            context = multiprocessing.get_context("spawn")
            self._queue = context.Queue()
            self._executor = ProcessPoolExecutor(self.workers, mp_context=context,
                                                 initializer=_start_worker, initargs=(self._queue,))
            self._reader = threading.Thread(target=self._read, args=(self._queue,),
                                            name="analysis-progress", daemon=True)
            self._reader.start()
        return self._executor

    def _read(self, queue: Any) -> None:
        while True:
            try:
                message = queue.get()
            except (EOFError, OSError):
                return
            if message is None:
                return
            number, done, total = message
            with self._lock:
                job = self._by_number.get(number)
                if job is not None:
                    job.done, job.total = done, total

    def _finish(self, job: Job) -> None:
        with self._lock:
            self._active.pop(job.key, None)
            self._by_number.pop(job.number, None)
            if job.future.done() and not job.future.cancelled() and job.future.exception() is None:
                job.done = job.total = max(job.done, job.total)
            self._finished[job.key] = job
            while len(self._finished) > FINISHED_KEPT:
                self._finished.popitem(last=False)
            hooks = list(job.on_done)
        exc = job.error()
        if exc is not None and not isinstance(exc, SgMahjongError | Cancelled):
            log.error("analysis job %s failed: %r", job.key, exc)
        for hook in hooks:
            try:
                hook(job)
            except Exception:  # a hook's failure (e.g. the store down) must not lose the others
                log.exception("after analysis job %s", job.key)

    def _detach(self) -> tuple[ProcessPoolExecutor | None, Any, threading.Thread | None]:
        parts = (self._executor, self._queue, self._reader)
        self._executor = self._queue = self._reader = None
        return parts

    def close(self) -> None:
        """Stop the workers (a running job is cut short, queued ones are cancelled)."""
        with self._lock:
            self._closed = True
            parts = self._detach()
            futures = [job.future for job in self._active.values()]
        _shutdown(*parts, join_reader=True)
        wait(futures, timeout=5)  # each job failed or cancelled: a poller is told


def _shutdown(executor: ProcessPoolExecutor | None, queue: Any, reader: threading.Thread | None, *,
              join_reader: bool) -> None:
    """Stop an executor without waiting for its running job (outside the pool's lock: cancelling
    runs the jobs' callbacks, which take it)."""
    if executor is None:
        return
    processes = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=5)
    queue.put(None)
    if reader is not None and join_reader:
        reader.join(timeout=5)

"""A bounded pool of processes for CPU-heavy jobs, shared fairly between requesters, with
deduplication and progress.

:class:`JobPool` wraps a :class:`concurrent.futures.ProcessPoolExecutor` (``workers`` processes,
started by ``spawn`` on the first job: none is started for a server that never reviews). At most
``limit`` jobs are queued or running at once; one more raises :class:`PoolBusy`. Each job has its
requester (the keys of the person who asked: address and identity, see ``http/identity.py``): a
requester holds at most ``per_requester`` counted jobs at once (one more raises
:class:`RequesterBusy`), and the queue is one line per requester, served in turn (round-robin: the
line whose last turn is the oldest goes next), so a job waits behind at most one job of each other
requester, never behind a whole backlog. A job is known by its key: submitting a key already queued
or running joins that job. A job that reports progress gets a ``progress(done, total)`` callback in
its process; the figures come back over a queue read by one thread and are readable on :class:`Job`.
Finished jobs are forgotten (their results are the caller's to keep), except the latest few, kept
for the pages that poll for them.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import multiprocessing
import os
import threading
from collections import OrderedDict, deque
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
STOPPING = "cancelled: the server is stopping"

_progress: Any = None  # in a worker process: the queue its progress goes to


class PoolBusy(Exception):
    """The pool has ``limit`` jobs queued or running: try again later."""

    def __init__(self) -> None:
        super().__init__(BUSY)


class RequesterBusy(Exception):
    """The requester has ``per_requester`` jobs queued or running: one of them must finish first."""

    def __init__(self, most: int) -> None:
        super().__init__(f"you have {most} expert jobs queued or running (the most): wait for one to finish")
        self.most = most


class Cancelled(Exception):
    """A job cancelled before it ran (the pool was closed)."""


@dataclass(eq=False)
class Job:
    """One job: its key, its future, its requester and the progress its process has reported."""

    key: Hashable
    number: int
    future: Future[Any]
    requester: tuple[str, ...] = ()
    counted: bool = True  # counts toward the requester's ``per_requester``
    call: tuple[Callable[..., Any], tuple[Any, ...], bool] | None = None  # (fn, args, progress) until run
    order: int = 0  # its place in the order jobs were handed to the workers (0: still queued)
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
            return Cancelled(STOPPING)
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


def lane_of(requester: tuple[str, ...]) -> str:
    """The line a requester's jobs wait in: their identity's when known, else their address's."""
    return requester[-1] if requester else ""


class JobPool:
    """See the module docstring. Thread-safe; :meth:`close` stops the processes."""

    def __init__(self, workers: int, limit: int, per_requester: int = 0) -> None:
        self.workers = max(1, workers)
        self.limit = limit
        self.per_requester = per_requester  # 0: no bound per requester
        self.started = 0  # jobs accepted since the pool was made (what a test counts)
        self.dispatched = 0  # jobs handed to the workers
        self._lock = threading.Lock()
        self._executor: ProcessPoolExecutor | None = None
        self._queue: Any = None
        self._reader: threading.Thread | None = None
        self._active: dict[Hashable, Job] = {}
        self._by_number: dict[int, Job] = {}
        self._finished: OrderedDict[Hashable, Job] = OrderedDict()
        self._lanes: dict[str, deque[Job]] = {}  # waiting jobs, a line per requester
        self._turns: dict[str, int] = {}  # a line's last turn (the dispatch order of its latest job) ...
        self._in_line: dict[str, int] = {}  # ... kept while it has jobs queued or running (this many)
        self._held: dict[str, int] = {}  # counted jobs queued or running, per requester key
        self._running = 0  # jobs with the workers
        self._closed = False

    def job(self, key: Hashable) -> Job | None:
        """The job of ``key`` if it is queued, running or recently finished."""
        with self._lock:
            return self._active.get(key) or self._finished.get(key)

    def active(self) -> int:
        with self._lock:
            return len(self._active)

    def held(self, key: str) -> int:
        """Counted jobs queued or running of a requester key."""
        with self._lock:
            return self._held.get(key, 0)

    def submit(self, key: Hashable, fn: Callable[..., Any], args: tuple[Any, ...], *,
               requester: tuple[str, ...] = (), counted: bool = True, progress: bool = False,
               on_done: Callable[[Job], object] | None = None) -> Job:
        """Queue ``fn(*args)`` (a module-level function: it is pickled to a worker) in the line of
        ``requester``, or join the job of the same ``key`` queued or running. Raises
        :class:`PoolBusy` when ``limit`` jobs are queued or running, :class:`RequesterBusy` when a
        key of ``requester`` holds ``per_requester`` counted jobs (``counted``: this one counts)."""
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
            if counted and self.per_requester and any(
                    self._held.get(k, 0) >= self.per_requester for k in requester):
                raise RequesterBusy(self.per_requester)
            self.started += 1
            job = Job(key, self.started, Future(), requester, counted, (fn, args, progress),
                      on_done=[on_done] if on_done else [])
            self._active[key] = job
            self._by_number[job.number] = job
            if counted:
                for k in requester:
                    self._held[k] = self._held.get(k, 0) + 1
            lane = lane_of(requester)
            self._lanes.setdefault(lane, deque()).append(job)
            self._in_line[lane] = self._in_line.get(lane, 0) + 1
        job.future.add_done_callback(lambda _f: self._finish(job))
        self._dispatch()
        return job

    def _dispatch(self) -> None:
        """Hand waiting jobs to free workers, the first of each line in turn."""
        while True:
            with self._lock:
                if self._closed or self._running >= self.workers or not self._lanes:
                    return
                # the line served longest ago (never: 0) goes first; between equals, the older job
                lane = min(self._lanes, key=lambda k: (self._turns.get(k, 0), self._lanes[k][0].number))
                line = self._lanes[lane]
                job = line.popleft()
                runs = job.future.set_running_or_notify_cancel()  # False: cancelled meanwhile
                if runs:
                    self._running += 1
                    self.dispatched += 1
                    job.order = self._turns[lane] = self.dispatched
                if not line:
                    del self._lanes[lane]
            if not runs:
                continue
            self._start(job)

    def _start(self, job: Job) -> None:
        assert job.call is not None
        fn, args, report = job.call
        job.call = None
        for attempt in (1, 2):
            with self._lock:
                if self._closed:  # closed meanwhile: no new workers
                    inner = None
                    break
                try:
                    inner = self._ensure().submit(_call, job.number, fn, args, report)
                    break
                except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh
                    log.warning("the analysis pool broke; starting new workers")
                    parts = self._detach()
            _shutdown(*parts, join_reader=False)
            if attempt == 2:
                inner = None
        if inner is None:
            self._settle(job, None)
        else:
            inner.add_done_callback(functools.partial(self._settle, job))

    def _settle(self, job: Job, inner: Future[Any] | None) -> None:
        """A worker's answer (in the executor's thread): the job's outcome, then the next job."""
        with self._lock:
            self._running -= 1
        if inner is None or inner.cancelled():
            job.future.set_exception(Cancelled(STOPPING))
        elif (exc := inner.exception()) is not None:
            job.future.set_exception(exc)
        else:
            job.future.set_result(inner.result())
        self._dispatch()

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
            if job.counted:
                for k in job.requester:
                    _less(self._held, k)
            lane = lane_of(job.requester)
            if not _less(self._in_line, lane):
                self._turns.pop(lane, None)  # a line with nothing queued or running starts afresh
            if job.future.done() and not job.future.cancelled() and job.future.exception() is None:
                job.done = job.total = max(job.done, job.total)
            self._finished[job.key] = job
            while len(self._finished) > FINISHED_KEPT:
                self._finished.popitem(last=False)
            hooks = list(job.on_done)
        exc = job.error()
        if exc is not None and not self._closed and not isinstance(exc, SgMahjongError | Cancelled):
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
            waiting = [job for line in self._lanes.values() for job in line]
            self._lanes.clear()
        for job in waiting:
            job.future.cancel()
        _shutdown(*parts, join_reader=True)
        wait(futures, timeout=5)  # each job failed or cancelled: a poller is told


def _less(counts: dict[str, int], key: str) -> int:
    """One less of ``key`` in ``counts`` (dropped at 0); what is left."""
    left = counts.get(key, 0) - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)
    return max(0, left)


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

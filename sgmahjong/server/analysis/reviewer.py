"""The reviewer: expert reviews of finished hands, computed once and stored; analyses of a replay
step, kept in a bounded memory. Both run in the :class:`~.pool.JobPool`.

Answers are JSON-ready dicts with a ``status``: ``none`` (not asked for), ``queued``, ``running``
(with ``done``/``total`` decisions), ``done`` (with the result) or ``failed`` (with ``error``; ``bad``
is true when the input was at fault, e.g. a step where the seat had no choice).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ... import coach
from ...errors import SgMahjongError
from ..settings import ServerSettings, SettingsError
from ..store import Store, StoreError
from . import jobs
from .pool import Job, JobPool, PoolBusy

log = logging.getLogger("sgmahjong.server.analysis")

MODE = "expert2"  # the stored reviews' mode (the fast "strong" review is not stored: it is quick); "expert2":
# flags checked on fresh deals (coach.py), so a review stored under the one-stage rule ("expert") is
# computed again
FAILED = "the review could not be computed"


class ReviewRunning(Exception):
    """The requester has a whole-match review going on: one at a time."""

    def __init__(self) -> None:
        super().__init__("you have a whole-match review going on: wait for it to finish")


@dataclass(eq=False)
class _Chain:
    """A whole-match review going on: whose it is, and the job of the hand being reviewed."""

    requester: tuple[str, ...]
    job: Job | None = None


def failure(job: Job) -> dict[str, Any]:
    """A failed job's answer: the input's fault (``bad``: the message says what), or ours."""
    exc = job.error()
    if isinstance(exc, SgMahjongError):
        return {"status": "failed", "error": str(exc), "bad": True}
    return {"status": "failed", "error": FAILED, "bad": False}


class Reviewer:
    """One per server process (made by the app, closed with it). Not for the event loop's hot path:
    the store calls are short reads and one write per computed review."""

    def __init__(self, settings: ServerSettings) -> None:
        self.pool = JobPool(settings.analysis_workers, settings.analysis_queue,
                            settings.analysis_jobs_per_requester)
        self.deals = settings.analysis_deals or coach.DEFAULT_DEALS
        if not coach.MIN_DEALS <= self.deals <= coach.MAX_DEALS:
            raise SettingsError(f"server setting analysis_deals must be 0 (the expert's default,"
                                f" {coach.DEFAULT_DEALS}) or from {coach.MIN_DEALS} to {coach.MAX_DEALS}")
        self.cache_size = settings.analysis_cache
        self.wait_seconds = settings.analysis_wait_seconds
        self._analyses: OrderedDict[tuple[int, int, int, int, int], dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self._chains: dict[tuple[int, int], _Chain] = {}  # whole-match reviews going on: (table, seat)
        self._match_of: dict[str, tuple[int, int]] = {}  # a requester key's whole-match review

    def close(self) -> None:
        self.pool.close()

    # -- reviews of a hand -------------------------------------------------------------------------
    def review(self, store: Store, table_id: int, hand: int, seat: int, text: Callable[[], str] | None,
               requester: tuple[str, ...] = (), *, counted: bool = True,
               then: Callable[[Job], object] | None = None) -> dict[str, Any]:
        """The expert review of ``seat`` in that finished hand: stored, being computed, or (with
        ``text``, the hand's log) queued now for ``requester``. Raises :class:`PoolBusy` when the
        pool is full, :class:`~.pool.RequesterBusy` when the requester holds their most jobs (``counted``:
        this one counts; ``then``: called with the job once it is over, as the review is stored)."""
        stored = store.review(table_id, hand, seat, MODE, self.deals)
        if stored is not None:
            return _done(stored)
        key = ("review", table_id, hand, seat, self.deals)
        job = self.pool.job(key)
        if text is not None and (job is None or (then is not None and job.status in ("queued", "running"))):
            loop = asyncio.get_running_loop()

            def keep(j: Job) -> None:
                self._keep(store, table_id, hand, seat, j)
                if then is not None:
                    then(j)

            job = self.pool.submit(
                key, jobs.expert_review, (text(), seat, self.deals), requester=requester, counted=counted,
                progress=True, on_done=lambda j: _in_loop(loop, keep, j))
        if job is None:
            return {"status": "none"}
        if job.status == "failed":
            return failure(job)
        if job.status == "done":
            return _done(job.future.result())
        return job.progress()

    def _keep(self, store: Store, table_id: int, hand: int, seat: int, job: Job) -> None:
        if job.status != "done":
            return
        try:
            store.add_review(table_id, hand, seat, MODE, self.deals, job.future.result(), time.time())
        except StoreError as exc:  # computed again on a later request; the poll still sees it
            log.warning("expert review not stored: %s", exc)

    def match(self, store: Store, table_id: int, seat: int, text: Callable[[int], str] | None,
              requester: tuple[str, ...] = ()) -> dict[str, Any]:
        """Every finished hand of the table reviewed for ``seat``: each hand's status, and the match's
        summary once all are done (``partial``: the summary of those done so far). With ``text``, the
        missing hands are reviewed one after another (a whole-match review: one job in the pool at a
        time, in the requester's line); a requester runs one whole-match review at a time (another
        raises :class:`ReviewRunning`; asking again for the same one joins it)."""
        finished = [h.number for h in store.hands(table_id) if h.ended is not None]
        busy = False
        if text is not None:
            busy = not self._run_match(store, table_id, seat, finished, text, requester)
        chain = self._chains.get((table_id, seat))
        stored = store.table_reviews(table_id, seat, MODE, self.deals)
        hands: list[dict[str, Any]] = []
        done: list[tuple[int, dict[str, Any]]] = []
        for number in finished:
            answer = _done(stored[number]) if number in stored else self.review(
                store, table_id, number, seat, None)
            if answer["status"] == "none" and chain is not None:
                answer = {"status": "queued", "done": 0, "total": 0}  # its turn in the match's review
            if answer["status"] == "done":
                done.append((number, answer["review"]))
            hands.append({"hand": number, **{k: v for k, v in answer.items() if k != "review"},
                          **({"summary": answer["review"].get("summary")} if "review" in answer else {})})
        summary = jobs.match_summary([r for _, r in done]) if done else None
        if summary is not None:
            for big in summary.get("biggest", []):
                big["hand_number"] = done[int(big["hand"])][0]
        complete = len(done) == len(finished)
        return {"seat": seat, "deals": self.deals, "hands": hands, "busy": busy, "complete": complete,
                "summary": summary}

    def _run_match(self, store: Store, table_id: int, seat: int, finished: list[int],
                   text: Callable[[int], str], requester: tuple[str, ...]) -> bool:
        """Start (or go on with) the whole-match review of ``seat``; False when the pool was full."""
        key = (table_id, seat)
        chain = self._chains.get(key)
        if chain is None:
            for k in requester:
                other = self._match_of.get(k)
                if other is not None and other in self._chains:
                    raise ReviewRunning
            chain = self._chains[key] = _Chain(requester)
            for k in requester:
                self._match_of[k] = key
        if chain.job is not None and chain.job.status in ("queued", "running"):
            return True
        return self._next_hand(store, key, chain, finished, text)

    def _next_hand(self, store: Store, key: tuple[int, int], chain: _Chain, finished: list[int],
                   text: Callable[[int], str]) -> bool:
        """Queue the next hand of a whole-match review (or end it: every hand reviewed, or tried and
        failed, or the pool full); False when the pool was full."""
        table_id, seat = key
        stored = store.table_reviews(table_id, seat, MODE, self.deals)
        for number in finished:
            if number in stored:
                continue
            job = self.pool.job(("review", table_id, number, seat, self.deals))
            if job is not None and job.status in ("done", "failed"):
                continue  # done and being stored, or failed (its answer says why)
            try:
                self.review(store, table_id, number, seat, _bind(text, number), chain.requester,
                            counted=False, then=lambda _j: self._go_on(store, key, chain, finished, text))
            except PoolBusy:
                self._end(key, chain)
                return False
            chain.job = self.pool.job(("review", table_id, number, seat, self.deals))
            return True
        self._end(key, chain)
        return True

    def _go_on(self, store: Store, key: tuple[int, int], chain: _Chain, finished: list[int],
               text: Callable[[int], str]) -> None:
        if self._chains.get(key) is chain:
            chain.job = None
            self._next_hand(store, key, chain, finished, text)

    def _end(self, key: tuple[int, int], chain: _Chain) -> None:
        if self._chains.get(key) is chain:
            del self._chains[key]
        for k in chain.requester:
            if self._match_of.get(k) == key:
                del self._match_of[k]

    # -- the analysis board ------------------------------------------------------------------------
    def analysis(self, table_id: int, hand: int, number: int, seat: int, text: Callable[[], str] | None,
                 requester: tuple[str, ...] = (),
                 store: Store | None = None) -> tuple[dict[str, Any], Job | None]:
        """What the expert would do for ``seat`` after the first ``number`` actions of the hand:
        (the answer, the job computing it if it is not done; queued for ``requester``). With ``store``,
        the state before a decision of a stored review is answered from it at once (the board there
        gives the review's numbers exactly: the same seed, deals and stop)."""
        key = (table_id, hand, number, seat, self.deals)
        with self._lock:
            cached = self._analyses.get(key)
            if cached is not None:
                self._analyses.move_to_end(key)
                return cached, None
        if store is not None:
            reviewed = _from_review(store.review(table_id, hand, seat, MODE, self.deals), number, seat)
            if reviewed is not None:
                with self._lock:
                    self._analyses[key] = reviewed
                    while len(self._analyses) > self.cache_size:
                        self._analyses.popitem(last=False)
                return reviewed, None
        job = self.pool.job(("analysis", *key))
        if job is None and text is not None:
            job = self.pool.submit(("analysis", *key), jobs.expert_analysis,
                                   (text(), number, seat, self.deals), requester=requester,
                                   on_done=lambda j: self._remember(key, j))
        if job is None:
            return {"status": "none"}, None
        if job.status in ("done", "failed"):
            return self._remember(key, job), None
        return job.progress(), job

    def _remember(self, key: tuple[int, int, int, int, int], job: Job) -> dict[str, Any]:
        answer = {"status": "done", "analysis": job.future.result()} if job.status == "done" else failure(job)
        if answer["status"] == "done" or answer.get("bad"):  # a failure of ours is tried again
            with self._lock:
                self._analyses[key] = answer
                while len(self._analyses) > self.cache_size:
                    self._analyses.popitem(last=False)
        return answer


def _from_review(review: dict[str, Any] | None, number: int, seat: int) -> dict[str, Any] | None:
    """The board's answer at the state after ``number`` actions, from a stored review of ``seat`` with
    a decision there (else None)."""
    if review is None:
        return None
    for d in review.get("decisions", []):
        if d.get("number") == number + 1 and "options" in d:
            return {"status": "done", "analysis": {"number": number, "seat": seat, "played": d["chosen"],
                                                   "best": d["best"], "options": d["options"]}}
    return None


def _done(review: dict[str, Any]) -> dict[str, Any]:
    n = len(review.get("decisions", []))
    return {"status": "done", "done": n, "total": n, "review": review}


def _bind(text: Callable[[int], str], number: int) -> Callable[[], str]:
    return lambda: text(number)


def _in_loop(loop: asyncio.AbstractEventLoop, fn: Callable[..., None], *args: Any) -> None:
    """Run ``fn(*args)`` in the event loop's thread (where the store is written), from a pool thread."""
    with contextlib.suppress(RuntimeError):  # the loop has closed: the server is stopping
        loop.call_soon_threadsafe(fn, *args)

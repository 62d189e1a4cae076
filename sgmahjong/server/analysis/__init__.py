"""The expert's slow work for finished hands, off the event loop: a bounded pool of processes
(:mod:`.pool`), the jobs it runs (:mod:`.jobs`, calling the pure :mod:`sgmahjong.coach`), and the
reviewer (:mod:`.reviewer`) that stores each expert review once and keeps recent analyses of a
replay step in memory. Started on first use, shut down with the server."""

from . import jobs
from .pool import JobPool, PoolBusy, RequesterBusy
from .reviewer import MODE, Reviewer, ReviewRunning

__all__ = ["MODE", "JobPool", "PoolBusy", "RequesterBusy", "ReviewRunning", "Reviewer", "jobs"]

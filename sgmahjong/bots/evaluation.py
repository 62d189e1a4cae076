"""What a search found, and the expert's rule for overruling ``strong`` by it (:mod:`.expert`)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

MIN_ROUNDS = 8  # the expert overrules strong only over at least this many complete deals


@dataclass(slots=True)
class Evaluation:
    """What a search found: each candidate's result (the seat's net for the hand, in payment units) on
    every complete deal it was played out on, in deal order (a dropped candidate's list stops early;
    candidate 0 has one per deal), and the running paired differences to candidate 0."""

    results: list[list[float]]
    sums: list[float]  # sum of (result - candidate 0's result) over the deals, per candidate
    squares: list[float]  # ... and of its square
    alive: list[int]  # the candidates not dropped
    moved: list[int]  # per candidate: the deals on which its result differed from candidate 0's
    rounds: int = 0  # complete deals
    playouts: int = 0  # playouts started

    @staticmethod
    def empty(n: int) -> Evaluation:
        """The evaluation of ``n`` candidates before any deal."""
        return Evaluation([[] for _ in range(n)], [0.0] * n, [0.0] * n, list(range(n)), [0] * n)

    def estimate(self, i: int) -> tuple[float, float, int]:
        """(mean, standard error, deals) of candidate ``i``'s result (se 0 under two deals)."""
        return estimate(self.results[i])

    def paired(self, i: int, j: int) -> tuple[float, float, int]:
        """(mean, standard error, deals) of the paired difference ``i - j`` over the deals both were
        played out on (common random numbers: far tighter than either estimate alone)."""
        a, b = self.results[i], self.results[j]
        n = min(len(a), len(b))
        return estimate([a[k] - b[k] for k in range(n)])


def overrule(leads: Iterable[tuple[int, float, float]], rounds: int, z: float) -> tuple[int, float]:
    """The candidate the expert plays and its lead: of ``leads`` (candidate, mean paired difference to
    ``strong``'s choice, its standard error, over ``rounds`` deals), the one with the largest mean that
    is ahead by more than ``z`` standard errors, over at least ``MIN_ROUNDS`` deals; else ``strong``'s
    choice, ``(0, 0.0)``."""
    best, best_mean = 0, 0.0
    if rounds < max(2, MIN_ROUNDS):
        return best, best_mean
    for i, mean, se in leads:
        if mean > best_mean and mean > z * se:
            best, best_mean = i, mean
    return best, best_mean


def estimate(xs: Sequence[float]) -> tuple[float, float, int]:
    n = len(xs)
    if n == 0:
        return 0.0, 0.0, 0
    total = 0.0
    squares = 0.0
    for x in xs:
        total += x
        squares += x * x
    mean, se = mean_se(total, squares, n)
    return mean, (se if n >= 2 else 0.0), n


def ahead(total: float, squares: float, n: int, z: float, lift: float = 0.0) -> bool:
    """Whether a candidate may still be ahead: its mean difference plus ``lift`` plus ``z`` standard
    errors is > 0."""
    mean, se = mean_se(total, squares, n)
    return mean + lift + z * se > 0


def mean_se(total: float, squares: float, n: int) -> tuple[float, float]:
    """The mean of ``n`` paired differences and its standard error, from their sum and sum of squares."""
    mean = total / n
    if n < 2:
        return mean, math.inf
    var = max(0.0, squares / n - mean * mean) * n / (n - 1)
    return mean, math.sqrt(var / n)

"""Rate limits: a token bucket, and a bounded table of buckets per client address."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable


class TokenBucket:
    """``burst`` tokens, refilled at ``rate`` per second; :meth:`take` spends one if there is one."""

    __slots__ = ("_clock", "_last", "burst", "rate", "tokens")

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self._clock = clock
        self._last = clock()

    def take(self) -> bool:
        now = self._clock()
        self.tokens = min(self.burst, self.tokens + (now - self._last) * self.rate)
        self._last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def wait(self) -> float:
        """Seconds until the next token."""
        return 0.0 if self.tokens >= 1 or self.rate <= 0 else (1 - self.tokens) / self.rate


class AddressBuckets:
    """One :class:`TokenBucket` per client address, for at most ``size`` addresses (the least recently
    seen is forgotten, which only ever gives that address a fresh burst)."""

    def __init__(
        self, rate: float, burst: int, size: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst, self.size, self._clock = rate, burst, size, clock
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def take(self, address: str) -> bool:
        bucket = self._buckets.get(address)
        if bucket is None:
            bucket = self._buckets[address] = TokenBucket(self.rate, self.burst, self._clock)
            while len(self._buckets) > self.size:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(address)
        return bucket.take()

    def wait(self, address: str) -> float:
        bucket = self._buckets.get(address)
        return 0.0 if bucket is None else bucket.wait()

    def __len__(self) -> int:
        return len(self._buckets)

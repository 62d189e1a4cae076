"""Rate limits: a token bucket, a bounded table of buckets per client address (or any key), and a
limit per person and per address (a token of both)."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Iterable


class TokenBucket:
    """``burst`` tokens, refilled at ``rate`` per second; :meth:`take` spends one if there is one."""

    __slots__ = ("_clock", "_last", "burst", "rate", "tokens")

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self._clock = clock
        self._last = clock()

    def refill(self) -> float:
        """The tokens there are now."""
        now = self._clock()
        self.tokens = min(self.burst, self.tokens + (now - self._last) * self.rate)
        self._last = now
        return self.tokens

    def take(self) -> bool:
        if self.refill() >= 1:
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

    def bucket(self, address: str) -> TokenBucket:
        """The bucket of ``address`` (a new one if it has none), now the most recently seen."""
        bucket = self._buckets.get(address)
        if bucket is None:
            bucket = self._buckets[address] = TokenBucket(self.rate, self.burst, self._clock)
            while len(self._buckets) > self.size:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(address)
        return bucket

    def take(self, address: str) -> bool:
        return self.bucket(address).take()

    def wait(self, address: str) -> float:
        bucket = self._buckets.get(address)
        return 0.0 if bucket is None else bucket.wait()

    def __len__(self) -> int:
        return len(self._buckets)


class PersonLimits:
    """A limit per person and per address: an act needs a token of its address's bucket and of each of
    its person keys' (identity.person_keys; one person may have several), or it takes none. Each table
    of buckets keeps at most ``size`` keys (the least recently seen forgotten: a fresh burst only)."""

    def __init__(self, person_rate: float, person_burst: int, address_rate: float, address_burst: int,
                 size: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.people = AddressBuckets(person_rate, person_burst, size, clock)
        self.addresses = AddressBuckets(address_rate, address_burst, size, clock)

    def take(self, address: str, person: Iterable[str]) -> bool:
        buckets = [self.addresses.bucket(address), *(self.people.bucket(k) for k in dict.fromkeys(person))]
        if all(b.refill() >= 1 for b in buckets):
            for b in buckets:
                b.tokens -= 1
            return True
        return False

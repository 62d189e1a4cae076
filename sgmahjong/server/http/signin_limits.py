"""The limits of signing in (docs/accounts.md, "Limits"): how fast one person may begin passkey
ceremonies (and make link codes), try to sign in, and try link codes.

A person is every key :func:`.identity.person_keys` gives for a request: its address (an IPv6 client
by its /64) and, when known, its identity. A request passes only when each of its keys has budget, and
then spends one from each, so neither a new address nor a new identity escapes the other's count.
There is no bucket shared by everyone: one person's guesses never make another person wait.

Each limit is a generic cell rate (GCRA): per key one number, the time its budget is full again. A key
whose budget is full carries nothing and is forgotten; at most ``tracked_addresses`` keys are kept
exactly. When more keys than that are still refilling (a crowd of addresses), the least recently seen
is folded into ``limit_slots`` shared slots by a keyed hash (the slot keeps the later of the two
times), and a key not held exactly starts from its slot: a forgotten key never gets a fresh budget,
so all keys together never get more than ``(tracked_addresses + limit_slots) x rate`` (the sum in
docs/accounts.md rests on this). The slots are made on the first overflow (8 bytes each).
"""

from __future__ import annotations

import hashlib
import math
import secrets
import time
from array import array
from collections import OrderedDict
from collections.abc import Callable, Iterable

from starlette.responses import Response

from ..settings import ServerSettings
from .common import error


class PersonLimit:
    """``burst`` at once, then ``per_hour``, for every key (see the module docstring)."""

    def __init__(self, per_hour: float, burst: int, size: int, slots: int,
                 clock: Callable[[], float] = time.monotonic, salt: bytes | None = None) -> None:
        self.interval = 3600.0 / per_hour  # seconds one token takes to come back
        self.tolerance = (burst - 1) * self.interval
        self.size, self.slot_count, self._clock = size, slots, clock
        self._full_at: OrderedDict[str, float] = OrderedDict()  # key -> when its budget is full again
        self._slots: array[float] | None = None
        self._salt = secrets.token_bytes(16) if salt is None else salt  # unknown: no one aims at a slot

    def slot_of(self, key: str) -> int:
        """The shared slot of ``key`` (a keyed hash)."""
        digest = hashlib.blake2b(key.encode(), key=self._salt, digest_size=8).digest()
        return int.from_bytes(digest, "big") % self.slot_count

    def _full(self, key: str, now: float) -> float:
        known = self._full_at.get(key)
        if known is None and self._slots is not None:
            known = self._slots[self.slot_of(key)]
        return now if known is None else max(known, now)

    def wait(self, keys: Iterable[str]) -> float:
        """Seconds until every key of the person has budget (0: now)."""
        now = self._clock()
        return max((max(0.0, self._full(k, now) - now - self.tolerance) for k in keys), default=0.0)

    def take(self, keys: Iterable[str]) -> float:
        """Spend one from each key if every key has budget: 0.0; else nothing is spent and the answer
        is the seconds to wait."""
        keys = tuple(keys)
        now = self._clock()
        full = [self._full(k, now) for k in keys]
        late = max((f - now - self.tolerance for f in full), default=0.0)
        if late > 0:
            return late
        for key, at in zip(keys, full, strict=True):
            self._full_at[key] = at + self.interval
            self._full_at.move_to_end(key)
        self._trim(now)
        return 0.0

    def _trim(self, now: float) -> None:
        while len(self._full_at) > self.size:
            key, at = self._full_at.popitem(last=False)
            if at <= now:
                continue  # full again: forgetting it loses nothing
            if self._slots is None:
                self._slots = array("d", bytes(8 * self.slot_count))
            slot = self.slot_of(key)
            self._slots[slot] = max(self._slots[slot], at)

    def tracked(self) -> int:
        """Keys held exactly (the rest share the slots)."""
        return len(self._full_at)


class SignInLimits:
    """The three limits of the account routes, from the settings."""

    def __init__(self, settings: ServerSettings, clock: Callable[[], float] = time.monotonic) -> None:
        def limit(per_hour: float, burst: int) -> PersonLimit:
            return PersonLimit(per_hour, burst, settings.tracked_addresses, settings.limit_slots, clock)

        self.ceremonies = limit(settings.ceremonies_per_hour, settings.ceremony_burst)
        self.attempts = limit(settings.sign_ins_per_hour, settings.sign_in_burst)
        self.guesses = limit(settings.link_guesses_per_hour, settings.link_guess_burst)


def refuse(limit: PersonLimit, keys: Iterable[str]) -> Response | None:
    """None if the person may go on (one spent from each key), else a 429 ``rate_limited`` with
    Retry-After."""
    late = limit.take(keys)
    if late <= 0:
        return None
    wait = max(1, math.ceil(late))
    response = error(429, f"too many sign-in attempts; try again in {wait} s", "rate_limited")
    response.headers["Retry-After"] = str(wait)
    return response

"""``random.shuffle`` as a function the expert's sampling can have compiled (:mod:`sgmahjong.native`):
the same permutation for the same generator state (a test checks), drawing the same bits with
``rng.getrandbits``, so a seeded search deals the same hands compiled or not."""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


def shuffle(x: list[T], rng: random.Random) -> None:
    """Shuffle ``x`` in place exactly as ``rng.shuffle(x)`` does (CPython's Fisher-Yates with
    ``_randbelow_with_getrandbits``)."""
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]

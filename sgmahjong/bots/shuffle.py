"""The expert's sampling draws, as functions it can have compiled (:mod:`sgmahjong.native`).

:func:`shuffle` is ``random.shuffle``: the same permutation for the same generator state (a test
checks), drawing the same bits with ``rng.getrandbits``, so a seeded search deals the same hands
compiled or not. :func:`draw_told` is the weighted draw of a deal by the tells
(:func:`.determinise.deal_hidden`)."""

from __future__ import annotations

import math
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


def draw_told(pool: list[T], faces: list[int], hidden: tuple[int, ...],
              weights: tuple[tuple[float, ...], ...], rng: random.Random) -> tuple[list[list[T]], list[T]]:
    """Each seat's hidden tiles drawn from ``pool`` by weight, and what is left, in ``pool``'s order.

    Seat by seat, every tile left gets an exponential clock of rate ``weights[seat][face]`` (one
    ``rng.random()`` per tile, in order) and the seat takes the ``hidden[seat]`` tiles whose clocks run
    out first: a draw without replacement, each tile in proportion to its weight. ``faces[i]`` is the
    face of ``pool[i]``; a seat's tiles come back sorted by face."""
    random_ = rng.random
    log = math.log
    hands: list[list[T]] = [[], [], [], []]
    for s in range(4):
        n = hidden[s]
        if n <= 0:
            continue
        w = weights[s]
        best_c: list[float] = []  # the n smallest clocks so far, ascending; ties keep the earlier tile
        best_i: list[int] = []
        for i in range(len(pool)):
            c = -log(1.0 - random_()) / w[faces[i]]
            k = len(best_c)
            if k == n:
                if c >= best_c[k - 1]:
                    continue
                best_c.pop()
                best_i.pop()
                k -= 1
            while k > 0 and best_c[k - 1] > c:
                k -= 1
            best_c.insert(k, c)
            best_i.insert(k, i)
        taken = [False] * len(pool)
        for i in best_i:
            taken[i] = True
        by_face = sorted([(faces[i], i) for i in best_i])
        hands[s] = [pool[i] for _, i in by_face]
        pool = [pool[i] for i in range(len(pool)) if not taken[i]]
        faces = [faces[i] for i in range(len(faces)) if not taken[i]]
    return hands, pool

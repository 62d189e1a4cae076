"""The wall (RULES.md §2): shuffle, stacks 19/18/19/18, three dice, the break, and the commitment.

The 148 tiles are shuffled into a ring of 74 stacks two high (East 19, South 18, West 19, North 18,
counted anticlockwise from the dealer). The dice total ``d`` picks the wall (counting the dealer's
wall as 1, anticlockwise) and the break: ``d`` stacks from the right end of that wall. The wall is
then kept in **draw order**: ``wall[0]`` is the first tile drawn from the front, ``wall[-1]`` the
first replacement drawn from the back.

The commitment is ``sha256(salt + ":" + tiles)`` over the draw order, published before the first
draw; the salt and the wall are revealed when the hand ends (:func:`verify_commitment`).

Two ways to shuffle (docs/wall.md):

* a **hand secret** (64 hex digits, 256 bits; the server draws a fresh one from the OS CSPRNG for each
  hand): SHA-256 in counter mode over the secret drives a Fisher-Yates shuffle with unbiased rejection
  sampling, then the three dice (:func:`secret_wall`). The secret is the salt of the commitment, so
  revealing it after the hand lets anyone recompute the wall and check the published hash; one hand's
  secret says nothing about another's.
* a legacy integer **seed** (old stored hands and logs, self-play, tests): Mersenne Twister seeded with
  it, as before, so stored hands replay unchanged.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator

from ..errors import SgMahjongError
from ..tiles import Tile, full_set

STACKS = (19, 18, 19, 18)  # stacks in front of East, South, West, North
DEAD_TILES = 15  # the last 15 tiles are never drawn


def roll_dice(rng: random.Random) -> tuple[int, int, int]:
    return rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)


def break_wall(ring: list[Tile], dealer: int, dice: tuple[int, int, int]) -> list[Tile]:
    """Rotate the shuffled ring (stacks laid out anticlockwise starting at the dealer's wall) into draw
    order, breaking at the point the dice give."""
    total = sum(dice)
    walls = [STACKS[(dealer + i) % 4] for i in range(4)]
    wall_index = (total - 1) % 4  # 0 = the dealer's own wall, counted anticlockwise
    start_stack = sum(walls[:wall_index])
    # draws proceed clockwise from the break: the break is `total` stacks from the wall's right end
    break_stack = start_stack + walls[wall_index] - (total % walls[wall_index])
    offset = (2 * break_stack) % len(ring)
    return ring[offset:] + ring[:offset]


def shuffled_wall(rng: random.Random, dealer: int) -> tuple[list[Tile], tuple[int, int, int]]:
    """A shuffled wall in draw order, and the dice that broke it."""
    ring = full_set()
    rng.shuffle(ring)
    dice = roll_dice(rng)
    return break_wall(ring, dealer, dice), dice


SCHEME = "sha256-ctr-v1"  # the secret shuffle's name in reveals and docs/wall.md


def is_secret(seed: object) -> bool:
    """Whether a hand seed is a hand secret (text) rather than a legacy integer seed."""
    return isinstance(seed, str)


def secret_bytes(secret: str) -> bytes:
    """The 32 bytes of a hand secret written as 64 hex digits; a clear error otherwise."""
    if len(secret) != 64:
        raise SgMahjongError("a hand secret is 64 hex digits (256 bits)")
    try:
        return bytes.fromhex(secret)
    except ValueError:
        raise SgMahjongError("a hand secret is 64 hex digits (256 bits)") from None


def secret_for_tests(n: int) -> str:
    """A hand secret derived from ``n`` (tests and demos only: the server's real hands take a fresh
    secret from the OS CSPRNG, never one derived from anything another hand reveals)."""
    return hashlib.sha256(f"sgmahjong test secret {n}".encode()).hexdigest()


def _words(secret: bytes) -> Iterator[int]:
    """SHA-256 in counter mode: 32-bit big-endian words of sha256(secret || counter as 8 bytes)."""
    counter = 0
    while True:
        block = hashlib.sha256(secret + counter.to_bytes(8, "big")).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i:i + 4], "big")
        counter += 1


def _below(words: Iterator[int], n: int) -> int:
    """An unbiased integer in [0, n): reject the words at or above the largest multiple of n."""
    limit = (1 << 32) // n * n
    while True:
        w = next(words)
        if w < limit:
            return w % n


def secret_wall(secret: str, dealer: int) -> tuple[list[Tile], tuple[int, int, int]]:
    """The wall (draw order) and dice of a hand secret: Fisher-Yates over the full set in face order
    (``i`` from 147 down to 1 swaps with ``j`` uniform in [0, i]), then three dice (1 + uniform in
    [0, 6)), every draw from :func:`_words`."""
    words = _words(secret_bytes(secret))
    ring = full_set()
    for i in range(len(ring) - 1, 0, -1):
        j = _below(words, i + 1)
        ring[i], ring[j] = ring[j], ring[i]
    dice = (1 + _below(words, 6), 1 + _below(words, 6), 1 + _below(words, 6))
    return break_wall(ring, dealer, dice), dice


def secret_dice(secret: str) -> tuple[int, int, int]:
    """The dice of a hand secret for a stacked wall (tests): the same draws as :func:`secret_wall`'s."""
    return secret_wall(secret, 0)[1]


def make_salt(rng: random.Random) -> str:
    """A 128-bit salt drawn from the hand's RNG (so a replay derives the same salt)."""
    return f"{rng.getrandbits(128):032x}"


_NAMES = [t.notation for t in Tile]


def wall_text(wall: tuple[Tile, ...] | list[Tile]) -> str:
    """The wall as tile notations separated by spaces (what the commitment hashes)."""
    return " ".join([_NAMES[t] for t in wall])


def commitment(salt: str, wall: tuple[Tile, ...] | list[Tile]) -> str:
    """The SHA-256 commitment to a wall in draw order."""
    return hashlib.sha256(f"{salt}:{wall_text(wall)}".encode()).hexdigest()


def verify_commitment(wall_hash: str, salt: str, wall_tiles: list[str]) -> bool:
    """Check a revealed salt and wall (tile notations in draw order) against the published hash."""
    return hashlib.sha256(f"{salt}:{' '.join(wall_tiles)}".encode()).hexdigest() == wall_hash

"""The wall (RULES.md §2): shuffle, stacks 19/18/19/18, three dice, the break, and the commitment.

The 148 tiles are shuffled into a ring of 74 stacks two high (East 19, South 18, West 19, North 18,
counted anticlockwise from the dealer). The dice total ``d`` picks the wall (counting the dealer's
wall as 1, anticlockwise) and the break: ``d`` stacks from the right end of that wall. The wall is
then kept in **draw order**: ``wall[0]`` is the first tile drawn from the front, ``wall[-1]`` the
first replacement drawn from the back.

The commitment is ``sha256(salt + ":" + tiles)`` over the draw order, published before the first
draw; the salt and the wall are revealed when the hand ends (:func:`verify_commitment`).
"""

from __future__ import annotations

import hashlib
import random

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

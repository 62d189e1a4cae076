"""The wall (RULES.md §2, docs/wall.md): a hand secret drives a SHA-256 counter-mode shuffle, the
commitment is published before the deal, the reveal recomputes exactly that hand's wall, and the
shuffle is uniform."""

from __future__ import annotations

import hashlib
import math
import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from sgmahjong.errors import SgMahjongError
from sgmahjong.game import apply, new_hand, new_match, next_hand
from sgmahjong.game.log import replay, to_log
from sgmahjong.game.testing import random_action
from sgmahjong.game.wall import commitment, secret_for_tests, secret_wall, verify_commitment
from sgmahjong.rules import RuleSet
from sgmahjong.tiles import Tile, full_set

RULES = RuleSet()
DOC = Path(__file__).resolve().parents[1] / "docs" / "wall.md"


def _play_out(state: Any, seed: int) -> Any:
    rng = random.Random(seed)
    while not state.ended:
        state, _ = apply(state, random_action(state, rng))
    return state


def _recipe() -> Any:
    """The verification recipe of docs/wall.md, run as written."""
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1
    namespace: dict[str, Any] = {}
    exec(blocks[0], namespace)  # the documented recipe itself
    return namespace["verify"]


@pytest.mark.parametrize("n", range(6))
def test_the_documented_recipe_recomputes_the_wall_and_its_hash(n: int) -> None:
    verify = _recipe()
    state, events = new_hand(RULES, seed=secret_for_tests(n), dealer=n % 4, prevailing=0)
    published = events[0].data["wall_hash"]
    assert published == state.wall_hash
    end = _play_out(state, n)
    reveal = end.result["wall_reveal"]
    assert reveal["secret"] == secret_for_tests(n) and reveal["scheme"] == "sha256-ctr-v1"
    assert verify(published, reveal)
    # another hand's secret, a changed wall or another hash do not verify
    other = dict(reveal, secret=secret_for_tests(n + 100))
    assert not verify(published, other)
    swapped = dict(reveal, wall=[reveal["wall"][1], reveal["wall"][0], *reveal["wall"][2:]])
    assert not verify(published, swapped)
    assert not verify(hashlib.sha256(b"x").hexdigest(), reveal)


def test_a_revealed_secret_recomputes_exactly_that_hands_wall() -> None:
    match, _ = new_match(RULES, seed=1, secret=secret_for_tests(7))
    walls = []
    for k in range(3):
        hand = match.hand
        end = _play_out(hand, k)
        reveal = end.result["wall_reveal"]
        tiles, dice = secret_wall(reveal["secret"], reveal["dealer"])
        assert tiles == list(hand.wall) and dice == hand.dice
        assert commitment(reveal["secret"], tiles) == hand.wall_hash
        assert verify_commitment(hand.wall_hash, reveal["salt"], reveal["wall"])
        walls.append(tiles)
        match = replace(match, hand=end)
        match, _ = next_hand(match, secret=secret_for_tests(8 + k))
    assert walls[0] != walls[1] != walls[2]


def test_secret_hands_replay_from_their_log() -> None:
    state, _ = new_hand(RULES, seed=secret_for_tests(3), dealer=2)
    end = _play_out(state, 3)
    again, _ = replay(to_log(end))
    assert again.wall == end.wall and again.ledger == end.ledger and again.result == end.result


def test_legacy_integer_seeds_keep_the_old_wall() -> None:
    rng = random.Random(12345)
    ring = full_set()
    rng.shuffle(ring)
    dice = (rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))
    state, _ = new_hand(RULES, seed=12345)
    assert state.dice == dice and sorted(state.wall) == sorted(ring)
    assert "scheme" not in _play_out(state, 0).result["wall_reveal"]


def test_a_bad_secret_is_refused_clearly() -> None:
    with pytest.raises(SgMahjongError, match="64 hex digits"):
        new_hand(RULES, seed="abc")
    with pytest.raises(SgMahjongError, match="64 hex digits"):
        new_hand(RULES, seed="z" * 64)


def _chi2_limit(dof: int, z: float = 4.75) -> float:
    """The chi-square value a uniform sample exceeds with probability about 1e-6 (Wilson-Hilferty)."""
    a = 2 / (9 * dof)
    return float(dof * (1 - a + z * math.sqrt(a)) ** 3)


def test_each_tiles_position_is_uniform_over_many_walls() -> None:
    n = 4000
    faces = sorted(set(full_set()))
    counts = {t: [0] * 148 for t in faces}
    dice_counts = [0] * 6
    for i in range(n):
        wall, dice = secret_wall(secret_for_tests(10_000 + i), i % 4)
        for pos, t in enumerate(wall):
            counts[t][pos] += 1
        for d in dice:
            dice_counts[d - 1] += 1
    limit = _chi2_limit(147)
    for t in faces:
        copies = full_set().count(t)
        expected = n * copies / 148
        chi2 = sum((c - expected) ** 2 / expected for c in counts[t])
        assert chi2 < limit, f"{Tile(t).notation}: chi-square {chi2:.1f} over 147 dof"
    expected = 3 * n / 6
    assert sum((c - expected) ** 2 / expected for c in dice_counts) < _chi2_limit(5)

"""The bots' public API: make_bot, LEVELS, choose returns one of the legal actions."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from sgmahjong.bots import LEVELS, Bot, UnknownBotLevelError, make_bot
from sgmahjong.errors import SgMahjongError
from sgmahjong.tiles import Tile


@dataclass(frozen=True)
class _Act:
    seat: int
    kind: str
    tile: Tile | None = None


def test_levels_and_make_bot() -> None:
    assert LEVELS == ("random", "beginner", "greedy", "strong", "expert")
    for level in LEVELS:
        bot = make_bot(level, seed=3)
        assert isinstance(bot, Bot)
        assert bot.level == level


def test_unknown_level_is_a_clear_error() -> None:
    with pytest.raises(UnknownBotLevelError, match="unknown bot level 'genius'"):
        make_bot("genius")
    assert issubclass(UnknownBotLevelError, SgMahjongError)


def test_random_bot_is_seeded_and_returns_a_legal_object() -> None:
    legal = [_Act(0, "discard", Tile(i)) for i in range(14)]
    a = [make_bot("random", 7).choose({}, legal) for _ in range(1)]
    b = [make_bot("random", 7).choose({}, legal) for _ in range(1)]
    assert a == b
    bot = make_bot("random", 1)
    picks = {bot.choose({}, legal) for _ in range(200)}
    assert len(picks) > 5
    assert all(any(p is x for x in legal) for p in picks)


def test_no_legal_action_raises() -> None:
    with pytest.raises(ValueError):
        make_bot("random").choose({}, [])

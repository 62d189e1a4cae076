"""The bots' public API: make_bot, LEVELS, choose returns one of the legal actions."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from sgmahjong.bots import EXPERT_VARIANTS, LEVELS, Bot, UnknownBotLevelError, known_level, make_bot
from sgmahjong.bots.expert import ExpertBot
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
    for name in ("expert+genius", "strong+told", "defensive+told", "expert+"):
        with pytest.raises(UnknownBotLevelError, match="expert variants: expert\\+told"):
            make_bot(name)
        assert not known_level(name)
    assert issubclass(UnknownBotLevelError, SgMahjongError)


def test_an_expert_variant_is_the_expert_with_its_option_on() -> None:
    """``expert+told`` (for ``simulate --compare``) is the expert dealing by the tells; plain ``expert``
    keeps its uniform deals."""
    told = make_bot("Expert+Told", seed=3)
    plain = make_bot("expert", seed=3)
    assert isinstance(told, ExpertBot) and isinstance(plain, ExpertBot)
    assert told.tells and not plain.tells
    assert told.level == "expert"
    assert EXPERT_VARIANTS["told"] == {"tells": True}
    assert EXPERT_VARIANTS["wary"] == {"base": "wary"} and known_level("expert+wary")
    assert known_level("expert+told") and known_level("defensive") and known_level("strong")


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

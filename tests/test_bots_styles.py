"""The test-only opponent styles (``defensive``, ``reckless``): legal whole hands, and the decisions
that set them apart from ``strong`` found in seeded hands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from sgmahjong.bots import LEVELS, STYLES, make_bot
from sgmahjong.bots.defence import discard_cost, read_threats
from sgmahjong.bots.perception import perceive
from sgmahjong.bots.styles import threatened
from sgmahjong.game import Action, HandState, apply, awaiting, legal_actions, new_hand, player_view
from sgmahjong.rules import RuleSet
from sgmahjong.server.protocol import BOT_LEVELS, OFFERED_BOT_LEVELS

Check = Callable[[HandState, int, dict[str, Any], list[Action]], bool]


def _play(rules: RuleSet, levels: list[str], seed: int, check: Check | None = None) -> HandState:
    """A seeded hand; every answer must be one of the legal actions (by identity, not by fallback).
    ``check`` sees each decision before it is played and stops the hand by returning True."""
    bots = [make_bot(level, seed * 4 + i, rules) for i, level in enumerate(levels)]
    state, _ = new_hand(rules, seed=seed, dealer=seed % 4)
    for _ in range(2000):
        if state.ended:
            return state
        seat = awaiting(state)[0]
        legal = legal_actions(state, seat)
        view = player_view(state, seat)
        if check is not None and check(state, seat, view, legal):
            return state
        choice = bots[seat].decide(view, legal) if len(legal) > 1 else legal[0]
        assert any(choice is a for a in legal), (levels[seat], choice, legal)
        state, _ = apply(state, choice)
    raise AssertionError("the hand did not end")


def test_styles_are_not_levels_the_server_offers() -> None:
    for name in STYLES:
        assert name not in LEVELS and name not in BOT_LEVELS and name not in OFFERED_BOT_LEVELS
        assert make_bot(name).level == name


@pytest.mark.parametrize("variant", [{}, {"min_tai": "3", "limit": "10"}, {"payout": "shooter_pays"}])
def test_styles_play_whole_hands_legally(variant: dict[str, str]) -> None:
    rules = RuleSet().with_strings(variant)
    lineups = [["defensive"] * 4, ["reckless"] * 4, ["defensive", "reckless", "strong", "greedy"]]
    winners = 0
    for seed in range(6):
        state = _play(rules, lineups[seed % 3], 300 + seed)
        assert state.result is not None and sum(state.ledger) == 0
        winners += state.result["winner"] is not None
    assert winners >= 2


def test_defensive_folds_to_a_safer_tile_where_strong_pushes() -> None:
    rules = RuleSet()
    strong, defensive = make_bot("strong", 1, rules), make_bot("defensive", 1, rules)
    found: list[tuple[float, float]] = []

    def check(state: HandState, seat: int, view: dict[str, Any], legal: list[Action]) -> bool:
        if seat != 0 or not any(a.kind == "discard" for a in legal) or any(a.kind == "win" for a in legal):
            return False
        s, d = strong.choose(view, legal), defensive.choose(view, legal)
        if s is d:
            return False
        p = perceive(view)
        threats = read_threats(p, rules)
        assert threatened(p, threats)  # it only departs from strong when threatened
        assert d.kind == "discard" and d.tile is not None  # and then folds: no kong
        if s.kind == "discard" and s.tile is not None:
            found.append((discard_cost(p, threats, int(d.tile), rules),
                          discard_cost(p, threats, int(s.tile), rules)))
        return len(found) >= 3

    for seed in range(40, 52):
        _play(rules, ["strong", "reckless", "reckless", "reckless"], seed, check)
        if len(found) >= 3:
            break
    assert len(found) >= 3
    for safer, pushed in found:
        assert safer < pushed


def test_reckless_claims_where_strong_passes() -> None:
    rules = RuleSet()
    strong, reckless = make_bot("strong", 1, rules), make_bot("reckless", 1, rules)
    found: list[str] = []

    def check(state: HandState, seat: int, view: dict[str, Any], legal: list[Action]) -> bool:
        claims = [a for a in legal if a.kind in ("pong", "chow", "kong")]
        if seat != 0 or not claims or any(a.kind == "win" for a in legal):
            return False
        r = reckless.choose(view, legal)
        assert r.kind in ("pong", "chow", "kong")  # every claim it may
        if any(a.kind == "kong" for a in claims):
            assert r.kind == "kong"
        elif any(a.kind == "pong" for a in claims):
            assert r.kind == "pong"
        if strong.choose(view, legal).kind == "pass":
            found.append(r.kind)
        return len(found) >= 3

    for seed in range(60, 72):
        _play(rules, ["strong", "strong", "strong", "strong"], seed, check)
        if len(found) >= 3:
            break
    assert len(found) >= 3


@pytest.mark.parametrize("style", ["silent", "ordered", "flush"])
def test_outsider_styles_play_whole_hands_legally(style: str) -> None:
    rules = RuleSet()
    ended = 0
    for seed in range(4):
        state = _play(rules, [style, style, "strong", "greedy"], 400 + seed)
        assert state.result is not None and sum(state.ledger) == 0
        ended += 1
    assert ended == 4


def _decisions(style: str, seeds: range) -> list[tuple[dict[str, Any], list[Action], Action]]:
    """Every decision seat 0 (playing ``style``) took in seeded hands against strong bots."""
    seen: list[tuple[dict[str, Any], list[Action], Action]] = []
    bot = make_bot(style, 1)

    def look(state: HandState, seat: int, view: dict[str, Any], legal: list[Action]) -> bool:
        if seat == 0 and len(legal) > 1:
            seen.append((view, legal, bot.decide(view, legal)))
        return False

    for seed in seeds:
        _play(RuleSet(), [style, "strong", "strong", "strong"], seed, look)
    return seen


def test_silent_never_claims_a_discard_for_a_set() -> None:
    seen = _decisions("silent", range(500, 506))
    offered = [c for _, legal, c in seen if any(a.kind in ("pong", "chow") for a in legal)]
    assert offered, "no claim was offered in these hands"
    assert all(c.kind in ("pass", "win") for c in offered)


def test_ordered_discards_the_first_tile_of_its_order() -> None:
    from sgmahjong.bots.outsiders import ORDER

    seen = _decisions("ordered", range(510, 514))
    turns = [(legal, c) for _, legal, c in seen if c.kind == "discard"]
    assert len(turns) >= 10
    for legal, c in turns:
        held = {int(a.tile) for a in legal if a.kind == "discard" and a.tile is not None}
        assert c.tile is not None and int(c.tile) == min(held, key=ORDER.index)


def test_flush_throws_other_suits_before_its_own_and_keeps_honours() -> None:
    from sgmahjong.bots.outsiders import FlushBot

    seen = _decisions("flush", range(520, 524))
    checked = 0
    for view, legal, c in seen:
        if c.kind != "discard" or c.tile is None:
            continue
        p = perceive(view)
        suit = FlushBot(0).target(p)
        off = [a for a in legal if a.kind == "discard" and a.tile is not None and int(a.tile) < 27
               and int(a.tile) // 9 != suit]
        if off:
            assert int(c.tile) < 27 and int(c.tile) // 9 != suit, (c, suit)
            checked += 1
    assert checked >= 10

"""Single decisions of the greedy and strong bots on hand-built views (the engine's view format)."""

from __future__ import annotations

from typing import Any

from sgmahjong.bots import make_bot
from sgmahjong.game import Action
from sgmahjong.notation import parse_tiles
from sgmahjong.rules import RuleSet


def _seat(i: int, concealed: str | None = None, drawn: str | None = None,
          melds: list[tuple[str, str]] | None = None, discards: str = "", bonus: str = "") -> dict[str, Any]:
    conc = [t.notation for t in parse_tiles(concealed)] if concealed is not None else None
    return {
        "seat": i, "wind": "ESWN"[i], "concealed": conc, "concealed_count": len(conc or []) or 13,
        "drawn": drawn,
        "melds": [{"kind": k, "tiles": [t.notation for t in parse_tiles(tiles)], "concealed": False,
                   "from": 0} for k, tiles in (melds or [])],
        "bonus": [t.notation for t in parse_tiles(bonus)] if bonus else [],
        "discards": [t.notation for t in parse_tiles(discards)] if discards else [],
    }


def _view(me: dict[str, Any], others: list[dict[str, Any]], wall: int = 60, phase: str = "turn",
          last: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"version": 1, "seat": 0, "phase": phase, "dealer": 0, "prevailing": 0, "turn": 0,
            "wall_remaining": wall, "seats": [me, *others], "last_discard": last,
            "window": {"kind": "discard", "seat": last["seat"], "tile": last["tile"]} if last else None}


def _discards(hand: str, drawn: str) -> list[Action]:
    tiles = sorted(set(parse_tiles(hand + drawn)))
    return [Action(0, "discard", t) for t in tiles]


def test_greedy_discards_the_isolated_honour() -> None:
    hand, drawn = "123m456m789p12s55s", "E"
    view = _view(_seat(0, hand, drawn), [_seat(1), _seat(2), _seat(3)])
    choice = make_bot("greedy").choose(view, _discards(hand, drawn))
    assert choice.kind == "discard" and str(choice.tile) == "E"


def test_every_level_above_random_takes_a_win() -> None:
    hand, drawn = "123m456m789p12s55s", "3s"
    view = _view(_seat(0, hand, drawn), [_seat(1), _seat(2), _seat(3)])
    legal = [*_discards(hand, drawn), Action(0, "win")]
    for level in ("greedy", "strong"):
        assert make_bot(level).choose(view, legal).kind == "win"


def test_greedy_pongs_only_when_it_helps() -> None:
    hand = "123m456m789p11s5sEE"
    last = {"seat": 3, "tile": "E"}
    view = _view(_seat(0, hand), [_seat(1), _seat(2), _seat(3, discards="E")], phase="claim", last=last)
    legal = [Action(0, "pong"), Action(0, "pass")]
    assert make_bot("greedy").choose(view, legal).kind == "pong"
    hand2 = "123m456m789p123sEE"  # already waiting on E or the pair: a pong would not help
    view2 = _view(_seat(0, hand2), [_seat(1), _seat(2), _seat(3, discards="E")], phase="claim", last=last)
    assert make_bot("greedy").choose(view2, legal).kind == "pass"


def test_strong_keeps_a_dragon_pair_for_value() -> None:
    # an exposed pong rules out the sequence hand; with no bonus tile the red dragon pair is the way
    # to a tai, so it is kept even though breaking it would be as efficient
    hand, drawn = "13m789p2367sCC", "9s"
    view = _view(_seat(0, hand, drawn, melds=[("pong", "555m")]), [_seat(1), _seat(2), _seat(3)])
    for seed in range(5):
        choice = make_bot("strong", seed).choose(view, _discards(hand, drawn))
        assert str(choice.tile) != "C"


def test_strong_breaks_a_worthless_pair_for_the_sequence_hand() -> None:
    # no bonus tile: the sequence hand (4 tai) wants a plain pair, not the red dragons
    hand, drawn = "13m456m789p2367sCC", "9s"
    view = _view(_seat(0, hand, drawn), [_seat(1), _seat(2), _seat(3)])
    choice = make_bot("strong").choose(view, _discards(hand, drawn))
    assert str(choice.tile) in ("C", "9s")


def test_strong_does_not_feed_the_third_dragon() -> None:
    # West shows two dragon pongs: discarding the white dragon would make us liable (包) for the hand
    hand, drawn = "123m456m789p23s55s", "P"
    west = _seat(2, melds=[("pong", "CCC"), ("pong", "FFF")], discards="9m1p")
    view = _view(_seat(0, hand, drawn), [_seat(1, discards="1m"), west, _seat(3, discards="2p")], wall=30)
    legal = _discards(hand, drawn)
    assert str(make_bot("greedy").choose(view, legal).tile) == "P"  # greedy does not care
    assert str(make_bot("strong").choose(view, legal).tile) != "P"


def test_strong_reads_the_table_rules_from_the_view_when_present() -> None:
    bot = make_bot("strong", rules=RuleSet(limit=10))
    assert bot.table_rules({}).limit == 10
    assert bot.table_rules({"rules": {"min_tai": 3}}).min_tai == 3
    assert bot.table_rules({"rules": {"no_such_rule": 1}}).limit == 10

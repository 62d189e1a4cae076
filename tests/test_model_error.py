"""The model-error bench's arithmetic (bench/model_error.py) and the wall reorderings of its judge."""

from __future__ import annotations

import io
from collections import Counter
from typing import Any

from bench.bench_search_gain import reordered
from bench.model_error import learned_values, picks, report
from sgmahjong.bots import make_bot
from sgmahjong.bots.advantage import advantage, read_turn
from sgmahjong.bots.arena import play_hand
from sgmahjong.bots.expert import ExpertBot
from sgmahjong.bots.strong import StrongBot
from sgmahjong.game import new_hand
from sgmahjong.rules import RuleSet


def _row(hand: int, real: list[float], mean: list[float], se: list[float],
         rounds: int = 200) -> dict[str, Any]:
    return {"hand": hand, "kind": "turn", "real": real, "real_se": [0.0] * len(real),
            "m": {"mean": mean, "se": se, "rounds": rounds, "playouts": rounds * len(real)}}


def test_picks_take_the_best_point_estimate_and_the_rules_clear_lead() -> None:
    # candidate 1 is ahead on average but not by two standard errors; candidate 2 is, by less
    row = _row(0, [0.0, -1.0, 2.0], [0.0, 3.0, 1.0], [0.0, 2.0, 0.4])
    assert picks(row, "m") == (1, 2)
    assert picks(_row(0, [0.0, 1.0], [0.0, -0.5], [0.0, 0.1]), "m") == (0, 0)  # none ahead: strong's
    assert picks(_row(0, [0.0, 1.0], [0.0, 5.0], [0.0, 0.1], rounds=7), "m") == (1, 0)  # too few deals


def test_report_prints_what_the_picks_pay_per_hand() -> None:
    rows = [_row(0, [0.0, -1.0, 2.0], [0.0, 3.0, 1.0], [0.0, 2.0, 0.4]),
            _row(1, [0.0, 4.0], [0.0, 1.0], [0.0, 0.2])]
    out = io.StringIO()
    report(rows, 2, ["m"], out=out)
    text = out.getvalue()
    assert "2 searched decisions over 2 hands" in text
    # point estimates pick -1.0 and 4.0 (mean 1.5 a hand), the rule 2.0 and 4.0 (3.0 a hand)
    assert "picks pay +1.50" in text and "at the rule +3.00" in text and "(2 overrules)" in text


def test_a_reordering_shuffles_only_the_undrawn_wall() -> None:
    state, _ = new_hand(RuleSet(), seed=4)
    lo, hi = state.front, len(state.wall) - state.back
    a, _ = reordered(state, 7, 0)
    b, _ = reordered(state, 7, 1)
    assert a.wall[:lo] == state.wall[:lo] and a.wall[hi:] == state.wall[hi:]
    assert Counter(a.wall[lo:hi]) == Counter(state.wall[lo:hi])
    assert a.wall != b.wall and reordered(state, 7, 0)[0].wall == a.wall


def test_the_learned_model_values_strongs_best_discards_and_nothing_else() -> None:
    rules = RuleSet()
    seen: list[tuple[dict[str, Any], list[Any]]] = []

    def watch(state: Any, seat: int, view: dict[str, Any], legal: list[Any]) -> None:
        seen.append((view, legal))

    play_hand(rules, [make_bot("strong", 40 + s, rules) for s in range(4)], seed=41, watch=watch)
    turns = claims = 0
    for k, (view, legal) in enumerate(seen):
        cands = ExpertBot(k, rules, budget_ms=None, max_rounds=1).review_candidates(view, legal)
        got = learned_values(view, legal, cands, k, rules)
        assert len(got) == len(cands) and got[0] == 0.0
        turn = read_turn(view, legal, rules, StrongBot(k, rules))
        if turn is None or cands[0].kind != "discard" or int(cands[0].tile) != turn.tiles[0]:
            # no turn to read, or strong's choice is not a discard (a kong): nothing to value against
            claims += not any(a.kind == "discard" for a in legal)
            assert got == [0.0] * len(cands)
            continue
        turns += 1
        for a, v in zip(cands, got, strict=True):
            if a.kind == "discard" and int(a.tile) in turn.tiles:
                assert v == advantage(turn, int(a.tile))
            else:
                assert v == 0.0
        assert any(v != 0.0 for v in got[1:])
    assert turns > 10 and claims > 3

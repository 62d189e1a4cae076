"""The model-error bench's arithmetic (bench/model_error.py) and the wall reorderings of its judge."""

from __future__ import annotations

import dataclasses
import io
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bench.bench_search_gain import reordered
from bench.model_error import (
    blend_pick,
    blend_report,
    known_ready,
    learned_values,
    main,
    picks,
    ready_seats,
    redealt,
    report,
)
from sgmahjong.bots import make_bot
from sgmahjong.bots.advantage import advantage, read_turn
from sgmahjong.bots.arena import play_hand
from sgmahjong.bots.determinise import deal_hidden, knowledge, table
from sgmahjong.bots.expert import ExpertBot
from sgmahjong.bots.ready import wait_chances
from sgmahjong.bots.strong import StrongBot
from sgmahjong.game import HandState, apply, legal_actions, new_hand
from sgmahjong.game.builder import seat_waits
from sgmahjong.game.view import player_view
from sgmahjong.rules import RuleSet
from sgmahjong.tiles import NUM_PLAYING, Tile


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


def _blended(hand: int, real: list[float], mean: list[float], se: list[float], adv: list[float],
             rounds: int = 200) -> dict[str, Any]:
    row = _row(hand, real, mean, se, rounds)
    row["learned"] = {"mean": adv, "se": [0.0] * len(adv), "rounds": 0, "playouts": 0}
    return row


def test_a_blends_rule_adds_the_learned_advantage_to_the_search_before_the_clear_lead() -> None:
    row = _blended(0, [0.0, 1.0, -2.0], [0.0, 1.0, 1.5], [0.0, 0.8, 0.5], [0.0, 0.5, -1.0])
    assert blend_pick(row, "m", 0.0, 2.0) == 2  # the expert's rule: 1.5 > 2 * 0.5
    assert blend_pick(row, "m", 1.0, 1.5) == 1  # 1.0 + 0.5 > 1.5 * 0.8; 1.5 - 1.0 < 1.5 * 0.5
    assert blend_pick(row, "m", 4.0, 1.0) == 1
    assert blend_pick(row, "m", 1.0, 3.0) == 0  # neither clearly ahead: strong's choice
    few = _blended(0, [0.0, 1.0], [0.0, 5.0], [0.0, 0.1], [0.0, 1.0], rounds=7)
    assert blend_pick(few, "m", 1.0, 1.0) == 0  # too few deals


def test_the_blend_report_prices_each_rule_against_the_experts(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    rows = [_blended(0, [0.0, 1.0, -2.0], [0.0, 1.0, 1.5], [0.0, 0.8, 0.5], [0.0, 0.5, -1.0]),
            _blended(1, [0.0, 3.0], [0.0, 0.2], [0.0, 0.5], [0.0, 2.0])]
    out = io.StringIO()
    blend_report(rows, 2, "m", [(1.0, 1.5)], out=out)
    text = out.getvalue()
    # the expert's rule: -2.0 and 0 (-1.0 a hand); the blend: 1.0 and 3.0 (+2.0), +3.0 a hand better
    assert "(w 0, z 2) pays -1.00" in text and "(1 overrules)" in text
    assert "blend w 1, z 1.5: pays +2.00" in text and "(2 overrules); - the expert's rule +3.00" in text
    assert "3 candidates weighed at the turns" in text
    saved = tmp_path / "rows.jsonl"
    saved.write_text("".join(json.dumps({**r, "quick200": r["m"]}) + "\n" for r in rows), encoding="utf-8")
    main(["--rows", str(saved), "--models", "quick200,learned", "--blend", "1:1.5"])
    assert "blend w 1, z 1.5: pays +2.00" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--rows", str(saved), "--models", "quick200", "--blend", "1:1.5"])  # no learned model
    assert "needs 'learned'" in capsys.readouterr().err


def test_a_reordering_shuffles_only_the_undrawn_wall() -> None:
    state, _ = new_hand(RuleSet(), seed=4)
    lo, hi = state.front, len(state.wall) - state.back
    a, _ = reordered(state, 7, 0)
    b, _ = reordered(state, 7, 1)
    assert a.wall[:lo] == state.wall[:lo] and a.wall[hi:] == state.wall[hi:]
    assert Counter(a.wall[lo:hi]) == Counter(state.wall[lo:hi])
    assert a.wall != b.wall and reordered(state, 7, 0)[0].wall == a.wall


def _pool(state: HandState, seats: list[int]) -> Counter[Tile]:
    """The concealed tiles of ``seats`` and the undrawn wall, together."""
    lo, hi = state.front, len(state.wall) - state.back
    return Counter([t for s in seats for t in state.seats[s].concealed] + list(state.wall[lo:hi]))


def test_a_partial_oracle_deals_again_only_the_hands_it_does_not_keep() -> None:
    state, _ = new_hand(RuleSet(), seed=4)
    ready = tuple(sorted(Tile(t) for t in range(13)))  # three runs, a run and a lone tile: one from winning
    seats = list(state.seats)
    seats[2] = dataclasses.replace(seats[2], concealed=ready, drawn=None, waits=None)
    state = dataclasses.replace(state, seats=tuple(seats))
    me = next(s for s in range(4) if s != 2 and len(state.seats[s].concealed) == 13)
    assert ready_seats(state, me) == {2}
    lo, hi = state.front, len(state.wall) - state.back
    every = redealt(state, me, "all", 7, 0)
    assert every == reordered(state, 7, 0)[0]
    for keep, kept in (("ready", {me, 2}), ("unready", {0, 1, 2, 3} - {2})):
        a = redealt(state, me, keep, 7, 0)
        assert a.wall[:lo] == state.wall[:lo] and a.wall[hi:] == state.wall[hi:]
        again = [s for s in range(4) if s not in kept]
        assert all(a.seats[s].concealed == state.seats[s].concealed for s in kept)
        assert all(len(a.seats[s].concealed) == len(state.seats[s].concealed) for s in again)
        assert any(a.seats[s].concealed != state.seats[s].concealed for s in again)
        assert _pool(a, again) == _pool(state, again)  # the same tiles, dealt again
        assert all(t < NUM_PLAYING for s in again for t in a.seats[s].concealed)  # bonus tiles: the wall
        assert a == redealt(state, me, keep, 7, 0) and a != redealt(state, me, keep, 7, 1)


def test_a_partial_oracle_asks_a_claim_window_again_of_the_hands_it_dealt_again() -> None:
    state, _ = new_hand(RuleSet(), seed=1)
    state = apply(state, next(a for a in legal_actions(state, 0) if a.kind == "discard"))[0]
    assert state.window is not None and state.window.kind == "discard" and state.window.tile == Tile(0)
    assert [len(o) for o in state.window.options] == [0, 0, 2, 0]  # seat 2 may pong the 1m
    chowed = set()
    for r in range(40):
        a = redealt(state, 2, "ready", 7, r)  # nobody is one tile from winning: seats 0, 1 and 3 dealt again
        assert a.window is not None and (a.window.source, a.window.tile) == (0, Tile(0))
        assert a.window.options[2] == state.window.options[2]
        hand = a.seats[1].concealed
        can = Tile(1) in hand and Tile(2) in hand  # the next seat chows the 1m with 2m 3m
        assert any(x.kind == "chow" for x in a.window.options[1]) == can
        chowed.add(can)
    assert chowed == {True, False}


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


def test_ready_deals_told_the_truth_deal_the_ready_seat_a_waiting_hand_every_time() -> None:
    """``seats200`` and ``waits200``'s ready deals (:func:`known_ready`): the seat one tile from winning
    gets odds 1 and the reading's chances (``seats``) or 1 on each of its true waits and 0 elsewhere
    (``waits``), every other seat nothing; dealt with those odds, the seat holds a waiting hand on
    (almost) every deal, and with ``waits`` it waits on one of its true waits."""
    state, _ = new_hand(RuleSet(), seed=4)
    ready = tuple(sorted(Tile(t) for t in range(13)))
    seats = list(state.seats)
    seats[2] = dataclasses.replace(seats[2], concealed=ready, drawn=None, waits=None)
    state = dataclasses.replace(state, seats=tuple(seats))
    me = next(s for s in range(4) if s != 2 and len(state.seats[s].concealed) == 13)
    view = player_view(state, me)
    read = wait_chances(view)
    chances, odds = known_ready(state, me, read, "seats")
    assert odds == tuple(1.0 if s == 2 else 0.0 for s in range(4))
    assert chances[2] == read[2] and all(not chances[s] for s in range(4) if s != 2)
    true = set(seat_waits(ready))
    told, _ = known_ready(state, me, read, "waits")
    assert {t for t, c in enumerate(told[2]) if c} == true and set(told[2]) == {0.0, 1.0}
    for how in (chances, told):
        tb = dataclasses.replace(table(knowledge(view), RuleSet(), ready=how), odds=odds)
        hands = [deal_hidden(tb, random.Random(r))[0][2] for r in range(20)]
        waiting = [h for h in hands if seat_waits(tuple(h))]
        assert all(len(h) == 13 for h in hands) and len(waiting) >= 18  # (else: 8 hands tried, then uniform)
        if how is told:
            assert all(set(seat_waits(tuple(h))) & true for h in waiting)


def test_real_values_from_kept_rows_must_cover_the_hands(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """``--real-from`` refuses a file that lacks some of the hands asked for, or is not rows at all,
    with a message and no traceback."""
    kept = tmp_path / "kept.jsonl"
    kept.write_text(json.dumps({"hand": 0, "kind": "turn", "real": [0.0], "real_se": [0.0]}) + "\n",
                    encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["--hands", "2", "--models", "quick25", "--real-from", str(kept)])
    assert "holds no decisions of some of the 2 hands" in capsys.readouterr().err
    (tmp_path / "bad.jsonl").write_text("not json\n", encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["--hands", "2", "--models", "quick25", "--real-from", str(tmp_path / "bad.jsonl")])
    assert "--real-from:" in capsys.readouterr().err
    rows = tmp_path / "other.jsonl"  # every hand there, but not these hands' decisions
    rows.write_text("".join(json.dumps({"hand": h, "kind": "claim", "real": [0.0], "real_se": [0.0]}) + "\n"
                            for h in range(2)), encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["--hands", "2", "--seed", "5", "--models", "quick25", "--real-from", str(rows)])
    assert "the decisions differ from those of the known rows" in capsys.readouterr().err

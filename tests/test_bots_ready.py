"""Ready deals (bots/ready.py): other hands dealt one tile from winning as often as the discards say."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bench.train_danger import WIDE_NAMES
from bench.wait_likelihood import hand_seats as likelihood_seats
from bench.wait_likelihood import main as likelihood_main
from bench.wait_likelihood import plain_turns, throws
from bench.wait_reading import DRAWN_NAMES, drawn_features, hand_seats, pile_of, shares
from bench.wait_reading import main as wait_main
from sgmahjong.analysis.waits import waits
from sgmahjong.bots import make_bot
from sgmahjong.bots.arena import play_hand
from sgmahjong.bots.danger import NAMES
from sgmahjong.bots.determinise import deal_hidden, knowledge, sample_state, table
from sgmahjong.bots.expert import ExpertBot
from sgmahjong.bots.ready import READY_AT, build_ready, pick_wait, ready_chance, wait_chances
from sgmahjong.game import Action, HandState
from sgmahjong.game.builder import seat_waits
from sgmahjong.rules import RuleSet
from sgmahjong.tiles import NUM_PLAYING, Tile
from tests.test_bots_expert import _play

RULES = RuleSet()


def _counts(tiles: list[int]) -> list[int]:
    c = [0] * NUM_PLAYING
    for t in tiles:
        c[t] += 1
    return c


@pytest.mark.parametrize("n", [1, 4, 7, 10, 13])
def test_a_built_hand_waits_on_its_face_from_the_tiles_given(n: int) -> None:
    """Every hand built from a full set of playing tiles has ``n`` tiles, all from the counts given,
    waits on the face asked for by shape, and leaves a copy of it to win on; over many builds every
    shape appears (a single wait, a pair wait, a run's two sides)."""
    full = [4] * NUM_PLAYING
    rng = random.Random(n)
    built = 0
    shapes: set[str] = set()
    for i in range(300):
        t = i % NUM_PLAYING
        hand = build_ready(full, n, t, rng)
        if hand is None:
            continue
        built += 1
        c = _counts(hand)
        assert len(hand) == n and all(c[x] <= 4 for x in range(NUM_PLAYING)) and c[t] < 4
        assert t in waits(c)
        shapes.add("single" if c[t] % 3 == 1 else "pair" if c[t] % 3 == 2 else "run")
    assert built >= 250
    assert shapes == ({"single"} if n == 1 else {"single", "pair", "run"})


def test_a_hand_is_not_built_without_the_tiles() -> None:
    """With the last copy of the face, or no set left to fill the hand, there is no hand; the counts
    given are never changed."""
    counts = [0] * NUM_PLAYING
    counts[Tile.RED] = 1
    before = list(counts)
    rng = random.Random(1)
    assert all(build_ready(counts, 1, int(Tile.RED), rng) is None for _ in range(20))  # no copy to win on
    counts[Tile.RED] = 2
    assert build_ready(counts, 1, int(Tile.RED), rng) == [int(Tile.RED)]
    assert all(build_ready(counts, 4, int(Tile.RED), rng) is None for _ in range(20))  # no set to fill it
    assert counts[Tile.RED] == 2 and before[Tile.RED] == 1


def test_the_ready_chance_follows_its_table() -> None:
    """The chance rises with the sum, meets every point of the table, and holds the last beyond it."""
    xs = [i / 100 for i in range(400)]
    ys = [ready_chance(x) for x in xs]
    assert ys == sorted(ys) and ys[0] == 0.0
    for x, y in READY_AT:
        assert ready_chance(x) == pytest.approx(y)
    assert ready_chance(50.0) == READY_AT[-1][1]


def test_a_wait_is_drawn_by_its_chance() -> None:
    """A face with no chance is never drawn; one with three times another's is drawn about three times
    as often; with every chance 0 there is none."""
    rng = random.Random(7)
    chances = [0.0] * NUM_PLAYING
    chances[3], chances[30] = 0.3, 0.1
    draws = [pick_wait(chances, rng) for _ in range(4000)]
    assert set(draws) == {3, 30}
    assert 2.5 < draws.count(3) / draws.count(30) < 3.6
    assert pick_wait([0.0] * NUM_PLAYING, rng) == -1


def test_ready_deals_keep_every_tile_and_deal_waiting_hands_where_the_discards_say() -> None:
    """At decisions of strong hands: the view's own seat gets no chances, the others one per playing
    face, 0 on the tiles they may not win on now; a ready deal deals every unseen tile once, each seat
    as many as it hides, and gives the other seats hands one tile from winning far more often than a
    uniform deal does, about as often as the chances say; the deal is the same for the same seed."""
    ready = {False: 0, True: 0}
    expected = 0.0
    seats = 0
    checked = 0

    def check(state: HandState, seat: int, view: dict[str, Any], legal: list[Action]) -> None:
        nonlocal checked, expected, seats
        turn = any(a.kind == "discard" for a in legal)
        if checked >= 12 or len(state.seats[seat].discards) < 4 or not turn:
            return
        checked += 1
        chances = wait_chances(view)
        k = knowledge(view)
        assert chances[seat] == ()
        for s in range(4):
            if s != seat and k.hidden[s] % 3 == 1:
                assert len(chances[s]) == NUM_PLAYING and min(chances[s]) >= 0.0
                assert all(chances[s][t] == 0.0 for t in k.barred[s])
                expected += 100 * ready_chance(sum(chances[s]))
                seats += 1
        for on in (False, True):
            tb = table(k, RULES, ready=chances if on else ())
            rng = random.Random(checked)
            for _ in range(100):
                hands, wall = deal_hidden(tb, rng)
                assert sorted([*(t for h in hands for t in h), *wall]) == sorted([*tb.playing, *tb.bonus])
                assert [len(h) for h in hands] == list(k.hidden)
                ready[on] += sum(1 for s in range(4) if s != seat and k.hidden[s] and seat_waits(hands[s]))
            again = table(k, RULES, ready=chances if on else ())
            assert deal_hidden(again, random.Random(5)) == deal_hidden(again, random.Random(5))
            assert sample_state(tb, random.Random(checked)) is not None

    for seed in (401, 402, 403, 404):
        _play(seed, check, ("strong",) * 4)
    assert checked == 12 and seats >= 30
    assert ready[True] > 10 * max(1, ready[False])
    assert 0.6 * expected < ready[True] < 1.2 * expected + 20


def test_the_expert_with_ready_deals_plays_legally_and_the_same_way_for_the_same_seed() -> None:
    """``expert+ready`` is a known variant; on a deal budget it picks a legal action at every decision
    of a hand, and the same one again from the same seed."""
    bot = make_bot("expert+ready", 3, RULES)
    assert isinstance(bot, ExpertBot) and bot.ready
    picks: list[tuple[Action, Action]] = []

    def check(state: HandState, seat: int, view: dict[str, Any], legal: list[Action]) -> None:
        if seat != 0 or len(legal) < 2 or len(picks) >= 6:
            return
        a = ExpertBot(11, RULES, budget_ms=None, max_rounds=12, ready=True).choose(view, legal)
        b = ExpertBot(11, RULES, budget_ms=None, max_rounds=12, ready=True).choose(view, legal)
        assert a in legal
        picks.append((a, b))

    _play(405, check, ("strong",) * 4)
    assert len(picks) == 6 and all(a == b for a, b in picks)


def test_the_wait_reading_bench_records_ready_seats_and_their_true_waits(capsys: Any) -> None:
    """bench/wait_reading.py: every seat it records is ready (a wait among its live faces, each face's
    inputs the danger model's and the wide ones), the shares count the weight on the waits (ties
    shared), and a small run prints every reading, the uniform one at the share of waits among faces."""
    seats = [s for h in range(3) for s in hand_seats((91, h))]
    assert seats
    for seat in seats:
        assert any(y for _, _, y in seat) and not all(y for _, _, y in seat)
        assert all(len(f) == len(NAMES) + len(WIDE_NAMES) + len(DRAWN_NAMES) and 0.0 < c <= 1.0
                   for f, c, _ in seat)
    toy: list[list[tuple[list[float], float, int]]] = [[([], 0.5, 1), ([], 0.5, 0)],
                                                       [([], 0.1, 0), ([], 0.3, 1)]]
    assert shares(toy, [[1.0, 3.0], [1.0, 1.0]]) == (pytest.approx((0.25 + 0.5) / 2), pytest.approx(0.25))
    # discards 3, 5 (from the hand), 20 and 22 (each the tile just drawn): a streak of two, 5 the latest
    # from the hand, 4 and 6 beside it, 7 two from it, 14 (another suit) nothing
    made, pile = [False, False, True, True], [3, 5, 20, 22]
    assert drawn_features(made, pile, 4)[:5] == [2 / 6, 2 / 3, 0.0, 0.0, 1.0]
    assert drawn_features(made, pile, 7)[3:] == [0.0, 0.0, 1.0, 0.0]
    assert drawn_features(made, pile, 14)[3:] == [0.0] * 4
    assert drawn_features([True, False], [8, 5], 5)[2:4] == [1.0, 1.0]
    wait_main(["--hands", "10", "--seed", "91", "--workers", "1"])
    out = capsys.readouterr().out
    assert all(f"| {name} |" in out for name in ("uniform", "danger", "fitted", "fitted, wide and drawn"))


def test_the_likelihood_of_a_discard_is_read_by_the_policy_that_made_it(capsys: Any) -> None:
    """bench/wait_likelihood.py: put back into the state of its choice with its true hand, another
    ``strong`` throws what the seat threw, every time (the reading asks the very policy); the ready
    seats it records carry an ``L`` in [0, 1] on the faces a waiting hand could be built on; a small run
    prints the readings alone and times ``L``."""
    judge = make_bot("strong", 5, RULES)
    bots = [make_bot("strong", 10 + s, RULES) for s in range(4)]
    pending: list[tuple[Any, int, int]] = []
    agreed: list[bool] = []

    def watch(state: Any, seat: int, view: dict[str, Any], legal: list[Any]) -> None:
        while pending:
            before, s, n = pending.pop()
            pile = pile_of(state.seats[s])
            if len(pile) == n + 1 and len(state.seats[s].concealed) == len(before.seats[s].concealed) - 1:
                hand = [int(t) for t in before.seats[s].concealed]
                hand.remove(pile[-1])
                agreed.append(throws(judge, before, s, hand, pile[-1]))
        if any(a.kind == "discard" for a in legal):
            pending.append((state, seat, len(pile_of(state.seats[seat]))))

    for h in range(2):
        play_hand(RULES, bots, seed=77 + h, watch=watch)
    assert len(agreed) > 40 and all(agreed)
    seats = [s for h in range(2) for s in likelihood_seats((91, h, 2, 1))]
    assert seats and all(any(y for _, _, y, _ in s) for s in seats)
    read = [x for s in seats for *_, lik in s for x in lik]
    assert read and all(0.0 <= x <= 1.0 for x in read) and min(read) < 1.0
    likelihood_main(["--hands", "6", "--seed", "91", "--builds", "1", "--workers", "1"])
    out = capsys.readouterr().out
    assert all(f"| {name} |" in out for name in ("uniform", "fitted, wide", "fitted, wide, times L"))


def test_the_likelihood_of_the_latest_discards_walks_back_through_plain_turns_only(capsys: Any) -> None:
    """bench/wait_likelihood.py --steps: the turns a hand is walked back through are the seat's latest
    discard choices, each with the tile before in the pile, the same tiles concealed and the same sets;
    ``L`` of more discards is never above that of fewer (a history must keep every one of them), and
    somewhere below it; a small run prints a row for each depth."""
    history = [(None, 3, 14, 0), (None, 4, 14, 0), (None, 5, 14, 1), (None, 6, 14, 1), (None, 7, 14, 1)]
    assert [s[1] for s in plain_turns(history, list(range(8)), 13, 9)] == [7, 6, 5]
    assert [s[1] for s in plain_turns(history, list(range(8)), 13, 2)] == [7, 6]
    assert plain_turns(history, list(range(9)), 13, 9) == []  # the latest choice threw nothing yet
    assert plain_turns(history, list(range(8)), 10, 9) == []  # a claim since: other tiles concealed
    seats = [s for h in range(3) for s in likelihood_seats((91, h, 2, 3))]
    read = [lik for s in seats for *_, lik in s if lik]
    assert read and all(1 <= len(lik) <= 3 and lik == sorted(lik, reverse=True) for lik in read)
    assert all(0.0 <= x <= 1.0 for lik in read for x in lik)
    assert any(len(lik) == 3 and lik[2] < lik[0] for lik in read)
    likelihood_main(["--hands", "6", "--seed", "91", "--builds", "1", "--workers", "1", "--steps", "2"])
    out = capsys.readouterr().out
    assert "plain turns read, seats: 1: " in out
    assert all(f"mean L of the latest {k}: " in out for k in (1, 2))
    assert all(f"| fitted, wide, times L of the latest {k} |" in out for k in (1, 2))

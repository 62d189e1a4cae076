"""What the order of the discards tells (bots/passing.py) and the deals that respect it."""

from __future__ import annotations

import random
from collections.abc import Sequence

from sgmahjong.analysis.waits import waits
from sgmahjong.bots import make_bot
from sgmahjong.bots.determinise import _lets_pass, deal_hidden, knowledge, table
from sgmahjong.bots.expert import ExpertBot
from sgmahjong.bots.passing import barred, discard_order, passed, whole_pile
from sgmahjong.bots.perception import tile_of
from sgmahjong.game import Action, awaiting, legal_actions, player_view
from sgmahjong.game.state import HandState
from sgmahjong.game.wins import hand_win
from sgmahjong.review import bot_hand_log
from sgmahjong.rules import RuleSet
from sgmahjong.tiles import Tile

RULES = RuleSet()


def _play(seed: int, levels: tuple[str, ...]) -> list[tuple[HandState, list[tuple[int, int]]]]:
    """Every decision point of a hand of ``levels`` (the seats' bots), with the discards made before it."""
    bots = [make_bot(level, seed * 4 + s, RULES) for s, level in enumerate(levels)]
    made: list[tuple[int, int]] = []
    out = []

    def visit(state: HandState, seat: int, legal: Sequence[Action], choice: Action) -> Action:
        out.append((state, list(made)))
        if choice.kind == "discard" and choice.tile is not None:
            made.append((seat, int(choice.tile)))
        return choice

    bot_hand_log(RULES, bots, seed=seed, dealer=seed % 4, tamper=visit)
    return out


def test_the_order_of_the_discards_is_rebuilt_from_the_view() -> None:
    """From any seat's view, at every decision of hands with claims (beginners claim a lot), the order
    rebuilt is the order the discards were made in."""
    points = claimed = 0
    for seed in range(12):
        for state, made in _play(seed, ("beginner", "greedy", "beginner", "strong")):
            view = player_view(state, points % 4)
            claimed += sum(len(s["taken"]) for s in view["seats"])
            seats = sorted(view["seats"], key=lambda s: int(s["seat"]))
            wholes = [whole_pile([int(tile_of(x)) for x in s["discards"]], s["taken"]) for s in seats]
            assert all(w is not None for w in wholes)
            order = discard_order(view["dealer"], [w[0] for w in wholes if w], [w[1] for w in wholes if w])
            assert order == made
            points += 1
    assert points > 500 and claimed > 50


def _wins(state: HandState, seat: int, t: int) -> bool:
    """Whether ``seat``'s hand as it stands wins on a discard of ``t`` (its shape and its tai)."""
    win = hand_win(state.seats[seat], Tile(t), self_drawn=False, seat_wind=(seat - state.dealer) % 4,
                   prevailing=state.prevailing, rules=RULES)
    return win is not None and win.valid


def test_barred_tiles_hold_the_engines() -> None:
    """Every tile the engine bars a seat is among those read from the view; a tile read as barred
    beyond the engine's is one the seat could neither win nor pong on (its hand the same since)."""
    extra = 0
    for seed in range(12):
        for state, _ in _play(seed, ("strong", "greedy", "beginner", "strong")):
            k = knowledge(player_view(state, seed % 4))
            w = state.window
            for s, st in enumerate(state.seats):
                if state.phase == "claim" and w is not None and w.decisions[s] is not None:
                    continue  # it decided in the open window: the view does not show how
                engine = {int(t) for t in st.barred}
                ours = set(k.barred[s])
                assert engine <= ours
                for t in ours - engine:
                    extra += 1
                    assert st.concealed.count(Tile(t)) < 2 and not _wins(state, s, t)
    assert extra > 100


def test_a_seat_that_always_wins_never_waits_on_what_it_let_pass() -> None:
    checked = 0
    for seed in range(12):
        for state, _ in _play(seed, ("strong", "strong", "strong", "strong")):
            k = knowledge(player_view(state, seed % 4))
            for s, st in enumerate(state.seats):
                if s == k.seat or len(st.concealed) % 3 != 1 or not k.passed[s]:
                    continue
                counts = [0] * 34
                for x in st.concealed:
                    counts[x] += 1
                assert not set(waits(counts)) & k.passed[s]
                checked += 1
    assert checked > 300


def test_passed_deals_respect_the_discards_let_pass() -> None:
    """With ``passed`` no dealt hand wins on a tile its seat let pass, where hands worked forward
    without it do; each seat dealt as many tiles as the view shows."""
    uniform_hits = told = 0
    for seed in range(6):
        for i, (state, _) in enumerate(_play(seed, ("strong",) * 4)):
            if i % 7:
                continue
            seat = awaiting(state)[0]
            k = knowledge(player_view(state, seat))
            plain = table(k, RULES, progress=True)
            checked = table(k, RULES, progress=True, passed=True, barred=True)
            if not checked.passed:
                continue
            rng = random.Random(seed * 1000 + i)
            for _ in range(10):
                hands, _ = deal_hidden(checked, rng)
                assert _lets_pass(checked, hands)
                assert [len(h) for h in hands] == list(k.hidden)
                told += 1
                uniform, _ = deal_hidden(plain, rng)
                uniform_hits += not _lets_pass(checked, uniform)
    assert told > 200 and uniform_hits > 0


def test_barred_and_passed_unit() -> None:
    # dealer 0 discards 5, seat 1 discards 7 (claimed by 3), seat 3 discards 9, seat 0 discards 1
    order = discard_order(0, [[5, 1], [7], [], [9]], [{}, {0: 3}, {}, {}])
    assert order == [(0, 5), (1, 7), (3, 9), (0, 1)]
    bars = barred(order, on_turn=1, window_open=False)
    assert bars == (frozenset({1}), frozenset(), frozenset({5, 7, 9, 1}), frozenset({9, 1}))
    assert passed(order, bars) == (frozenset(), frozenset(), frozenset({5, 7, 9, 1}), frozenset({1}))
    # the last discard's window still open: its discarder holds it barred, nobody else has passed it
    assert barred(order, on_turn=None, window_open=True) == (
        frozenset({1}), frozenset({7, 9}), frozenset({5, 7, 9}), frozenset({9}))
    assert discard_order(0, [[5], [], [], [9]], [{}, {}, {}, {}]) is None  # seat 1 never discarded


def test_the_expert_plays_with_barred_and_passed_deals() -> None:
    for seed in range(2):
        for i, (state, _) in enumerate(_play(seed, ("strong",) * 4)):
            if i % 9:
                continue
            seat = awaiting(state)[0]
            legal = legal_actions(state, seat)
            bot = ExpertBot(seed, RULES, budget_ms=None, max_rounds=8, barred=True, passed=True)
            assert bot.choose(player_view(state, seat), legal) in legal

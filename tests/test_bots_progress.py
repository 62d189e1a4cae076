"""Deals whose hands are as far along as the table's (bots/progress.py)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from sgmahjong.bots import efficiency as ef
from sgmahjong.bots import make_bot
from sgmahjong.bots.determinise import deal_hidden, knowledge, table
from sgmahjong.bots.progress import work
from sgmahjong.game import Action, HandState, player_view
from sgmahjong.review import bot_hand_log
from sgmahjong.rules import RuleSet
from sgmahjong.tiles import Tile

RULES = RuleSet()


def _distance(hand: list[Tile], n_melds: int) -> int:
    counts = [0] * 34
    for t in hand:
        counts[t] += 1
    return ef.distance(counts, n_melds)


def _late_hands(seed: int, real: Counter[bool], worked: Counter[bool], uniform: Counter[bool]) -> None:
    """One hand of four ``strong``: at every third decision in its last forty tiles, whether each other
    seat's real hand, and the hand a worked and a uniform deal give it, are one tile from winning; the
    worked deal checked against the view (the unseen tiles, each hand its size)."""
    bots = [make_bot("strong", seed * 4 + s, RULES) for s in range(4)]
    rng = random.Random(seed)
    step = 0

    def visit(state: HandState, seat: int, legal: Sequence[Action], choice: Action) -> Action:
        nonlocal step
        step += 1
        if state.wall_remaining >= 40 or (step - 1) % 3:
            return choice
        k = knowledge(player_view(state, seat))
        hands, wall = deal_hidden(table(k, RULES, progress=True), rng)
        dealt = Counter(t for s in range(4) if s != seat for t in hands[s]) + Counter(wall)
        assert dealt == Counter({Tile(t): n for t, n in enumerate(k.unseen) if n})
        flat, _ = deal_hidden(table(k, RULES), rng)
        for s in range(4):
            hand = state.seats[s].concealed
            if s == seat or len(hand) % 3 != 1:
                continue
            assert len(hands[s]) == len(hand)
            n = len(state.seats[s].melds)
            real[_distance(list(hand), n) <= 1] += 1
            worked[_distance(hands[s], n) <= 1] += 1
            uniform[_distance(flat[s], n) <= 1] += 1
        return choice

    bot_hand_log(RULES, bots, seed=seed, dealer=seed % 4, tamper=visit)


def test_worked_deals_are_as_far_along_as_the_table_and_consistent_with_the_view() -> None:
    """In the last forty tiles of hands of four ``strong``, a dealt hand worked forward is one tile
    from winning about as often as the real one, where a uniform deal's almost never is; the deal
    holds exactly the tiles the seat has not seen, each hand its size."""
    real, worked, uniform = Counter[bool](), Counter[bool](), Counter[bool]()
    for seed in range(16):
        _late_hands(seed, real, worked, uniform)
    total = sum(real.values())
    assert total > 150
    share = {name: c[True] / total for name, c in (("real", real), ("worked", worked), ("uniform", uniform))}
    assert share["uniform"] < 0.05 < share["real"] - 0.2
    assert abs(share["worked"] - share["real"]) < 0.12, share


def test_work_keeps_the_hand_size_and_the_deals_tiles() -> None:
    rng = random.Random(1)
    rest = [Tile(t) for t in (0, 1, 2, 9, 40, 41)]  # bonus tiles are never drawn
    hand = [Tile(t) for t in (3, 4, 5, 10, 11, 12, 19, 20, 21, 27, 27, 27, 30)]
    out = work(hand, 0, rest, 3, rng)
    assert len(out) == 13 and rest[4:] == [Tile(40), Tile(41)]
    assert Counter(out) + Counter(rest) == Counter(hand) + Counter(Tile(t) for t in (0, 1, 2, 9, 40, 41))
    assert work(hand, 0, rest, 0, rng) is hand

"""A seeded hand of ``strong`` bots in which seat E, once ready, breaks its ready hand with a discard:
the deliberate mistake the reviews (``review``, ``coach``) must find."""

from __future__ import annotations

from collections.abc import Sequence

from sgmahjong.bots import make_bot
from sgmahjong.bots.perception import perceive
from sgmahjong.bots.tactics import hand_acceptance
from sgmahjong.game import Action, HandState, player_view
from sgmahjong.review import bot_hand_log
from sgmahjong.rules import RuleSet


def shanten_after(state: HandState, seat: int, tile: int) -> int:
    """The shanten of ``seat``'s hand after discarding ``tile`` (0 = ready)."""
    p = perceive(player_view(state, seat))
    p.hand[tile] -= 1
    return hand_acceptance(p.hand, p.n_melds, [p.live(t) for t in range(34)])[0] - 1


def broken_ready_hand(rules: RuleSet) -> tuple[str, int]:
    """(the log, the number of the breaking discard) of the first seeded hand (seeds 1-39, bots
    seeded ``seed * 10 + seat``) in which seat E gets ready; its discard then breaks the ready hand."""
    broken: dict[str, int] = {}

    def tamper(state: HandState, seat: int, legal: Sequence[Action], choice: Action) -> Action:
        if seat != 0 or broken or choice.kind != "discard" or choice.tile is None:
            return choice
        if shanten_after(state, seat, int(choice.tile)) != 0:
            return choice
        for a in legal:
            if a.kind == "discard" and a.tile is not None and shanten_after(state, seat, int(a.tile)) > 0:
                broken["number"] = state.version + 1
                return a
        return choice

    for seed in range(1, 40):
        broken.clear()
        bots = [make_bot("strong", seed * 10 + i, rules) for i in range(4)]
        log = bot_hand_log(rules, bots, seed=seed, tamper=tamper)
        if broken:
            return log, broken["number"]
    raise AssertionError("no seeded hand gets seat E ready")

"""A new hand: the wall (shuffled or stacked), the commitment, the deal and the bonus-tile
replacement cycles starting with the dealer (RULES.md §2)."""

from __future__ import annotations

import random
from bisect import bisect_left
from typing import Any

from ..rules import RuleSet
from ..tiles import FLOWERS, NUM_PLAYING, Tile, full_set
from . import draws, ending, turn
from .actions import IllegalActionError
from .builder import Builder, seat_waits
from .events import Event
from .state import HandState, SeatState
from .wall import commitment, make_salt, roll_dice, secret_dice, secret_wall, shuffled_wall, wall_text


def new_hand(rules: RuleSet, *, seed: int | str | None, dealer: int = 0, prevailing: int = 0,
             wall: list[Tile] | tuple[Tile, ...] | None = None,
             pause_windows: bool = False) -> tuple[HandState, list[Event]]:
    """Shuffle (or take the stacked ``wall``, 148 tiles in draw order), deal, replace bonus tiles.
    Returns the state engine.awaiting the dealer's first decision and the events so far.

    ``seed``: a hand secret (64 hex digits: the SHA-256 counter-mode shuffle, and the secret is the
    commitment's salt) or a legacy integer seed (Mersenne Twister, as old logs were made).
    ``pause_windows``: the no-tells mode of live tables (engine.py); off for self-play and old logs."""
    stacked = wall is not None
    if isinstance(seed, str):
        salt = seed.lower()
        if wall is None:
            tiles, dice = secret_wall(salt, dealer)
        else:
            dice = secret_dice(salt)
    else:
        rng = random.Random(seed)
        if wall is None:
            tiles, dice = shuffled_wall(rng, dealer)
        else:
            dice = roll_dice(rng)
        salt = make_salt(rng)
    if wall is not None:
        tiles = [Tile(t) for t in wall]
        if sorted(tiles) != full_set():
            raise IllegalActionError("a stacked wall must hold each of the 148 tiles exactly once")
    if isinstance(seed, str):
        seed = salt
    state = HandState(rules=rules, seed=seed, dealer=dealer, prevailing=prevailing, wall=tuple(tiles),
                      stacked=stacked, salt=salt, pause_windows=pause_windows,
                      wall_hash=commitment(salt, tiles), dice=dice,
                      seats=(SeatState(),) * 4, turn=dealer)
    b = Builder(state)
    start: dict[str, Any] = {"rules": rules.to_dict(), "seed": seed, "dealer": dealer,
                             "prevailing": prevailing, "wall_hash": state.wall_hash, "dice": list(dice)}
    if stacked:
        start["wall"] = wall_text(tiles)
    if pause_windows:
        start["pause_windows"] = True
    b.emit("hand_start", None, **start)
    _deal(b)
    return b.freeze(0), b.events


def _deal(b: Builder) -> None:
    dealer = b.s.dealer
    order = [(dealer + i) % 4 for i in range(4)]
    hands: list[list[Tile]] = [[], [], [], []]
    front = 0
    wall = b.s.wall
    for _ in range(3):
        for s in order:
            hands[s].extend(wall[front:front + 4])
            front += 4
    for s in order:
        hands[s].append(wall[front])
        front += 1
    hands[dealer].append(wall[front])
    front += 1
    b.set(front=front)
    for s in order:
        dealt_bonus = frozenset(t for t in hands[s] if t >= NUM_PLAYING)
        b.upd(s, concealed=tuple(sorted(hands[s])), dealt_bonus=dealt_bonus)
        b.emit("deal", s, tiles=[t.notation for t in hands[s]])
    replacement_cycles(b, 0, 0, hands[dealer][-1])


def replacement_cycles(b: Builder, pos: int, pending: int, last_dealer_tile: Tile) -> None:
    """The bonus-tile replacement cycles of the deal, from the seat ``order[pos]`` (``pending``: how many
    bonus tiles it laid out and has not yet replaced), then the dealer's first turn.

    When a seat lays out the eighth flower and another holds seven, the deal pauses in an ``eighth``
    claim window (RULES.md §3: robbing the eighth during the deal); ``deal_pos`` keeps where it stopped
    and a pass resumes it here."""
    dealer = b.s.dealer
    order = [(dealer + i) % 4 for i in range(4)]
    b.f["deal_pos"] = None
    while pending or any(b.seat(s).concealed[-1] >= NUM_PLAYING for s in order):
        # concealed tiles are sorted: any bonus tiles are at the end
        for i in range(pos, 4):
            s = order[i]
            if not pending:
                concealed = b.seat(s).concealed
                cut = bisect_left(concealed, NUM_PLAYING)
                bonus = concealed[cut:]
                if not bonus:
                    continue
                b.upd(s, concealed=concealed[:cut])
                dealt = not b.seat(s).bonus and set(bonus) <= b.seat(s).dealt_bonus
                draws.lay_out(b, s, tuple(bonus), dealt=dealt)
                pending = len(bonus)
                flowers = [t for t in bonus if t in FLOWERS]
                if flowers and draws.open_eighth(b, s, flowers[-1]):
                    b.f["deal_pos"] = (i, pending, last_dealer_tile)
                    return
            for _ in range(pending):
                if b.remaining() <= 0:
                    ending.drawn_game(b)
                    return
                t = draws.take(b, s, back=True)
                b.upd(s, concealed=tuple(sorted((*b.seat(s).concealed, t))))
                if s == dealer and t < NUM_PLAYING:
                    last_dealer_tile = t
            pending = 0
        pos = 0
    if last_dealer_tile >= NUM_PLAYING:  # the dealer's last tile was a bonus: show any tile drawn
        last_dealer_tile = b.seat(dealer).concealed[-1]
    b.upd(dealer, drawn=last_dealer_tile)
    for s in order[1:]:
        b.upd(s, waits=seat_waits(b.seat(s).concealed))
    turn.begin_turn(b, dealer, "deal")

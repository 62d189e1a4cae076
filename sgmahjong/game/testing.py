"""Scripted hands for tests and docs: stack a wall from tile strings, then play actions in notation.

>>> state = deal(E="123m456m789m123p5p E", S="...", draws="9p 3s")      # doctest: +SKIP
>>> state, events = play(state, "E discard E", "S pass")                  # doctest: +SKIP

Seats are written ``E S W N`` (absolute seats 0-3). Unspecified hands are filled with "quiet" tiles
(distinct faces three apart: no pair, no chow); the rest of the wall with the playing tiles left over,
and the unused bonus tiles go among the 15 tiles never drawn (just before three playing tiles and the
scripted replacement draws).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from ..errors import SgMahjongError
from ..notation import parse_meld, parse_tiles
from ..rules import RuleSet
from ..tiles import NUM_PLAYING, Tile, full_set
from .actions import Action, parse_action
from .claims import closable
from .engine import apply, awaiting, legal_actions, new_hand
from .events import Event
from .state import CLAIM, HandState, SetRec

SEATS = "ESWN"
_QUIET = [Tile(i) for i in (0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 28, 29, 30, 31, 32, 33,
                            1, 4, 7, 10, 13, 16, 19, 22, 25, 2, 5, 8, 11, 14, 17, 20, 23, 26)]


def _tiles(x: str | list[Tile] | None) -> list[Tile]:
    if x is None:
        return []
    if isinstance(x, str):
        return parse_tiles(x)
    return list(x)


def stack_wall(hands: dict[int, list[Tile]], draws: list[Tile], back: list[Tile], dealer: int = 0,
               ) -> list[Tile]:
    """A 148-tile wall in draw order that deals ``hands`` (seat -> 13 tiles, 14 for the dealer; may be
    partial), then gives ``draws`` from the front and ``back`` as replacement draws."""
    pool = full_set()
    used = [*draws, *back]
    for tiles in hands.values():
        used.extend(tiles)
    for t in used:
        try:
            pool.remove(t)
        except ValueError:
            raise SgMahjongError(f"the script uses more {t!r} than the set holds") from None
    playing = [t for t in pool if t < NUM_PLAYING]
    bonus = [t for t in pool if t >= NUM_PLAYING]
    full: dict[int, list[Tile]] = {}
    for s in range(4):
        want = 14 if s == dealer else 13
        given = list(hands.get(s, []))
        if len(given) > want:
            raise SgMahjongError(f"{SEATS[s]} is dealt {len(given)} tiles; at most {want}")
        for face in _QUIET:  # distinct faces three apart: no pair, no chow, no win
            if len(given) >= want:
                break
            if face in playing and face not in given:
                playing.remove(face)
                given.append(face)
        while len(given) < want:
            given.append(playing.pop())
        full[s] = given
    order = [(dealer + i) % 4 for i in range(4)]
    wall: list[Tile] = []
    cursor = {s: 0 for s in range(4)}
    for _ in range(3):
        for s in order:
            wall.extend(full[s][cursor[s]:cursor[s] + 4])
            cursor[s] += 4
    for s in order:
        wall.append(full[s][cursor[s]])
        cursor[s] += 1
    wall.append(full[dealer][13])
    wall.extend(draws)
    # the unused bonus tiles and three playing tiles are the 15 tiles never drawn (when the script's
    # replacement draws are all used); unscripted replacement draws take those three first
    wall.extend(playing[:-3])
    wall.extend(bonus)
    wall.extend(playing[-3:])
    wall.extend(reversed(back))
    assert len(wall) == 148
    return wall


def deal(*, E: str | None = None, S: str | None = None, W: str | None = None,
         N: str | None = None, draws: str | None = None, back: str | None = None,
         dealer: int = 0, prevailing: int = 0, rules: RuleSet | None = None,
         pause_windows: bool = False, **options: Any) -> HandState:
    """A new hand with a stacked wall. ``options`` are rule options (``limit=10``)."""
    hands = {i: _tiles(h) for i, h in enumerate((E, S, W, N)) if h is not None}
    wall = stack_wall(hands, _tiles(draws), _tiles(back), dealer)
    rs = (rules or RuleSet()).with_options(**options) if options else (rules or RuleSet())
    state, _ = new_hand(rs, seed=0, dealer=dealer, prevailing=prevailing, wall=wall,
                        pause_windows=pause_windows)
    return state


def play(state: HandState, *steps: str, autopass: bool = True) -> tuple[HandState, list[Event]]:
    """Apply steps written ``"S pong"``, ``"E discard 5p"`` (seat letter, then the action). With
    ``autopass``, when a step is not a decision open in the current claim window, every awaited seat
    passes first (so scripts only name the claims that matter)."""
    events: list[Event] = []
    for step in steps:
        who, _, text = step.strip().partition(" ")
        if who not in SEATS:
            raise SgMahjongError(f"step {step!r} must start with a seat letter E, S, W or N")
        seat = SEATS.index(who)
        action = parse_action(text, seat)
        if (autopass and state.phase == CLAIM and action.kind != "close"
                and action not in legal_actions(state, seat)):
            state, evs = pass_all(state)
            events.extend(evs)
        state, evs = apply(state, action)
        events.extend(evs)
    return state, events


def pass_all(state: HandState) -> tuple[HandState, list[Event]]:
    """Every seat awaited in the open claim window passes (and a paused window is closed)."""
    events: list[Event] = []
    while state.phase == CLAIM:
        state, evs = apply(state, close_action(state) or Action(awaiting(state)[0], "pass"))
        events.extend(evs)
    return state, events


def play_out(state: HandState) -> HandState:
    """Play the hand to its end: every claim passed, a win taken when offered, else the first discard."""
    while state.result is None:
        if state.phase == CLAIM:
            state, _ = pass_all(state)
            continue
        legal = legal_actions(state, state.turn)
        win = next((a for a in legal if a.kind == "win"), None)
        state, _ = apply(state, win or next(a for a in legal if a.kind == "discard"))
    return state


def close_action(state: HandState) -> Action | None:
    """The table's ``close`` of a paused claim window once nobody is left to decide, else ``None``."""
    if closable(state) and state.window is not None:
        return Action(state.window.source, "close")
    return None


def random_action(state: HandState, rng: random.Random, win_bias: float = 0.9) -> Action:
    """A random legal action of a random awaited seat (a win is taken with probability ``win_bias``);
    the table's ``close`` when a paused window has nobody left to decide."""
    close = close_action(state)
    if close is not None:
        return close
    seats = awaiting(state)
    seat = seats[rng.randrange(len(seats))]
    legal = legal_actions(state, seat)
    wins = [a for a in legal if a.kind == "win"]
    if wins and rng.random() < win_bias:
        return wins[0]
    return legal[rng.randrange(len(legal))]


def random_hand(rules: RuleSet, seed: int, *, dealer: int = 0, prevailing: int = 0,
                pause_windows: bool = False) -> tuple[HandState, int]:
    """Play a whole hand with random legal actions; the final state and the number of actions."""
    rng = random.Random(seed)
    state, _ = new_hand(rules, seed=seed, dealer=dealer, prevailing=prevailing, pause_windows=pause_windows)
    n = 0
    while not state.ended:
        state, _ = apply(state, random_action(state, rng))
        n += 1
    return state, n


def expose(state: HandState, seat: int, *melds: tuple[str, int | None]) -> HandState:
    """Turn some of ``seat``'s concealed tiles into exposed chows/pongs as if claimed from the given
    seats (``("[CCC]", 2)``): a shortcut to positions with sets on the table. Kongs are not
    supported (they need replacement draws); play them instead. Not for the seat on turn (its legal
    actions were computed when its turn began)."""
    if state.phase == "turn" and state.turn == seat:
        raise SgMahjongError("expose() is for a seat that is not on turn")
    st = state.seats[seat]
    conc = list(st.concealed)
    recs = list(st.melds)
    for text, source in melds:
        meld = parse_meld(text)
        if meld.is_kong:
            raise SgMahjongError("expose() makes chows and pongs only")
        for t in meld.tiles:
            try:
                conc.remove(t)
            except ValueError:
                raise SgMahjongError(f"{SEATS[seat]} holds no {t!r} for {text}") from None
        recs.append(SetRec(meld.kind, meld.tile, False, source))
    seats = list(state.seats)
    seats[seat] = replace(st, concealed=tuple(conc), melds=tuple(recs),
                          drawn=st.drawn if st.drawn in conc else None, waits=None)
    return replace(state, seats=tuple(seats), claims_made=True)

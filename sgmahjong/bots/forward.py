"""The expert's fast forward model (issue 15): play an imagined hand to its end with fast policies.

A playout drives the engine (``apply``) on a sampled :class:`~sgmahjong.game.HandState`. The policies
are the ``greedy``/``strong`` bots' decision code, fed a :class:`~.perception.Perception` built
straight from the sampled state by :func:`perceive_state` — the same object ``perceive(player_view(
state, seat))`` gives (a test checks it), without building and parsing the view dict. Where the time
goes is measured by ``bench/bench_expert.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from ..game import apply, awaiting, legal_actions
from ..game.actions import Action
from ..game.state import CLAIM, ENDED, HandState
from ..melds import MeldKind
from ..tiles import NUM_PLAYING
from . import efficiency as ef
from .perception import Perception, SeatSeen

Policy = Callable[[HandState, int, Sequence[Action]], Action]

_PHASE: Final = {ENDED: "ended", CLAIM: "claim"}


def perceive_state(state: HandState, seat: int) -> Perception:
    """What ``seat`` perceives of ``state``: equal to ``perceive(player_view(state, seat))``."""
    hand = [0] * NUM_PLAYING
    visible = [0] * NUM_PLAYING
    in_pools = [0] * NUM_PLAYING
    seats: list[SeatSeen] = []
    drawn: int | None = None
    ended = state.phase == ENDED
    for i, st in enumerate(state.seats):
        ss = SeatSeen(i, concealed_count=len(st.concealed))
        if st.melds:
            for m in st.melds:
                for t in m.meld.tiles:
                    visible[t] += 1
                kind = m.kind.value
                ss.melds.append((kind, int(m.tile), m.concealed))
                if kind != "chow" and m.source is not None:
                    in_pools[m.tile] += 1
        if st.bonus:
            ss.bonus = list(st.bonus)
        if st.discards:
            ss.discards = pool = [int(t) for t in st.discards]
            for x in pool:
                visible[x] += 1
                in_pools[x] += 1
        if i == seat:
            for t in st.concealed:
                hand[t] += 1
                visible[t] += 1
            if not ended and st.drawn is not None and st.drawn in st.concealed:
                drawn = int(st.drawn)
        seats.append(ss)
    if max(visible) > 4:
        visible = [v if v <= 4 else 4 for v in visible]
    w = state.window
    last_discard = None
    claim = None
    if state.phase == CLAIM and w is not None:
        if state.last_discard is not None and w.kind == "discard":
            last_discard = (state.last_discard[0], int(state.last_discard[1]))
        claim = (w.kind, w.source, int(w.tile))
    remaining = state.wall_remaining
    return Perception(
        seat=seat, phase=_PHASE.get(state.phase, "turn"), dealer=state.dealer, prevailing=state.prevailing,
        turn=state.turn, wall_remaining=remaining if remaining > 0 else 0, hand=hand, drawn=drawn,
        seats=seats, visible=visible, in_pools=in_pools, last_discard=last_discard, claim=claim)


def playout(state: HandState, policies: Sequence[Policy], *, stop: Callable[[], bool] | None = None,
            max_steps: int = 1000) -> HandState | None:
    """Play ``state`` to the end of the hand, ``policies[seat]`` deciding for each seat; ``None`` if
    ``stop()`` turns true first (checked after every decision)."""
    steps = 0
    while state.phase != ENDED:
        seat = awaiting(state)[0]
        legal = legal_actions(state, seat)
        action = legal[0] if len(legal) == 1 else policies[seat](state, seat, legal)
        state, _ = apply(state, action)
        steps += 1
        if (stop is not None and stop()) or steps > max_steps:
            return None
    return state


def perceiving(decide: Callable[[Perception, Sequence[Action]], Action]) -> Policy:
    """A playout policy from a bot's ``decide_perceived`` (``greedy``, ``strong``)."""

    def policy(state: HandState, seat: int, legal: Sequence[Action]) -> Action:
        return decide(perceive_state(state, seat), legal)

    return policy


_NEAR: Final = (0, 2, 1)  # weight of a neighbour one and two ranks away


def _keep_score(counts: list[int], t: int, honour_value: frozenset[int]) -> int:
    """How much a tile is worth keeping, from its copies and its neighbours (a few additions)."""
    c = counts[t]
    if t >= 27:
        return 4 * (c - 1) + (1 if t in honour_value else 0)
    score = 4 * (c - 1)
    rank = t % 9
    for d in (1, 2):
        if rank - d >= 0 and counts[t - d]:
            score += _NEAR[d]
        if rank + d <= 8 and counts[t + d]:
            score += _NEAR[d]
    if rank in (0, 8):
        score -= 1
    return score


def fast_policy(state: HandState, seat: int, legal: Sequence[Action]) -> Action:
    """A very cheap policy for playouts (no hand analysis): always win; kong whenever possible; pong
    a pair of honours; no chows; discard the tile with the fewest copies and neighbours."""
    discard: Action | None = None
    passing: Action | None = None
    for a in legal:
        k = a.kind
        if k == "win" or k == "kong":
            return a
        if k == "discard" and discard is None:
            discard = a
        elif k == "pass":
            passing = a
    st = state.seats[seat]
    if discard is None:  # a claim window
        w = state.window
        if w is not None and w.tile >= 27:
            for a in legal:
                if a.kind == "pong":
                    return a
        return passing if passing is not None else legal[0]
    counts = [0] * NUM_PLAYING
    for t in st.concealed:
        counts[t] += 1
    value = frozenset((27 + (seat - state.dealer) % 4, 27 + state.prevailing, 31, 32, 33))
    best = discard
    best_score = 1 << 30
    for a in legal:
        if a.kind == "discard" and a.tile is not None:
            sc = _keep_score(counts, a.tile, value)
            if sc < best_score:
                best, best_score = a, sc
    return best


# -- quick_policy: wins about as often as greedy, defends like a person, a fraction of the cost ------
QUICK_THREAT_SETS: Final = 3  # an opponent showing this many sets is treated as waiting
QUICK_LATE_WALL: Final = 24  # ... or two sets once fewer tiles than this are left
QUICK_FOLD_DIST: Final = 3  # the quick policy folds (discards safe tiles) when this far from winning
# the styles an opponent may be read as (bots/reading.py), each a variant of the quick policy:
STYLE_QUICK: Final = 0  # as above
STYLE_CAUTIOUS: Final = 1  # folds unless ready against a seat showing CAUTIOUS_THREAT_SETS sets, or
# against everyone once fewer than CAUTIOUS_LATE_WALL tiles are left; claims nothing but a win, no kong
STYLE_EAGER: Final = 2  # claims every kong, pong or chow (the chow leaving the hand closest), declares
# every kong, never folds
STYLE_HONOURS: Final = 3  # as STYLE_QUICK, but a lone honour (any, a dragon or own wind too) is the first
# tile to go among those that keep the distance, as ``strong`` plays (bench/bench_rollout_fidelity.py)
CAUTIOUS_THREAT_SETS: Final = 2
CAUTIOUS_LATE_WALL: Final = 30
CAUTIOUS_FOLD_DIST: Final = 2
LONE_HONOUR: Final = -2  # STYLE_HONOURS's keep score of a lone honour: below a lone terminal's (-1)
_CLAIM_RANK: Final = {"kong": 0, "pong": 1, "chow": 2}


def _threats(seats: Sequence[Any], wall_remaining: int, seat: int) -> list[int]:
    """Opponents a cautious player would fear: many sets shown, or two late in the hand (``seats``: a
    state's seats, or the lean model's: anything with ``melds``)."""
    late = wall_remaining < QUICK_LATE_WALL
    out = []
    for i, st in enumerate(seats):
        if i == seat:
            continue
        n = len(st.melds)
        if n >= QUICK_THREAT_SETS or (late and n >= 2):
            out.append(i)
    return out


def _cautious_threats(seats: Sequence[Any], wall_remaining: int, seat: int) -> list[int]:
    """The threats of the cautious style: a seat showing two sets, or every opponent late."""
    late = wall_remaining < CAUTIOUS_LATE_WALL
    return [i for i, st in enumerate(seats) if i != seat and (late or len(st.melds) >= CAUTIOUS_THREAT_SETS)]


def _after_claim(counts: list[int], a: Action, tile: int) -> list[int] | None:
    """The concealed counts after pong or chow ``a`` of ``tile`` takes its two tiles from the hand
    (None: the hand lacks them)."""
    remove: tuple[int, ...]
    if a.kind == "pong":
        remove = (tile, tile)
    else:
        lo = int(a.tile) if a.tile is not None else tile
        remove = tuple(x for x in (lo, lo + 1, lo + 2) if x != tile)
    work = list(counts)
    for x in remove:
        work[x] -= 1
    return None if min(work) < 0 else work


def _eager_claim(counts: list[int], n: int, tile: int, legal: Sequence[Action]) -> Action | None:
    """The eager style's claim: a kong before a pong before a chow; of several chows the one leaving
    the hand closest to winning (None: no claim offered)."""
    best: Action | None = None
    best_key = (9, 99)
    for a in legal:
        rank = _CLAIM_RANK.get(a.kind)
        if rank is None or rank > best_key[0]:
            continue
        d = 0
        if a.kind == "chow":
            work = _after_claim(counts, a, tile)
            d = 99 if work is None else ef.distance(work, n + 1)
        if (rank, d) < best_key:
            best, best_key = a, (rank, d)
    return best


def _danger(seats: Sequence[Any], threats: Sequence[int], t: int, seen: Sequence[int]) -> int:
    """A rough danger of discarding ``t`` to the ``threats``: 0 for a tile in every threat's pool,
    low for honours mostly seen, high for middle suit tiles."""
    d = 0
    for i in threats:
        if t in seats[i].discards:
            continue
        if t >= 27:
            d += (0, 1, 3, 6, 6)[4 - min(4, seen[t])] if seen[t] < 4 else 0
        else:
            rank = t % 9
            d += 4 if rank in (0, 8) else (5 if rank in (1, 7) else 7)
    return d


def _distances(counts: list[int], n_melds: int) -> dict[int, int]:
    """The hand's distance after each discard, by tile held in ascending order (what
    ``tactics.discard_table(counts, n_melds, (), False, limit=-1)[0]`` gives, a test checks: here on
    the distance vectors directly, which compiled is cheaper than that table's memos)."""
    rs = ef.rests(ef.group_vectors(counts))
    codes = (ef.suit_code(counts, 0), ef.suit_code(counts, 9), ef.suit_code(counts, 18))
    need = 4 - n_melds
    out: dict[int, int] = {}
    for x in range(NUM_PLAYING):
        if counts[x]:
            out[x] = ef.final(_group_after(counts, codes, x), rs[3 if x >= 27 else x // 9], need)
    return out


def _group_after(counts: list[int], codes: Sequence[int], x: int) -> ef.Vec:
    """The distance vector of tile ``x``'s group after one ``x`` is discarded: a suit's from its int
    code (``codes``: the three suits' :func:`~.efficiency.suit_code`), the honours' from ``counts``."""
    if x >= 27:
        counts[x] -= 1
        sub = ef.honour_vec(tuple(counts[27:34]))
        counts[x] += 1
        return sub
    g = x // 9
    return ef.suit_vec_of_code(codes[g] - (1 << 3 * (x - 9 * g)))


def quick_policy(state: HandState, seat: int, legal: Sequence[Action], style: int = STYLE_QUICK) -> Action:
    """A cheap but realistic playout policy: always win; discard to the lowest distance (tile
    efficiency without the acceptance count; ties by copies and neighbours), folding to tiles the
    threatening opponents discarded when far from winning against a shown threat; kong when it keeps
    the distance; pong or chow when it brings the hand closer. ``style``: a variant
    (:data:`STYLE_QUICK` by default)."""
    st = state.seats[seat]
    counts = [0] * NUM_PLAYING
    for t in st.concealed:
        counts[t] += 1
    w = state.window
    return quick_choice(counts, len(st.melds), None if w is None else int(w.tile), state.seats,
                        state.wall_remaining, seat, state.dealer, state.prevailing, legal, style=style)


def quick_choice(counts: list[int], n: int, window_tile: int | None, seats: Sequence[Any],
                 wall_remaining: int, seat: int, dealer: int, prevailing: int, legal: Sequence[Action],
                 discards: Sequence[Action] | None = None, style: int = STYLE_QUICK) -> Action:
    """The quick policy's choice from what it reads of a hand (the engine's state, or the lean
    model's: ``seats`` with ``melds`` and ``discards``): the seat's concealed ``counts`` and ``n`` sets,
    the tile of the claim window (None: none open). ``discards``: the seat's discard actions by tile,
    if the caller has them (else the legal one is looked up). ``style``: the variant played
    (:data:`STYLE_QUICK`, :data:`STYLE_CAUTIOUS` or :data:`STYLE_EAGER`)."""
    discard: Action | None = None
    passing: Action | None = None
    kongs: list[Action] = []  # in the order offered
    for a in legal:
        k = a.kind
        if k == "win":
            return a
        if k == "discard":
            if discard is None:
                discard = a
        elif k == "pass":
            passing = a
        elif k == "kong":
            kongs.append(a)
    if discard is None:  # a claim window: claim if it brings the hand closer
        if window_tile is None or style == STYLE_CAUTIOUS:
            return passing if passing is not None else legal[0]
        tile = window_tile
        if style == STYLE_EAGER:
            claim = _eager_claim(counts, n, tile, legal)
            if claim is not None:
                return claim
            return passing if passing is not None else legal[0]
        d0 = ef.distance(counts, n)
        best, best_d = passing, d0
        for a in legal:
            if a.kind == "kong":
                work = list(counts)
                work[tile] -= 3
                if work[tile] >= 0 and ef.distance(work, n + 1) <= d0:
                    return a
            elif a.kind in ("pong", "chow"):
                rest = _after_claim(counts, a, tile)
                if rest is None:
                    continue
                # the distance after the claim and the best discard: the 14-equivalent hand's (an
                # unused tile goes), or 1 if it is complete (any discard breaks it)
                d = ef.distance(rest, n + 1)
                if d < 1:
                    d = 1
                if d < best_d:
                    best, best_d = a, d
        return best if best is not None else legal[0]
    codes = (ef.suit_code(counts, 0), ef.suit_code(counts, 9), ef.suit_code(counts, 18))
    vs = [ef.suit_vec_of_code(codes[0]), ef.suit_vec_of_code(codes[1]), ef.suit_vec_of_code(codes[2]),
          ef.honour_vec(tuple(counts[27:34]))]
    # the other groups' vectors for each group (ef.rests, the same convolutions, made when needed)
    p23 = ef.conv(vs[2], vs[3])
    rs: list[ef.Vec | None] = [ef.conv(vs[1], p23), None, None, None]
    p01: ef.Vec | None = None
    need = 4 - n
    r0 = rs[0]
    assert r0 is not None
    best_d = ef.final(vs[0], r0, need)  # after the best discard: the 14-equivalent hand's
    if best_d < 1:  # distance (an unused tile goes), or 1 if it is complete (any discard breaks it)
        best_d = 1
    if style == STYLE_EAGER and kongs:
        return kongs[0]
    for a in kongs:
        if style == STYLE_CAUTIOUS:
            break
        if a.tile is not None:
            kt = int(a.tile)
            work = list(counts)
            if work[kt] >= 4:
                work[kt] -= 4
            elif work[kt] >= 1:
                work[kt] -= 1
                if ef.distance(work, n) <= best_d:
                    return a
                continue
            else:
                continue
            if ef.distance(work, n + 1) <= best_d:
                return a
    if style in (STYLE_QUICK, STYLE_HONOURS):
        threats = _threats(seats, wall_remaining, seat) if best_d >= QUICK_FOLD_DIST else []
    elif style == STYLE_CAUTIOUS:
        threats = _cautious_threats(seats, wall_remaining, seat) if best_d >= CAUTIOUS_FOLD_DIST else []
    else:
        threats = []
    if threats:
        dd = _distances(counts, n)
        seen = [0] * NUM_PLAYING
        for s2 in seats:
            for t in s2.discards:
                seen[t] += 1
            for m in s2.melds:  # a set's tiles (as ``m.meld.tiles``, without building them)
                t = int(m.tile)
                if m.kind is MeldKind.CHOW:
                    seen[t] += 1
                    seen[t + 1] += 1
                    seen[t + 2] += 1
                else:
                    seen[t] += 4 if m.kind is MeldKind.KONG else 3
        key = {x: (_danger(seats, threats, x, seen), dd[x]) for x in dd}
        best_t = min(key, key=key.__getitem__)
    else:
        # the tile of fewest copies and neighbours (then the lowest) among those whose discard keeps
        # the lowest distance: tried in that order, the first that keeps it
        value = _VALUE[(seat - dealer) % 4][prevailing]
        order = [*_suit_keeps(codes[0], 0), *_suit_keeps(codes[1], 9), *_suit_keeps(codes[2], 18)]
        if style == STYLE_HONOURS:
            order.extend((LONE_HONOUR if counts[x] == 1 else 4 * (counts[x] - 1), x)
                         for x in range(27, NUM_PLAYING) if counts[x])
        else:
            order.extend((_keep_score(counts, x, value), x) for x in range(27, NUM_PLAYING) if counts[x])
        order.sort()
        best_t = -1
        final = ef.final
        for _, x in order:
            g = 3 if x >= 27 else x // 9
            r = rs[g]
            if r is None:
                if g == 1:
                    r = ef.conv(vs[0], p23)
                else:
                    if p01 is None:
                        p01 = ef.conv(vs[0], vs[1])
                    r = ef.conv(p01, vs[3]) if g == 2 else ef.conv(p01, vs[2])
                rs[g] = r
            if final(_group_after(counts, codes, x), r, need) <= best_d:
                best_t = x
                break
    if best_t < 0:
        return discard
    if discards is not None:
        return discards[best_t]
    for a in legal:
        if a.kind == "discard" and a.tile == best_t:
            return a
    return discard


_keeps_memo: Final[dict[int, tuple[tuple[int, int], ...]]] = {}


def _suit_keeps(code: int, base: int) -> tuple[tuple[int, int], ...]:
    """``(keep score, tile)`` of each rank held in a suit (its :func:`efficiency.suit_code`; its tiles
    from ``base``): a suit tile's :func:`_keep_score` depends on its suit's counts only (memoised by
    them)."""
    mk = code << 5 | base
    hit = _keeps_memo.get(mk)
    if hit is None:
        if len(_keeps_memo) > ef.CONV_MAX:
            _keeps_memo.clear()
        c = [(code >> 3 * r) & 7 for r in range(9)]
        hit = _keeps_memo[mk] = tuple((_keep_score(c, r, _NO_VALUE), base + r) for r in range(9) if c[r])
    return hit


_NO_VALUE: Final[frozenset[int]] = frozenset()


# the honours worth keeping, by seat wind and prevailing wind: the dragons and both winds
_VALUE: Final = tuple(tuple(frozenset((27 + w, 27 + p, 31, 32, 33)) for p in range(4)) for w in range(4))

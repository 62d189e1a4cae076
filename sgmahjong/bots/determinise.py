"""Determinising a player view (issue 15): what a seat knows, and whole hands consistent with it.

:func:`knowledge` reads everything a seat's ``player_view`` shows into a :class:`Knowledge`: its own
tiles, every exposed set (concealed kongs included), bonus tiles, discard pools, the other hands'
sizes, the wall's count, the ledger, the open claim window. It reads nothing else, so two hands that
differ only in tiles the seat cannot see give equal ``Knowledge`` (a test swaps hidden tiles).

:func:`sample_state` deals the unseen tiles at random — the other hands get playing tiles only (bonus
tiles never stay in a hand), the rest shuffled into the wall — and builds an engine
:class:`~sgmahjong.game.HandState` at the same decision: the seat on turn with its turn options, or
the discard's claim window reopened with every seat's options from its sampled tiles. Every
arrangement of the unseen tiles consistent with the counts is equally likely. The built state is an
imagined hand, the expert's model: the bot still never sees the real state.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from .. import bao
from ..analysis.waits import waits
from ..game import claims, turn
from ..game.builder import Builder, seat_waits
from ..game.state import CLAIM, TURN, HandState, SeatState, SetRec
from ..game.wins import hand_win
from ..melds import MeldKind
from ..rules import RuleSet
from ..tiles import NUM_FACES, NUM_PLAYING, Tile, full_set
from . import passing
from .forward import _distances
from .perception import tile_of
from .progress import work
from .ready import build_ready, pick_wait, ready_chance
from .shuffle import draw_told, shuffle
from .tells import seat_weights

_FULL: tuple[int, ...] = tuple(full_set().count(Tile(i)) for i in range(NUM_FACES))
_KINDS = {"chow": MeldKind.CHOW, "pong": MeldKind.PONG, "kong": MeldKind.KONG}
DEAD_TILES = 15
WEIGH_EPS = 0.25  # weighed deals: the weight of a seat's inefficient latest discard
WEIGH_TRIES = 16  # ... and the deals tried at most
READY_TRIES = 8  # ready deals: the hands tried at most for a seat dealt ready
PASSED_TRIES = 32  # passed deals: the deals tried at most for one consistent with the passed discards


class InconsistentViewError(ValueError):
    """The view's counts do not add up (no hand can be dealt from it)."""


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What one seat knows of a hand, read from its player view only."""

    seat: int
    dealer: int
    prevailing: int
    phase: str
    turn: int
    wall_remaining: int
    ledger: tuple[int, ...]
    own: tuple[Tile, ...]  # the seat's concealed tiles (the drawn tile included), sorted
    drawn: Tile | None
    melds: tuple[tuple[SetRec, ...], ...]
    bonus: tuple[tuple[Tile, ...], ...]
    discards: tuple[tuple[Tile, ...], ...]
    hidden: tuple[int, ...]  # concealed tiles each seat holds that this seat cannot see (0 for itself)
    unseen: tuple[int, ...]  # NUM_FACES counts of the tiles this seat has not seen anywhere
    window: tuple[str, int, Tile] | None  # an open claim window: (kind, source seat, tile)
    last: tuple[Tile | None, ...] = (None, None, None, None)  # each seat's latest discard (claimed or not)
    # each seat's tiles barred until its next turn, and those it let pass (passing.py; none when the
    # order of the discards cannot be rebuilt from the view)
    barred: tuple[frozenset[int], ...] = (frozenset(),) * 4
    passed: tuple[frozenset[int], ...] = (frozenset(),) * 4
    made: tuple[int, ...] = (0, 0, 0, 0)  # the discards each seat has made (its pile and those claimed)


def knowledge(view: dict[str, Any]) -> Knowledge:
    """The :class:`Knowledge` of the view's seat; raises :class:`InconsistentViewError` if the tiles
    it shows are more than the set holds."""
    me = int(view["seat"])
    seen = [0] * NUM_FACES
    melds: list[tuple[SetRec, ...]] = [(), (), (), ()]
    bonus: list[tuple[Tile, ...]] = [(), (), (), ()]
    discards: list[tuple[Tile, ...]] = [(), (), (), ()]
    last: list[Tile | None] = [None, None, None, None]
    made = [0, 0, 0, 0]
    piles = passing.read_piles(view)  # every discard each seat has made, in order
    hidden = [0, 0, 0, 0]
    own: list[Tile] = []
    drawn: Tile | None = None
    for s in view["seats"]:
        i = int(s["seat"])
        recs: list[SetRec] = []
        for m in s.get("melds") or ():
            tiles = [tile_of(x) for x in m.get("tiles") or ()]
            if not tiles:
                continue
            for t in tiles:
                seen[t] += 1
            src = m.get("from")
            recs.append(SetRec(_KINDS[str(m["kind"])], min(tiles), bool(m.get("concealed")),
                               None if src is None else int(src)))
        melds[i] = tuple(recs)
        bonus[i] = tuple(tile_of(x) for x in s.get("bonus") or ())
        discards[i] = tuple(tile_of(x) for x in s.get("discards") or ())
        made[i] = len(discards[i]) + len(s.get("taken") or ())
        last[i] = Tile(piles.piles[i][-1]) if piles.piles[i] else None
        for t in (*bonus[i], *discards[i]):
            seen[t] += 1
        if i == me:
            own = [tile_of(x) for x in s.get("concealed") or ()]
            if s.get("drawn"):
                drawn = tile_of(s["drawn"])
                own.append(drawn)
            for t in own:
                seen[t] += 1
        else:
            hidden[i] = int(s.get("concealed_count") or 0)
    unseen = tuple(f - n for f, n in zip(_FULL, seen, strict=True))
    if min(unseen) < 0:
        raise InconsistentViewError("the view shows more copies of a tile than the set holds")
    window = view.get("window")
    win = (str(window["kind"]), int(window["seat"]), tile_of(window["tile"])) if window else None
    phase = str(view.get("phase"))
    dealer = int(view.get("dealer") or 0)
    bars = piles.barred
    let_pass = bars if piles.order is None else passing.passed(piles.order, bars)
    return Knowledge(
        seat=me, dealer=dealer, prevailing=int(view.get("prevailing") or 0), phase=phase,
        turn=int(view.get("turn") or 0),
        wall_remaining=int(view.get("wall_remaining") or 0),
        ledger=tuple(int(x) for x in view.get("hand_ledger") or (0, 0, 0, 0)),
        own=tuple(sorted(own)), drawn=drawn, melds=tuple(melds), bonus=tuple(bonus),
        discards=tuple(discards), hidden=tuple(hidden), unseen=unseen, window=win, last=tuple(last),
        barred=bars, passed=let_pass, made=tuple(made))


def _liability(k: Knowledge, seat: int, rules: RuleSet) -> tuple[int | None, str | None]:
    """The claim-triggered 包 on ``seat`` read from its sets in order (public knowledge)."""
    before: list[Any] = []
    for m in k.melds[seat]:
        if m.source is not None and m.kind is not MeldKind.CHOW:
            reason = bao.claim_liability(before, m.tile, kong=m.kind is MeldKind.KONG,
                                         seat_wind=(seat - k.dealer) % 4, prevailing_wind=k.prevailing,
                                         rules=rules, bonus=k.bonus[seat])
            if reason is not None:
                return m.source, reason
        before.append(m.meld)
    return None, None


@dataclass(frozen=True, slots=True)
class Table:
    """The public part of a sampled hand, computed once per decision (shared by every sample)."""

    k: Knowledge
    rules: RuleSet
    playing: tuple[Tile, ...]  # unseen playing tiles, in a fixed order
    bonus: tuple[Tile, ...]  # unseen bonus tiles
    liable: tuple[tuple[int | None, str | None], ...]
    seen: tuple[int, ...]
    discards_made: int
    claims_made: bool
    kong_made: bool
    weigh: tuple[int, ...] = ()  # with weighed deals: each seat's latest discard to check (-1: none)
    tells: tuple[tuple[float, ...], ...] = ()  # with told deals: each seat's factor per face (tells.py)
    barred: tuple[frozenset[int], ...] = ()  # with barred tiles: each seat's, as the engine holds them
    passed: tuple[frozenset[int], ...] = ()  # with passed deals: what each other seat is not waiting on
    progress: tuple[int, ...] = ()  # with worked deals: the turns each other seat's dealt hand is played
    ready: tuple[tuple[float, ...], ...] = ()  # with ready deals: each seat's chance of winning on each face
    odds: tuple[float, ...] = ()  # with ready deals: each seat's chance of being ready, if known better than
    # READY_AT reads it from the chances' sum (a measuring oracle: bench.model_error)


class DealOptions(TypedDict):
    """The options of :func:`table` that change how the hidden tiles are dealt."""

    weigh: bool
    tells: bool
    barred: bool
    passed: bool
    progress: bool


def table(k: Knowledge, rules: RuleSet, *, weigh: bool = False, tells: bool = False, barred: bool = False,
          passed: bool = False, progress: bool = False, ready: Sequence[Sequence[float]] = ()) -> Table:
    """The sample-independent parts of :func:`sample_state`; checks the counts add up. ``weigh``: deal
    the other hands weighed by their latest discards; ``tells``: by what all their discards tell (see
    :func:`deal_hidden`); ``barred``: every seat's barred tiles as the engine would hold them (its
    latest discard and those it let pass since: :mod:`.passing`); ``passed``: no other seat dealt a
    hand that wins on a discard it let pass; ``progress``: each other seat's dealt hand played forward
    for the turns the seat has played (:mod:`.progress`); ``ready``: each seat's chance of winning on each
    playing face now (:func:`.ready.wait_chances`), to deal it a waiting hand as likely as that says
    (:func:`deal_hidden`)."""
    playing = tuple(Tile(t) for t in range(NUM_PLAYING) for _ in range(k.unseen[t]))
    bonus = tuple(Tile(t) for t in range(NUM_PLAYING, NUM_FACES) for _ in range(k.unseen[t]))
    need = sum(k.hidden)
    if need > len(playing) or len(playing) + len(bonus) - need != k.wall_remaining + DEAD_TILES:
        raise InconsistentViewError(
            f"{len(playing) + len(bonus)} unseen tiles cannot make hands of {need} and a wall of "
            f"{k.wall_remaining} + {DEAD_TILES}")
    seen = [0] * NUM_PLAYING
    claimed = 0
    for ms in k.melds:
        for m in ms:
            if m.source is not None:
                claimed += 1
                if m.kind is not MeldKind.CHOW:
                    seen[m.tile] += 1
    for pool in k.discards:
        for t in pool:
            if t < NUM_PLAYING:
                seen[t] += 1
    return Table(k=k, rules=rules, playing=playing, bonus=bonus,
                 liable=tuple(_liability(k, s, rules) for s in range(4)), seen=tuple(seen),
                 discards_made=sum(len(p) for p in k.discards) + claimed,
                 claims_made=claimed > 0,
                 kong_made=any(m.kind is MeldKind.KONG for ms in k.melds for m in ms),
                 weigh=_weigh(k) if weigh else (),
                 tells=tuple(seat_weights(k.discards[s], k.unseen, (s - k.dealer) % 4, k.prevailing)
                             for s in range(4)) if tells else (),
                 barred=k.barred if barred else (),
                 passed=tuple(frozenset() if s == k.seat or not k.hidden[s] else k.passed[s]
                              for s in range(4)) if passed and any(k.passed) else (),
                 progress=tuple(0 if s == k.seat or not k.hidden[s] else k.made[s]
                                for s in range(4)) if progress else (),
                 ready=tuple(tuple(c) if s != k.seat and k.hidden[s] else () for s, c in enumerate(ready))
                 if ready else ())


def _weigh(k: Knowledge) -> tuple[int, ...]:
    out = []
    for s in range(4):
        t = k.last[s]
        out.append(-1 if s == k.seat or t is None or t >= NUM_PLAYING or not k.hidden[s] else int(t))
    return tuple(out)


def consistent(counts: list[int], n_melds: int, t: int) -> bool:
    """Whether discarding ``t`` from the concealed ``counts`` (``t`` among them) leaves the hand as near
    to winning as any other discard would (an efficient player's discard)."""
    dist = _distances(counts, n_melds)
    return dist[t] <= min(dist.values())


def deal_hidden(tb: Table, rng: random.Random) -> tuple[list[list[Tile]], list[Tile]]:
    """The other seats' concealed tiles and the wall (draw order) for one sample. With ``tb.weigh``
    the deal is weighed by how likely each other seat's latest discard was: a deal where that discard
    was not an efficient one from the seat's dealt tiles (:func:`consistent`) is kept with probability
    ``WEIGH_EPS`` (per such seat), else dealt again, at most ``WEIGH_TRIES`` times. With ``tb.tells``
    each seat's tiles are drawn from those left in turn, a copy of face ``t`` with weight
    ``tb.tells[seat][t]`` (:mod:`.tells`), the rest making the wall. With ``tb.progress`` each other
    seat's hand is then played forward from the wall for the turns that seat has played
    (:func:`.progress.work`). With ``tb.passed`` a deal that gives another seat a hand winning on a
    discard it let pass is dealt again, at most ``PASSED_TRIES`` times (a seat that always wins would
    have won on it). With ``tb.ready`` (in place of the others) each other seat is dealt a hand that
    wins on a discard with the chance :func:`.ready.ready_chance` reads from its chances, on a face
    drawn by them (:func:`_deal_ready`), the rest uniformly."""
    if tb.ready:
        return _deal_ready(tb, rng)
    for _ in range(PASSED_TRIES if tb.passed else 1):
        hands, wall = _deal_told(tb, rng) if tb.tells else _deal_uniform(tb, rng)
        for s, turns in enumerate(tb.progress):
            if turns:
                hands[s] = work(hands[s], len(tb.k.melds[s]), wall, turns, rng)
        if not tb.passed or _lets_pass(tb, hands):
            break
    return hands, wall


def _deal_uniform(tb: Table, rng: random.Random) -> tuple[list[list[Tile]], list[Tile]]:
    """:func:`deal_hidden` with every arrangement alike (or weighed by the latest discards)."""
    pool = list(tb.playing)
    for _ in range(WEIGH_TRIES if tb.weigh else 1):
        shuffle(pool, rng)
        if not tb.weigh or rng.random() < _weight(tb, pool):
            break
    hands: list[list[Tile]] = [[], [], [], []]
    return hands, _deal_rest(tb, pool, hands, (False,) * 4, rng)


def _deal_rest(tb: Table, pool: list[Tile], hands: list[list[Tile]], dealt: Sequence[bool],
               rng: random.Random) -> list[Tile]:
    """Deal each seat not yet ``dealt`` as many tiles as it hides, in turn from the front of ``pool``;
    the wall (the rest and the unseen bonus tiles, shuffled)."""
    at = 0
    for s in range(4):
        if not dealt[s]:
            n = tb.k.hidden[s]
            hands[s] = sorted(pool[at:at + n])
            at += n
    wall = pool[at:] + list(tb.bonus)
    shuffle(wall, rng)
    return wall


def _deal_ready(tb: Table, rng: random.Random) -> tuple[list[list[Tile]], list[Tile]]:
    """:func:`deal_hidden` with ready hands: each other seat, with the chance it is ready, gets a hand
    that wins on a face drawn by its chances (:func:`.ready.build_ready`, at most ``READY_TRIES``
    tries for one the engine lets win on a discard); the others are dealt from what is left."""
    k = tb.k
    counts = [0] * NUM_PLAYING
    for x in tb.playing:
        counts[x] += 1
    hands: list[list[Tile]] = [[], [], [], []]
    dealt = [False] * 4
    for s, chances in enumerate(tb.ready):
        if not chances or rng.random() >= (tb.odds[s] if tb.odds else ready_chance(sum(chances))):
            continue
        for _ in range(READY_TRIES):
            face = pick_wait(chances, rng)
            hand = build_ready(counts, k.hidden[s], face, rng) if face >= 0 else None
            if hand is not None and _wins_on(tb, s, hand, face):
                for f in hand:
                    counts[f] -= 1
                hands[s] = sorted(Tile(f) for f in hand)
                dealt[s] = True
                break
    pool = [Tile(f) for f in range(NUM_PLAYING) for _ in range(counts[f])]
    shuffle(pool, rng)
    return hands, _deal_rest(tb, pool, hands, dealt, rng)


def _wins_on(tb: Table, s: int, hand: Sequence[int], t: int) -> bool:
    """Whether seat ``s`` holding ``hand`` may win on a discard of ``t`` (its sets and bonus tiles as
    they are)."""
    k = tb.k
    seat = SeatState(concealed=tuple(Tile(x) for x in hand), melds=k.melds[s], bonus=k.bonus[s])
    win = hand_win(seat, Tile(t), self_drawn=False, seat_wind=(s - k.dealer) % 4, prevailing=k.prevailing,
                   rules=tb.rules)
    return win is not None and win.valid


def _deal_told(tb: Table, rng: random.Random) -> tuple[list[list[Tile]], list[Tile]]:
    """:func:`deal_hidden` by the tells: each seat with hidden tiles takes the ``n`` copies with the
    smallest exponential clocks of rate ``weight`` (a weighted draw without replacement)."""
    pool = list(tb.playing)
    hands, rest = draw_told(pool, [int(t) for t in pool], tb.k.hidden, tb.tells, rng)
    wall = rest + list(tb.bonus)
    shuffle(wall, rng)
    return hands, wall


def _lets_pass(tb: Table, hands: list[list[Tile]]) -> bool:
    """Whether no other seat's dealt hand wins on a discard it let pass (``tb.passed``)."""
    k = tb.k
    for s, tiles in enumerate(tb.passed):
        hand = hands[s]
        if not tiles or len(hand) % 3 != 1:
            continue
        counts = [0] * NUM_PLAYING
        for x in hand:
            counts[x] += 1
        hits = tiles.intersection(waits(counts))
        if not hits:
            continue
        seat = SeatState(concealed=tuple(hand), melds=k.melds[s], bonus=k.bonus[s])
        for t in hits:
            win = hand_win(seat, Tile(t), self_drawn=False, seat_wind=(s - k.dealer) % 4,
                           prevailing=k.prevailing, rules=tb.rules)
            if win is not None and win.valid:
                return False
    return True


def _weight(tb: Table, pool: list[Tile]) -> float:
    """The chance a dealt ``pool`` is kept: ``WEIGH_EPS`` for each seat whose latest discard it makes
    inefficient."""
    k = tb.k
    w = 1.0
    at = 0
    for s in range(4):
        n = k.hidden[s]
        t = tb.weigh[s]
        if t >= 0:
            counts = [0] * NUM_PLAYING
            for x in pool[at:at + n]:
                counts[x] += 1
            counts[t] += 1
            if not consistent(counts, len(k.melds[s]), t):
                w *= WEIGH_EPS
        at += n
    return w


def sample_state(tb: Table, rng: random.Random) -> HandState | None:
    """One imagined hand consistent with the knowledge, at the same decision; ``None`` when the
    decision is not one the model rebuilds (a kong-robbing or eighth-flower window) or this sample
    does not ask the seat."""
    k = tb.k
    hands, wall = deal_hidden(tb, rng)
    hands[k.seat] = list(k.own)
    window = k.window
    claim = k.phase == "claim" and window is not None
    if k.phase == "claim" and (window is None or window[0] != "discard"):
        return None
    if k.phase not in ("claim", "turn"):
        return None
    seats = []
    for s in range(4):
        conc = tuple(hands[s])
        liable, reason = tb.liable[s]
        seats.append(SeatState(
            concealed=conc, drawn=k.drawn if s == k.seat else None, melds=k.melds[s], bonus=k.bonus[s],
            discards=k.discards[s], has_drawn=bool(k.discards[s] or k.melds[s]) or s == k.turn,
            liable=liable, liable_reason=reason,
            barred=frozenset(Tile(t) for t in tb.barred[s]) if tb.barred else frozenset(),
            waits=seat_waits(conc) if len(conc) % 3 == 1 else None))
    seen = tb.seen
    last_discard = None
    last_fresh = False
    if claim:
        assert window is not None
        src, t = window[1], window[2]
        last_discard = (src, t)
        last_fresh = seen[t] <= 1
    state = HandState(
        rules=tb.rules, seed=None, dealer=k.dealer, prevailing=k.prevailing, wall=tuple(wall),
        stacked=True, salt="", wall_hash="", dice=(1, 1, 1), seats=tuple(seats),
        phase=TURN, turn=k.turn, ledger=k.ledger, seen=seen, discards_made=tb.discards_made,
        claims_made=tb.claims_made, kong_made=tb.kong_made, last_discard=last_discard,
        last_fresh=last_fresh, draw_source="front")
    b = Builder(state)
    if claim:
        assert window is not None
        claims.open_discard_window(b, window[1], window[2])
        new = b.freeze(0)
        if new.phase != CLAIM or new.window is None or not new.window.options[k.seat]:
            return None
        return new
    if k.turn != k.seat:
        return None
    turn.begin_turn(b, k.seat, "front" if k.drawn is not None else "claim")
    return b.freeze(0)

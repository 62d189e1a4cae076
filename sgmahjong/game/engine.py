"""The hand as a pure state machine: :func:`new_hand`, :func:`legal_actions`, :func:`awaiting`,
:func:`apply`. Draws and bonus replacements happen inside ``apply``; seats only decide.

Each ``apply`` copies the state into a small mutable :class:`_Builder`, plays the action and every
automatic step it causes (draws, bonus replacements, kong payments, window resolution), and freezes
the result into a new :class:`HandState` (unchanged seats are shared with the old state).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import fields, replace
from typing import Any

from ..analysis.waits import waits
from ..melds import MeldKind
from ..rules import RuleSet
from ..tiles import FLOWERS, NUM_PLAYING, Tile, full_set
from . import liability, scoring_bridge
from .actions import Action, IllegalActionError, format_action
from .events import Event
from .state import CLAIM, ENDED, TURN, HandState, SeatState, SetRec, Window
from .wall import commitment, make_salt, roll_dice, shuffled_wall, wall_text
from .wins import WinInfo, declaration_win, hand_win, is_thirteen_wonders


def _waits(concealed: tuple[Tile, ...] | list[Tile]) -> frozenset[int]:
    """The shape waits of a 13-tile-equivalent concealed part."""
    counts = [0] * NUM_PLAYING
    for t in concealed:
        counts[t] += 1
    return frozenset(waits(counts))


def _make_evolve() -> Any:
    """A fast ``dataclasses.replace`` for HandState: one unrolled function, generated once."""
    names = [f.name for f in fields(HandState)]
    body = "".join(f"    s(n, {x!r}, f[{x!r}] if {x!r} in f else old.{x})\n" for x in names)
    src = f"def _evolve(old, f):\n    n = new(HandState)\n{body}    return n\n"
    scope: dict[str, Any] = {"new": object.__new__, "s": object.__setattr__, "HandState": HandState}
    exec(src, scope)
    return scope["_evolve"]


_evolve: Callable[[HandState, dict[str, Any]], HandState] = _make_evolve()
# shared Action objects (the hot path builds no new ones)
_DISCARD = tuple(tuple(Action(s, "discard", Tile(t)) for t in range(NUM_PLAYING)) for s in range(4))
_KONG = tuple(tuple(Action(s, "kong", Tile(t)) for t in range(NUM_PLAYING)) for s in range(4))
_CHOW = tuple(tuple(Action(s, "chow", Tile(t)) for t in range(27)) for s in range(4))
_PONG = tuple(Action(s, "pong") for s in range(4))
_PASS = tuple(Action(s, "pass") for s in range(4))


class _Builder:
    """Mutable working copy of a :class:`HandState` for one ``apply``."""

    def __init__(self, state: HandState) -> None:
        self.s = state
        self.seats = list(state.seats)
        self.events: list[Event] = []
        self.f: dict[str, Any] = {}
        self.dealing = False
        self.turn_win: WinInfo | None = None

    # -- field access ----------------------------------------------------------------------------
    def get(self, name: str) -> Any:
        return self.f[name] if name in self.f else getattr(self.s, name)

    def set(self, **kw: Any) -> None:
        self.f.update(kw)

    @property
    def rules(self) -> RuleSet:
        return self.s.rules

    def seat(self, i: int) -> SeatState:
        return self.seats[i]

    def upd(self, i: int, **kw: Any) -> None:
        st = self.seats[i]
        g = kw.get
        self.seats[i] = SeatState(
            g("concealed", st.concealed), g("drawn", st.drawn) if "drawn" in kw else st.drawn,
            g("melds", st.melds), g("bonus", st.bonus), g("discards", st.discards),
            g("barred", st.barred), g("paid", st.paid), g("dealt_bonus", st.dealt_bonus),
            g("has_drawn", st.has_drawn), g("liable", st.liable) if "liable" in kw else st.liable,
            g("liable_reason", st.liable_reason),
            kw.get("waits", None if "concealed" in kw else st.waits))

    def emit(self, kind: str, seat: int | None = None, /, **data: Any) -> None:
        self.events.append(Event(kind, seat, data))

    def remaining(self) -> int:
        front: int = self.get("front")
        back: int = self.get("back")
        return len(self.s.wall) - front - back - 15

    def pay(self, amounts: list[int]) -> None:
        ledger = self.get("ledger")
        self.set(ledger=tuple(a + b for a, b in zip(ledger, amounts, strict=True)))

    def freeze(self, version: int) -> HandState:
        f = self.f
        f["seats"] = tuple(self.seats)
        f["version"] = version
        return _evolve(self.s, f)


# -- creation ------------------------------------------------------------------------------------

def new_hand(rules: RuleSet, *, seed: int | None, dealer: int = 0, prevailing: int = 0,
             wall: list[Tile] | tuple[Tile, ...] | None = None) -> tuple[HandState, list[Event]]:
    """Shuffle (or take the stacked ``wall``, 148 tiles in draw order), deal, replace bonus tiles.
    Returns the state awaiting the dealer's first decision and the events so far."""
    rng = random.Random(seed)
    if wall is None:
        tiles, dice = shuffled_wall(rng, dealer)
        stacked = False
    else:
        tiles = [Tile(t) for t in wall]
        if sorted(tiles) != full_set():
            raise IllegalActionError("a stacked wall must hold each of the 148 tiles exactly once")
        dice = roll_dice(rng)
        stacked = True
    salt = make_salt(rng)
    state = HandState(rules=rules, seed=seed, dealer=dealer, prevailing=prevailing, wall=tuple(tiles),
                      stacked=stacked, salt=salt, wall_hash=commitment(salt, tiles), dice=dice,
                      seats=(SeatState(),) * 4, turn=dealer)
    b = _Builder(state)
    start: dict[str, Any] = {"rules": rules.to_dict(), "seed": seed, "dealer": dealer,
                             "prevailing": prevailing, "wall_hash": state.wall_hash, "dice": list(dice)}
    if stacked:
        start["wall"] = wall_text(tiles)
    b.emit("hand_start", None, **start)
    _deal(b)
    return b.freeze(0), b.events


def _deal(b: _Builder) -> None:
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
    last_dealer_tile = hands[dealer][-1]
    b.dealing = True
    while any(t >= NUM_PLAYING for s in order for t in b.seat(s).concealed):
        for s in order:
            bonus = [t for t in b.seat(s).concealed if t >= NUM_PLAYING]
            if not bonus:
                continue
            conc = tuple(t for t in b.seat(s).concealed if t < NUM_PLAYING)
            b.upd(s, concealed=conc)
            dealt = not b.seat(s).bonus and set(bonus) <= b.seat(s).dealt_bonus
            _lay_out(b, s, tuple(bonus), dealt=dealt)
            for _ in bonus:
                if b.remaining() <= 0:
                    _drawn_game(b)
                    return
                t = _take(b, s, back=True)
                b.upd(s, concealed=tuple(sorted((*b.seat(s).concealed, t))))
                if s == dealer and t < NUM_PLAYING:
                    last_dealer_tile = t
    b.dealing = False
    if last_dealer_tile >= NUM_PLAYING:  # the dealer's last tile was a bonus: show any tile drawn
        last_dealer_tile = b.seat(dealer).concealed[-1]
    b.upd(dealer, drawn=last_dealer_tile)
    for s in order[1:]:
        b.upd(s, waits=_waits(b.seat(s).concealed))
    _begin_turn(b, dealer, "deal")


# -- wall ----------------------------------------------------------------------------------------

def _take(b: _Builder, seat: int, *, back: bool) -> Tile:
    """Take the next tile from the front or back of the wall (the caller checked one is left)."""
    wall = b.s.wall
    t: Tile
    if back:
        nb = b.get("back")
        t = wall[len(wall) - 1 - nb]
        b.set(back=nb + 1)
    else:
        nf = b.get("front")
        t = wall[nf]
        b.set(front=nf + 1)
    b.emit("draw", seat, tile=t.notation, source="back" if back else "front")
    return t


def _lay_out(b: _Builder, seat: int, tiles: tuple[Tile, ...], *, dealt: bool = False) -> None:
    """Bonus tiles go face up; instant payments for any event they complete (double for the dealt
    hand, 暗咬)."""
    st = b.seat(seat)
    b.upd(seat, bonus=(*st.bonus, *tiles))
    for t in tiles:
        b.emit("bonus", seat, tile=t.notation)
    for kind in scoring_bridge.bonus_payment_kinds(st.bonus, tiles, seat, dealt=dealt):
        _instant(b, seat, kind, dealt=dealt)


def _instant(b: _Builder, seat: int, kind: str, *, dealt: bool = False, liable: int | None = None) -> None:
    """An instant payment to ``seat`` (or all of it from ``liable``, 包杠)."""
    pays = scoring_bridge.instant_payment(kind, seat, b.rules, dealt=dealt, liable=liable)
    if not any(pays):
        return
    b.pay(pays)
    b.emit("payment", seat, reason=kind, amounts=pays, liable=liable)


# -- turns ---------------------------------------------------------------------------------------

def _draw_turn(b: _Builder, seat: int) -> None:
    """``seat`` begins its turn by drawing from the front."""
    if b.remaining() <= 0:
        _drawn_game(b)
        return
    b.upd(seat, barred=frozenset(), has_drawn=True)
    b.set(kongs_in_turn=0, flower_chain=0, last_discard=None)
    t = _take(b, seat, back=False)
    b.set(last_tile=b.remaining() == 0)
    _receive(b, seat, t, "front")


def _replacement(b: _Builder, seat: int, reason: str) -> None:
    """A replacement draw from the back after a bonus tile or a kong."""
    if b.remaining() <= 0:
        _drawn_game(b)
        return
    t = _take(b, seat, back=True)
    b.set(last_tile=False)
    _receive(b, seat, t, reason)


def _receive(b: _Builder, seat: int, t: Tile, source: str) -> None:
    if t >= NUM_PLAYING:
        _lay_out(b, seat, (t,))
        b.set(flower_chain=b.get("flower_chain") + 1)
        if t in FLOWERS and _open_eighth(b, seat, t):
            return
        _replacement(b, seat, "flower")
        return
    st = b.seat(seat)
    b.upd(seat, concealed=tuple(sorted((*st.concealed, t))), drawn=t, waits=st.waits)
    _begin_turn(b, seat, source)


def _open_eighth(b: _Builder, seat: int, tile: Tile) -> bool:
    """Another seat holding seven flowers may rob the eighth flower just laid out."""
    if not b.rules.robbing_the_eighth:
        return False
    options: list[tuple[Action, ...]] = [(), (), (), ()]
    for other in range(4):
        if other == seat:
            continue
        if sum(1 for f in b.seat(other).bonus if f in FLOWERS) == 7:
            options[other] = (Action(other, "win"), Action(other, "pass"))
    if not any(options):
        return False
    b.set(phase=CLAIM, window=Window("eighth", seat, tile, tuple(options)))
    b.emit("window", seat, kind="eighth", tile=tile.notation,
           asked=[s for s in range(4) if options[s]])
    return True


def _begin_turn(b: _Builder, seat: int, source: str) -> None:
    if source == "kong" and b.get("kongs_in_turn") >= 2:
        source = "kong_on_kong"
    b.set(phase=TURN, turn=seat, window=None, draw_source=source)
    opts, win = _turn_options(b, seat)
    b.set(turn_options=opts, turn_win=win)


def _special_for_self_draw(b: _Builder, seat: int) -> str | None:
    """Heavenly (the dealer's first turn) or earthly (a non-dealer's first draw), nobody having
    claimed anything yet."""
    if b.get("claims_made"):
        return None
    if seat == b.s.dealer:
        return "heavenly" if b.get("discards_made") == 0 else None
    if b.get("discards_made") <= (seat - b.s.dealer) % 4:
        return "earthly"
    return None


def _turn_options(b: _Builder, seat: int) -> tuple[tuple[Action, ...], WinInfo | None]:
    st = b.seat(seat)
    conc = st.concealed  # sorted
    table = _DISCARD[seat]
    opts = [table[t] for t in dict.fromkeys(conc)]
    kongs: list[Tile] = []
    if b.remaining() > 0:  # a kong needs a replacement draw
        kongs = [conc[i] for i in range(len(conc) - 3) if conc[i] == conc[i + 3]]
        for m in st.melds:
            if m.kind is MeldKind.PONG and m.tile in conc:
                kongs.append(m.tile)
    if kongs:
        opts.extend(_KONG[seat][t] for t in sorted(kongs))
    win: WinInfo | None = None
    source = b.get("draw_source")
    if source != "claim":
        win = declaration_win(st, b.rules)
        drawn = st.drawn
        if drawn is not None and (st.waits is None or drawn in st.waits):
            rep = source if source in ("flower", "kong", "kong_on_kong") else None
            special = _special_for_self_draw(b, seat)
            normal = hand_win(st, drawn, self_drawn=True, seat_wind=(seat - b.s.dealer) % 4,
                              prevailing=b.s.prevailing, rules=b.rules, replacement=rep,
                              flower_replacements=max(1, b.get("flower_chain")),
                              last_tile=b.get("last_tile"), special=special)  # type: ignore[arg-type]
            # the better of a complete hand and a declaration (a complete hand on a tie)
            if normal is not None and (win is None or not win.valid
                                       or (normal.valid and normal.result.tai >= win.result.tai)):
                win = normal
        if win is not None and win.valid:
            opts.append(Action(seat, "win"))
    return tuple(opts), win


# -- the public API ------------------------------------------------------------------------------

def awaiting(state: HandState) -> list[int]:
    """Seats whose decision is awaited now (the seat on turn, or the undecided seats of a window)."""
    if state.phase == TURN:
        return [state.turn]
    if state.phase == CLAIM and state.window is not None:
        return list(state.window.waiting)
    return []


def legal_actions(state: HandState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now, in a deterministic order; [] when it has nothing to decide."""
    if state.phase == TURN:
        return list(state.turn_options) if seat == state.turn else []
    if state.phase == CLAIM and state.window is not None:
        w = state.window
        return list(w.options[seat]) if w.decisions[seat] is None else []
    return []


def apply(state: HandState, action: Action) -> tuple[HandState, list[Event]]:
    """Play ``action``; return the new state and the events it caused. Raises
    :class:`IllegalActionError` saying why an action is refused."""
    if action not in legal_actions(state, action.seat):
        raise IllegalActionError(_why(state, action))
    b = _Builder(state)
    b.set(actions=(*state.actions, action))
    b.emit("action", action.seat, action=format_action(action))
    if state.phase == TURN:
        _do_turn(b, action)
    else:
        _do_decision(b, action)
    return b.freeze(state.version + 1), b.events


def _why(state: HandState, action: Action) -> str:
    """Why an action not in ``legal_actions`` is refused."""
    from .refusal import reason

    return reason(state, action)


# -- turn actions --------------------------------------------------------------------------------

def _do_turn(b: _Builder, a: Action) -> None:
    seat = a.seat
    st = b.seat(seat)
    if a.kind == "win":
        win = b.s.turn_win
        assert win is not None
        _finish_win(b, seat, None, win, st.drawn)
        return
    assert a.tile is not None
    t = a.tile
    if a.kind == "discard":
        conc = list(st.concealed)
        conc.remove(t)
        seen = b.get("seen")
        fresh = liability.is_fresh(b.s, b.seats, t)
        b.upd(seat, concealed=tuple(conc), drawn=None, discards=(*st.discards, t), waits=_waits(conc),
              barred=st.barred | {t})
        b.set(seen=(*seen[:t], seen[t] + 1, *seen[t + 1:]), last_discard=(seat, t), last_fresh=fresh,
              discards_made=b.get("discards_made") + 1, turn_options=(), turn_win=None)
        b.emit("discard", seat, tile=t.notation)
        _open_discard_window(b, seat, t)
        return
    # kong
    counts = st.concealed.count(t)
    if counts == 4:
        options = _rob_options(b, seat, t, concealed=True)
        kind = "concealed_kong"
    else:
        options = _rob_options(b, seat, t, concealed=False)
        kind = "added_kong"
    if any(options):
        wins = tuple(w for w in options)
        b.set(phase=CLAIM, window=Window(kind, seat, t, wins), turn_options=(), turn_win=None)
        b.emit("window", seat, kind=kind, tile=t.notation, asked=[s for s in range(4) if wins[s]])
        return
    _complete_kong(b, seat, t, kind, None)


def _rob_options(b: _Builder, seat: int, t: Tile, *, concealed: bool) -> tuple[tuple[Action, ...], ...]:
    """Seats that may rob a kong of ``t`` (any win for an added kong; thirteen wonders only for a
    concealed kong)."""
    options: list[tuple[Action, ...]] = [(), (), (), ()]
    wins: list[WinInfo | None] = [None, None, None, None]
    for other in range(4):
        if other == seat:
            continue
        ost = b.seat(other)
        if concealed:
            counts = [0] * NUM_PLAYING
            for x in ost.concealed:
                counts[x] += 1
            counts[t] += 1
            if ost.melds or not is_thirteen_wonders(counts):
                continue
        win = _discard_win(b, other, seat, t, robbed=True)
        if win is not None and win.valid:
            options[other] = (Action(other, "win"), Action(other, "pass"))
            wins[other] = win
    b.set(window_wins=tuple(wins))
    return tuple(options)


def _discard_win(b: _Builder, seat: int, source: int, t: Tile, *, robbed: bool) -> WinInfo | None:
    st = b.seat(seat)
    special = None
    if not b.get("claims_made") and not st.has_drawn and seat != b.s.dealer and not robbed:
        special = "earthly" if source == b.s.dealer and b.get("discards_made") == 1 else "humanly"
    return hand_win(st, t, self_drawn=False, seat_wind=(seat - b.s.dealer) % 4, prevailing=b.s.prevailing,
                    rules=b.rules, robbed_kong=robbed, special=special)  # type: ignore[arg-type]


def _open_discard_window(b: _Builder, source: int, t: Tile) -> None:
    options: list[tuple[Action, ...]] = [(), (), (), ()]
    wins: list[WinInfo | None] = [None, None, None, None]
    for k in (1, 2, 3):
        seat = (source + k) % 4
        st = b.seat(seat)
        conc = st.concealed
        n = conc.count(t)
        opts: list[Action] = []
        near = n > 0
        if t < 27:
            rank = t % 9
            lo_ok = rank >= 1 and (t - 1) in conc
            hi_ok = rank <= 7 and (t + 1) in conc
            near = (near or lo_ok or hi_ok or (rank >= 2 and (t - 2) in conc)
                    or (rank <= 6 and (t + 2) in conc))
            if k == 1 and near:
                if rank >= 2 and lo_ok and (t - 2) in conc:
                    opts.append(_CHOW[seat][t - 2])
                if lo_ok and hi_ok:
                    opts.append(_CHOW[seat][t - 1])
                if rank <= 6 and hi_ok and (t + 2) in conc:
                    opts.append(_CHOW[seat][t])
            if not near and not st.melds and rank in (0, 8):
                near = True  # thirteen wonders may wait on a terminal
        elif not st.melds:
            near = True  # thirteen wonders may wait on any honour
        barred = t in st.barred
        if n >= 2 and not barred:
            opts.append(_PONG[seat])
        if n == 3 and b.remaining() > 0:
            opts.append(_KONG[seat][t])
        known = st.waits
        if not barred and ((t in known) if known is not None
                           else (near and (t < 27 or n or not st.melds))):
            win = _discard_win(b, seat, source, t, robbed=False)
            if win is not None:
                wins[seat] = win
                if win.valid:
                    opts.append(Action(seat, "win"))
        if opts:
            opts.append(_PASS[seat])
        options[seat] = tuple(opts)
    if not any(options):
        b.set(window=None, window_wins=(None,) * 4)
        _draw_turn(b, (source + 1) % 4)
        return
    b.set(phase=CLAIM, window=Window("discard", source, t, tuple(options)), window_wins=tuple(wins))


# -- decisions in a window -----------------------------------------------------------------------

def _do_decision(b: _Builder, a: Action) -> None:
    w = b.s.window
    assert w is not None
    seat = a.seat
    if a.kind == "pass" and w.kind != "eighth":
        kinds = {o.kind for o in w.options[seat]}
        if "win" in kinds or "pong" in kinds:
            st = b.seat(seat)
            b.upd(seat, barred=st.barred | {w.tile})
    decisions = list(w.decisions)
    decisions[seat] = a
    w = replace(w, decisions=tuple(decisions))
    b.set(window=w)
    if a.kind == "pass":
        b.emit("pass", seat)
    if not w.waiting:
        _resolve(b, w)


def _resolve(b: _Builder, w: Window) -> None:
    order = [(w.source + k) % 4 for k in (1, 2, 3)]
    chosen = {s: w.decisions[s] for s in order if w.decisions[s] is not None}
    winners = [s for s in order if chosen.get(s) is not None and chosen[s].kind == "win"]  # type: ignore[union-attr]
    if winners:
        wins = b.s.window_wins
        if w.kind == "eighth":
            _finish_win(b, winners[0], w.source, _eighth_win(b), w.tile)
            return
        thirteen = [s for s in winners if (wi := wins[s]) is not None and wi.thirteen_wonders]
        winner = (thirteen or winners)[0]
        info = wins[winner]
        assert info is not None
        _finish_win(b, winner, w.source, info, w.tile)
        return
    b.set(window=None, window_wins=(None,) * 4, phase=TURN)
    if w.kind == "eighth":
        _replacement(b, w.source, "flower")
        return
    if w.kind in ("added_kong", "concealed_kong"):
        _complete_kong(b, w.source, w.tile, w.kind, None)
        return
    for kind in ("pong", "kong", "chow"):
        for s in order:
            d = chosen.get(s)
            if d is not None and d.kind == kind:
                _claim(b, s, w.source, w.tile, d)
                return
    _draw_turn(b, (w.source + 1) % 4)


def _eighth_win(b: _Builder) -> WinInfo:
    from .scoring_bridge import score_special

    return WinInfo(score_special("robbing_the_eighth", b.rules), "robbing_the_eighth")


def _claim(b: _Builder, seat: int, source: int, t: Tile, a: Action) -> None:
    """``seat`` takes ``source``'s discard for a pong, kong or chow."""
    src = b.seat(source)
    b.upd(source, discards=src.discards[:-1])
    st = b.seat(seat)
    conc = list(st.concealed)
    b.set(claims_made=True, last_discard=None, kongs_in_turn=0, flower_chain=0)
    if a.kind == "chow":
        assert a.tile is not None
        lo = a.tile
        for x in (lo, lo + 1, lo + 2):
            if x != t:
                conc.remove(Tile(x))
        seen = b.get("seen")
        b.set(seen=(*seen[:t], seen[t] - 1, *seen[t + 1:]))
        meld = SetRec(MeldKind.CHOW, lo, False, source)
        b.upd(seat, concealed=tuple(conc), melds=(*st.melds, meld), barred=frozenset(), drawn=None)
        b.emit("chow", seat, tiles=[Tile(lo + i).notation for i in range(3)], tile=t.notation, source=source)
        _begin_turn(b, seat, "claim")
        return
    n = 2 if a.kind == "pong" else 3
    for _ in range(n):
        conc.remove(t)
    liable = liability.claim_liability(b.s, b.seats, seat, source, t, a.kind)
    kind = MeldKind.PONG if a.kind == "pong" else MeldKind.KONG
    meld = SetRec(kind, t, False, source)
    b.upd(seat, concealed=tuple(conc), melds=(*st.melds, meld), barred=frozenset(), drawn=None)
    if liable is not None and st.liable is None:
        b.upd(seat, liable=source, liable_reason=liable)
    if a.kind == "pong":
        b.emit("pong", seat, tile=t.notation, source=source)
        _begin_turn(b, seat, "claim")
        return
    b.emit("kong", seat, tile=t.notation, source=source, kind="exposed")
    _kong_payment(b, seat, t, "exposed", source)
    b.set(kongs_in_turn=1, kong_made=True)
    _replacement(b, seat, "kong")


def _kong_payment(b: _Builder, seat: int, t: Tile, kind: str, source: int | None) -> None:
    payer = None
    if source is not None and liability.bao_kong(b.s, b.remaining(), b.get("last_fresh")):
        payer = source
    _instant(b, seat, "concealed_kong" if kind == "concealed_kong" else "exposed_kong", liable=payer)


def _complete_kong(b: _Builder, seat: int, t: Tile, kind: str, source: int | None) -> None:
    st = b.seat(seat)
    conc = list(st.concealed)
    if kind == "concealed_kong":
        for _ in range(4):
            conc.remove(t)
        melds = (*st.melds, SetRec(MeldKind.KONG, t, True, None))
    else:
        conc.remove(t)
        melds = tuple(SetRec(MeldKind.KONG, m.tile, False, m.source)
                      if m.kind is MeldKind.PONG and m.tile == t else m for m in st.melds)
    b.upd(seat, concealed=tuple(conc), melds=melds, drawn=None)
    b.emit("kong", seat, tile=t.notation, kind="concealed" if kind == "concealed_kong" else "added")
    _kong_payment(b, seat, t, kind, None)
    b.set(kongs_in_turn=b.get("kongs_in_turn") + 1, kong_made=True, window=None, window_wins=(None,) * 4)
    _replacement(b, seat, "kong")


# -- the end -------------------------------------------------------------------------------------

def _reveal(b: _Builder) -> dict[str, Any]:
    return {
        "revealed": {str(s): [t.notation for t in b.seat(s).concealed] for s in range(4)},
        "wall_reveal": {"salt": b.s.salt, "wall": [t.notation for t in b.s.wall]},
    }


def _drawn_game(b: _Builder) -> None:
    result: dict[str, Any] = {"winner": None, "shooter": None, "self_drawn": False, "hand": None,
                              "tai": 0, "limit": False, "patterns": [], "payments": [0, 0, 0, 0],
                              "liable": None, "drawn_game": True, "kong_made": bool(b.get("kong_made")),
                              **_reveal(b)}
    b.set(phase=ENDED, window=None, turn_options=(), turn_win=None, result=result)
    b.emit("drawn_game", None, kong_made=result["kong_made"])
    b.emit("hand_end", None, **result)


def _finish_win(b: _Builder, winner: int, shooter: int | None, win: WinInfo, tile: Tile | None) -> None:
    from ..notation import format_hand
    from .scoring_bridge import win_payments

    w = b.get("window")
    self_drawn = shooter is None
    liable, reason = liability.win_liability(b.s, b.seats, winner, shooter, win, w, b.remaining())
    if w is not None and tile is not None:
        # the claimed tile moves to the winner
        src = b.seat(w.source)
        if w.kind == "discard":
            b.upd(w.source, discards=src.discards[:-1])
            st = b.seat(winner)
            b.upd(winner, concealed=tuple(sorted((*st.concealed, tile))))
        elif w.kind == "eighth":
            bonus = list(src.bonus)
            bonus.remove(tile)
            b.upd(w.source, bonus=tuple(bonus))
            st = b.seat(winner)
            b.upd(winner, bonus=(*st.bonus, tile))
        else:  # a robbed kong: the tile leaves the robbed hand
            conc = list(src.concealed)
            conc.remove(tile)
            b.upd(w.source, concealed=tuple(conc))
            st = b.seat(winner)
            b.upd(winner, concealed=tuple(sorted((*st.concealed, tile))))

    res = win.result
    pays = win_payments(tai=res.tai, winner=winner, shooter=shooter, self_drawn=self_drawn,
                        liable=liable, thirteen_wonders=res.thirteen_wonders,
                        robbed_kong=w is not None and w.kind in ("added_kong", "concealed_kong"),
                        rules=b.rules)
    b.pay(pays)
    result: dict[str, Any] = {
        "winner": winner, "shooter": shooter, "self_drawn": self_drawn,
        "hand": format_hand(win.hand) if win.hand is not None else None, "kind": win.kind,
        "tai": res.tai, "limit": res.limit,
        "patterns": [{"name": p.name, "tai": p.tai} for p in res.patterns],
        "payments": pays, "liable": liable, "liable_reason": reason, "drawn_game": False,
        "kong_made": bool(b.get("kong_made")), **_reveal(b),
    }
    b.set(phase=ENDED, window=None, turn_options=(), turn_win=None, result=result)
    b.emit("win", winner, shooter=shooter, self_drawn=self_drawn, tai=res.tai, kind=win.kind,
           hand=result["hand"], patterns=result["patterns"], payments=pays, liable=liable)
    b.emit("hand_end", None, **result)

"""Claim windows after a discard: who is asked, the decisions, and their resolution by priority (win
before pong/kong before chow; nearest in turn order; thirteen wonders first)."""

from __future__ import annotations

from ..melds import MeldKind
from ..tiles import Tile
from . import deal, draws, ending, kongs, liability, turn
from .actions import Action
from .builder import CHOW, KONG, PASS, PONG, WIN, Builder
from .scoring_bridge import score_special
from .state import CLAIM, TURN, HandState, SeatState, SetRec, Window
from .wins import WinInfo
from .wins import discard_win as discard_win  # (the claim window's check; it lives below the kongs)

_NO_WINS: tuple[WinInfo | None, ...] = (None, None, None, None)


def _chows(seat: int, conc: tuple[Tile, ...], t: Tile) -> list[Action]:
    """The chows ``seat`` may make with the suited discard ``t`` and its concealed tiles."""
    rank = t % 9
    lo = rank >= 1 and (t - 1) in conc
    hi = rank <= 7 and (t + 1) in conc
    out: list[Action] = []
    if lo and rank >= 2 and (t - 2) in conc:
        out.append(CHOW[seat][t - 2])
    if lo and hi:
        out.append(CHOW[seat][t - 1])
    if hi and rank <= 6 and (t + 2) in conc:
        out.append(CHOW[seat][t])
    return out


def _near(st: SeatState, conc: tuple[Tile, ...], t: Tile, n: int) -> bool:
    """Whether ``t`` may complete the hand when its waits are not cached: a tile held, or one within
    two ranks of a suited tile, or thirteen wonders (no melds) waiting on a terminal or honour."""
    if n:
        return True
    if t >= 27:
        return not st.melds
    rank = t % 9
    if ((rank >= 1 and (t - 1) in conc) or (rank <= 7 and (t + 1) in conc)
            or (rank >= 2 and (t - 2) in conc) or (rank <= 6 and (t + 2) in conc)):
        return True
    return not st.melds and rank in (0, 8)


def open_discard_window(b: Builder, source: int, t: Tile) -> None:
    """Ask the other seats about ``source``'s discard ``t`` (chows for the next seat only); with
    nobody to ask, the next seat draws at once."""
    options: list[tuple[Action, ...]] = [(), (), (), ()]
    wins: list[WinInfo | None] = [None, None, None, None]
    asked = False
    for k in (1, 2, 3):
        seat = (source + k) % 4
        st = b.seats[seat]
        conc = st.concealed
        n = conc.count(t)
        known = st.waits
        barred = t in st.barred
        may_win = not barred and ((t in known) if known is not None else _near(st, conc, t, n))
        chow = k == 1 and t < 27
        if n < 2 and not may_win:  # only a chow is possible
            if chow and (chows := _chows(seat, conc, t)):
                options[seat] = (*chows, PASS[seat])
                asked = True
            continue
        opts = _chows(seat, conc, t) if chow else []
        if n >= 2 and not barred:
            opts.append(PONG[seat])
        if n == 3 and b.remaining() > 0:
            opts.append(KONG[seat][t])
        if may_win:
            win = discard_win(b, seat, source, t, robbed=False)
            if win is not None:
                wins[seat] = win
                if win.valid:
                    opts.append(WIN[seat])
        if opts:
            opts.append(PASS[seat])
            options[seat] = tuple(opts)
            asked = True
    if not asked and not b.s.pause_windows:
        b.f["window"] = None
        b.f["window_wins"] = _NO_WINS
        draws.draw_turn(b, (source + 1) % 4)
        return
    b.set(phase=CLAIM, window=Window("discard", source, t, tuple(options)), window_wins=tuple(wins))


def do_decision(b: Builder, a: Action) -> None:
    """Record a seat's decision in the open window; resolve the window when nobody is left to decide."""
    w = b.s.window
    assert w is not None
    seat = a.seat
    if w.kind != "eighth" and a.kind != "win":
        # missed discard (过水): passing up a win (for any other decision) or a pong (for a pass)
        # bars the tile until this seat's next turn (its own claim, if it succeeds, starts that turn)
        kinds = {o.kind for o in w.options[seat]}
        if "win" in kinds or ("pong" in kinds and a.kind == "pass"):
            st = b.seat(seat)
            b.upd(seat, barred=st.barred | {w.tile})
    decisions = list(w.decisions)
    decisions[seat] = a
    w = Window(w.kind, w.source, w.tile, w.options, tuple(decisions))
    b.set(window=w)
    if paused(b.s):  # no tells: the decision stays private and the table closes the window
        return
    if a.kind == "pass":
        b.emit("pass", seat)
    if not w.waiting:
        resolve(b, w)


def paused(state: HandState) -> bool:
    """Whether the open window is a paused one (no-tells mode; not the eighth flower's window)."""
    w = state.window
    return state.pause_windows and w is not None and w.kind != "eighth"


def closable(state: HandState) -> bool:
    """A paused window in which every asked seat has decided (or nobody was asked): the table may
    close it (after its pause) with the action ``close``."""
    w = state.window
    return state.phase == CLAIM and w is not None and paused(state) and not w.waiting


def resolve(b: Builder, w: Window) -> None:
    order = [(w.source + k) % 4 for k in (1, 2, 3)]
    chosen = {s: w.decisions[s] for s in order if w.decisions[s] is not None}
    winners = [s for s in order if chosen.get(s) is not None and chosen[s].kind == "win"]  # type: ignore[union-attr]
    if winners:
        wins = b.s.window_wins
        if w.kind == "eighth":
            ending.finish_win(b, winners[0], w.source, _eighth_win(b), w.tile)
            return
        thirteen = [s for s in winners if (wi := wins[s]) is not None and wi.thirteen_wonders]
        winner = (thirteen or winners)[0]
        info = wins[winner]
        assert info is not None
        ending.finish_win(b, winner, w.source, info, w.tile)
        return
    b.set(window=None, window_wins=(None,) * 4, phase=TURN)
    if w.kind == "eighth":
        paused = b.get("deal_pos")
        if paused is not None:  # the eighth was laid out during the deal: the cycles go on
            deal.replacement_cycles(b, *paused)
            return
        draws.replacement(b, w.source, "flower")
        return
    if w.kind in ("added_kong", "concealed_kong"):
        kongs.complete_kong(b, w.source, w.tile, w.kind, None)
        return
    for kind in ("pong", "kong", "chow"):
        for s in order:
            d = chosen.get(s)
            if d is not None and d.kind == kind:
                _claim(b, s, w.source, w.tile, d)
                return
    draws.draw_turn(b, (w.source + 1) % 4)


def _eighth_win(b: Builder) -> WinInfo:
    return WinInfo(score_special("robbing_the_eighth", b.rules), "robbing_the_eighth")


def _claim(b: Builder, seat: int, source: int, t: Tile, a: Action) -> None:
    """``seat`` takes ``source``'s discard for a pong, kong or chow."""
    b.upd(source, **ending.take_discard(b.seat(source), t, seat))
    st = b.seat(seat)
    conc = list(st.concealed)
    b.set(claims_made=True, last_discard=None, kongs_in_turn=0, flower_chain=0,
          claimed=None if a.kind == "chow" else (source, t), kong_liable=None)
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
        turn.begin_turn(b, seat, "claim")
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
        turn.begin_turn(b, seat, "claim")
        return
    b.emit("kong", seat, tile=t.notation, source=source, kong_kind="exposed")
    payer = kongs.kong_payment(b, seat, t, "exposed", source)
    b.set(kongs_in_turn=1, kong_made=True, kong_liable=payer)
    draws.replacement(b, seat, "kong")

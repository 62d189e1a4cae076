"""What a seat (or a spectator) may see of a hand: the only state the server sends.

Built on every decision of self-play, so it is written for speed: tile notations come from a list
indexed by the tile (``map`` over a tuple of tiles), meld and action texts from small caches.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..melds import MeldKind
from ..tiles import NUM_FACES, Tile
from .actions import Action, format_action
from .engine import awaiting, legal_actions
from .state import CLAIM, ENDED, HandState, SeatState, SetRec

_WINDS = "ESWN"
_NOTATION: list[str] = [Tile(i).notation for i in range(NUM_FACES)]
_note = _NOTATION.__getitem__

_MELD_TILES: dict[tuple[MeldKind, int], tuple[str, ...]] = {}
_ACTION_TEXT: dict[tuple[str, Tile | None], str] = {}


def _meld_view(m: SetRec) -> dict[str, Any]:
    key = (m.kind, m.tile)
    tiles = _MELD_TILES.get(key)
    if tiles is None:
        tiles = _MELD_TILES[key] = tuple(map(_note, m.meld.tiles))
    return {"kind": m.kind.value, "tiles": list(tiles), "concealed": m.concealed, "from": m.source}


def _seat_entry(dealer: int, ended: bool, i: int, st: SeatState, own: bool) -> dict[str, Any]:
    concealed: list[str] | None = None
    drawn = st.drawn
    if own or ended:
        concealed = list(map(_note, st.concealed))
        if own and not ended and drawn is not None and drawn in st.concealed:
            concealed.remove(_NOTATION[drawn])
    return {
        "seat": i,
        "wind": _WINDS[(i - dealer) % 4],
        "concealed": concealed,
        "concealed_count": len(st.concealed),
        "drawn": _NOTATION[drawn] if own and not ended and drawn is not None else None,
        "melds": [_meld_view(m) for m in st.melds] if st.melds else [],
        "bonus": list(map(_note, st.bonus)),
        "discards": list(map(_note, st.discards)),
        "taken": [[place, _NOTATION[t], by] for place, t, by in st.taken],
    }


class SeatViews:
    """The seat entries of one table's views, kept from one version to the next: a seat whose shown
    tiles did not change (the engine shares unchanged seats and tile tuples between versions) keeps
    the very same entry objects. So after a change the four viewers' views cost only the changed
    seats' entries, and a delta finds an unchanged seat by identity. Bounded: two entries (as others
    see the seat, as its owner sees it) for each of the four seats. The entries are shared between
    views: read-only.

    The fields every viewer sees alike (the version, the phase, the wall, the ledgers, ...) are built
    once per state for all four viewers (:class:`SharedFields`)."""

    __slots__ = ("_keys", "_own", "_public", "hand_fields", "match_fields")

    def __init__(self) -> None:
        self._keys: list[tuple[SeatState, int, bool] | None] = [None] * 4
        self._public: list[dict[str, Any] | None] = [None] * 4
        self._own: list[dict[str, Any] | None] = [None] * 4
        self.hand_fields = SharedFields()  # the fields every viewer of a hand state sees alike
        self.match_fields = SharedFields()  # ... and of a match state

    def entry(self, state: HandState, i: int, own: bool) -> dict[str, Any]:
        st = state.seats[i]
        ended = state.phase == ENDED
        key = self._keys[i]
        if key is None or key[1] != state.dealer or key[2] != ended or not _shows_same(key[0], st):
            self._public[i] = self._own[i] = None
        self._keys[i] = (st, state.dealer, ended)
        if ended and not own:  # at the end every hand is open: one entry for all
            own = True
        cache = self._own if own else self._public
        out = cache[i]
        if out is None:
            out = cache[i] = _seat_entry(state.dealer, ended, i, st, own)
        return out


class SharedFields:
    """The viewer-independent fields of the views of one state (a hand's or a match's): built once
    for all viewers, and a value equal to the previous state's is the previous object, so a delta
    finds it unchanged by identity. Bounded: the fields of one state. Read-only, like the entries."""

    __slots__ = ("_fields", "_key")

    def __init__(self) -> None:
        self._key: object = None
        self._fields: dict[str, Any] = {}

    def of(self, key: object, build: Callable[[Any], dict[str, Any]]) -> dict[str, Any]:
        if key is not self._key:
            new = build(key)
            old = self._fields
            for name, value in new.items():
                before = old.get(name, _MISSING)
                if before is not value and type(before) is type(value) and before == value:
                    new[name] = before
            self._key, self._fields = key, new
        return self._fields


_MISSING = object()


def _shows_same(a: SeatState, b: SeatState) -> bool:
    """Whether two versions of a seat show the same: the same tile tuples (shared, not copied, by a
    version that leaves them alone, e.g. when only the seat's cached waits changed), the same drawn."""
    return a is b or (a.concealed is b.concealed and a.drawn == b.drawn and a.melds is b.melds
                      and a.bonus is b.bonus and a.discards is b.discards and a.taken is b.taken)


def _action_texts(actions: list[Action]) -> list[str]:
    out: list[str] = []
    for a in actions:
        key = (a.kind, a.tile)
        text = _ACTION_TEXT.get(key)
        if text is None:
            text = _ACTION_TEXT[key] = format_action(a)
        out.append(text)
    return out


def _visible_awaiting(state: HandState, seat: int | None) -> list[int]:
    """Whose decision is awaited, as ``seat`` may know it: in a claim window only the viewer itself
    (who else may claim would tell which seats hold a pair or a wait)."""
    seats = awaiting(state)
    if state.phase == CLAIM:
        return [s for s in seats if s == seat]
    return seats


def player_view(state: HandState, seat: int | None, *, private_awaiting: bool = True,
                seat_views: SeatViews | None = None) -> dict[str, Any]:
    """The JSON-able view of ``seat`` (``None`` = spectator): own concealed tiles (and drawn tile),
    everyone's sets, bonus tiles, discards and tile counts, and nothing else.

    ``awaiting`` lists the awaited seats, but in a claim window only the viewer (the full list would
    tell which seats may claim, hence hold a pair or a wait). ``private_awaiting=False`` shows the
    full list (for replays and tests; the engine itself has it from :func:`awaiting`).
    ``seat_views`` (the server's, one per table) reuses the seat entries of unchanged seats."""
    if seat_views is None:
        view = _hand_fields(state)  # a fresh dict: the viewer's fields are added to it
        ended = state.phase == ENDED
        seats = [_seat_entry(state.dealer, ended, i, st, i == seat) for i, st in enumerate(state.seats)]
    else:
        view = dict(seat_views.hand_fields.of(state, _hand_fields))
        seats = [seat_views.entry(state, i, i == seat) for i in range(len(state.seats))]
    view["seat"] = seat
    view["awaiting"] = _visible_awaiting(state, seat) if private_awaiting else awaiting(state)
    view["seats"] = seats
    view["legal_actions"] = _action_texts(legal_actions(state, seat)) if seat is not None else []
    return view


def _hand_fields(state: HandState) -> dict[str, Any]:
    """The fields of a hand's view that every viewer sees alike."""
    st_phase = state.phase
    phase = "ended" if st_phase == ENDED else ("claim" if st_phase == CLAIM else "turn")
    last = None
    window = None
    w = state.window
    if st_phase == CLAIM and w is not None:
        if state.last_discard is not None and w.kind == "discard":
            last = {"seat": state.last_discard[0], "tile": _NOTATION[state.last_discard[1]]}
        window = {"kind": w.kind, "seat": w.source, "tile": _NOTATION[w.tile]}
    return {
        "version": state.version,
        "phase": phase,
        "dealer": state.dealer,
        "prevailing": state.prevailing,
        "turn": state.turn,
        "wall_remaining": max(0, state.wall_remaining),
        "wall_hash": state.wall_hash,
        "last_discard": last,
        "window": window,
        "hand_ledger": list(state.ledger),
        "result": state.result,
    }

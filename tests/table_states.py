"""Table states for the table page's browser tests, made by the engine (``player_view``) and served to
the page by a stand-in for the server's WebSocket (Playwright's ``route_web_socket``): the page's own
static files come from a real server, its table messages from :class:`FakeTable`, which records what
the page sends."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from sgmahjong.game import player_view
from sgmahjong.game.state import SetRec
from sgmahjong.game.testing import deal
from sgmahjong.melds import MeldKind
from sgmahjong.notation import parse_tiles

Msg = dict[str, Any]
NAMES = ["Siew Lan Tan-Goh Wei Ming", None, "Cy", None]


def summary(seat_names: list[str | None] = NAMES, status: str = "playing") -> Msg:
    """A TableSummary (docs/protocol.md): humans where a name is given, Casual bots elsewhere."""
    seats = [{"seat": i, "name": n or "Bot", "kind": "human" if n else "bot",
              "bot_level": None if n else "greedy", "connected": True, "ready": False}
             for i, n in enumerate(seat_names)]
    return {"code": "FAKE", "name": "Stacked", "private": True, "status": status, "rules": {},
            "changed_rules": {}, "options": {}, "seats": seats, "hand_number": 3, "wall_hash": None,
            "rematch": {"votes": [], "code": None}}


def _tiles(text: str) -> tuple[Any, ...]:
    return tuple(parse_tiles(text))


def late_hand(viewer: int | None = 0, *, dealer: int = 2) -> Msg:
    """A stacked late-hand state: every seat with four exposed sets and 24 discards (some of them
    taken by another seat), bonus tiles; the viewer on turn with two tiles in hand."""
    st = deal(dealer=dealer)
    piles = ["1m2m3m4m5m6m7m8m9m1p2p3p4p5p6p7p8p9p1s2s3s4s5s6s", "ESWNCFP9s8s7s6s5s4s3s2s1s9p8p7p6p5p4p3p2p",
             "2p2m2s3p3m3s4p4m4s5p5m5s6p6m6s7p7m7s8p8m8s9p9m9s", "NNWWSSEEPPFFCC1m1p1s9m9p9s5m5p5s7m"]
    melds = ["111m 222p 333s EEE", "444m 555p 666s SSS", "777m 888p 999s WWW", "CCC FFF PPP NNN"]
    seats = []
    for i, s in enumerate(st.seats):
        sets = tuple(SetRec(MeldKind.PONG, t[0], False, (i + 1) % 4) for t in
                     (_tiles(m) for m in melds[i].split()))
        pile = _tiles(piles[i])
        taken = ((3, pile[3], (i + 1) % 4), (11, pile[11], (i + 2) % 4))
        left = tuple(t for k, t in enumerate(pile) if k not in (3, 11))
        concealed = _tiles("5m5p") if i == viewer else _tiles("5s")
        seats.append(replace(s, concealed=concealed, drawn=concealed[-1] if i == viewer else None, melds=sets,
                             discards=left, taken=taken, bonus=_tiles("1f2f") if i % 2 else _tiles("3f")))
    st = replace(st, seats=tuple(seats), turn=viewer if viewer is not None else 0, phase="turn",
                 last_discard=None, window=None)
    view = player_view(st, viewer)
    view["legal_actions"] = ["discard 5m", "discard 5p"] if viewer is not None else []
    view["awaiting"] = [viewer] if viewer is not None else []
    view.update(hand_number=3, match_ledger=[12, -4, -4, -4])
    return view


def view_message(view: Msg, timer: Msg | None = None, status: str = "playing") -> Msg:
    return {"type": "view", "view": view, "timer": timer, "status": status}


class FakeTable:
    """The server's side of one table page's WebSocket: on the page's ``hello`` it answers
    ``welcome`` (``seat``), ``table`` and ``messages``; ``sent`` keeps the page's messages."""

    def __init__(self, page: Any, seat: int | None, messages: list[Msg], table: Msg | None = None) -> None:
        self.seat = seat
        self.messages = messages
        self.table = table or summary()
        self.sent: list[Msg] = []
        self.ws: Any = None
        page.route_web_socket("**/ws/**", self._connect)

    def _connect(self, ws: Any) -> None:
        self.ws = ws
        ws.on_message(self._on_message)

    def _on_message(self, text: str | bytes) -> None:
        msg = json.loads(text)
        self.sent.append(msg)
        if msg.get("type") == "hello":
            self.push({"type": "welcome", "seat": self.seat})
            self.push({"type": "table", "table": self.table})
            for m in self.messages:
                self.push(m)

    def push(self, msg: Msg) -> None:
        self.ws.send(json.dumps(msg))

    def actions(self) -> list[str]:
        return [m["action"] for m in self.sent if m.get("type") == "action"]

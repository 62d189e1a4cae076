"""``sgmahjong replay FILE``: print a hand's event log as readable text (or ``--json`` events)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..cli import read_log
from ..game.events import Event
from ..game.log import replay
from ..game.wall import verify_commitment

_SEATS = "ESWN"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a hand's event log (JSON lines)")
    parser.add_argument("--json", action="store_true", help="print every event as a JSON line")


def _who(seat: Any) -> str:
    return _SEATS[seat] if isinstance(seat, int) and 0 <= seat < 4 else "?"


def describe(event: Event) -> str | None:
    """One readable line for an event (``None`` for events folded into others)."""
    d, s = event.data, _who(event.seat)
    kind = event.kind
    if kind == "hand_start":
        return (f"Hand: dealer {_who(d['dealer'])}, prevailing wind {_SEATS[d['prevailing']]}, "
                f"dice {d['dice']}, wall commitment {d['wall_hash'][:16]}...")
    if kind == "deal":
        return f"{s} is dealt {' '.join(d['tiles'])}"
    if kind == "draw":
        return f"{s} draws {d['tile']}" + (" (replacement)" if d.get("source") == "back" else "")
    if kind == "bonus":
        return f"{s} lays out {d['tile']}"
    if kind == "payment":
        amounts = " ".join(f"{_SEATS[i]}{a:+d}" for i, a in enumerate(d["amounts"]))
        liable = f", {_who(d['liable'])} pays all (包杠)" if d.get("liable") is not None else ""
        return f"  payment to {s} for {d['reason']}: {amounts}{liable}"
    if kind == "discard":
        return f"{s} discards {d['tile']}"
    if kind == "chow":
        return f"{s} chows {''.join(t[0] for t in d['tiles'])}{d['tiles'][0][1]} from {_who(d['source'])}"
    if kind == "pong":
        return f"{s} pongs {d['tile']} from {_who(d['source'])}"
    if kind == "kong":
        src = f" from {_who(d['source'])}" if d.get("source") is not None else ""
        return f"{s} kongs {d['tile']} ({d['kong_kind']}){src}"
    if kind == "pass":
        return f"{s} passes"
    if kind == "decision":  # a decision in a paused claim window (no-tells mode)
        return f"{s} decides: {d['action']}"
    if kind == "window":
        asked = ", ".join(_who(x) for x in d.get("asked", []))
        texts = {"added_kong": f"{s} adds {d['tile']} to a pong (kong)",
                 "concealed_kong": f"{s} declares a concealed kong of {d['tile']}",
                 "eighth": f"{s} draws the eighth flower {d['tile']}"}
        what = texts.get(d["window_kind"], f"{s}: {d['tile']}")
        return f"{what}; {asked or 'nobody'} may rob it"
    if kind == "win":
        how = "by self-draw" if d["self_drawn"] else f"on {_who(d['shooter'])}'s tile"
        if d.get("robbed"):
            how = f"by robbing {_who(d['shooter'])}'s kong"
        pats = ", ".join(f"{p['name']} {p['tai']}" for p in d["patterns"])
        amounts = " ".join(f"{_SEATS[i]}{a:+d}" for i, a in enumerate(d["payments"]))
        liable = f", {_who(d['liable'])} pays for all (包)" if d.get("liable") is not None else ""
        hand = f" {d['hand']}" if d.get("hand") else ""
        return f"{s} wins {how}: {d['tai']} tai ({pats}){hand}; {amounts}{liable}"
    if kind == "drawn_game":
        return "Drawn hand (荒牌)" + (", a kong was made" if d.get("kong_made") else "")
    if kind == "hand_end":
        return f"Hand over; wall revealed (salt {d['wall_reveal']['salt']})"
    return None


def run(args: argparse.Namespace) -> int:
    text = read_log(args.file)
    state, events = replay(text)
    wall_hash = state.wall_hash
    for ev in events:
        if args.json:
            print(json.dumps(ev.to_json(), sort_keys=True))
            continue
        if ev.kind == "hand_end":
            reveal = ev.data["wall_reveal"]
            ok = verify_commitment(wall_hash, reveal["salt"], reveal["wall"])
            print(f"Hand over; wall revealed, commitment {'verified' if ok else 'MISMATCH'}")
            ledger = " ".join(f"{_SEATS[i]}{a:+d}" for i, a in enumerate(state.ledger))
            print(f"Hand ledger: {ledger}")
            continue
        line = describe(ev)
        if line is not None:
            print(line)
    if not state.ended:
        print(f"(the log stops before the hand ends, at version {state.version})")
    return 0

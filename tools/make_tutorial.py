"""Write the tutorial's first hand (``static/js/tutorial-hand.js``) from the rules core.

The hand is played through the core's state machine from a stacked wall (``sgmahjong.game.testing``):
every position the tutorial shows, every button it offers and the final score are the core's, never
typed by hand. ``tests/test_tutorial.py`` replays the script and checks the committed file is current.

    python tools/make_tutorial.py          # rewrite the file
    python tools/make_tutorial.py --check  # exit 1 when the file is out of date
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from sgmahjong.game.actions import format_action
from sgmahjong.game.engine import legal_actions
from sgmahjong.game.state import CLAIM, HandState
from sgmahjong.game.testing import SEATS, deal, play
from sgmahjong.tiles import Tile

OUT = Path(__file__).resolve().parent.parent / "sgmahjong" / "server" / "static" / "js" / "tutorial-hand.js"

# You are East, the dealer. East is dealt 1f (your seat's flower), replaced from the back by 9p.
HANDS = {
    "E": "234m 9m 78p 9p 1s 56s CC N 1f",
    "S": "1m 4m 7m 2p 5p 8p 3s 6s 9s E S W F",
    "W": "2m 5m 8m 3p 6p 9p 4s 7s E S W F P",
    "N": "3m 6m 1p 4p 7p 2s 5s 8s E S W F P",
}
DRAWS = "3p 7s 6p C 4s"  # the front draws of South, West, North, South, South
BACK = "9p"  # East's replacement for the flower

# The hand: (who acts, the action). Only East's actions are the player's; the others are played for
# them (their claim windows passed).
SCRIPT: list[tuple[str, str]] = [
    ("E", "discard N"),
    ("S", "discard 3p"),
    ("W", "discard 7s"),
    ("N", "discard 6p"),
    ("E", "chow 678p"),
    ("E", "discard 9m"),
    ("S", "discard C"),
    ("E", "pong"),
    ("E", "discard 1s"),
    ("S", "discard 4s"),
    ("E", "win"),
]


def start() -> HandState:
    return deal(E=HANDS["E"], S=HANDS["S"], W=HANDS["W"], N=HANDS["N"], draws=DRAWS, back=BACK)


def _tiles(tiles: tuple[Tile, ...] | list[Tile]) -> list[str]:
    return [t.notation for t in tiles]


def position(state: HandState) -> dict[str, Any]:
    """What the tutorial draws: East's hand in full, the others' tile counts, every pond and set."""
    seats = []
    for i, st in enumerate(state.seats):
        seats.append({
            "concealed": _tiles(sorted(st.concealed)) if i == 0 else len(st.concealed),
            "melds": [{"kind": str(m.kind.value), "tiles": _tiles(m.meld.tiles)} for m in st.melds],
            "bonus": _tiles(st.bonus),
            "discards": _tiles(st.discards),
        })
    out: dict[str, Any] = {"seats": seats, "wall": state.wall_remaining}
    if state.phase == CLAIM and state.last_discard is not None:
        out["discard"] = {"seat": SEATS[state.last_discard[0]], "tile": state.last_discard[1].notation}
    if state.phase == "turn" and state.turn == 0 and state.seats[0].drawn is not None:
        out["drawn"] = state.seats[0].drawn.notation
    return out


def build() -> dict[str, Any]:
    """The script: each step the player takes with the position before it and East's legal actions."""
    state = start()
    steps: list[dict[str, Any]] = []
    for who, text in SCRIPT:
        if who == "E":
            legal = sorted(format_action(a) for a in legal_actions(state, 0))
            steps.append({"do": text, "legal": legal, "before": position(state)})
        state, _ = play(state, f"{who} {text}")
    assert state.result is not None
    res = state.result
    return {
        "seat": "E",
        "steps": steps,
        "end": position(state),
        "result": {
            "hand": res["hand"],
            "tai": res["tai"],
            "patterns": [{"id": p["name"], "tai": p["tai"]} for p in res["patterns"]],
            "payments": dict(zip(SEATS, res["payments"], strict=True)),
            "shooter": SEATS[res["shooter"]] if res["shooter"] is not None else None,
        },
    }


def render() -> str:
    data = json.dumps(build(), ensure_ascii=False, indent=1)
    return ("// The tutorial's first hand, played through the rules core by tools/make_tutorial.py: do not\n"
            "// edit by hand (tests/test_tutorial.py checks it is current).\n"
            f"export default {data};\n")


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        return 0 if OUT.exists() and OUT.read_text(encoding="utf-8") == text else 1
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

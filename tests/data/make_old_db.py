"""Build ``old-server.sqlite3`` and ``old-server.json`` (tests/test_server_old_db.py) with the code of a
checkout of that time (browser-held identities sent as ``X-Player``):
``PYTHONPATH=CHECKOUT python tests/data/make_old_db.py OUT_DIR``.

The database holds a table against bots with its human seated, one hand ended and the next hand a
few actions in (a browser identity linked to the seat), and a public table in its lobby with one
player seated. The JSON holds the codes, tokens and identity, and what the server answered then for
the ended hand's log and replay, the player's history and the results.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import sys
from pathlib import Path
from typing import Any

import httpx

from tests.conftest import FAST_OPTIONS, LiveServer, free_port

SEED = 2024
# no timers and no bot delay; a human who goes away keeps the seat (the table waits for them)
OPTIONS = {**FAST_OPTIONS, "takeover_seconds": 3600}


def digest(data: Any) -> str:
    """The SHA-256 of ``data`` as canonical JSON (the replay is too long to keep whole)."""
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def replay_parts(data: dict[str, Any]) -> dict[str, Any]:
    """A replay answer as kept: its rule set whole (a later version may add rules, with defaults),
    the rest by its digest."""
    rest = {k: v for k, v in data.items() if k not in ("rules", "changed_rules")}
    return {"rules": data["rules"], "changed_rules": data["changed_rules"], "rest": digest(rest)}


def play_human(ws: Any, until: Any) -> dict[str, Any]:
    """Answer every decision of the human's seat (pass, else discard the drawn tile, else the first
    legal action) until ``until(view message)``; returns that view message."""
    while True:
        msg = ws.recv(timeout=20)
        if msg.get("type") != "view":
            continue
        if until(msg):
            return msg
        view = msg["view"]
        legal = view.get("legal_actions") or []
        if msg["status"] == "between_hands":
            ws.send({"type": "next"})
            continue
        if not legal:
            continue
        choice = "pass" if "pass" in legal else next(
            (a for a in legal if a.startswith("discard")), legal[0])
        ws.send({"type": "action", "action": choice, "version": view["version"]})


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    db = out / "old-server.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    server = LiveServer(free_port(), str(db))
    server.start()
    try:
        player = secrets.token_urlsafe(32)
        r = server.post("/api/play", {"name": "Ann", "seed": SEED, "options": OPTIONS,
                                      "player": player})
        assert r.status_code == 201, r.text
        play = r.json()
        with server.ws(play["code"]) as ws:
            ws.hello(play["token"])
            play_human(ws, lambda m: m["view"].get("hand_number", 0) >= 2
                       and m["status"] == "playing" and m["view"]["version"] >= 6)
        lobby = server.create_table("Old lobby", seed=SEED + 1, options=OPTIONS)
        joined = server.join(lobby["code"], "Bo", 1)
        code = play["code"]
        expected = {
            "play": {"code": code, "seat": play["seat"], "token": play["token"], "player": player},
            "lobby": {"code": lobby["code"], "seat": joined["seat"], "token": joined["token"]},
            "log": server.get(f"/api/tables/{code}/hands/1/log").text,
            "replay": replay_parts(server.get(f"/api/tables/{code}/hands/1/replay").json()),
            "results": server.get(f"/api/tables/{code}/results").json(),
            "me": httpx.get(server.url + "/api/me", headers={"X-Player": player}).json(),
            "summary": server.get(f"/api/tables/{code}").json(),
        }
    finally:
        server.stop()
    (out / "old-server.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]))

"""A database written by an earlier version of the server (tests/data/old-server.sqlite3, built by
tests/data/make_old_db.py with the code before the server was reshaped into packages) opens with
today's code and plays on: the same summaries, logs, replays, results and history, then the table in
play and the table in its lobby both play a hand."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from sgmahjong.rules import RuleSet
from tests.conftest import LiveServer, free_port, session_cookie
from tests.data.make_old_db import play_human, replay_parts

DATA = Path(__file__).parent / "data"


def without_new_fields(data: Any) -> Any:
    """``data`` without the view fields added since the old database was written: a seat's claimed
    discards (``taken``), a result's instant payments (``instant``)."""
    if isinstance(data, dict):
        new = {"taken"} if "discards" in data else {"instant"} if "drawn_game" in data else set()
        return {k: without_new_fields(v) for k, v in data.items() if k not in new}
    if isinstance(data, list):
        return [without_new_fields(v) for v in data]
    return data


def older(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer without the fields added since the old server (accounts: a seat's rank, whether /me is
    an account's; quick play's countdown): the rest must be the same."""
    out = {k: v for k, v in answer.items() if k not in ("account", "starts_in")}
    if "seats" in out:
        out["seats"] = [{k: v for k, v in s.items() if k != "rank"} for s in out["seats"]]
    return out


def without_rules_added(data: Any, old_rules: dict[str, Any], key: str = "") -> Any:
    """``data`` with every rule set in it (the replay's header, a hand's start event) cut to the rules
    the old version had; the rules added since must stand at their defaults (an old hand played none)."""
    if isinstance(data, dict):
        if key == "rules" and set(old_rules) <= set(data):
            added = {k: v for k, v in data.items() if k not in old_rules}
            assert added == {k: v for k, v in RuleSet().to_dict().items() if k in added}
            return {k: v for k, v in data.items() if k in old_rules}
        return {k: without_rules_added(v, old_rules, k) for k, v in data.items()}
    if isinstance(data, list):
        return [without_rules_added(v, old_rules, key) for v in data]
    return data


def _same(now: dict[str, Any], then: dict[str, Any]) -> None:
    """The same answer, but for rules and table options added since (each old one is kept as it was)."""
    for key in ("rules", "options"):
        if key in then:
            assert now[key] | then[key] == now[key], key
    assert {k: v for k, v in now.items() if k not in ("rules", "options")} == {
        k: v for k, v in then.items() if k not in ("rules", "options")}


def test_an_old_database_opens_answers_the_same_and_plays_on(tmp_path: Path) -> None:
    expected: dict[str, Any] = json.loads((DATA / "old-server.json").read_text())
    db = tmp_path / "old.sqlite3"
    shutil.copy(DATA / "old-server.sqlite3", db)
    server = LiveServer(free_port(), str(db))
    server.start()
    try:
        play, lobby = expected["play"], expected["lobby"]
        code = play["code"]
        _same(older(server.get(f"/api/tables/{code}").json()), expected["summary"])
        assert server.get(f"/api/tables/{code}/hands/1/log").text == expected["log"]
        replay = server.get(f"/api/tables/{code}/hands/1/replay").json()
        assert replay.pop("chat") == []  # the replay's chat (added since): an old hand has none
        _same(replay_parts(without_new_fields(without_rules_added(replay, expected["replay"]["rules"]))),
              expected["replay"])
        assert server.get(f"/api/tables/{code}/results").json() == expected["results"]
        # the browser that held the identity's secret: its first visit adopts it (its session from then on)
        adopted = server.post("/api/me/adopt", {"secret": play["player"]})
        assert adopted.json() == {"adopted": True}
        cookie = session_cookie(adopted)
        me = server.get("/api/me", cookie).json()
        # as before, each hand with no seat wind: it was recorded before the winds were kept
        hands = [{**h, "wind": None} for h in expected["me"]["hands"]]
        assert older(me) == {**expected["me"], "hands": hands}

        # the table in play: its human comes back and plays the second hand to its end
        with server.ws(code, cookie) as ws:  # the seat is the adopted player's: its session opens it
            assert ws.hello(play["token"])["seat"] == play["seat"]
            play_human(ws, lambda m: m["status"] != "playing")
        summary = server.get(f"/api/tables/{code}").json()
        assert summary["hand_number"] == 2 and summary["status"] in ("between_hands", "finished")
        me = server.get("/api/me", cookie).json()
        assert me["totals"]["hands"] == expected["me"]["totals"]["hands"] + 1
        assert me["hands"][0]["wind"] in ("E", "S", "W", "N")  # a hand played now keeps its wind

        # the table in its lobby: its player starts it (bots fill the empty seats) and plays a hand
        with server.ws(lobby["code"]) as ws:
            assert ws.hello(lobby["token"])["seat"] == lobby["seat"]
            ws.send({"type": "start"})
            play_human(ws, lambda m: m["status"] != "playing")
        summary = server.get(f"/api/tables/{lobby['code']}").json()
        assert summary["hand_number"] == 1 and summary["status"] == "between_hands"
    finally:
        server.stop()

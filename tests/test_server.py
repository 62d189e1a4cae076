"""The server over real HTTP and WebSockets (the ``live_server`` fixture of conftest.py)."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest

from sgmahjong.game.wall import verify_commitment
from sgmahjong.server import PROTOCOL_VERSION
from tests.conftest import FAST_OPTIONS, LiveServer, WsClient, free_port, stacked_wall

SEED = 42


def stable(humans: set[int]) -> Any:
    """A view predicate: nothing is awaited but the given human seats (no bot is about to act)."""

    def pred(msg: dict[str, Any]) -> bool:
        view = msg["view"]
        return view["phase"] == "ended" or (bool(view["awaiting"]) and set(view["awaiting"]) <= humans)

    return pred


def seated(server: LiveServer, code: str, name: str, seat: int) -> tuple[WsClient, str]:
    token = server.join(code, name, seat)["token"]
    ws = server.ws(code)
    assert ws.hello(token)["seat"] == seat
    return ws, token


def wait_status(server: LiveServer, code: str, statuses: set[str], timeout: float = 120,
                player: str | None = None) -> dict[str, Any]:
    """The table's summary once its status is one of ``statuses`` (read as ``player``, a session's
    cookie: a club table's summary is its members' alone)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        summary: dict[str, Any] = server.get(f"/api/tables/{code}", player).json()
        if summary["status"] in statuses:
            return summary
        time.sleep(0.1)
    raise TimeoutError(f"table never reached {statuses}")


# -- HTTP --------------------------------------------------------------------------------------------

def test_health_rules_and_table_listing(live_server: LiveServer) -> None:
    assert live_server.get("/api/health").json() == {"ok": True, "protocol": PROTOCOL_VERSION}
    rules = live_server.get("/api/rules").json()
    assert {"limit", "payout", "bao_fresh"} <= {o["name"] for o in rules["options"]}
    assert rules["presets"]["site"]["base"] == 10
    assert {o["name"] for o in rules["table_options"]} >= {"turn_seconds", "claim_seconds", "bot_level"}
    open_table = live_server.create_table("Open one", rules={"limit": 10})
    assert open_table["table"]["changed_rules"] == {"limit": 10}
    assert open_table["url"] == f"/t/{open_table['code']}"
    hidden = live_server.create_table("Hidden", private=True)
    codes = {t["code"] for t in live_server.get("/api/tables").json()["tables"]}
    assert open_table["code"] in codes and hidden["code"] not in codes
    # a private table is reachable by its link
    assert live_server.get(f"/api/tables/{hidden['code']}").json()["name"] == "Hidden"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"name": "x", "rules": {"limit": 2}}, "limit"),
        ({"name": "x", "rules": {"no_such_rule": 1}}, "no_such_rule"),
        ({"name": "x", "preset": "nope"}, "preset"),
        ({"name": "x", "options": {"speed": 2}}, "speed"),
        ({"name": "x", "colour": "red"}, "colour"),
        ({"name": ""}, "name"),
        ({"name": 5}, "name"),
        ({"name": "x", "wall": "1m2m"}, "148"),
    ],
)
def test_create_table_refuses_bad_input(live_server: LiveServer, body: dict[str, Any], words: str) -> None:
    r = live_server.post("/api/tables", body)
    assert r.status_code == 400
    assert words in r.json()["error"]


def test_bad_json_body_and_unknown_table(live_server: LiveServer) -> None:
    r = httpx.post(live_server + "/api/tables", content=b"{oops", timeout=10,
                   headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "JSON" in r.json()["error"]
    assert live_server.get("/api/tables/nosuchtable").status_code == 404
    assert live_server.post("/api/tables/nosuchtable/join", {"name": "A"}).status_code == 404
    with live_server.ws("nosuchtable") as ws:
        assert ws.recv()["code"] == "no_table"


def test_test_hooks_are_off_by_default(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SGMAHJONG_TEST_HOOKS", raising=False)
    server = LiveServer(free_port(), str(tmp_path / "db.sqlite3"), test_hooks=False)
    server.start()
    try:
        r = server.post("/api/tables", {"name": "x", "seed": 1})
        assert r.status_code == 400 and "test hook" in r.json()["error"]
        r = server.post("/api/tables", {"name": "x", "wall": "1m"})
        assert r.status_code == 400 and "test hook" in r.json()["error"]
        assert server.post("/api/tables", {"name": "x"}).status_code == 201
    finally:
        server.stop()


def test_join_rules(live_server: LiveServer) -> None:
    code = live_server.create_table()["code"]
    assert live_server.join(code, "Ann")["seat"] == 0
    assert live_server.join(code, "Bob", 2)["seat"] == 2
    r = live_server.post(f"/api/tables/{code}/join", {"name": "Cy", "seat": 2})
    assert r.status_code == 409 and "taken" in r.json()["error"]
    r = live_server.post(f"/api/tables/{code}/join", {"name": "   "})
    assert r.status_code == 400
    r = live_server.post(f"/api/tables/{code}/join", {"name": "Cy", "seat": 9})
    assert r.status_code == 400
    seats = live_server.get(f"/api/tables/{code}").json()["seats"]
    assert [s["kind"] for s in seats] == ["human", "empty", "human", "empty"]
    assert seats[0]["name"] == "Ann" and "token" not in str(seats)


# -- lobby over the WebSocket -------------------------------------------------------------------------

def test_lobby_bots_and_start(live_server: LiveServer) -> None:
    code = live_server.create_table(seed=SEED)["code"]
    ws, _ = seated(live_server, code, "Ann", 0)
    with ws, live_server.ws(code) as spectator:
        assert spectator.hello(None)["seat"] is None
        spectator.send({"type": "add_bot", "seat": 1, "level": "random"})
        assert spectator.until("error")["code"] == "not_seated"
        spectator.send({"type": "start"})
        assert spectator.until("error")["code"] == "not_seated"

        ws.send({"type": "add_bot", "seat": 1, "level": "random"})
        table = ws.until("table", lambda m: m["table"]["seats"][1]["kind"] == "bot")["table"]
        assert table["seats"][1]["bot_level"] == "random"
        ws.send({"type": "add_bot", "seat": 1, "level": "greedy"})
        assert ws.until("error")["code"] == "seat_taken"
        ws.send({"type": "remove_bot", "seat": 0})
        assert ws.until("error")["code"] == "bad_seat"
        ws.send({"type": "remove_bot", "seat": 1})
        ws.until("table", lambda m: m["table"]["seats"][1]["kind"] == "empty")
        ws.send({"type": "next"})
        assert ws.until("error")["code"] == "wrong_status"

        ws.send({"type": "start"})
        view = ws.until("view")
        assert view["status"] == "playing"
        assert view["view"]["seat"] == 0 and view["view"]["hand_number"] == 1
        table = live_server.get(f"/api/tables/{code}").json()
        assert table["status"] == "playing"
        assert [s["kind"] for s in table["seats"]] == ["human", "bot", "bot", "bot"]
        # the wall hash is public before the first draw, and the same in the view
        assert table["wall_hash"] == view["view"]["wall_hash"] and len(table["wall_hash"]) == 64
        ws.send({"type": "add_bot", "seat": 1, "level": "random"})
        assert ws.until("error")["code"] == "wrong_status"
        ws.send({"type": "start"})
        assert ws.until("error")["code"] == "wrong_status"
        r = live_server.post(f"/api/tables/{code}/join", {"name": "Late"})
        assert r.status_code == 409
        # the spectator sees the table but no concealed tiles
        sview = spectator.until("view")["view"]
        assert all(s["concealed"] is None for s in sview["seats"]) and sview["legal_actions"] == []


def test_leave_gives_the_seat_back(live_server: LiveServer) -> None:
    code = live_server.create_table()["code"]
    ws, token = seated(live_server, code, "Ann", 0)
    with ws:
        ws.send({"type": "leave"})
        assert ws.until("welcome")["seat"] is None
        ws.until("table", lambda m: m["table"]["seats"][0]["kind"] == "empty")
        ws.send({"type": "hello", "token": token})
        assert ws.until("error")["code"] == "bad_token"


# -- malformed messages and forged tokens --------------------------------------------------------------

@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ('{"type": "shout"}', "unknown_type"),
        ('{"type": "ping", "extra": true}', "invalid"),
        ('{"type": "action", "action": "pass", "version": "1"}', "invalid"),
        ('{"type": "action", "action": 5, "version": 1}', "invalid"),
        ("{not json", "bad_json"),
        ('{"type": "ping", "pad": "' + "x" * 5000 + '"}', "too_large"),
        (b"\x00\x01binary", "bad_json"),
    ],
)
def test_malformed_messages_are_refused_and_the_connection_lives(
    live_server: LiveServer, frame: str | bytes, code: str
) -> None:
    table = live_server.create_table()["code"]
    ws, _ = seated(live_server, table, "Ann", 0)
    with ws:
        ws.send(frame)
        err = ws.until("error")
        assert err["code"] == code and err["message"]
        ws.send({"type": "ping"})
        ws.until("pong")


def test_hello_first_and_forged_tokens(live_server: LiveServer) -> None:
    code = live_server.create_table()["code"]
    other = live_server.create_table()["code"]
    other_token = live_server.join(other, "Zed")["token"]
    live_server.join(code, "Ann")
    with live_server.ws(code) as ws:
        ws.send({"type": "start"})
        assert ws.until("error")["code"] == "hello_first"
        ws.send({"type": "hello", "token": "forged-token-123"})
        err = ws.until("error")
        assert err["code"] == "bad_token" and "token" in err["message"]
        ws.send({"type": "hello", "token": other_token})  # a real token, of another table
        assert ws.until("error")["code"] == "bad_token"
        assert ws.hello(None)["seat"] is None  # still usable, as a spectator
        ws.send({"type": "action", "action": "pass", "version": 0})
        assert ws.until("error")["code"] == "not_seated"


# -- play ----------------------------------------------------------------------------------------------

def test_another_seats_action_out_of_turn_and_stale(live_server: LiveServer) -> None:
    code = live_server.create_table(seed=SEED)["code"]
    ann, _ = seated(live_server, code, "Ann", 0)
    bob, _ = seated(live_server, code, "Bob", 1)
    with ann, bob:
        ann.send({"type": "start"})
        first = ann.until("view")["view"]
        bview = bob.until("view")["view"]
        assert first["awaiting"] == [0] and bview["legal_actions"] == []
        ann_move = first["legal_actions"][0]
        # Bob cannot name another seat, nor play Ann's move, nor play out of turn
        bob.send({"type": "action", "action": ann_move, "version": 0, "seat": 0})
        err = bob.until("error")
        assert err["code"] == "invalid" and "seat" in err["message"]
        bob.send({"type": "action", "action": ann_move, "version": 0})
        err = bob.until("error")
        assert err["code"] == "illegal" and err["message"]
        own = (bview["seats"][1]["concealed"] or [])[0]
        bob.send({"type": "action", "action": f"discard {own}", "version": 0})
        assert bob.until("error")["code"] == "illegal"
        # a version from the future is stale too
        ann.send({"type": "action", "action": ann_move, "version": 99})
        assert ann.until("error")["code"] == "stale"
        # an unknown or forbidden move is refused with the engine's reason
        ann.send({"type": "action", "action": "discard 1a", "version": 0})
        assert ann.until("error")["code"] == "illegal"
        ann.send({"type": "action", "action": "fly away", "version": 0})
        assert ann.until("error")["code"] == "illegal"
        assert live_server.get(f"/api/tables/{code}").json()["status"] == "playing"
        # Ann's real move goes through; the same message again is stale
        ann.send({"type": "action", "action": ann_move, "version": 0})
        after = ann.until("view", lambda m: m["view"]["version"] >= 1)["view"]
        assert after["seats"][0]["discards"] == [ann_move.split()[1]]
        ann.send({"type": "action", "action": ann_move, "version": 0})
        err = ann.until("error")
        assert err["code"] == "stale" and "version" in err["message"]


def test_views_and_events_hide_other_seats_tiles(live_server: LiveServer) -> None:
    code = live_server.create_table(seed=SEED)["code"]
    ann, _ = seated(live_server, code, "Ann", 0)
    bob, _ = seated(live_server, code, "Bob", 1)
    with ann, bob:
        ann.send({"type": "start"})
        view = ann.until("view")["view"]
        ann.send({"type": "action", "action": view["legal_actions"][0], "version": view["version"]})
        bob.until("view", stable({0, 1}))
        for msg in bob.seen:
            if msg["type"] == "view":
                for s in msg["view"]["seats"]:
                    if s["seat"] != 1 and msg["view"]["phase"] != "ended":
                        assert s["concealed"] is None and s["drawn"] is None
            if msg["type"] == "event":
                ev = msg["event"]
                assert "wall" not in ev and "seed" not in ev and "salt" not in ev
                if ev["kind"] in ("deal", "draw") and ev["seat"] != 1:
                    assert "tiles" not in ev and "tile" not in ev
        own_deal = [m["event"] for m in bob.seen if m["type"] == "event" and m["event"]["kind"] == "deal"
                    and m["event"]["seat"] == 1]
        assert own_deal and "tiles" in own_deal[0]


def test_reconnect_with_token_restores_the_view(live_server: LiveServer) -> None:
    code = live_server.create_table(seed=SEED)["code"]
    ann, token = seated(live_server, code, "Ann", 0)
    bob, _ = seated(live_server, code, "Bob", 1)
    with bob:
        with ann:
            ann.send({"type": "start"})
            view = ann.until("view")["view"]
            ann.send({"type": "action", "action": view["legal_actions"][0], "version": 0})
            before = ann.until("view", stable({1}))["view"]
        # while Ann is away her seat shows disconnected; Bob's turn waits for Bob
        bob.until("table", lambda m: not m["table"]["seats"][0]["connected"])
        with live_server.ws(code) as again:
            assert again.hello(token)["seat"] == 0
            restored = again.until("view")["view"]
            assert restored == before
            assert restored["seats"][0]["concealed"] is not None
            bob.until("table", lambda m: m["table"]["seats"][0]["connected"])


def test_a_disconnected_seat_is_played_by_a_bot_to_the_end_of_the_hand(live_server: LiveServer) -> None:
    code = live_server.create_table(seed=SEED)["code"]
    ann, token = seated(live_server, code, "Ann", 0)
    with ann:
        ann.send({"type": "start"})
        start = ann.until("view")["view"]
    summary = wait_status(live_server, code, {"between_hands", "finished"})
    assert summary["hand_number"] == 1
    with live_server.ws(code) as again:
        again.hello(token)
        msg = again.until("view")
        view = msg["view"]
        assert msg["status"] == "between_hands" and view["phase"] == "ended"
        result = view["result"]
        assert result is not None and sum(result["payments"]) == 0
        reveal = result["wall_reveal"]
        assert view["wall_hash"] == start["wall_hash"]
        assert verify_commitment(start["wall_hash"], reveal["salt"], reveal["wall"])
        assert not verify_commitment(start["wall_hash"], reveal["salt"], list(reversed(reveal["wall"])))
        # ready for the next hand: it starts at once (the only connected human is ready)
        again.send({"type": "next"})
        nxt = again.until("view", lambda m: m["status"] == "playing")["view"]
        assert nxt["hand_number"] == 2 and nxt["wall_hash"] != start["wall_hash"]


def test_timeouts_pass_or_discard_the_drawn_tile(live_server: LiveServer) -> None:
    options = {"bot_delay": 0, "turn_seconds": 0.3, "claim_seconds": 0.3, "next_hand_seconds": 0}
    code = live_server.create_table(seed=SEED, options=options)["code"]
    ann, _ = seated(live_server, code, "Ann", 0)
    with ann:
        ann.send({"type": "start"})
        msg = ann.until("view")
        timer = msg["timer"]
        assert timer["kind"] == "turn" and timer["seats"] == [0] and timer["seconds"] == 0.3
        view = msg["view"]
        own = view["seats"][0]
        expected = own["drawn"] or own["concealed"][-1]
        action = ann.until("event", lambda m: m["event"]["kind"] == "action" and m["event"]["seat"] == 0)
        assert action["event"]["action"] == f"discard {expected}"
        # later claim windows and turns also time out: the hand goes on without Ann
        ann.until("view", lambda m: m["view"]["version"] >= 8, timeout=60)


def test_a_whole_match_of_bots_plays_to_the_standings(live_server: LiveServer) -> None:
    options = {**FAST_OPTIONS, "bot_level": "greedy"}
    code = live_server.create_table(seed=7, rules={"rounds": 1}, options=options)["code"]
    ann, token = seated(live_server, code, "Ann", 0)
    with ann:
        ann.send({"type": "start"})
        ann.until("view")
    hands = 0
    while True:
        summary = wait_status(live_server, code, {"between_hands", "finished"})
        if summary["status"] == "finished":
            break
        hands += 1
        assert hands < 100
        with live_server.ws(code) as ws:
            ws.hello(token)
            ws.send({"type": "next"})
            ws.until("view", lambda m: m["status"] in ("playing", "finished"))
    with live_server.ws(code) as ws:
        ws.hello(token)
        view = ws.until("view")["view"]
        assert view["match_finished"] and len(view["standings"]) == 4
        assert sum(s["amount"] for s in view["standings"]) == 0


# -- reference and calculator ---------------------------------------------------------------------------

def test_score_endpoint_answers_what_the_cli_prints(
    live_server: LiveServer, capsys: pytest.CaptureFixture[str]
) -> None:
    from sgmahjong.cli import main

    hand = "23s55p [123m] [456m] [789p] +4s /1f1a"
    assert main(["score", hand, "--shooter", "S", "--rule", "limit=10", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    r = live_server.post("/api/score", {"hand": hand, "shooter": "S", "rules": {"limit": 10}})
    assert r.status_code == 200 and r.json() == cli
    assert live_server.post("/api/score", {"hand": hand, "shooter": 1, "rules": {"limit": 10}}).json() == cli
    for body, words in [
        ({"hand": "xx"}, "unknown tile"),
        ({"hand": hand, "shooter": "E"}, "shooter"),
        ({"hand": hand, "colour": "red"}, "colour"),
        ({"hand": hand, "rules": {"nope": 1}}, "nope"),
        ({"hand": hand, "self_drawn": "yes"}, "self_drawn"),
        ([hand], "object"),
    ]:
        r = live_server.post("/api/score", body)
        assert r.status_code == 400 and words in r.json()["error"], (body, r.text)
    # circumstances that cannot go together come with a code the calculator says in its language
    win = "123m456m789p4588s +6s"
    for body, code in [
        ({"hand": win, "seat": "E", "shooter": "E"}, "score.shooter_is_winner"),
        ({"hand": win, "self_drawn": True, "shooter": "S"}, "score.self_drawn_shooter"),
        ({"hand": win, "seat": "S", "heavenly": True, "self_drawn": True}, "score.heavenly"),
        ({"hand": win, "seat": "E", "earthly": True}, "score.earthly"),
        ({"hand": win, "self_drawn": True, "replacement": "kong"}, "score.kong_replacement_kong"),
    ]:
        r = live_server.post("/api/score", body)
        assert r.status_code == 400 and r.json()["code"] == code and r.json()["error"], (body, r.text)
    # a hand that does not parse: its code and parameters too, beside the English message
    assert live_server.post("/api/score", {"hand": "xx"}).json() == {
        "error": "unknown tile 'x' at column 1", "code": "notation.unknown_tile",
        "params": {"tile": "x", "column": 1}}
    assert "code" not in live_server.post("/api/score", {"hand": hand, "colour": "red"}).json()


def test_reference_is_generated_from_the_rule_set(live_server: LiveServer) -> None:
    default = live_server.get("/api/reference").json()
    ten = live_server.get("/api/reference?preset=default&rule=limit=10").json()
    assert default["rules"]["limit"] == 5 and ten["rules"]["limit"] == 10
    ids = {p["id"] for p in default["patterns"]}
    assert {"dragon_pong", "ping_hu", "thirteen_wonders"} <= ids
    t5 = next(p for p in default["patterns"] if p["id"] == "big_three_dragons")
    t10 = next(p for p in ten["patterns"] if p["id"] == "big_three_dragons")
    assert t5["tai"] == 5 and t10["tai"] == 10
    r = live_server.get("/api/reference?rule=limit=2")
    assert r.status_code == 400 and "limit" in r.json()["error"]
    assert live_server.get("/api/reference?preset=nope").status_code == 400


def test_hand_log_is_published_after_the_hand_and_replays(live_server: LiveServer, tmp_path: Any) -> None:
    from sgmahjong.game.log import replay

    code = live_server.create_table(seed=SEED)["code"]
    ann, token = seated(live_server, code, "Ann", 0)
    with ann:
        ann.send({"type": "start"})
        ann.until("view")
        r = live_server.get(f"/api/tables/{code}/hands/1/log")
        assert r.status_code == 409
    wait_status(live_server, code, {"between_hands", "finished"})
    assert live_server.get(f"/api/tables/{code}/hands/2/log").status_code == 404
    text = live_server.get(f"/api/tables/{code}/hands/1/log").text
    state, _ = replay(text)
    with live_server.ws(code) as ws:
        ws.hello(token)
        view = ws.until("view")["view"]
    assert state.ended and state.version == view["version"]
    assert state.wall_hash == view["wall_hash"] and state.result is not None
    assert state.result["payments"] == view["result"]["payments"]


def test_stacked_wall_claims_of_two_humans(live_server: LiveServer) -> None:
    """East discards 5m; South may chow it, West may pong it. West passes first (privately: the
    version stays and nobody else is told); South's claim goes through when the window closes."""
    wall = stacked_wall(E="5m", S="4m6m", W="5m5m")
    code = live_server.create_table(wall=wall, seed=1)["code"]
    ann, _ = seated(live_server, code, "Ann", 0)
    bob, _ = seated(live_server, code, "Bob", 1)
    cy, _ = seated(live_server, code, "Cy", 2)
    with ann, bob, cy:
        ann.send({"type": "start"})
        view = ann.until("view")["view"]
        assert "discard 5m" in view["legal_actions"]
        ann.send({"type": "action", "action": "discard 5m", "version": view["version"]})
        bview = bob.until("view", lambda m: m["view"]["phase"] == "claim")["view"]
        cview = cy.until("view", lambda m: m["view"]["phase"] == "claim")["view"]
        assert "chow 456m" in bview["legal_actions"] and "pong" in cview["legal_actions"]
        assert bview["version"] == cview["version"]
        # each seat learns only its own claim decision: who else may claim is not shown
        assert bview["awaiting"] == [1] and cview["awaiting"] == [2]
        amsg = ann.until("view", lambda m: m["view"]["phase"] == "claim")
        assert amsg["view"]["awaiting"] == []
        assert amsg["timer"] is None or amsg["timer"]["seats"] == []
        cy.send({"type": "action", "action": "pass", "version": cview["version"]})
        mine = cy.until("view", lambda m: m["view"]["legal_actions"] == [])["view"]
        assert mine["version"] == cview["version"]  # a decision keeps the version
        # Cy's pong option is gone once he passed: refused
        cy.send({"type": "action", "action": "pong", "version": cview["version"]})
        assert "already decided" in cy.until("error")["message"]
        bob.send({"type": "action", "action": "chow 456m", "version": bview["version"]})
        after = bob.until("view", lambda m: bool(m["view"]["seats"][1]["melds"]))["view"]
        assert after["seats"][1]["melds"][0]["tiles"] == ["4m", "5m", "6m"]
        assert after["awaiting"] == [1] and after["turn"] == 1 and after["version"] == bview["version"] + 1


def test_a_burst_of_garbage_never_breaks_the_connection(live_server: LiveServer) -> None:
    import random

    rng = random.Random(5)
    code = live_server.create_table(seed=SEED)["code"]
    ws, _ = seated(live_server, code, "Ann", 0)
    pieces = ['{"type":', '"action"', '"version": 1', "null", "[", "]", "{", "}", ",", '"\\ud800"', "1e999",
              '"type": "hello"', '"token": {}', "true"]
    with ws:
        ws.send({"type": "start"})
        ws.until("view")
        sent = 0
        for _ in range(40):
            frame = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 8)))
            ws.send(frame)
            sent += 1
        errors = 0
        ws.send({"type": "ping"})
        while True:
            msg = ws.recv()
            if msg["type"] == "pong":
                break
            errors += msg["type"] == "error"
        assert errors >= sent - 5  # (a few random frames may be valid messages)
        assert live_server.get(f"/api/tables/{code}").json()["status"] == "playing"


def test_the_next_hand_starts_by_itself_after_the_delay(live_server: LiveServer) -> None:
    code = live_server.create_table(seed=SEED, options={**FAST_OPTIONS, "next_hand_seconds": 0.3})["code"]
    ann, token = seated(live_server, code, "Ann", 0)
    with ann:
        ann.send({"type": "start"})
        ann.until("view")
    wait_status(live_server, code, {"between_hands"})
    with live_server.ws(code) as ws:
        ws.hello(token)
        msg = ws.until("view")
        assert msg["status"] == "between_hands"
        assert msg["timer"]["kind"] == "next_hand" and msg["timer"]["seats"] == [0]
        nxt = ws.until("view", lambda m: m["status"] == "playing")  # nobody pressed next
        assert nxt["view"]["hand_number"] == 2

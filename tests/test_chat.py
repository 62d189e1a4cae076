"""Chat at the table (server/table/chat.py) over real WebSockets: who hears what, what is refused, the
host's controls, the rate limit, the log at hello and in a hand's replay, and the store."""

from __future__ import annotations

from typing import Any

import pytest

from sgmahjong.server.store import open_store
from sgmahjong.server.table.chat import EMOTES, PHRASES, TEXT_MAX, text_problem
from tests.conftest import LiveServer, WsClient
from tests.test_font_coverage import strings
from tests.test_server import seated, wait_status


def said(ws: WsClient, body: str) -> dict[str, Any]:
    return ws.until("chat", lambda m: m["body"] == body)


def refused(ws: WsClient, code: str) -> dict[str, Any]:
    return ws.until("error", lambda m: m["ref"] == "chat" and m["code"] == code)


def spectator(live_server: LiveServer, code: str) -> WsClient:
    ws = live_server.ws(code)
    assert ws.hello(None)["seat"] is None
    return ws


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "chat_empty"), ("   ", "chat_empty"), ("x" * (TEXT_MAX + 1), "chat_too_long"),
        ("hi\x07", "text_control"), ("a\nb", "text_control"), ("evil\u202eoops", "text_invisible"),
        ("\u2066isolate", "text_invisible"), ("\x00", "text_control"), ("one\u2028two", "text_control"),
        ("a\u200bb", "text_invisible"), ("hi\U000e0041", "text_invisible"),
        ("Z" + "\u0301" * 199, "text_marks"),
    ],
)
def test_bad_text_is_refused_with_a_reason(text: str, code: str) -> None:
    problem = text_problem(text)
    assert problem is not None and problem.code == code


@pytest.mark.parametrize("text", ["<b>hi</b>", "<script>alert(1)</script>", "加油 Huat ah!", "x" * TEXT_MAX,
                                  "مرحبا", "🀄 ok"])
def test_good_text_passes(text: str) -> None:
    assert text_problem(text) is None


def test_chat_reaches_every_seat_and_spectator_of_its_table_only(live_server: LiveServer) -> None:
    code = live_server.create_table()["code"]
    other = live_server.create_table()["code"]
    ann, _ = seated(live_server, code, "Ann", 0)
    ben, _ = seated(live_server, code, "Ben", 1)
    watcher = spectator(live_server, code)
    elsewhere = spectator(live_server, other)
    state = ann.until("chat_state")
    assert state["enabled"] and state["host"] == 0 and state["phrases"] == list(PHRASES)
    assert state["rail_locked"] is False  # not a match the ranked queue seated
    ann.send({"type": "chat", "kind": "text", "body": "  <b>hello</b>  "})
    for ws in (ann, ben, watcher):
        m = said(ws, "<b>hello</b>")  # trimmed, kept as the text it is (the client shows it as text)
        assert m["seat"] == 0 and m["name"] == "Ann" and m["kind"] == "text" and m["hand"] == 0
    ben.send({"type": "chat", "kind": "phrase", "body": "huat"})
    watcher.send({"type": "chat", "kind": "emote", "body": "rooster"})
    for ws in (ann, ben, watcher):
        assert said(ws, "huat")["seat"] == 1
        m = said(ws, "rooster")
        assert m["seat"] is None and m["kind"] == "emote"
    ben.send({"type": "chat", "kind": "phrase", "body": "<img src=x>"})
    assert "no phrase" in refused(ben, "chat_unknown")["message"]
    ben.send({"type": "chat", "kind": "text", "body": "x" * 201})
    assert "200" in refused(ben, "chat_too_long")["message"]
    ben.send({"type": "chat", "kind": "text", "body": "x" * 10_000})  # a 10 kB frame: refused whole
    ben.until("error", lambda m: m["code"] == "too_large")
    ben.send({"type": "ping"})
    ben.until("pong")  # still connected
    # nothing of it reached the other table
    elsewhere.send({"type": "ping"})
    elsewhere.until("pong")
    assert not [m for m in elsewhere.seen if m["type"] == "chat"]
    # a reload: the recent messages come with hello, in order
    again = spectator(live_server, code)
    log = again.until("chat_log")["messages"]
    assert [m["body"] for m in log] == ["<b>hello</b>", "huat", "rooster"]
    for ws in (ann, ben, watcher, elsewhere, again):
        ws.close()


def test_host_mutes_a_seat_and_the_spectators_for_everyone(live_server: LiveServer) -> None:
    code = live_server.create_table()["code"]
    ann, _ = seated(live_server, code, "Ann", 0)
    ben, _ = seated(live_server, code, "Ben", 1)
    watcher = spectator(live_server, code)
    ben.send({"type": "chat_mute", "seat": 0, "muted": True})
    ben.until("error", lambda m: m["code"] == "not_host")
    ann.send({"type": "chat_mute", "seat": 1, "muted": True})
    assert ben.until("chat_state", lambda m: m["muted"] == [1])["host"] == 0
    ben.send({"type": "chat", "kind": "text", "body": "can you hear me"})
    assert "muted" in refused(ben, "chat_muted")["message"]
    ann.send({"type": "chat_mute", "seat": None, "muted": True})
    watcher.until("chat_state", lambda m: m["spectators"] is False)
    watcher.send({"type": "chat", "kind": "phrase", "body": "sorry"})
    refused(watcher, "chat_off")
    ann.send({"type": "chat_mute", "seat": 1, "muted": False})
    ben.until("chat_state", lambda m: m["muted"] == [])
    ben.send({"type": "chat", "kind": "text", "body": "back"})
    said(watcher, "back")
    for ws in (ann, ben, watcher):
        ws.close()


def test_a_table_with_chat_off_refuses_it(live_server: LiveServer) -> None:
    code = live_server.create_table(options={"chat": False, "turn_seconds": 0})["code"]
    ann, _ = seated(live_server, code, "Ann", 0)
    assert ann.until("chat_state")["enabled"] is False
    ann.send({"type": "chat", "kind": "text", "body": "hello"})
    refused(ann, "chat_off")
    ann.close()


def test_a_flood_is_cut_by_the_rate_limit_and_the_table_plays_on(live_server: LiveServer) -> None:
    burst = live_server.settings.chat_burst
    code = live_server.create_table(seed=5)["code"]
    ann, _ = seated(live_server, code, "Ann", 0)
    ben, _ = seated(live_server, code, "Ben", 1)
    for i in range(burst + 10):
        ann.send({"type": "chat", "kind": "text", "body": f"spam {i}"})
    error = refused(ann, "chat_rate")
    assert "too many messages" in error["message"]
    ben.send({"type": "ping"})
    ben.until("pong")
    got = [m for m in ben.seen if m["type"] == "chat"]
    assert burst <= len(got) < burst + 10
    ben.send({"type": "chat", "kind": "phrase", "body": "so_fast"})  # another seat's own allowance
    said(ann, "so_fast")
    ann.send({"type": "start"})
    view = ann.until("view")["view"]
    assert view["phase"] == "turn" and view["turn"] == 0  # the match started: the table plays on
    for ws in (ann, ben):
        ws.close()


def test_a_replay_holds_the_chat_at_its_step(live_server: LiveServer) -> None:
    code = live_server.create_table(seed=5)["code"]
    ann, _ = seated(live_server, code, "Ann", 0)
    ann.send({"type": "start"})
    ann.until("view")
    ann.send({"type": "chat", "kind": "text", "body": "my deal"})
    said(ann, "my deal")
    ann.close()  # a bot plays Ann's seat to the end of the hand
    wait_status(live_server, code, {"between_hands", "finished"})
    data = live_server.get(f"/api/tables/{code}/hands/1/replay").json()
    assert [(m["body"], m["step"], m["seat"]) for m in data["chat"]] == [("my deal", 0, 0)]


def test_store_keeps_chat_per_table_and_hand(database_url: str) -> None:
    store = open_store(database_url)
    try:
        tid = store.create_table("c0de1", "T", False, {}, {}, None, None)
        assert store.claim(tid)
        for seq in range(5):
            store.add_chat(tid, seq, seq // 2, seq, None if seq == 3 else seq % 4, "N", "text", f"m{seq}",
                           1.5 + seq)
        assert [r.body for r in store.chat(tid, 3)] == ["m2", "m3", "m4"]
        rows = store.hand_chat(tid, 1, 10)
        assert [(r.seq, r.hand, r.step, r.seat, r.at) for r in rows] == [
            (2, 1, 2, 2, 3.5), (3, 1, 3, None, 4.5)]
        assert store.chat(tid + 1, 10) == []
    finally:
        store.close()


def test_emotes_and_phrases_have_texts_in_both_languages() -> None:
    for lang in ("en", "zh"):
        texts = strings(lang)
        for pid in PHRASES:
            assert texts.get(f"chat.phrase.{pid}"), (lang, pid)
        for eid in EMOTES:
            assert texts.get(f"chat.emote.{eid}"), (lang, eid)


def test_spectators_speak_by_their_display_names_and_are_listed_as_watchers(live_server: LiveServer) -> None:
    """A spectator's line carries their display name; everyone is told who watches (people, not tabs:
    one person's two tabs count once; a visitor without a name is counted but not named), and told
    again when a spectator leaves."""
    code = live_server.create_table()["code"]
    elsewhere = live_server.create_table()["code"]
    ann, _ = seated(live_server, code, "Ann", 0)
    assert ann.until("watchers")["count"] == 0
    cy = live_server.join(elsewhere, "Cy")["cookie"]  # a visitor whose name is Cy, watching `code`
    watcher = live_server.ws(code, cookie=cy)
    assert watcher.hello(None)["seat"] is None
    second_tab = live_server.ws(code, cookie=cy)
    second_tab.hello(None)
    nameless = spectator(live_server, code)
    seen = ann.until("watchers", lambda m: m["count"] == 2)
    assert seen["names"] == ["Cy"] and seen["more"] == 0
    watcher.send({"type": "chat", "kind": "phrase", "body": "huat"})
    assert said(ann, "huat")["name"] == "Cy"
    nameless.send({"type": "chat", "kind": "phrase", "body": "wait"})
    assert said(ann, "wait")["name"] == "Spectator"  # no display name: the page says "Spectator"
    watcher.close()
    second_tab.close()
    assert ann.until("watchers", lambda m: m["count"] == 1)["names"] == []
    nameless.close()
    assert ann.until("watchers", lambda m: m["count"] == 0)["names"] == []
    ann.close()


def test_the_watchers_message_names_a_bounded_few() -> None:
    from types import SimpleNamespace

    from sgmahjong.server.table.chat import WATCHERS_NAMED, TableChat

    conns = [SimpleNamespace(hello=True, seat=None, closed=False, person=("a:x", f"p:{i}"), name=f"P{i:03}")
             for i in range(WATCHERS_NAMED + 5)]
    conns.append(SimpleNamespace(hello=True, seat=0, closed=False, person=("p:999",), name="Seated"))
    chat = TableChat(SimpleNamespace(conns=conns))  # type: ignore[arg-type]
    m = chat.watchers()
    assert m["count"] == WATCHERS_NAMED + 5 and m["more"] == 5
    assert m["names"] == [f"P{i:03}" for i in range(WATCHERS_NAMED)]

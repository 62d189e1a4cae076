"""The inbound message models (sgmahjong/server/protocol.py) and the table options, without a server."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sgmahjong.server.options import TableOptions, TableOptionsError
from sgmahjong.server.protocol import (
    MAX_FRAME,
    ActionMsg,
    AddBot,
    Hello,
    Ping,
    ProtocolError,
    parse_message,
)
from sgmahjong.server.store import database_path


def refused(text: str | bytes | None) -> ProtocolError:
    with pytest.raises(ProtocolError) as info:
        parse_message(text)
    return info.value


def test_valid_messages_parse_to_their_models() -> None:
    assert parse_message('{"type": "hello", "token": null}') == Hello(type="hello", token=None)
    assert parse_message('{"type": "hello", "token": "abc"}') == Hello(type="hello", token="abc")
    msg = parse_message('{"type": "action", "action": "discard 5p", "version": 3}')
    assert isinstance(msg, ActionMsg) and msg.action == "discard 5p" and msg.version == 3
    assert parse_message('{"type": "add_bot", "seat": null, "level": "random"}') == AddBot(
        type="add_bot", seat=None, level="random"
    )
    assert isinstance(parse_message('{"type": "ping"}'), Ping)


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        ('{"type": "shout"}', "unknown_type", "shout"),
        ('{"type": 7}', "unknown_type", "7"),
        ('{"token": null}', "invalid", "type"),
        ('{"type": "ping", "extra": 1}', "invalid", "extra"),
        ('{"type": "action", "action": "pass", "version": "3"}', "invalid", "version"),
        ('{"type": "action", "action": "pass", "version": true}', "invalid", "version"),
        ('{"type": "action", "action": "pass", "version": -1}', "invalid", "version"),
        ('{"type": "action", "action": "pass"}', "invalid", "missing field 'version'"),
        ('{"type": "action", "action": "pass", "version": 1, "seat": 0}', "invalid", "seat"),
        ('{"type": "add_bot", "seat": 5, "level": "random"}', "invalid", "seat"),
        ('{"type": "add_bot", "seat": 1, "level": "genius"}', "invalid", "level"),
        ('{"type": "hello"}', "invalid", "token"),
        ("[1, 2]", "invalid", "object"),
        ("{not json", "bad_json", "JSON"),
        ("", "bad_json", "JSON"),
        ("[" * 5000, "too_large", str(MAX_FRAME)),
    ],
)
def test_bad_messages_are_refused_with_a_reason(text: str, code: str, words: str) -> None:
    err = refused(text)
    assert err.code == code
    assert words in err.message
    out = err.to_json()
    assert out["type"] == "error" and out["code"] == code


def test_binary_and_oversize_frames_are_refused() -> None:
    assert refused(b'{"type": "ping"}').code == "bad_json"
    big = json.dumps({"type": "action", "action": "x" * MAX_FRAME, "version": 1})
    assert refused(big).code == "too_large"
    # a long action within the frame limit is still refused by its field limit
    assert refused(json.dumps({"type": "action", "action": "x" * 100, "version": 1})).code == "invalid"


def test_table_options_validate() -> None:
    opts = TableOptions.parse({"turn_seconds": 5, "bot_level": "random"})
    assert opts.turn_seconds == 5 and opts.bot_level == "random" and opts.claim_seconds == 15
    with pytest.raises(TableOptionsError, match="unknown table option 'speed'"):
        TableOptions.parse({"speed": 3})
    with pytest.raises(TableOptionsError, match="turn_seconds"):
        TableOptions.parse({"turn_seconds": -1})
    with pytest.raises(TableOptionsError, match="bot_level"):
        TableOptions.parse({"bot_level": "godlike"})
    names = [d["name"] for d in TableOptions.describe()]
    assert names == ["turn_seconds", "claim_seconds", "bot_delay", "claim_pause", "next_hand_seconds",
                     "takeover_seconds", "bot_think", "bot_level", "pace", "unattended", "chat",
                     "spectator_chat"]
    assert TableOptions.describe()[-1]["type"] == "bool"
    with pytest.raises(TableOptionsError, match="chat"):
        TableOptions.parse({"chat": 1})  # a switch is true or false


def test_database_url() -> None:
    assert database_path("sqlite:///data/x.sqlite3") == "data/x.sqlite3"
    assert database_path("sqlite:////abs/x.sqlite3") == "/abs/x.sqlite3"
    assert database_path("plain.sqlite3") == "plain.sqlite3"
    with pytest.raises(ValueError, match="only sqlite"):
        database_path("postgres://host/db")


def test_database_url_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "sqlite:///elsewhere/db.sqlite3")
    assert database_path() == "elsewhere/db.sqlite3"
    assert database_path("sqlite:///given.sqlite3") == "given.sqlite3"  # --database wins
    monkeypatch.delenv("DATABASE_URL")
    assert database_path() == "data/sgmahjong.sqlite3"


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
_fields = st.fixed_dictionaries(
    {"type": st.sampled_from(["hello", "action", "add_bot", "remove_bot", "start", "next", "ping", "x"])},
    optional={"token": _json, "action": _json, "version": _json, "seat": _json, "level": _json,
              "extra": _json},
)


@settings(max_examples=150, deadline=None)
@given(st.one_of(_json, _fields))
def test_any_json_is_a_message_or_a_protocol_error(value: object) -> None:
    """Never an exception other than ProtocolError, whatever the client sends."""
    try:
        parse_message(json.dumps(value))
    except ProtocolError as err:
        assert err.code in {"bad_json", "too_large", "invalid", "unknown_type"} and err.message


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=300) | st.binary(max_size=50))
def test_any_text_is_a_message_or_a_protocol_error(text: str | bytes) -> None:
    try:
        parse_message(text)
    except ProtocolError as err:
        assert err.message


def test_serve_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    from sgmahjong.cli import main

    assert main(["serve", "--port", "70000"]) == 2
    assert "port" in capsys.readouterr().err
    assert main(["serve", "--database", "mysql://db"]) == 2
    assert "SQLite file (sqlite:///path) or PostgreSQL" in capsys.readouterr().err
    assert main(["serve", "--database", "postgresql://nobody@127.0.0.1:1/none"]) == 2
    assert "cannot reach the database (postgresql://nobody@127.0.0.1:1/none)" in capsys.readouterr().err


def test_a_tables_bots_know_its_rules() -> None:
    """The bots the server seats play by the table's rule set (minimum tai, limit, 包)."""
    from sgmahjong.rules import RuleSet
    from sgmahjong.server.options import TableOptions
    from sgmahjong.server.table import engine
    from sgmahjong.server.table.table import Table

    rules = RuleSet(min_tai=3, limit=10)
    table = Table(store=None, id=1, code="ABCD", name="x", private=False,  # type: ignore[arg-type]
                  rules=rules, options=TableOptions.parse({}))
    table.match, _ = engine.start_match(rules, 7, None)
    dealer = engine.awaiting(table.match)[0]
    choice = table.bots.choice(table.match, dealer, table.bot_level(dealer))
    assert choice in engine.legal_texts(table.match, dealer)
    assert [bot.rules for bot in table.bots.bots.values()] == [rules]

"""A club's evenings (http/evenings.py, server/push/): the owner proposes "Friday 20:00" in the club's
zone, members answer in, maybe or out and change their minds, the page's counts and names, the calendar
file read back (Friday 20:00 Asia/Singapore is 12:00Z), the limits, non-members refused; the reminder an
hour before, pushed once across a restart, and claimed once by two servers on one database; the store's
part on SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
import threading
import time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from sgmahjong.server.push.evening import ics, ics_text
from sgmahjong.server.push.notify import Notifier
from sgmahjong.server.push.sender import Notice
from sgmahjong.server.push.vapid import make_keys
from sgmahjong.server.settings import ServerSettings
from sgmahjong.server.store import open_store
from sgmahjong.server.store.clubs_sql import MEMBER
from sgmahjong.server.store.push_sql import EveningRow, SubscriptionRow
from tests.conftest import serving
from tests.push_endpoint import Browser, PushEndpoint, decrypt
from tests.test_clubs import call, invited, new_club, player

SG = ZoneInfo("Asia/Singapore")


def next_friday() -> dt.date:
    today = dt.datetime.now(SG).date()
    return today + dt.timedelta(days=(4 - today.weekday()) % 7 + 7)  # a Friday 7-13 days ahead


def unfolded(text: str) -> dict[str, str]:
    """An .ics file's properties (of its one event), lines unfolded (RFC 5545 3.1)."""
    assert text.endswith("\r\n") and all(len(line.encode()) <= 75 for line in text.split("\r\n"))
    lines = text.replace("\r\n ", "").split("\r\n")
    return dict(line.split(":", 1) for line in lines if ":" in line)


def unescaped(value: str) -> str:
    out, i = [], 0
    while i < len(value):
        if value[i] == "\\":
            out.append("\n" if value[i + 1] in "nN" else value[i + 1])
            i += 2
        else:
            out.append(value[i])
            i += 1
    return "".join(out)


def test_propose_answer_change_and_the_calendar(tmp_path: Path) -> None:
    with serving(tmp_path / "db.sqlite3") as live:
        owner, mei, kumar, stranger = (player(live, n) for n in ("Ah Beng", "Mei", "Kumar", "Stranger"))
        club = new_club(live, owner, 'Kaki; "Friday", 4\\5')["code"]
        invited(live, owner, club, mei)
        invited(live, owner, club, kumar)
        friday = next_friday()
        local = f"{friday.isoformat()}T20:00"
        r = call(live, "POST", f"/api/clubs/{club}/sessions", mei, {"local": local})
        assert r.status_code == 403 and r.json()["code"] == "owner_only"
        r = call(live, "POST", f"/api/clubs/{club}/sessions", stranger, {"local": local})
        assert r.status_code == 404
        r = call(live, "POST", f"/api/clubs/{club}/sessions", owner, {"local": local, "needed": 3})
        assert r.status_code == 201, r.text
        evening = r.json()
        assert evening["local"] == local and evening["zone"] == "Asia/Singapore" and evening["needed"] == 3
        noon = dt.datetime(friday.year, friday.month, friday.day, 12, 0, tzinfo=dt.UTC)
        assert evening["starts"] == noon.timestamp()
        path = f"/api/clubs/{club}/sessions/{evening['id']}"

        for who, answer in ((owner, "in"), (mei, "maybe"), (kumar, "out"), (mei, "in")):
            r = call(live, "POST", f"{path}/answer", who, {"answer": answer})
            assert r.status_code == 200, r.text
        assert r.json()["mine"] == "in"
        listed = call(live, "GET", f"/api/clubs/{club}/sessions", kumar).json()
        (shown,) = listed["sessions"]
        assert shown["counts"] == {"in": 2, "maybe": 0, "out": 1} and shown["mine"] == "out"
        assert sorted((a["name"], a["answer"]) for a in shown["answers"]) == [
            ("Ah Beng", "in"), ("Kumar", "out"), ("Mei", "in")]
        assert shown["ready"] is False and listed["owner"] is False
        call(live, "POST", f"{path}/answer", kumar, {"answer": "in"})
        assert call(live, "GET", f"/api/clubs/{club}/sessions", owner).json()["sessions"][0]["ready"] is True

        r = call(live, "POST", f"{path}/answer", stranger, {"answer": "in"})
        assert r.status_code == 404
        r = call(live, "POST", f"{path}/answer", mei, {"answer": "perhaps"})
        assert r.status_code == 400
        assert call(live, "GET", f"{path}.ics", stranger).status_code == 404
        big = f"/api/clubs/{club}/sessions/{'9' * 20}"  # beyond a database's integer: these were 500s
        assert call(live, "GET", f"{big}.ics", owner).status_code == 404
        assert call(live, "POST", f"{big}/cancel", owner, {}).status_code == 404
        assert call(live, "GET", f"/api/clubs/{club}/sessions", stranger).status_code == 404

        r = call(live, "GET", f"{path}.ics", mei)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/calendar")
        props = unfolded(r.text)
        assert r.text.startswith("BEGIN:VCALENDAR\r\n") and props["VERSION"] == "2.0"
        assert props["DTSTART"] == noon.strftime("%Y%m%dT120000Z")
        assert props["DTEND"] == noon.strftime("%Y%m%dT150000Z")
        assert props["UID"] == f"club-session-{evening['id']}@127.0.0.1"
        assert props["SUMMARY"] == 'Mahjong: Kaki\\; "Friday"\\, 4\\\\5'
        assert unescaped(props["SUMMARY"]) == 'Mahjong: Kaki; "Friday", 4\\5'

        r = call(live, "POST", f"{path}/cancel", mei, {})
        assert r.status_code == 403
        assert call(live, "POST", f"{path}/cancel", owner, {}).json() == {"cancelled": evening["id"]}
        assert call(live, "GET", f"/api/clubs/{club}/sessions", owner).json()["sessions"] == []
        assert call(live, "POST", f"{path}/answer", mei, {"answer": "in"}).status_code == 404


def test_bad_times_and_the_limits(tmp_path: Path) -> None:
    settings = ServerSettings(sessions_per_day=2, rsvp_burst=3, rsvps_per_minute=0.01)
    with serving(tmp_path / "db.sqlite3", settings=settings) as live:
        owner = player(live, "Ah Beng")
        club = new_club(live, owner)["code"]
        friday = next_friday().isoformat()
        for body in ({"local": "2020-01-03T20:00"}, {"local": "friday 8pm!"},
                     {"local": f"{friday}T20:00", "zone": "Mars/Olympus"},
                     {"local": f"{friday}T20:00+08:00"}):
            r = call(live, "POST", f"/api/clubs/{club}/sessions", owner, body)
            assert r.status_code == 400 and r.json()["code"] in ("bad_time", "invalid"), (body, r.text)
        r = call(live, "POST", f"/api/clubs/{club}/sessions", owner, {"local": f"{friday}T20:00",
                                                                       "zone": "Europe/London"})
        assert r.status_code == 201 and r.json()["zone"] == "Europe/London"
        ids = [r.json()["id"]]
        r = call(live, "POST", f"/api/clubs/{club}/sessions", owner, {"local": f"{friday}T21:00"})
        ids.append(r.json()["id"])
        r = call(live, "POST", f"/api/clubs/{club}/sessions", owner, {"local": f"{friday}T22:00"})
        assert r.status_code == 429 and r.json() == {
            "error": r.json()["error"], "code": "sessions_per_day", "params": {"most": 2}}
        answers = [call(live, "POST", f"/api/clubs/{club}/sessions/{ids[0]}/answer", owner,
                        {"answer": a}).status_code for a in ("in", "out", "maybe", "in")]
        assert answers == [200, 200, 200, 429]
        r = call(live, "POST", f"/api/clubs/{club}/sessions/{ids[1]}/answer", owner, {"answer": "in"})
        assert r.status_code == 429 and r.json()["code"] == "rsvp_rate"


def test_the_reminder_is_pushed_once_across_a_restart(tmp_path: Path) -> None:
    settings = ServerSettings(push_http_endpoints=True, reminder_poll_seconds=0.2, reminder_minutes=1.0)
    db = tmp_path / "db.sqlite3"
    browsers = {n: Browser() for n in ("owner", "mei", "kumar")}
    with PushEndpoint() as push:
        with serving(db, settings=settings) as live:
            owner, mei, kumar = (player(live, n) for n in ("Ah Beng", "Mei", "Kumar"))
            cookies = {"owner": owner, "mei": mei, "kumar": kumar}
            club = new_club(live, owner, "Kaki")["code"]
            invited(live, owner, club, mei)
            invited(live, owner, club, kumar)
            for name, cookie in cookies.items():
                r = call(live, "POST", f"/api/clubs/{club}/push", cookie,
                         {"on": True, "subscription": browsers[name].subscription(push.url(name))})
                assert r.status_code == 200

            def propose(answers: dict[str, str]) -> int:
                """An evening due for its reminder a few seconds from now, once everyone answered."""
                soon = dt.datetime.now(SG) + dt.timedelta(seconds=60 * settings.reminder_minutes + 6)
                r = call(live, "POST", f"/api/clubs/{club}/sessions", owner,
                         {"local": soon.strftime("%Y-%m-%dT%H:%M:%S")})
                assert r.status_code == 201, r.text
                evening = int(r.json()["id"])
                for name, answer in answers.items():
                    r = call(live, "POST", f"/api/clubs/{club}/sessions/{evening}/answer", cookies[name],
                             {"answer": answer})
                    assert r.status_code == 200
                return evening

            first = propose({"owner": "in", "mei": "maybe", "kumar": "out"})
            (to_mei,) = push.wait(1, "/push/mei")
            (_to_owner,) = push.wait(1, "/push/owner")
            message = decrypt(to_mei.body, browsers["mei"])
            assert message["title"].startswith("Kaki: mahjong at ") and message["tag"] == f"session-{first}"
            assert message["url"] == f"/club/{club}" and "1 in so far" in message["body"]
            live.restart()
            second = propose({"owner": "in"})
            to_owner2 = push.wait(2, "/push/owner")
        tags = [decrypt(r.body, browsers["owner"])["tag"] for r in to_owner2]
        assert sorted(tags) == sorted([f"session-{first}", f"session-{second}"])
        assert len(push.wait(1, "/push/mei")) == 1
        assert [r for r in push.received if r.path == "/push/kumar"] == []


def test_two_server_apps_on_one_postgres_push_a_reminder_once(postgres_url: str) -> None:
    settings = ServerSettings(push_http_endpoints=True, reminder_poll_seconds=0.1, reminder_minutes=1.0)
    phone = Browser()
    with PushEndpoint() as push, serving(postgres_url, settings=settings) as one, \
            serving(postgres_url, settings=settings) as two:
        owner, mei = player(one, "Ah Beng"), player(two, "Mei")
        club = new_club(one, owner, "Kaki")["code"]
        invited(two, owner, club, mei)
        r = call(two, "POST", f"/api/clubs/{club}/push", mei,
                 {"on": True, "subscription": phone.subscription(push.url("mei"))})
        assert r.status_code == 200, r.text

        def propose() -> int:
            soon = dt.datetime.now(SG) + dt.timedelta(seconds=60 * settings.reminder_minutes + 6)
            r = call(one, "POST", f"/api/clubs/{club}/sessions", owner,
                     {"local": soon.strftime("%Y-%m-%dT%H:%M:%S")})
            assert r.status_code == 201, r.text
            evening = int(r.json()["id"])
            assert call(two, "POST", f"/api/clubs/{club}/sessions/{evening}/answer", mei,
                        {"answer": "in"}).status_code == 200
            return evening

        first = propose()
        push.wait(1, "/push/mei")
        second = propose()  # its reminder comes after any second copy of the first one's would have
        got = push.wait(2, "/push/mei")
        assert sorted(decrypt(r.body, phone)["tag"] for r in got) == [f"session-{first}", f"session-{second}"]


def _club_with_evening(store: Any, starts: float) -> tuple[int, int, list[int]]:
    players = [store.new_guest(name) for name in ("Beng", "Mei")]
    store.create_club("kaki", "Kaki", 2, "default", players[0], 1.0)
    club = store.club("kaki")
    store.add_member(club.id, players[1], MEMBER, 2.0)
    evening = store.add_evening(club.id, players[0], starts, "Asia/Singapore", 4, 3.0)
    return club.id, evening, players


def test_the_store_keeps_evenings_answers_and_subscriptions(database_url: str) -> None:
    store = open_store(database_url)
    try:
        assert store.vapid_keys(lambda: ("pem-1", "key-1"), 1.0) == ("pem-1", "key-1")
        assert store.vapid_keys(lambda: ("pem-2", "key-2"), 2.0) == ("pem-1", "key-1")  # made once
        now = time.time()
        club, evening, (beng, mei) = _club_with_evening(store, now + 3600)
        store.answer_evening(evening, mei, "maybe", now)
        store.answer_evening(evening, beng, "in", now + 1)
        store.answer_evening(evening, mei, "in", now + 2)
        (got,) = store.evenings(club, now, 10)
        assert [(a.name, a.answer) for a in got.answers] == [("Beng", "in"), ("Mei", "in")]
        for n in range(3):
            store.add_subscription(SubscriptionRow(f"https://p/{n}", mei, "k", "a", "zh"), 10.0 + n, 2)
        assert [s.endpoint for s in store.subscriptions([mei])] == ["https://p/1", "https://p/2"]
        assert store.club_push_targets(club) == []
        store.set_club_push(club, mei, True)
        assert [s.endpoint for s in store.club_push_targets(club)] == ["https://p/1", "https://p/2"]
        assert store.club_push_targets(club, only=[beng]) == []
        assert store.remove_subscription("https://p/1") and not store.remove_subscription("https://p/1")
        store.delete_player(mei)
        assert store.subscriptions([mei]) == [] and store.club_push_targets(club) == []
        row = store.evening(club, evening)
        assert row is not None and [a.name for a in row.answers] == ["Beng"]
        assert store.claim_reminder(evening, now) and not store.claim_reminder(evening, now)
        assert store.due_reminders(now + 7200, now) == []
        assert store.cancel_evening(club, evening, now) and not store.cancel_evening(club, evening, now)
        assert store.evenings(club, now, 10) == []
    finally:
        store.close()


def test_two_servers_on_one_database_send_a_reminder_once(postgres_url: str) -> None:
    stores = [open_store(postgres_url, worker=f"w{n}") for n in (1, 2)]
    try:
        now = time.time()
        club, evening, (_beng, mei) = _club_with_evening(stores[0], now + 1800)
        stores[0].answer_evening(evening, mei, "in", now)
        stores[0].add_subscription(SubscriptionRow("https://p/mei", mei, "k", "a", "en"), now, 5)
        stores[0].set_club_push(club, mei, True)
        sent: list[list[Notice]] = [[], []]
        notifiers = [Notifier(lambda s=s: s, sent[n].extend) for n, s in enumerate(stores)]  # type: ignore[misc]
        start = threading.Barrier(2)
        counts = [0, 0]

        def remind(n: int) -> None:
            start.wait()
            counts[n] = notifiers[n].remind_due(3600, now)

        threads = [threading.Thread(target=remind, args=(n,)) for n in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(counts) == [0, 1] and len(sent[0]) + len(sent[1]) == 1
        clock = dt.datetime.fromtimestamp(now + 1800, SG).strftime("%H:%M")
        assert [n.payload["title"] for n in sent[0] + sent[1]] == [f"Kaki: mahjong at {clock}"]
        restarted = Notifier(lambda: open_store(postgres_url), sent[0].extend)  # a third, later
        assert restarted.remind_due(3600, now + 60) == 0
    finally:
        for s in stores:
            s.close()


def test_the_calendar_file_is_escaped_and_folded() -> None:
    assert ics_text('a;b,c\\d\ne') == 'a\\;b\\,c\\\\d\\ne'
    row = EveningRow(7, 1, 1, 1_700_000_000.0, "Asia/Singapore", 4, 1.0, None, None, None)
    text = ics(row, "麻将" * 40, "example.invalid", 1_700_000_000.0)
    props = unfolded(text)
    assert unescaped(props["SUMMARY"]) == "Mahjong: " + "麻将" * 40
    assert props["DTSTART"] == "20231114T221320Z" and make_keys()[1] != make_keys()[1]

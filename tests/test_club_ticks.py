"""Ticks of a club's settle-up and its "tonight" scope (docs/clubs.md; clubs/ticks.py, store
club_ticks_sql.py, http/club_ticks.py): only the payer or the payee of a transfer may tick it, only the
one who ticked may untick, non-members get "no such club", a foreign Origin is refused (CSRF); SQLite
and PostgreSQL. A property over random hands: each scope's ledger is the sum of its hands and ticks
never change an amount."""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sgmahjong.server.clubs.ticks import tonight_start
from sgmahjong.server.clubs.view import club_page
from sgmahjong.server.settings import ServerSettings, SettingsError
from sgmahjong.server.store import open_store
from sgmahjong.server.store.club_ticks_sql import TickRow
from sgmahjong.server.store.clubs_sql import ClubHandRow, ClubRow, MemberRow, PeriodRow
from tests.conftest import LiveServer, serving
from tests.test_clubs import call, invited, new_club, player, record

SGT = ZoneInfo("Asia/Singapore")


def at(*parts: int) -> float:
    return datetime(*parts, tzinfo=SGT).timestamp()  # type: ignore[misc]


def test_tonight_begins_at_the_latest_six_in_the_morning() -> None:
    zone = "Asia/Singapore"
    assert tonight_start(at(2026, 11, 28, 21, 30), zone) == at(2026, 11, 28, 6)
    assert tonight_start(at(2026, 11, 29, 1, 15), zone) == at(2026, 11, 28, 6)  # past midnight: same evening
    assert tonight_start(at(2026, 11, 29, 6, 0), zone) == at(2026, 11, 29, 6)
    assert tonight_start(at(2026, 11, 29, 5, 59), zone) == at(2026, 11, 28, 6)
    london = ZoneInfo("Europe/London")
    assert tonight_start(datetime(2026, 7, 1, 23, tzinfo=london).timestamp(), "Europe/London") == \
        datetime(2026, 7, 1, 6, tzinfo=london).timestamp()
    with pytest.raises(SettingsError):
        ServerSettings(club_time_zone="Mars/Olympus")


def test_ticks_in_the_store(database_url: str) -> None:
    store = open_store(database_url)
    try:
        owner = store.new_guest("Owner")
        club = store.create_club("kaki", "Kaki", 1, "default", owner, 1.0)
        assert store.transfer_ticks(club, ["period:1"]) == []
        store.tick_transfer(club, TickRow("period:1", 2, 3, 8, 2, 100.0))
        store.tick_transfer(club, TickRow("tonight:50", 2, 3, 4, 3, 100.0))
        store.tick_transfer(club, TickRow("period:1", 2, 3, 9, 3, 101.0))  # the same transfer: replaced
        assert store.transfer_ticks(club, ["period:1"]) == [TickRow("period:1", 2, 3, 9, 3, 101.0)]
        assert len(store.transfer_ticks(club, ["period:1", "tonight:50", "period:2"])) == 2
        assert store.untick_transfer(club, "period:1", 2, 3) is True
        assert store.untick_transfer(club, "period:1", 2, 3) is False
        # an evening's ticks are dropped two days on; a period's stay
        store.tick_transfer(club, TickRow("period:1", 4, 5, 1, 4, 200.0))
        store.tick_transfer(club, TickRow("tonight:9", 4, 5, 1, 4, 100.0 + 3 * 86400))
        assert store.transfer_ticks(club, ["tonight:50"]) == []
        assert len(store.transfer_ticks(club, ["tonight:9", "period:1"])) == 2
        # a player forgotten takes their ticks along
        other = store.new_guest("Other")
        store.tick_transfer(club, TickRow("period:2", owner, other, 3, other, 300.0))
        store.tick_transfer(club, TickRow("period:2", 7, 8, 3, 7, 300.0))
        store.delete_player(other)
        assert store.transfer_ticks(club, ["period:2"]) == [TickRow("period:2", 7, 8, 3, 7, 300.0)]
    finally:
        store.close()


def tick(server: LiveServer, secret: str | None, club: str, body: dict[str, Any]) -> httpx.Response:
    return call(server, "POST", f"/api/clubs/{club}/ticks", secret, body)


def test_only_the_two_sides_of_a_transfer_tick_it(database_url: str, tmp_path: Any) -> None:
    with serving(database_url) as server:
        names = ["Ah Beng", "Mei Ling", "Ah Huat", "Siew Mei"]
        people = {n: player(server, n) for n in names}
        code = new_club(server, people["Ah Beng"])["code"]
        for n in names[1:]:
            invited(server, people["Ah Beng"], code, people[n])
        # Ah Beng wins 2 tai off Mei Ling; Ah Huat self-draws 1 tai: transfers between members
        record(server, code, [people[n] for n in names], [(0, 2, 1), (2, 1, None)], time.time())
        before = call(server, "GET", f"/api/clubs/{code}", people["Siew Mei"]).json()
        ids = {m["name"]: m["member"] for m in before["members"]}
        who = {v: k for k, v in ids.items()}
        transfers = before["period"]["transfers"]
        assert transfers and all(x["tick"] is None for x in transfers)
        assert before["tonight"]["transfers"] == transfers  # every hand was played tonight
        x = transfers[0]
        payer, payee = who[x["payer"]], who[x["payee"]]
        third = next(n for n in names if n not in (payer, payee))
        body = {"scope": "period", "payer": x["payer"], "payee": x["payee"], "paid": True}
        refused = tick(server, people[third], code, body)
        assert refused.status_code == 403 and refused.json()["code"] == "not_a_party"
        stranger = player(server, "Stranger")
        assert tick(server, stranger, code, body).status_code == 404
        assert tick(server, None, code, body).status_code == 404
        foreign = httpx.post(f"{server.url}/api/clubs/{code}/ticks", json=body, timeout=10,
                             headers={"Cookie": people[payer], "Origin": "https://evil.example"})
        assert foreign.status_code == 403
        form = httpx.post(f"{server.url}/api/clubs/{code}/ticks", content=b"paid=1", timeout=10,
                          headers={"Cookie": people[payer],
                                   "Content-Type": "application/x-www-form-urlencoded"})
        assert form.status_code == 415
        assert tick(server, people[payer], code, {**body, "payee": x["payer"]}).json()["code"] == \
            "transfer_unknown"
        assert tick(server, people[payer], code, {**body, "paid": "yes"}).status_code == 400
        assert tick(server, people[payer], code, {**body, "scope": "season"}).status_code == 400
        # the payer ticks it: every member sees who and when; no amount moves
        done = tick(server, people[payer], code, body)
        assert done.status_code == 200 and done.json()["tick"]["by"] == payer
        after = call(server, "GET", f"/api/clubs/{code}", people[third]).json()
        ticked = after["period"]["transfers"][0]
        assert ticked["tick"]["by"] == payer and ticked["tick"]["by_member"] == x["payer"]
        assert abs(ticked["tick"]["at"] - time.time()) < 60
        assert after["tonight"]["transfers"][0]["tick"] is None  # another scope, another tick
        for scope in ("period", "tonight", "season"):
            assert after[scope]["ledger"] == before[scope]["ledger"]
        assert [{**t, "tick": None} for t in after["period"]["transfers"]] == transfers
        # the payee may not untick the payer's tick; the payer may
        mine = tick(server, people[payee], code, {**body, "paid": False})
        assert mine.status_code == 403 and mine.json()["code"] == "not_your_tick"
        assert tick(server, people[payer], code, {**body, "paid": False}).json() == {"tick": None}
        # the payee ticks tonight's
        assert tick(server, people[payee], code, {**body, "scope": "tonight"}).status_code == 200
        last = call(server, "GET", f"/api/clubs/{code}", people[payer]).json()
        assert last["period"]["transfers"][0]["tick"] is None
        assert last["tonight"]["transfers"][0]["tick"]["by"] == payee
        # a settle-up starts a new period: its transfers are new, unticked; tonight's keep theirs
        assert call(server, "POST", f"/api/clubs/{code}/settle", people["Ah Beng"], {}).status_code == 200
        settled = call(server, "GET", f"/api/clubs/{code}", people[payer]).json()
        assert settled["period"]["transfers"] == []
        assert settled["tonight"]["transfers"][0]["tick"]["by"] == payee


def test_ticks_are_counted_per_person(tmp_path: Any) -> None:
    with serving(tmp_path / "t.sqlite3", settings=ServerSettings(club_ticks_per_day=1)) as server:
        a, b = player(server, "A"), player(server, "B")
        code = new_club(server, a)["code"]
        invited(server, a, code, b)
        record(server, code, [a, b, None, None], [(0, 1, 1)], time.time())
        page = call(server, "GET", f"/api/clubs/{code}", a).json()
        (x,) = page["period"]["transfers"]
        body = {"scope": "period", "payer": x["payer"], "payee": x["payee"], "paid": True}
        assert tick(server, a, code, body).status_code == 200
        assert tick(server, a, code, {**body, "paid": False}).status_code == 200
        again = tick(server, a, code, body)
        assert again.status_code == 429 and again.json()["code"] == "ticks_per_day"
        assert again.json()["params"] == {"most": 1}


# -- the property: the page's scopes from random hands, through a store that holds just them --------

class Hands:
    """The store club_page reads: members, one period, one season and the given hands and ticks."""

    def __init__(self, hands: list[ClubHandRow], ticks: list[TickRow], period_start: float) -> None:
        self.hands, self.ticks, self.period_start = hands, ticks, period_start

    def club_members(self, _club: int) -> list[MemberRow]:
        return [MemberRow(p, f"M{p}", "owner" if p == 1 else "member", 0.0, None) for p in (1, 2, 3, 4)]

    def periods(self, _club: int, _limit: int) -> list[PeriodRow]:
        return [PeriodRow(1, 1, self.period_start, None, False)]

    def season_start(self, _club: int) -> tuple[int, float]:
        return 1, 0.0

    def club_hands(self, _club: int, since: float, until: float | None = None, **_: Any) -> list[ClubHandRow]:
        return [h for h in self.hands if h.ended >= since and (until is None or h.ended < until)]

    def club_tables(self, *_: Any, **__: Any) -> list[Any]:
        return []

    def invites(self, *_: Any) -> list[Any]:
        return []

    def transfer_ticks(self, _club: int, scopes: list[str]) -> list[TickRow]:
        return [t for t in self.ticks if t.scope in scopes]


HAND = st.tuples(st.integers(0, 100),  # when it ended (the period begins at 30, tonight at 60)
                 st.lists(st.sampled_from([1, 2, 3, 4, None]), min_size=4, max_size=4),  # who sat
                 st.integers(0, 3), st.integers(1, 8), st.one_of(st.none(), st.integers(0, 3)))


def rows_of(hands: list[tuple[int, list[int | None], int, int, int | None]]) -> list[ClubHandRow]:
    out = []
    for number, (ended, seats, winner, tai, shooter) in enumerate(hands):
        pay = [0, 0, 0, 0]
        if shooter is None or shooter == winner:
            pay = [-tai] * 4
            pay[winner] = 3 * tai
        else:
            pay[shooter], pay[winner] = -2 * tai, 2 * tai
        for seat, who in enumerate(seats):
            pid = 100 + seat if who is None else who  # a bot's or guest's seat: not a member
            if who is not None and who in seats[:seat]:
                pid = 200 + seat  # a member sits once at a table: a second seat is someone else
            out.append(ClubHandRow(number, 1, seat, pid, None, float(ended), seat == winner, tai, pay[seat]))
    return out


@settings(max_examples=60, deadline=None)
@given(st.lists(HAND, max_size=12), st.data())
def test_each_scope_is_the_sum_of_its_hands_and_ticks_change_no_amount(hands: Any, data: Any) -> None:
    rows = rows_of(hands)
    club, me = ClubRow(1, "k", "Kaki", 5, "default", 0.0, money=True), Hands([], [], 0).club_members(1)[0]

    def page(ticks: list[TickRow]) -> dict[str, Any]:
        return club_page(Hands(rows, ticks, 30.0), club, me, now=100.0, tables_listed=0,  # type: ignore[arg-type]
                         periods_listed=0, tonight=60.0)

    plain = page([])
    for scope, since in (("season", 0.0), ("period", 30.0), ("tonight", 60.0)):
        lines = {r["member"]: r for r in plain[scope]["ledger"]}
        for m in ("1", "2", "3", "4"):
            assert lines[m]["net"] == sum(h.net for h in rows if str(h.player_id) == m and h.ended >= since)
        members = sum(h.net for h in rows if h.player_id <= 4 and h.ended >= since)
        assert sum(r["owed"] for r in lines.values()) == 0
        assert plain[scope]["bots"]["points"] == -members
        assert sum(r["money"] for r in lines.values()) == 0 and all(
            r["money"] == 5 * r["owed"] for r in lines.values())
        if scope != "season":
            paid = {m: 0 for m in lines}
            for x in plain[scope]["transfers"]:
                paid[x["payer"]] -= x["points"]
                paid[x["payee"]] += x["points"]
            assert paid == {m: r["owed"] for m, r in lines.items()}
    # ticks (of transfers, of other amounts, of other scopes) change nothing but the transfers' ticks
    scopes = [plain["period"]["scope"], plain["tonight"]["scope"], "period:7"]
    member = st.integers(1, 4)
    ticks = data.draw(st.lists(st.builds(TickRow, st.sampled_from(scopes), member, member,
                                         st.integers(1, 30), member, st.floats(0, 100))))
    ticked = page(ticks)
    for scope in ("period", "tonight"):
        for x in ticked[scope]["transfers"]:
            if x["tick"] is not None:
                assert any(t.scope == ticked[scope]["scope"] and (str(t.payer), str(t.payee), t.points)
                           == (x["payer"], x["payee"], x["points"]) for t in ticks)
            x["tick"] = None
    assert ticked == plain

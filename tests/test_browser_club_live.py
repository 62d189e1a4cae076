"""The live club page in the browser (static/js/club.js, clublive.js, tableclub.js, rulewords.js): Ann
(the owner, English) and Ben (中文) have the club's page open in two contexts and each sees the other
online; Ann opens a club table with her choices from the page; Ben's page shows it, and who sits
where (bots marked as bots), without a reload; the table shows its stakes, a link back to the club and
its house rules in words in both languages; a new friend who joins by an invite link is welcomed and
sits at the open table in one tap. The page fits a 360 px phone in both languages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from sgmahjong.server.settings import ServerSettings
from tests.conftest import serving
from tests.test_browser_clubs import as_player
from tests.test_clubs import call, invited, new_club, player

expect.set_options(timeout=15_000)


def test_two_members_see_a_table_open_and_fill_without_a_reload(tmp_path: Path, open_page: Any) -> None:
    settings = ServerSettings(club_poll_seconds=1.0)
    with serving(tmp_path / "db.sqlite3", settings=settings) as server:
        ann_secret, ben_secret = player(server, "Ann"), player(server, "Ben")
        club = new_club(server, ann_secret, "Kaki", preset="site")["code"]
        invited(server, ann_secret, club, ben_secret)
        r = call(server, "POST", f"/api/clubs/{club}/money", ann_secret,
                 {"money": True, "law_confirmed": True, "stake": 20})
        assert r.status_code == 200, r.text
        ann = as_player(open_page, ann_secret, "Ann", "en", server.url)
        ben = as_player(open_page, ben_secret, "Ben", "zh", server.url)
        ann.goto(f"{server.url}/club/{club}")
        ben.goto(f"{server.url}/club/{club}")
        # each sees the other online (the other's page asks for the live summary too)
        expect(ann.locator("#online li")).to_have_text(["Ann", "Ben"])
        expect(ben.locator("#online li")).to_have_text(["Ann", "Ben"])
        expect(ben.locator("#club-tables")).to_contain_text("没有开着的牌桌")
        # Ann opens a table with her choices
        expect(ann.locator("#opt-rounds option")).to_have_text(
            ["4 hands", "8 hands", "One round (East, at least 4 hands)", "2 rounds", "3 rounds",
             "A full match (4 rounds)"])
        ann.select_option("#opt-rounds", "r1")
        ann.select_option("#opt-turn", "20")
        ann.select_option("#opt-pace", "fast")
        ann.select_option("#opt-bots", "strong")
        expect(ann.locator("#opt-rounds option:checked")).to_have_text("One round (East, at least 4 hands)")
        ann.locator("#new-table").click()
        ann.wait_for_url("**/t/*")
        table = ann.url.rsplit("/", 1)[1]
        options = call(server, "GET", f"/api/tables/{table}", ann_secret).json()
        assert options["rules"]["rounds"] == 1
        assert (options["options"]["turn_seconds"], options["options"]["pace"],
                options["options"]["bot_level"]) == (20, "fast", "strong")
        # the table: a link back to the club, the stakes, the house rules in words
        back = ann.locator("#table-club a")
        expect(back).to_have_text("← Kaki")
        expect(back).to_have_attribute("href", f"/club/{club}")
        expect(ann.locator("#table-club")).to_contain_text("stakes 20c/40c")
        expect(ann.locator("#rules-summary")).to_have_text(
            "House rules: a 1-tai hand pays 10 per loser, instant payments of 10, prevailing-wind rounds: 1")
        # Ben's page, never reloaded: the table, then Ann at East and a strong bot at West
        row = ben.locator(f'#club-tables li[data-table="{table}"]')
        expect(row).to_contain_text("Kaki")
        expect(row.locator(".table-seats")).to_contain_text("东 空位")
        joined = server.post(f"/api/tables/{table}/join", {"name": "Ann", "seat": 0}, ann_secret)
        token = joined.json()["token"]
        with server.ws(table) as ws:
            ws.hello(token)
            ws.send({"type": "add_bot", "seat": 2, "level": "strong"})
            ws.until("table", lambda m: m["table"]["seats"][2]["kind"] == "bot")
        expect(row.locator(".table-seats")).to_have_text("东 Ann · 南 空位 · 西 电脑（高手） · 北 空位")
        expect(ben.locator("#online li").first).to_contain_text("在 Kaki")
        # Ben opens the table: stakes, the link back and the house rules in 中文
        ben.goto(f"{server.url}/t/{table}")
        expect(ben.locator("#table-club")).to_contain_text("赌注 20c/40c")
        expect(ben.locator("#table-club a")).to_have_attribute("href", f"/club/{club}")
        expect(ben.locator("#rules-summary")).to_have_text("家规：一台每家付 10，即时付款每次 10，圈数：1")
        # a new friend joins by an invite link: welcomed once, and seated in one tap
        link = call(server, "POST", f"/api/clubs/{club}/invites", ann_secret, {}).json()["url"]
        cat = as_player(open_page, player(server, "Cat"), "Cat", "en", server.url)
        cat.goto(f"{server.url}{link}")
        cat.locator("#join-btn").click()
        expect(cat.locator("#welcome-text")).to_have_text("Welcome to Kaki!")
        assert "#welcome" not in cat.url  # once: a reload does not welcome again
        sit = cat.locator("#welcome-sit")
        expect(sit).to_have_text("Sit at Kaki")
        sit.click()
        cat.wait_for_url(f"**/t/{table}")
        seats = call(server, "GET", f"/api/tables/{table}", ann_secret).json()["seats"]
        assert [s["name"] for s in seats if s["kind"] == "human"] == ["Ann", "Cat"]
        cat.goto(f"{server.url}/club/{club}")
        expect(cat.locator("#online li")).to_contain_text(["Ann", "Ben", "Cat"])
        expect(cat.locator("#club-welcome")).to_be_hidden()


def test_the_live_club_page_fits_a_phone_in_both_languages(tmp_path: Path, open_page: Any) -> None:
    phone = {"viewport": {"width": 360, "height": 800}, "is_mobile": True, "has_touch": True}
    with serving(tmp_path / "db.sqlite3") as server:
        ann_secret = player(server, "Ann")
        club = new_club(server, ann_secret, "A club with quite a long name, really")["code"]
        table = call(server, "POST", f"/api/clubs/{club}/tables", ann_secret, {"name": "Thursday 8pm"}).json()
        server.post(f"/api/tables/{table['code']}/join", {"name": "Ann", "seat": 0}, ann_secret)
        for lang in ("en", "zh"):
            page = open_page(phone, lang)
            page.context.add_cookies([{"name": "sg_session", "value": ann_secret.split("=", 1)[1],
                                       "url": server.url}])
            page.goto(f"{server.url}/club/{club}")
            expect(page.locator("#club-tables .table-seats")).to_be_visible()
            expect(page.locator("#online li")).to_have_count(1)
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            box = page.locator("#new-table").bounding_box()
            assert box is not None and box["x"] + box["width"] <= 360

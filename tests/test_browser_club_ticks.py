"""The settle-up's ticks and the "tonight" scope in the browser (static/js/clubticks.js, club.js): the
payer ticks a transfer as paid in English, the payee sees it ticked (by whom, when) in 中文 and may not
untick it; the tonight scope is shown in both languages with its own, unticked, transfers."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import expect

from tests.test_browser_clubs import as_player
from tests.test_clubs import call, invited, new_club, player, record

expect.set_options(timeout=15_000)


def test_the_payer_ticks_and_the_payee_sees_it(live_server: Any, open_page: Any) -> None:
    names = ["Ah Beng", "Mei Ling", "Ah Huat", "Siew Mei"]
    people = {n: player(live_server, n) for n in names}
    code = new_club(live_server, people["Ah Beng"], "Thursday kaki")["code"]
    for n in names[1:]:
        invited(live_server, people["Ah Beng"], code, people[n])
    # Ah Beng wins 2 tai off Mei Ling (+8, -4, -2, -2 points): Mei Ling owes Ah Beng 4 points, ...
    record(live_server, code, [people[n] for n in names], [(0, 2, 1)], time.time())
    data = call(live_server, "GET", f"/api/clubs/{code}", people["Ah Beng"]).json()
    ids = {m["name"]: m["member"] for m in data["members"]}
    mei_pays = f'#transfers li[data-payer="{ids["Mei Ling"]}"][data-payee="{ids["Ah Beng"]}"]'
    huat_pays = f'#transfers li[data-payer="{ids["Ah Huat"]}"][data-payee="{ids["Ah Beng"]}"]'

    mei = as_player(open_page, people["Mei Ling"], "Mei Ling", "en", live_server.url)
    mei.goto(f"{live_server.url}/club/{code}")
    expect(mei.locator(mei_pays)).to_contain_text("Mei Ling owes Ah Beng 4 points")
    expect(mei.locator(huat_pays + " input")).to_have_count(0)  # not hers to tick
    mei.locator(mei_pays + " input").check()
    expect(mei.locator(mei_pays)).to_have_class("transfer ticked")
    expect(mei.locator(mei_pays + " .tick-who")).to_contain_text("✓ Paid: ticked by Mei Ling")
    assert mei.locator("#settle-text").input_value().count("✓") == 1
    # tonight, in English: the same hands, their own transfers, not ticked
    mei.locator("#scope-tonight").click()
    expect(mei.locator("#scope-tonight")).to_have_attribute("aria-pressed", "true")
    expect(mei.locator("#scope-note")).to_contain_text("Tonight: the hands since")
    expect(mei.locator("#settle-scope")).to_have_text("Tonight")
    expect(mei.locator(mei_pays)).to_have_class("transfer")
    expect(mei.locator("#ledger tr[data-member] td:last-child")).to_have_text(["+8", "-2", "-2", "-4"])
    assert mei.locator("#settle-text").input_value().startswith("Thursday kaki: settle up for tonight")

    beng = as_player(open_page, people["Ah Beng"], "Ah Beng", "zh", live_server.url)
    beng.goto(f"{live_server.url}/club/{code}")
    expect(beng.locator(mei_pays)).to_have_class("transfer ticked")
    expect(beng.locator(mei_pays + " .tick-who")).to_contain_text("✓ 已付：Mei Ling 于")
    expect(beng.locator(mei_pays + " input")).to_be_checked()
    expect(beng.locator(mei_pays + " input")).to_be_disabled()  # Mei Ling's tick: hers to untick
    expect(beng.locator(mei_pays + " label")).to_have_attribute("title", "由 Mei Ling 勾选：只有对方可以取消")
    beng.locator("#scope-tonight").click()
    expect(beng.locator("#scope-note")).to_contain_text("今晚：")
    expect(beng.locator("#settle-scope")).to_have_text("今晚")
    expect(beng.locator(mei_pays)).to_have_class("transfer")
    beng.locator(huat_pays + " input").check()  # the payee ticks tonight's transfer from Ah Huat
    expect(beng.locator(huat_pays + " .tick-who")).to_contain_text("✓ 已付：Ah Beng 于")
    page = call(live_server, "GET", f"/api/clubs/{code}", people["Siew Mei"]).json()
    by = [x["tick"]["by"] if x["tick"] else None for x in page["tonight"]["transfers"]]
    assert by.count("Ah Beng") == 1
    # Mei Ling unticks hers
    mei.locator("#scope-period").click()
    mei.locator(mei_pays + " input").uncheck()
    expect(mei.locator(mei_pays)).to_have_class("transfer")
    expect(mei.locator(mei_pays + " .tick-who")).to_have_count(0)

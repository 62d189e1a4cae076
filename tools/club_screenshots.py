"""Screenshots of a club's page with its ledger (docs/clubs.md), as its owner sees it.

    .venv/bin/python tools/club_screenshots.py OUTDIR [live]

Starts a server on a free port with a temporary database; Ah Beng starts "Thursday kaki" (in points,
the default), invites three friends, two matches are recorded and settled, three more recorded (one
with a bot's seat, whose share is kept apart). Saves club-{desktop,phone}-{en,zh}.png (points), then
club-notice-*.png (the owner opening money: the notice of the law), and with money turned on at
20c/40c club-money-*.png (1366x768 and 360 px, the whole page), reduced to 256 colours; the ledger
and the settle-up with two transfers ticked as paid, club-ticks-*.png. Then the live club page
(club-live-*.png, the top of the page as it opens): three members online, a club table with Ah Beng
and Mei Ling seated and a bot, and the choices of a new table. With ``live`` only the club-live-*.png
are made.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.test_clubs import call, invited, new_club, player, record
from tools.screenshots import DESKTOP, PHONE, page_for, shooting, shrink

NAMES = ["Ah Beng", "Mei Ling", "Ah Huat", "Siew Mei"]
Hand = tuple[int | None, int, int | None]  # (winner, tai, shooter): tests/test_clubs.py's record
SETTLED: list[list[Hand]] = [[(0, 2, 1), (2, 1, 0), (1, 3, None)], [(3, 2, 0), (0, 1, 2)]]
PLAYED: list[list[Hand]] = [[(1, 4, 0), (2, 2, 3), (None, 0, None), (0, 1, 3)], [(3, 3, None), (1, 1, 2)],
                            [(2, 5, 1), (0, 2, None), (3, 1, 0)]]


def main() -> None:
    out = Path(sys.argv[1])
    only_live = sys.argv[2:] == ["live"]
    with shooting(out) as (server, browser):
        people = {n: player(server, n) for n in NAMES}
        owner = people["Ah Beng"]
        code = new_club(server, owner, "Thursday kaki", stake=20)["code"]
        for n in NAMES[1:]:
            invited(server, owner, code, people[n])
        seats = [people[n] for n in NAMES]
        for hands in SETTLED:
            record(server, code, list(seats), hands, time.time())
        call(server, "POST", f"/api/clubs/{code}/settle", owner, {})
        for i, hands in enumerate(PLAYED):
            at: list[str | None] = [*seats[i % 4:], *seats[:i % 4]]
            if i == 2:
                at[3] = None  # a bot's seat
            record(server, code, at, hands, time.time() + 0.01)
        opened = call(server, "POST", f"/api/clubs/{code}/tables", owner, {"name": "Thursday 8pm"})
        table = opened.json()["code"]
        if not only_live:
            shoot(out, server, browser, code, owner, "club")
            shoot(out, server, browser, code, owner, "club-notice", notice=True)
        call(server, "POST", f"/api/clubs/{code}/money", owner,
             {"money": True, "law_confirmed": True, "stake": 20})
        if not only_live:
            shoot(out, server, browser, code, owner, "club-money")
            page = call(server, "GET", f"/api/clubs/{code}", owner).json()
            names = {m["member"]: m["name"] for m in page["members"]}
            for x in page["period"]["transfers"][:2]:  # ticked by the payer
                call(server, "POST", f"/api/clubs/{code}/ticks", people[names[x["payer"]]],
                     {"scope": "period", "payer": x["payer"], "payee": x["payee"], "paid": True})
            shoot_ticks(out, server, browser, code, owner)
        shoot_live(out, server, browser, code, table, people)


def shoot(out: Path, server: Any, browser: Any, code: str, owner: str, name: str,
          notice: bool = False) -> None:
    for lang in ("en", "zh"):
        for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page = page_for(browser, size, lang)
            page.context.add_cookies([{"name": "sg_session", "value": owner.split("=", 1)[1],
                                       "url": server.url}])
            page.goto(f"{server.url}/club/{code}?lang={lang}")
            page.wait_for_selector("#ledger table")
            if notice:
                page.click("#money-open")
                page.wait_for_selector("#money-law", state="visible")
            shot = out / f"{name}-{label}-{lang}.png"
            page.screenshot(path=str(shot), full_page=True)
            shrink(shot)
            page.context.close()


def shoot_ticks(out: Path, server: Any, browser: Any, code: str, owner: str) -> None:
    """The ledger and the settle-up cards, with their ticks."""
    for lang in ("en", "zh"):
        for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page = page_for(browser, size, lang)
            page.context.add_cookies([{"name": "sg_session", "value": owner.split("=", 1)[1],
                                       "url": server.url}])
            page.goto(f"{server.url}/club/{code}?lang={lang}")
            page.wait_for_selector("#transfers li.ticked .tick-who")
            box = page.evaluate("""() => {
                const a = document.getElementById("ledger-title").closest("section").getBoundingClientRect();
                const b = document.getElementById("transfers").closest("section").getBoundingClientRect();
                return {x: 0, y: a.top + scrollY - 8, width: innerWidth, height: b.bottom - a.top + 16};
            }""")
            shot = out / f"club-ticks-{label}-{lang}.png"
            page.screenshot(path=str(shot), clip=box, full_page=True)
            shrink(shot)
            page.context.close()


def shoot_live(out: Path, server: Any, browser: Any, code: str, table: str, people: dict[str, str]) -> None:
    """The live club page: Ah Beng and Mei Ling seated at the club's table, a bot beside them, Ah Huat
    with the page open (online)."""
    token = server.post(f"/api/tables/{table}/join", {"name": "Ah Beng", "seat": 0}, people["Ah Beng"])
    server.post(f"/api/tables/{table}/join", {"name": "Mei Ling", "seat": 1}, people["Mei Ling"])
    with server.ws(table) as ws:
        ws.hello(token.json()["token"])
        ws.send({"type": "add_bot", "seat": 2, "level": "strong"})
        ws.until("table", lambda m: m["table"]["seats"][2]["kind"] == "bot")
    call(server, "GET", f"/api/clubs/{code}/live", people["Ah Huat"])
    for lang in ("en", "zh"):
        for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page = page_for(browser, size, lang)
            page.context.add_cookies([{"name": "sg_session", "value": people["Ah Beng"].split("=", 1)[1],
                                       "url": server.url}])
            page.goto(f"{server.url}/club/{code}?lang={lang}")
            page.wait_for_selector("#club-tables .table-seats")
            page.wait_for_selector("#opt-rounds option", state="attached")
            shot = out / f"club-live-{label}-{lang}.png"
            page.screenshot(path=str(shot))
            shrink(shot)
            page.context.close()


if __name__ == "__main__":
    main()

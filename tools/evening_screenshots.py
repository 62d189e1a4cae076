"""Screenshots of a club's evening, its RSVP card (docs/clubs.md, "Evenings and notifications"), as a
member in London sees it (the club's time in Singapore, and their own).

    .venv/bin/python tools/evening_screenshots.py OUTDIR

Starts a server on a free port with a temporary database; Ah Beng's "Friday kaki" has four members, he
proposes next Friday 20:00 (Asia/Singapore) and they answer in, in, maybe, out. Saves
club-evening-{desktop,phone}-{en,zh}.png (1366x768 and 360 px: the evenings card), reduced to 256
colours.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.test_clubs import call, invited, new_club, player
from tests.test_evenings import next_friday
from tools.screenshots import DESKTOP, PHONE, page_for, shooting, shrink

NAMES = ["Ah Beng", "Mei Ling", "Kumar", "Siew Mei"]
ANSWERS = ["in", "in", "maybe", "out"]


def main() -> None:
    out = Path(sys.argv[1])
    with shooting(out) as (server, browser):
        people = {n: player(server, n) for n in NAMES}
        owner = people["Ah Beng"]
        code = new_club(server, owner, "Friday kaki")["code"]
        for n in NAMES[1:]:
            invited(server, owner, code, people[n])
        evening = call(server, "POST", f"/api/clubs/{code}/sessions", owner,
                       {"local": f"{next_friday().isoformat()}T20:00"}).json()
        for n, answer in zip(NAMES, ANSWERS, strict=True):
            call(server, "POST", f"/api/clubs/{code}/sessions/{evening['id']}/answer", people[n],
                 {"answer": answer})
        me = people["Mei Ling"]
        for lang in ("en", "zh"):
            for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
                page = page_for(browser, {**size, "timezone_id": "Europe/London"}, lang)
                page.context.add_cookies([{"name": "sg_session", "value": me.split("=", 1)[1],
                                           "url": server.url}])
                page.goto(f"{server.url}/club/{code}?lang={lang}")
                page.wait_for_selector(".evening .evening-counts")
                shot = out / f"club-evening-{label}-{lang}.png"
                page.locator("#evening-card").screenshot(path=str(shot))
                shrink(shot)
                page.context.close()


if __name__ == "__main__":
    main()

"""Screenshots of an event's page (docs/events.md): an eight-player duplicate event, three rounds of
two hands at two tables, played by bots for absent entrants, as its organiser sees it when it is over.

    .venv/bin/python tools/event_screenshots.py OUTDIR

Then an open Swiss event starting tomorrow at 20:00 Singapore time, entered with a join code, as a
player who followed the organiser's link sees it before entering.

Saves event-{desktop,phone}-{en,zh}.png and event-open-{desktop,phone}-{en,zh}.png (1366x768 and
360 px, the whole page), reduced to 256 colours.
"""

from __future__ import annotations

import datetime as dt
import sys
import time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.conftest import FAST_OPTIONS
from tests.test_clubs import call, player
from tools.screenshots import DESKTOP, PHONE, page_for, shooting, shrink

NAMES = ["Ah Beng", "Mei Ling", "Ah Huat", "Siew Mei", "Kumar", "Jia Hui", "Wei Jie", "Farah"]


def main() -> None:
    out = Path(sys.argv[1])
    with shooting(out) as (server, browser):
        people = [player(server, n) for n in NAMES]
        code = call(server, "POST", "/api/events", people[0],
                    {"name": "CNY duplicate cup", "format": "duplicate", "rounds": 3, "hands": 2,
                     "absent": "bot", "options": {**FAST_OPTIONS, "next_hand_seconds": 1}}).json()["code"]
        for who in people:
            call(server, "POST", f"/api/events/{code}/enter", who, {})
        call(server, "POST", f"/api/events/{code}/start", people[0], {})
        end = time.monotonic() + 300
        while call(server, "GET", f"/api/events/{code}", None).json()["status"] != "finished":
            if time.monotonic() > end:
                raise SystemExit("the event did not finish")
            time.sleep(0.5)
        shots(browser, server.url, out, "event", f"/event/{code}", people[0], "#standings table")
        tomorrow = dt.datetime.now(ZoneInfo("Asia/Singapore")).date() + dt.timedelta(days=1)
        made = call(server, "POST", "/api/events", people[1],
                    {"name": "Friday Swiss night", "format": "swiss", "rounds": 4, "hands": 4,
                     "starts": f"{tomorrow.isoformat()}T20:00", "entry": "code"}).json()
        for who in people[1:4]:
            call(server, "POST", f"/api/events/{made['code']}/enter", who, {"code": made["join_code"]})
        newcomer = player(server, "Jia Hui")
        shots(browser, server.url, out, "event-open", made["url"], newcomer, "#join-box:not([hidden])")


def shots(browser: Any, base: str, out: Path, name: str, path: str, session: str, ready: str) -> None:
    """The page at ``path`` as the player of ``session`` sees it, once ``ready`` shows: desktop and
    phone, English and 中文."""
    cookie = session.split("=", 1)[1]
    for lang in ("en", "zh"):
        for size_name, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page = page_for(browser, size, lang)
            page.context.add_cookies([{"name": "sg_session", "value": cookie, "url": base}])
            page.goto(f"{base}{path}{'&' if '?' in path else '?'}lang={lang}")
            page.wait_for_selector(f"#event-body:not([hidden]) {ready}")
            for details in page.locator("#rounds details").all()[:1]:
                details.evaluate("d => d.open = true")
            file = out / f"{name}-{size_name}-{lang}.png"
            page.screenshot(path=str(file), full_page=True)
            shrink(file)
            page.context.close()


if __name__ == "__main__":
    main()

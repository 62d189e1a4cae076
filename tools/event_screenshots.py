"""Screenshots of an event's page (docs/events.md): an eight-player duplicate event, three rounds of
two hands at two tables, played by bots for absent entrants, as its organiser sees it when it is over.

    .venv/bin/python tools/event_screenshots.py OUTDIR

Saves event-{desktop,phone}-{en,zh}.png (1366x768 and 360 px, the whole page), reduced to 256 colours.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

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
        cookie = people[0].split("=", 1)[1]
        for lang in ("en", "zh"):
            for size_name, size in (("desktop", DESKTOP), ("phone", PHONE)):
                page = page_for(browser, size, lang)
                page.context.add_cookies([{"name": "sg_session", "value": cookie, "url": server.url}])
                page.goto(f"{server.url}/event/{code}?lang={lang}")
                page.wait_for_selector("#event-body:not([hidden]) #standings table")
                page.locator("#rounds details").first.evaluate("d => d.open = true")
                path = out / f"event-{size_name}-{lang}.png"
                page.screenshot(path=str(path), full_page=True)
                shrink(path)
                page.context.close()


if __name__ == "__main__":
    main()

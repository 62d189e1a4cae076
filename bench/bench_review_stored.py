"""The cache-hit path of an expert review: a hand reviewed once is stored (``reviews``, migration
0023) and served from the store afterwards. Figures: the review computed once (the expert at
``DEALS`` deals per decision, in this process), then the stored review served ``HITS`` times through
the server's :class:`~sgmahjong.server.analysis.Reviewer` (one SQLite read and the JSON decoded: what
GET or POST .../expert does once the review exists, less the HTTP around it). Noisy on a shared machine.
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

from sgmahjong.bots import make_bot
from sgmahjong.review import bot_hand_log
from sgmahjong.rules import RuleSet
from sgmahjong.server.analysis import MODE, Reviewer, jobs
from sgmahjong.server.settings import ServerSettings
from sgmahjong.server.store import open_store

SEED = 20261126
DEALS = 16  # a small budget: the figure of interest is the hit, not the computation
HITS = 2000


def main() -> None:
    rules = RuleSet()
    log = bot_hand_log(rules, [make_bot("strong", SEED * 4 + s, rules) for s in range(4)], seed=SEED)
    start = time.perf_counter()
    body = jobs.expert_review(log, 0, DEALS)
    computed = time.perf_counter() - start
    n = len(body["decisions"])
    reviewer = Reviewer(ServerSettings(analysis_deals=DEALS))
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(str(Path(tmp) / "bench.sqlite3"))
        try:
            table = store.create_table("BENCH001", "bench", False, {}, {})
            store.add_review(table, 1, 0, MODE, DEALS, body, time.time())
            start = time.perf_counter()
            for _ in range(HITS):
                answer = reviewer.review(store, table, 1, 0, None)
            hit = (time.perf_counter() - start) / HITS
        finally:
            store.close()
            reviewer.close()
    assert answer["status"] == "done" and answer["review"] == body
    size = len(json.dumps(body))
    print(f"expert review of one hand, seat E: {n} decisions at {DEALS} deals, {size / 1024:.1f} KiB of JSON")
    print(f"   computed once     {computed:8.2f} s")
    print(f"   stored, served    {1e3 * hit:8.3f} ms per request (best case: SQLite, one process)"
          f"  {computed / hit:,.0f}x faster")


if __name__ == "__main__":
    main()

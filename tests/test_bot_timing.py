"""Table bots' human-like pause (issue 15): longer for harder turns, never tied to a claim window's
options, zero when the table's bot delay is zero; the lobby's named bot levels."""

from __future__ import annotations

import random

from sgmahjong.bots import LEVELS
from sgmahjong.server.options import TableOptions
from sgmahjong.server.protocol import BOT_LEVEL_INFO, BOT_LEVELS, OFFERED_BOT_LEVELS
from sgmahjong.server.table.bot_timing import JITTER, PACES, hardness, human_delay, lone_pause
from sgmahjong.server.table.claim_pause import ClaimPause, lone_human
from sgmahjong.server.table.seats import Seat


def test_harder_turns_wait_longer() -> None:
    easy = [human_delay(0.8, 1.5, "turn", 2, random.Random(i)) for i in range(50)]
    hard = [human_delay(0.8, 1.5, "turn", 14, random.Random(i)) for i in range(50)]
    assert all(h > e for h, e in zip(hard, easy, strict=True))
    assert max(hard) <= 0.8 * 2.5 * (1 + JITTER)
    assert min(easy) >= 0.8 * (1 - JITTER)
    assert len({round(x, 6) for x in easy}) > 10  # it varies


def test_claim_windows_do_not_tell_what_a_bot_may_claim() -> None:
    assert hardness("claim", 2) == hardness("claim", 5) == 0.0
    assert human_delay(0.8, 1.5, "claim", 5, random.Random(3)) == human_delay(0.8, 1.5, "claim", 2,
                                                                               random.Random(3))


def test_no_delay_means_none() -> None:
    assert human_delay(0.0, 1.5, "turn", 14, random.Random(1)) == 0.0


def test_named_levels() -> None:
    assert OFFERED_BOT_LEVELS == ("beginner", "greedy", "strong", "expert")
    assert [BOT_LEVEL_INFO[lv][0] for lv in OFFERED_BOT_LEVELS] == ["Beginner", "Casual", "Strong", "Expert"]
    assert set(BOT_LEVELS) == set(LEVELS) == set(BOT_LEVEL_INFO)
    assert all(BOT_LEVEL_INFO[lv][1] for lv in BOT_LEVELS)
    options = {d["name"]: d for d in TableOptions.describe()}
    assert options["bot_level"]["choices"] == list(OFFERED_BOT_LEVELS)
    assert TableOptions.parse({"bot_level": "expert", "bot_think": 2}).bot_think == 2.0


# -- the table's pace (issue 24) ---------------------------------------------------------------------

def _pause(kinds: list[str], **options: object) -> ClaimPause:
    """The claim pause of a table seated with ``kinds`` (its table is never asked for in ``seconds``)."""
    seats = [Seat(i, k, f"P{i}" if k == "human" else "Bot", None, None) for i, k in enumerate(kinds)]
    return ClaimPause(None, TableOptions.parse(options), lambda: lone_human(seats))  # type: ignore[arg-type]


def test_with_two_humans_every_window_keeps_the_uniform_pause() -> None:
    for pace in PACES:
        assert _pause(["human", "human", "bot", "bot"], pace=pace).seconds(True) == 1.0


def test_against_bots_alone_a_window_lasts_the_pace_s_short_pause() -> None:
    pauses = {pace: _pause(["human", "bot", "bot", "bot"], pace=pace).seconds(True) for pace in PACES}
    assert pauses == {"relaxed": 1.0, "normal": 0.25, "fast": 0.1}
    assert _pause(["bot", "bot", "human", "bot"], claim_pause=0.05).seconds(True) == 0.05
    assert _pause(["human", "bot", "bot", "bot"]).seconds(False) == 0.0  # nobody watches
    assert lone_pause("fast", 0.0) == 0.0  # never longer than the table's claim_pause


def test_faster_paces_scale_the_bots_delays_down() -> None:
    assert TableOptions().pace == "normal"
    delays = {p: human_delay(0.8 * PACES[p].delay, 1.5 * PACES[p].think, "turn", 14, random.Random(1))
              for p in PACES}
    assert delays["relaxed"] > delays["normal"] > delays["fast"] > 0
    assert delays["normal"] <= 0.8 * 0.5 * (1 + 0.75) * (1 + JITTER)

"""Ratings and ranks: known OpenSkill (Plackett-Luce) updates for given standings, the ladder's rules
(placement points, ties, leavers last, promotion, demotion, the provisional period), and a recorded
match rated once however often its record is replayed (both backends)."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest
from openskill.models import PlackettLuce

from sgmahjong.rules import RuleSet
from sgmahjong.server.ranking import ladder
from sgmahjong.server.ranking.ladder import PROVISIONAL, RANKS, Standing, climb, placings, rank_points, rate
from sgmahjong.server.store import Write, open_store
from sgmahjong.server.store.ratings import ALL_TIME


def test_known_openskill_updates_for_a_match_with_a_tie() -> None:
    fresh = [Standing.new() for _ in range(4)]
    assert (fresh[0].mu, round(fresh[0].sigma, 6)) == (25.0, 8.333333) and fresh[0].rating == 1500
    after = rate(fresh, [1, 2, 2, 4])
    # the package's own answer, and the figures it gave when this was written (openskill 6.2)
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(4)], ranks=[1, 2, 2, 4])
    assert [(s.mu, s.sigma) for s in after] == [(e[0].mu, e[0].sigma) for e in expected]
    assert [round(s.mu, 6) for s in after] == [27.795253, 24.689416, 24.689416, 22.825915]
    assert [round(s.sigma, 6) for s in after] == [8.263572, 8.179618, 8.179618, 8.179618]
    assert after[1] == after[2]  # tied players move alike
    assert [s.matches for s in after] == [1, 1, 1, 1]


def test_placings_share_ties_and_put_leavers_last() -> None:
    assert placings([30, -10, 30, -50]) == [1, 3, 1, 4]
    assert placings([100, 5, 0, -105], leavers=[0]) == [4, 1, 2, 3]  # the leaver won the most: still last
    assert placings([0, 0, 0, 0], leavers=[1, 3]) == [1, 3, 1, 3]


def test_rank_points_per_placing_with_ties_sharing() -> None:
    adept = RANKS[1]
    assert [rank_points(adept, [1, 2, 3, 4], s) for s in range(4)] == [40, 20, -10, -30]
    assert rank_points(adept, [1, 1, 3, 4], 0) == 30  # first and second shared: (40 + 20) / 2
    assert rank_points(adept, [1, 2, 3, 3], 3) == -20  # third and fourth shared


def test_promotion_demotion_and_the_provisional_period() -> None:
    settled = replace(Standing.new(), matches=PROVISIONAL)
    # promotion at the target: the next rank starts at half its own target
    s = climb(replace(settled, rank=0, points=90), 20)
    assert (RANKS[s.rank].en, s.points) == ("Adept", 100)
    # demotion below 0: back to half the lower rank's target
    s = climb(replace(settled, rank=2, points=10), -45)
    assert (RANKS[s.rank].en, s.points) == ("Adept", 100)
    # a Novice never loses points; nor does a provisional player, who never demotes
    assert climb(replace(settled, rank=0, points=5), -30).points == 5
    provisional = replace(Standing.new(), matches=PROVISIONAL - 1, rank=2, points=0)
    assert provisional.provisional and climb(provisional, -45) == provisional
    assert not settled.provisional
    # the top rank has no target: points keep rising
    assert climb(replace(settled, rank=4, points=990), 50) == replace(settled, rank=4, points=1040)


def test_a_player_climbs_the_ladder_by_winning() -> None:
    me, others = Standing.new(), [Standing.new() for _ in range(3)]
    seen = []
    for _ in range(40):
        me, *others = rate([me, *others], [1, 2, 3, 4])
        seen.append(me.rank)
    assert seen == sorted(seen) and RANKS[me.rank].en == "Master"  # never down, up to the top
    assert me.rating > 1500 + 200


def test_seasons_are_months_from_january() -> None:
    when = time.mktime((2026, 11, 26, 12, 0, 0, 0, 0, 0)) - time.timezone
    assert ladder.season_of(when, 1) == "2026-11"
    assert ladder.season_of(when, 3) == "2026-10"
    assert ladder.season_of(when, 12) == "2026-01"


def four_accounts(store: object, names: tuple[str, ...] = ("Ann", "Bo", "Cy", "Di"),
                  code: str = "ranked") -> int:
    """A table the ranked queue opened for four accounts (seated in ``names``' order); its id."""
    s = store  # type: ignore[assignment]
    table_id: int = s.create_table(code, "Ranked", False, RuleSet.preset("site").to_dict(), {})
    aids = []
    for seat, name in enumerate(names):
        pid = s.new_guest(name)
        aid = s.create_account(name, name.lower(), f"handle-{name}")
        if aid is None:  # an account of an earlier table
            aid = next(a for a in range(1, 100) if s.account(a) is not None and s.account(a).name == name)
        assert s.claim_player(pid, aid)
        s.link_seat_player(table_id, seat, pid)
        aids.append(aid)
    s.mark_ranked(table_id, aids)
    return table_id


NOBODY = [False] * 4


def test_a_recorded_match_is_rated_once_even_when_its_record_is_replayed(database_url: str) -> None:
    store = open_store(database_url)
    try:
        table_id = four_accounts(store)
        args = (table_id, [120, 40, -40, -120], NOBODY, NOBODY, time.time(), "2026-11", 20)
        store.rate_match(*args)
        first = {aid: store.standing(aid) for aid in range(1, 5)}
        store.rate_match(*args)  # recorded again
        store.write_batch([Write("rate_match", args)])  # or replayed in a batch
        assert {aid: store.standing(aid) for aid in range(1, 5)} == first
        assert all(s is not None and s.matches == 1 for s in first.values())
        assert first[1].mu > first[2].mu > first[3].mu > first[4].mu  # type: ignore[union-attr]
        season = store.leaderboard("2026-11", 10)
        assert [r.name for r in season] == ["Ann", "Bo", "Cy", "Di"]
        assert [r.name for r in store.leaderboard(ALL_TIME, 2)] == ["Ann", "Bo"]
        assert store.board_position(4, ALL_TIME) == 4 and store.board_position(4, "2025-01") is None
        (point,) = store.rating_history(1, ALL_TIME, 10)
        assert point.place == 1 and point.standing == first[1]
        # a match of a table the ranked queue did not open is never rated, whatever its rules
        other = store.create_table("Private", "private", False, RuleSet.preset("site").to_dict(), {})
        store.rate_match(other, [1, 2, 3, 4], NOBODY, NOBODY, time.time(), "2026-11", 20)
        assert store.standing(1).matches == 1  # type: ignore[union-attr]
    finally:
        store.close()


@pytest.mark.parametrize("rounds", [1, 4])
def test_only_the_ranked_preset_is_ranked(rounds: int) -> None:
    from sgmahjong.server.ranking.record import RankedPolicy

    policy = RankedPolicy.of("site", 1, 1)
    assert policy.is_ranked(RuleSet.preset("site").with_options(rounds=rounds)) is (rounds == 1)
    assert not policy.is_ranked(RuleSet.preset("default").with_options(rounds=1))
    # two servers' settings in one process do not overwrite each other
    longer = RankedPolicy.of("site", 4, 3)
    assert longer.is_ranked(RuleSet.preset("site").with_options(rounds=4)) and not policy.is_ranked(
        RuleSet.preset("site").with_options(rounds=4))
    may = 120 * 86_400.0  # 1970-05-01
    assert policy.current_season(may) == "1970-05" and longer.current_season(may) == "1970-04"


def test_a_private_table_with_the_ranked_rules_is_never_rated(tmp_path: object) -> None:
    """The farming attack: a host opens a private table with the ranked rules and seats three alt
    accounts that never connect (bots play them, the host finishes last on points). Before, the host
    was rated 1st. Only tables the ranked queue opened are rated now: nobody is."""
    from pathlib import Path

    from tests.conftest import FAST_OPTIONS, LiveServer, free_port
    from tests.test_accounts import cookie_of, device, key_for, register
    from tests.test_server import wait_status

    server = LiveServer(free_port(), str(Path(str(tmp_path)) / "ranked.sqlite3"))
    server.start()
    try:
        players = [device(server) for _ in range(4)]
        for client, name in zip(players, ["Ann", "Bo", "Cy", "Di"], strict=True):
            assert register(client, key_for(server), name).status_code == 200
        options = {**FAST_OPTIONS, "next_hand_seconds": 0.1, "turn_seconds": 0.2, "claim_seconds": 0.1,
                   "bot_level": "greedy"}
        code = server.create_table("Ranked", seed=5, preset="site", rules={"rounds": 1},
                                   options=options)["code"]
        tokens = []
        for seat, (client, name) in enumerate(zip(players, ["Ann", "Bo", "Cy", "Di"], strict=True)):
            r = client.post(f"/api/tables/{code}/join", json={"name": name, "seat": seat})
            assert r.status_code == 200, r.text
            tokens.append(r.json()["token"])
        with server.ws(code, cookie_of(players[0])) as ann:
            ann.hello(tokens[0])
            ann.send({"type": "start"})
            ann.until("view", lambda m: m["status"] == "playing")
            final = wait_status(server, code, {"finished"}, timeout=240)
        assert final["status"] == "finished"
        assert server.get("/api/leaderboard?season=all").json()["rows"] == []
        assert players[0].get("/api/me/rating?season=all").json()["standing"] is None
    finally:
        server.stop()


def test_leavers_are_placed_last_and_never_gain_and_a_no_show_leaves_the_match_unrated(
        database_url: str) -> None:
    """Three players who closed their tabs while leading are placed last and lose rank points (a
    Novice too); the one who stayed is first among those who stayed, whatever the score. A seat whose
    player never played leaves the match unrated for everyone and costs only that player points."""
    store = open_store(database_url)
    try:
        now = time.time()
        first = four_accounts(store, code="r1")
        store.rate_match(first, [300, 100, -100, -300], NOBODY, NOBODY, now, "2026-11", 20)
        before = {aid: store.standing(aid) for aid in range(1, 5)}
        assert [before[a].points for a in range(1, 5)] == [40, 20, 0, 0]  # type: ignore[union-attr]
        second = four_accounts(store, code="r2")
        left = [True, True, True, False]  # Ann, Bo and Cy leave while leading; Di stays, last on points
        store.rate_match(second, [500, 300, 100, -900], left, NOBODY, now + 1, "2026-11", 20)
        after = {aid: store.standing(aid) for aid in range(1, 5)}
        places = {aid: store.rating_history(aid, ALL_TIME, 5)[-1].place for aid in range(1, 5)}
        assert places == {1: 2, 2: 2, 3: 2, 4: 1}
        assert [after[a].points for a in range(1, 5)] == [20, 0, 0, 40]  # type: ignore[union-attr]
        for aid in (1, 2, 3):  # no leaver gains, in points or rating
            assert after[aid].points <= before[aid].points  # type: ignore[union-attr]
            assert after[aid].rating < before[aid].rating  # type: ignore[union-attr]
        third = four_accounts(store, code="r3")
        absent = [False, False, False, True]  # Di's seat never played
        store.rate_match(third, [900, -300, -300, -300], NOBODY, absent, now + 2, "2026-11", 20)
        unrated = {aid: store.standing(aid) for aid in range(1, 5)}
        assert all(unrated[a] == after[a] for a in (1, 2, 3))  # nobody else moved
        assert unrated[4].points == 20 and unrated[4].matches == after[4].matches  # type: ignore[union-attr]
    finally:
        store.close()


def test_ratings_are_recomputed_from_the_record_and_a_voided_match_counts_for_nobody(
        database_url: str) -> None:
    store = open_store(database_url)
    try:
        now = time.time()
        one = four_accounts(store, code="v1")
        store.rate_match(one, [300, 100, -100, -300], NOBODY, NOBODY, now, "2026-11", 20)
        after_one = {aid: store.standing(aid) for aid in range(1, 5)}
        two = four_accounts(store, ("Di", "Cy", "Bo", "Ann"), code="v2")
        store.rate_match(two, [400, 0, 0, -400], [False, True, False, False], NOBODY, now + 1, "2026-11", 20)
        after_two = {aid: store.standing(aid) for aid in range(1, 5)}
        assert store.recompute_ratings(20) == 2
        assert {aid: store.standing(aid) for aid in range(1, 5)} == after_two
        assert [code for code, *_ in store.rated_records(10)] == ["v2", "v1"]
        assert store.void_match("v2", now + 2) and not store.void_match("v2", now + 3)
        assert store.recompute_ratings(20) == 1
        assert {aid: store.standing(aid) for aid in range(1, 5)} == after_one
        assert store.leaderboard("2026-11", 10)[0].name == "Ann"
    finally:
        store.close()


def test_the_queue_keeps_apart_accounts_seen_on_one_device_or_from_one_address() -> None:
    from sgmahjong.server.store.identity_sql import Sighting
    from sgmahjong.server.store.queue import QueueEntry, groups_of_four, kept_apart

    now = 1_000_000.0
    day = 86_400.0
    seen = [Sighting(1, "address", "203.0.113.7", now - day, now - 60),  # 1-4: one person's accounts
            Sighting(2, "address", "203.0.113.7", now - day, now - 60),
            Sighting(3, "device", "lineage-a", now - 90 * day, now - 80 * day),
            Sighting(4, "device", "lineage-a", now - 90 * day, now - 80 * day),  # a device: ever
            Sighting(3, "address", "198.51.100.1", now - 90 * day, now - 40 * day),  # too long ago
            Sighting(5, "address", "198.51.100.1", now - 90 * day, now - 40 * day)]
    apart = kept_apart(seen, now, 30 * day)
    assert apart == {frozenset((1, 2)), frozenset((3, 4))}
    entries = [QueueEntry(i, f"t{i}", i, 100 + i, f"P{i}", 1500.0 + i, now - 10 * (9 - i), "waiting")
               for i in range(1, 9)]
    groups = groups_of_four(entries, now, 100.0, 10.0, apart)
    assert sorted(len(g) for g in groups) == [4, 4]
    for g in groups:
        ids = {e.account_id for e in g}
        assert not {1, 2} <= ids and not {3, 4} <= ids
    assert len(groups_of_four(entries[:4], now, 100.0, 10.0, apart)) == 0  # 1-4 never sit together

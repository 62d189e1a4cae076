"""Clubs in the store (store/clubs_sql.py, migration 0022), SQLite and PostgreSQL: members, invite links
(hashed, revocable, expiring), periods and seasons, club tables; and the ledger read back from recorded
hands equals the sum of the matches' payments (a property over random matches, through the store)."""

from __future__ import annotations

import random
import shutil
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from sgmahjong.payments import win_payments
from sgmahjong.rules import RuleSet
from sgmahjong.server.clubs import book
from sgmahjong.server.store import PlayerHandRow, Store, open_store
from sgmahjong.server.table.seats import hash_token

RULES = RuleSet()


def record_match(store: Store, club_id: int, players: list[int | None], hands: list[tuple[int, ...]],
                 winners: list[tuple[int | None, int]], when: float) -> int:
    """A club table where ``players`` sat (None: a bot), with ``hands`` (net by seat) recorded."""
    table_id = store.create_table(f"t{random.getrandbits(40):x}", "club game", True, {}, {})
    store.add_club_table(club_id, table_id, when)
    store.set_status(table_id, "finished")
    linked = {seat: pid for seat, pid in enumerate(players) if pid is not None}
    for seat, pid in linked.items():
        store.link_seat_player(table_id, seat, pid)
    for number, (net, (winner, tai)) in enumerate(zip(hands, winners, strict=True), start=1):
        rows = {seat: PlayerHandRow(table_id, number, seat, when + number / 1000, winner == seat, False,
                                    winner is None, tai, net[seat]) for seat in linked}
        store.add_player_hands(table_id, linked, rows)
    return table_id


def test_clubs_members_invites_periods(database_url: str) -> None:
    store = open_store(database_url)
    try:
        ann = store.new_guest("Ann")
        ben = store.new_guest("Ben")
        club_id = store.create_club("c0de", "Kaki", 20, "default", ann, 100.0)
        club = store.club("c0de")
        assert club is not None and (club.id, club.name, club.stake) == (club_id, "Kaki", 20)
        assert store.club("nope") is None
        assert [(m.name, m.role) for m in store.club_members(club_id)] == [("Ann", "owner")]
        assert store.membership(club_id, [ben]) is None
        # an invite: only its hash is kept; revoked or expired, it no longer finds the club
        live = store.add_invite(club_id, hash_token("invite-1"), 100.0, None)
        soon = store.add_invite(club_id, hash_token("invite-2"), 100.0, 150.0)
        assert [i.id for i in store.invites(club_id, 120.0)] == [soon, live]
        found = store.invite_club(hash_token("invite-1"), 120.0)
        assert found is not None and found.id == club_id
        assert store.invite_club(hash_token("invite-2"), 151.0) is None  # expired
        assert store.revoke_invite(club_id, live, 130.0) and not store.revoke_invite(club_id, live, 131.0)
        assert store.invite_club(hash_token("invite-1"), 132.0) is None
        assert [i.id for i in store.invites(club_id, 140.0)] == [soon]
        assert store.add_member(club_id, ben, "member", 110.0)
        assert not store.add_member(club_id, ben, "member", 111.0)
        assert [c.name for c, role in store.player_clubs([ben])] == ["Kaki"]
        assert store.player_clubs([ann, ben])[0][1] == "owner"
        # periods: settled ends the current one; a new season begins a period too
        assert store.next_period(club_id, 200.0, settled=True, new_season=False) == 2
        assert store.next_period(club_id, 300.0, settled=False, new_season=True) == 3
        periods = store.periods(club_id, 10)
        assert [(p.number, p.season, p.ended, p.settled) for p in periods] == [
            (3, 2, None, False), (2, 1, 300.0, False), (1, 1, 200.0, True)]
        assert store.season_start(club_id) == (2, 300.0)
        # tables and their hands: only the club's, in the time asked
        table_id = record_match(store, club_id, [ann, ben, None, None], [(4, -2, -1, -1)], [(0, 1)], 400.0)
        assert store.table_club(table_id) == club_id
        assert store.club_tables(club_id, 5, live=True) == []  # finished
        assert [t.table_id for t in store.club_tables(club_id, 5, live=False)] == [table_id]
        hands = store.club_hands(club_id, 0.0)
        assert [(h.seat, h.net, h.won) for h in hands] == [(0, 4, True), (1, -2, False)]
        assert store.club_hands(club_id, 0.0, 400.0005) == []
        # a player forgotten leaves the club; the longest-standing member becomes its owner
        store.delete_player(ann)
        assert [(m.name, m.role) for m in store.club_members(club_id)] == [("Ben", "owner")]
    finally:
        store.close()


def test_invite_links_keep_their_label_and_maker(database_url: str) -> None:
    """Migration 0032: each link keeps the owner's label and its maker (named while a member), and is
    found by its hash revoked or not, so the page can say which."""
    store = open_store(database_url)
    try:
        ann, ben = store.new_guest("Ann"), store.new_guest("Ben")
        club_id = store.create_club("c0de", "Kaki", 20, "default", ann, 100.0)
        store.add_member(club_id, ben, "member", 101.0)
        mei = store.add_invite(club_id, hash_token("for-mei"), 110.0, 500.0, label="for Mei Ling", maker=ann)
        old = store.add_invite(club_id, hash_token("old"), 111.0, None)  # as made before the migration
        by_ben = store.add_invite(club_id, hash_token("ben's"), 112.0, None, label="<b>x</b>", maker=ben)
        listed = store.invites(club_id, 120.0)
        assert [(i.id, i.label, i.maker, i.code_hash) for i in listed] == [
            (by_ben, "<b>x</b>", "Ben", hash_token("ben's")), (old, "", None, hash_token("old")),
            (mei, "for Mei Ling", "Ann", hash_token("for-mei"))]
        assert store.revoke_invite(club_id, mei, 130.0)
        found = store.invite_by_hash(hash_token("for-mei"))
        assert found is not None and found[0].name == "Kaki"
        assert (found[1].id, found[1].revoked, found[1].expires, found[1].maker) == (mei, 130.0, 500.0, "Ann")
        assert store.invite_by_hash(hash_token("nothing")) is None
        store.remove_member(club_id, ben)  # a maker who left is no longer named
        assert [i.maker for i in store.invites(club_id, 140.0)] == [None, None]
    finally:
        store.close()


@st.composite
def club_matches(draw: st.DrawFn) -> tuple[list[list[int | None]], list[list[tuple[int, ...]]],
                                          list[list[tuple[int | None, int]]]]:
    seats_of: list[list[int | None]] = []
    nets_of: list[list[tuple[int, ...]]] = []
    wins_of: list[list[tuple[int | None, int]]] = []
    for _ in range(draw(st.integers(1, 5))):
        seats: list[int | None] = list(draw(st.permutations(range(5)))[:4])
        seats = [s if draw(st.integers(0, 4)) else None for s in seats]  # sometimes a bot
        nets: list[tuple[int, ...]] = []
        wins: list[tuple[int | None, int]] = []
        for _ in range(draw(st.integers(0, 6))):
            winner = draw(st.one_of(st.none(), st.integers(0, 3)))
            if winner is None:
                nets.append((0, 0, 0, 0))
                wins.append((None, 0))
                continue
            tai = draw(st.integers(1, 5))
            shooter = draw(st.one_of(st.none(), st.sampled_from([s for s in range(4) if s != winner])))
            nets.append(tuple(win_payments(tai, winner=winner, shooter=shooter, self_drawn=shooter is None,
                                           rules=RULES)))
            wins.append((winner, tai))
        seats_of.append(seats)
        nets_of.append(nets)
        wins_of.append(wins)
    return seats_of, nets_of, wins_of


@given(club_matches(), st.sampled_from([5, 20, 50]))
@settings(max_examples=25, deadline=None)
def test_the_ledger_through_the_store_is_the_sum_of_payments(played: tuple[
        list[list[int | None]], list[list[tuple[int, ...]]], list[list[tuple[int | None, int]]]],
        stake: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="sgmj-ledger-"))
    store = open_store(f"sqlite:///{folder / 'db.sqlite3'}")
    try:
        players = [store.new_guest(f"P{i}") for i in range(5)]
        club_id = store.create_club("c", "Kaki", stake, "default", players[0], 0.0)
        for pid in players[1:4]:  # player 4 is not a member: their seats count for nobody
            store.add_member(club_id, pid, "member", 0.0)
        for seats, nets, wins in zip(*played, strict=True):
            record_match(store, club_id, [None if s is None else players[s] for s in seats], nets, wins, 10.0)
        members = store.club_members(club_id)
        lines = book.lines(store.club_hands(club_id, 0.0), members, stake)
        for i in range(4):
            paid = sum(net[seat] for seats, nets in zip(played[0], played[1], strict=True)
                       for seat, who in enumerate(seats) if who == i for net in nets)
            line = lines[str(players[i])]
            assert line.net == paid and line.money == paid * stake
            won = [tai for seats, wins in zip(played[0], played[2], strict=True)
                   for seat, who in enumerate(seats) if who == i for winner, tai in wins if winner == seat]
            assert line.wins == len(won) and line.biggest == max(won, default=0)
        assert str(players[4]) not in lines
        settlement = book.settle_up({k: v.money for k, v in lines.items()})
        left = {k: v.money for k, v in lines.items()}
        for payer, payee, cents in settlement.transfers:
            left[payer] += cents
            left[payee] -= cents
        assert sum(left.values()) == settlement.outside == sum(v.money for v in lines.values())
        assert sum(settlement.owed.values()) == 0  # the members among themselves, the bots apart
        # members settle among themselves; only what bots paid or won is left, with its sign
        assert all(v * settlement.outside >= 0 and (settlement.outside or v == 0) for v in left.values())
        assert len(settlement.transfers) <= max(0, sum(1 for v in lines.values() if v.money) - 1)
    finally:
        store.close()
        shutil.rmtree(folder, ignore_errors=True)


def test_a_club_is_in_points_until_its_owner_turns_money_on(database_url: str) -> None:
    """Migration 0033: a new club keeps points (money off); money on (with the stakes) and off again,
    read back by every way a club is read."""
    store = open_store(database_url)
    try:
        ann = store.new_guest("Ann")
        club_id = store.create_club("m0ney", "Kaki", 20, "default", ann, 100.0)
        store.add_invite(club_id, hash_token("invite-m"), 100.0, None)
        club = store.club("m0ney")
        assert club is not None and club.money is False
        store.set_club_money(club_id, True, 30, 110.0)
        club = store.club("m0ney")
        assert club is not None and (club.money, club.stake) == (True, 30)
        assert [(c.money, role) for c, role in store.player_clubs([ann])] == [(True, "owner")]
        found = store.invite_by_hash(hash_token("invite-m"))
        assert found is not None and found[0].money is True
        joins = store.invite_club(hash_token("invite-m"), 120.0)
        assert joins is not None and joins.money is True
        store.set_club_money(club_id, False, None, 130.0)
        club = store.club("m0ney")
        assert club is not None and (club.money, club.stake) == (False, 30)  # the stakes kept for later
    finally:
        store.close()

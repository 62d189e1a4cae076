"""A club's books (pure): the recorded hands of its tables turned into the matches the ledger sums
(:mod:`.ledger`), the ledger's lines as the club page shows them, and the settle-up of a period.

A seat counts for the member whose browser identity took it, or whose account owns that identity (an
account's identities are one member). Seats of anyone else (bots, guests, players who left the club)
are left out, so when such seats played, the members' balances do not sum to zero: settle-up then
settles the members among themselves and reports what is left over (:attr:`Settlement.outside`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from .ledger import HandRecord, Line, MatchRecord, ledger
from .settle import Transfer, settle


class Hand(Protocol):
    """One ended hand of a player's seat at a club table (``store.clubs_sql.ClubHandRow``)."""

    table_id: int
    hand: int
    seat: int
    player_id: int
    account_id: int | None
    won: bool
    tai: int
    net: int


class Member(Protocol):
    player_id: int
    account_id: int | None


def member_key(members: Sequence[Member]) -> dict[tuple[str, int], str]:
    """("p", player id) / ("a", account id) -> the member's key (their player id, as text)."""
    keys: dict[tuple[str, int], str] = {}
    for m in members:
        keys[("p", m.player_id)] = str(m.player_id)
        if m.account_id is not None:
            keys.setdefault(("a", m.account_id), str(m.player_id))
    return keys


def who(keys: dict[tuple[str, int], str], hand: Hand) -> str | None:
    """The member whose seat this hand's row is, if any."""
    found = keys.get(("p", hand.player_id))
    if found is None and hand.account_id is not None:
        found = keys.get(("a", hand.account_id))
    return found


def matches(hands: Iterable[Hand], members: Sequence[Member]) -> list[MatchRecord]:
    """The club's matches (one per table with a recorded hand), each with its members' seats and its
    hands' nets by seat (a seat not a member's counts 0: the ledger leaves it out anyway)."""
    keys = member_key(members)
    seats: dict[int, list[str | None]] = {}
    by_hand: dict[tuple[int, int], list[Hand]] = {}
    for h in hands:
        seats.setdefault(h.table_id, [None] * 4)
        member = who(keys, h)
        if member is not None:
            seats[h.table_id][h.seat] = member
        by_hand.setdefault((h.table_id, h.hand), []).append(h)
    out: list[MatchRecord] = []
    for table_id, members_at in seats.items():
        records = []
        for (tid, _number), rows in sorted(by_hand.items()):
            if tid != table_id:
                continue
            net = [0, 0, 0, 0]
            winner: int | None = None
            tai = 0
            for r in rows:
                net[r.seat] = r.net
                if r.won:
                    winner, tai = r.seat, r.tai
            records.append(HandRecord((net[0], net[1], net[2], net[3]), winner, tai))
        out.append(MatchRecord((members_at[0], members_at[1], members_at[2], members_at[3]), tuple(records)))
    return out


def lines(hands: Iterable[Hand], members: Sequence[Member], cents_per_point: int) -> dict[str, Line]:
    """member key -> their ledger line (every member has one, zero if they did not play)."""
    out = ledger(matches(hands, members), cents_per_point)
    for m in members:
        out.setdefault(str(m.player_id), Line())
    return out


@dataclass
class Settlement:
    transfers: list[Transfer]  # (payer, payee, amount) between members
    outside: int  # what the members won (+) from or lost (-) to seats not a member's: not settled
    owed: dict[str, int]  # each member's balance among the members (summing to zero): what is settled


def settle_up(nets: dict[str, int]) -> Settlement:
    """The fewest transfers between members settling ``nets`` (member -> points, or cents); what does
    not sum to zero (won from or lost to bots and guests) is set apart: :attr:`Settlement.owed` is
    what each member is owed (+) or owes (-) the others, the ledger's figure beside the transfers."""
    owed = among_members(nets)
    return Settlement(settle(owed), sum(nets.values()), owed)


def among_members(nets: dict[str, int]) -> dict[str, int]:
    """The members' balances with what non-members' seats paid (or won) set apart: nobody pays it, so
    the biggest winners' balances are lowered by it (or the biggest losers' raised), largest first,
    until the members' balances sum to zero."""
    outside = sum(nets.values())
    left = dict(nets)
    sign = 1 if outside > 0 else -1
    order = sorted(left, key=lambda k: (-sign * left[k], k))
    remaining = outside
    for k in order:
        if remaining == 0:
            break
        if outside > 0:
            take = min(remaining, max(left[k], 0))
        else:
            take = max(remaining, min(left[k], 0))
        left[k] -= take
        remaining -= take
    return left

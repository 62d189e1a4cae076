"""A club's ledger (server/clubs/ledger.py) equals the sum of its matches' payments, and settles up."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sgmahjong.payments import win_payments
from sgmahjong.rules import RuleSet
from sgmahjong.server.clubs.ledger import HandRecord, MatchRecord, balances, ledger
from sgmahjong.server.clubs.settle import settle

RULES = RuleSet()
MEMBERS = ["Ah Beng", "Mei Ling", "Ah Huat", "Siew Mei", "Kok Leong"]


@st.composite
def hands(draw: st.DrawFn) -> HandRecord:
    """A hand as the rule set's payment chart pays it (payments.win_payments), or a drawn hand."""
    winner = draw(st.one_of(st.none(), st.integers(0, 3)))
    if winner is None:
        return HandRecord((0, 0, 0, 0), None)
    tai = draw(st.integers(1, 5))
    shooter = draw(st.one_of(st.none(), st.sampled_from([s for s in range(4) if s != winner])))
    net = win_payments(tai, winner=winner, shooter=shooter, self_drawn=shooter is None, rules=RULES)
    return HandRecord((net[0], net[1], net[2], net[3]), winner, tai)


@st.composite
def matches(draw: st.DrawFn, *, all_members: bool = False) -> MatchRecord:
    seats = draw(st.permutations(MEMBERS))[:4]
    members = [m if all_members or draw(st.booleans()) else None for m in seats]
    return MatchRecord((members[0], members[1], members[2], members[3]),
                       tuple(draw(st.lists(hands(), max_size=8))))


@given(st.lists(matches(), max_size=12), st.sampled_from([10, 20, 50]))
@settings(max_examples=200, deadline=None)
def test_the_ledger_is_the_sum_of_the_matches_payments(played: list[MatchRecord], cents: int) -> None:
    lines = ledger(played, cents)
    for member in MEMBERS:
        paid = sum(h.net[seat] for m in played for seat, who in enumerate(m.members) if who == member
                   for h in m.hands)
        line = lines.get(member)
        assert (line.net if line else 0) == paid
        if line:
            assert line.money == paid * cents
            assert line.matches == sum(member in m.members for m in played)
            won = [h.tai for m in played for s, who in enumerate(m.members) if who == member
                   for h in m.hands if h.winner == s]
            assert line.wins == len(won) and line.biggest == max(won, default=0)


@given(st.lists(matches(all_members=True), max_size=12))
@settings(max_examples=100, deadline=None)
def test_a_ledger_of_members_only_settles_to_zero(played: list[MatchRecord]) -> None:
    money = balances(ledger(played, 20))
    assert sum(money.values()) == 0
    left = dict(money)
    for payer, payee, cents in settle(money):
        left[payer] += cents
        left[payee] -= cents
    assert set(left.values()) <= {0}

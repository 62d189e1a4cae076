"""Settle-up (server/clubs/settle.py): every balance settled exactly, at most n - 1 transfers, and as
few as a brute force finds on small groups."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sgmahjong.server.clubs.settle import SettleError, describe, settle


def balances_of(values: list[int]) -> dict[str, int]:
    values = [*values, -sum(values)]
    return {f"p{i}": v for i, v in enumerate(values)}


def applied(balances: dict[str, int], transfers: list[tuple[str, str, int]]) -> Counter[str]:
    left = Counter(balances)
    for payer, payee, cents in transfers:
        assert cents > 0 and payer != payee
        left[payer] += cents
        left[payee] -= cents
    return left


def partitions(items: list[int]) -> Iterator[list[list[int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in partitions(rest):
        for i in range(len(part)):
            yield [*part[:i], [first, *part[i]], *part[i + 1:]]
        yield [[first], *part]


def brute_minimum(values: list[int]) -> int:
    """Fewest transfers, by trying every split of the non-zero balances into groups."""
    nonzero = [v for v in values if v]
    most = max(sum(1 for g in part if sum(g) == 0) for part in partitions(nonzero)) if nonzero else 0
    return len(nonzero) - most


@given(st.lists(st.integers(-5000, 5000), min_size=0, max_size=11))
@settings(max_examples=300, deadline=None)
def test_every_balance_is_settled_with_at_most_n_minus_1(values: list[int]) -> None:
    balances = balances_of(values)
    transfers = settle(balances)
    assert all(v == 0 for v in applied(balances, transfers).values())
    nonzero = sum(1 for v in balances.values() if v)
    assert len(transfers) <= max(0, nonzero - 1)


@given(st.lists(st.sampled_from([-300, -200, -100, -50, 50, 100, 200, 300, 0]), min_size=1, max_size=6))
@settings(max_examples=300, deadline=None)
def test_as_few_transfers_as_a_brute_force(values: list[int]) -> None:
    balances = balances_of(values)
    assert len(settle(balances)) == brute_minimum(list(balances.values()))


def test_two_pairs_settle_in_two_transfers_not_three() -> None:
    balances = {"Ah Beng": -320, "Mei Ling": 320, "Ah Huat": -150, "Siew Mei": 150}
    transfers = settle(balances)
    assert sorted(transfers) == [("Ah Beng", "Mei Ling", 320), ("Ah Huat", "Siew Mei", 150)]
    assert describe(sorted(transfers)) == "Ah Beng pays Mei Ling $3.20\nAh Huat pays Siew Mei $1.50"


def test_many_members_are_settled_greedily_within_n_minus_1() -> None:
    balances = {f"m{i}": (i - 10) * 7 for i in range(21)}  # sums to zero, 20 non-zero
    transfers = settle(balances)
    assert all(v == 0 for v in applied(balances, transfers).values()) and len(transfers) <= 19


def test_balances_that_do_not_sum_to_zero_are_refused() -> None:
    with pytest.raises(SettleError, match="sum to 5"):
        settle({"a": 5})

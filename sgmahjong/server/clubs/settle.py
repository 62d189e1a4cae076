"""Settle up: the fewest transfers that bring every balance of a ledger to zero (pure).

Balances are whole cents (positive: owed money, negative: owes), summing to zero. The fewest transfers
for n non-zero balances is n minus the largest number of groups they can be split into that each sum
to zero (each group of k settles itself with k - 1 transfers, and no transfer can serve two groups).
Up to :data:`EXACT_MAX` members the split is found exactly (a search over subsets, 2**n states); a
larger group is settled greedily, largest debtor to largest creditor, which still needs at most n - 1.
"""

from __future__ import annotations

from collections.abc import Mapping

EXACT_MAX = 14  # members settled exactly (2**14 subsets); more: greedy, at most n - 1 transfers


class SettleError(ValueError):
    """Balances that do not sum to zero."""


Transfer = tuple[str, str, int]  # (payer, payee, cents)


def settle(balances: Mapping[str, int]) -> list[Transfer]:
    """The transfers (payer, payee, cents > 0) settling ``balances``: as few as possible up to
    :data:`EXACT_MAX` people with a non-zero balance, never more than their number minus one."""
    if sum(balances.values()) != 0:
        raise SettleError(f"balances sum to {sum(balances.values())}, not 0")
    people = sorted((p for p, v in balances.items() if v), key=lambda p: (-abs(balances[p]), p))
    if len(people) > EXACT_MAX:
        return _greedy(people, balances)
    out: list[Transfer] = []
    for group in _zero_groups([balances[p] for p in people]):
        out += _greedy([people[i] for i in group], balances)
    return out


def _zero_groups(values: list[int]) -> list[list[int]]:
    """The most groups (lists of indices) that ``values`` split into, each summing to zero."""
    n = len(values)
    full = (1 << n) - 1
    total = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = mask & -mask
        total[mask] = total[mask ^ low] + values[low.bit_length() - 1]
    best = [0] * (1 << n)  # most zero-sum groups closed along some order of taking the mask's members
    for mask in range(1, 1 << n):
        most = 0
        rest = mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            most = max(most, best[mask ^ bit])
        best[mask] = most + (1 if total[mask] == 0 else 0)
    order: list[int] = []  # members in the order taken, from the last back
    mask = full
    while mask:
        want = best[mask] - (1 if total[mask] == 0 else 0)
        rest = mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            if best[mask ^ bit] == want:
                order.append(bit.bit_length() - 1)
                mask ^= bit
                break
    order.reverse()
    groups: list[list[int]] = []
    current: list[int] = []
    running = 0
    for i in order:
        current.append(i)
        running += values[i]
        if running == 0:
            groups.append(current)
            current = []
    return groups


def _greedy(people: list[str], balances: Mapping[str, int]) -> list[Transfer]:
    """Largest debtor pays largest creditor until all are settled (at most len(people) - 1)."""
    owe = sorted(((-balances[p], p) for p in people if balances[p] < 0), reverse=True)
    get = sorted(((balances[p], p) for p in people if balances[p] > 0), reverse=True)
    out: list[Transfer] = []
    i = j = 0
    owe_left = [a for a, _ in owe]
    get_left = [a for a, _ in get]
    while i < len(owe) and j < len(get):
        amount = min(owe_left[i], get_left[j])
        out.append((owe[i][1], get[j][1], amount))
        owe_left[i] -= amount
        get_left[j] -= amount
        if owe_left[i] == 0:
            i += 1
        if get_left[j] == 0:
            j += 1
    return out


def describe(transfers: list[Transfer], *, currency: str = "$") -> str:
    """The transfers as lines to paste into a group chat ("Ah Beng pays Mei Ling $3.20")."""
    return "\n".join(f"{a} pays {b} {currency}{cents // 100}.{cents % 100:02d}" for a, b, cents in transfers)

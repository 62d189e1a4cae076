"""Instant payments for bonus tiles (RULES.md §5): bitten pairs, four animals, flower sets."""

from __future__ import annotations

from ..rules import RuleSet
from ..tiles import Tile, seat_flowers

# combo id -> (tiles, units from each other player, is an animal combo)
_ANIMAL_COMBOS: tuple[tuple[str, tuple[int, ...], int], ...] = (
    ("cat_rat", (42, 43), 1),
    ("rooster_centipede", (44, 45), 1),
    ("all_animals", (42, 43, 44, 45), 2),
)
_FLOWER_SETS: tuple[tuple[str, tuple[int, ...], int], ...] = (
    ("flower_set_red", (34, 35, 36, 37), 2),
    ("flower_set_blue", (38, 39, 40, 41), 2),
)


def new_bonus_payments(seat: int, bonus: tuple[Tile, ...], paid: frozenset[str],
                       dealt: frozenset[Tile], rules: RuleSet) -> list[tuple[str, int]]:
    """Combos completed by ``bonus`` not yet ``paid``: ``(combo, units from each other player)``.
    A combo made entirely of tiles of the dealt hand (暗咬) pays double."""
    if rules.instant_payments == "none":
        return []
    have = set(bonus)
    combos = list(_ANIMAL_COMBOS)
    if rules.instant_payments == "all":
        own = tuple(int(t) for t in seat_flowers(seat))
        combos.append(("seat_flowers", own, 1))
        combos.extend(_FLOWER_SETS)
    out: list[tuple[str, int]] = []
    for name, tiles, units in combos:
        if name in paid or not all(t in have for t in tiles):
            continue
        if all(t in dealt for t in tiles):
            units *= 2
        out.append((name, units))
    return out


def kong_units(concealed: bool, rules: RuleSet) -> int:
    """Units each other player pays for a kong (0 when instant payments are limited)."""
    if rules.instant_payments != "all":
        return 0
    return 2 if concealed else 1

"""Paying for all (包, RULES.md §5): pure predicates the engine asks at the right moments.

Vocabulary: A is the player who claims or wins, B the discarder. "Sets on the table" are A's melds:
exposed chows, pongs and kongs and his declared concealed kongs (they lie on the table too).

When to ask what:

* B discards a tile that A pongs or kongs → :func:`claim_liability` (``bao_dragons``,
  ``bao_winds``, ``bao_limit``, ``bao_arhats``). If it returns a name, B is liable for A's win in this
  hand whether A later wins on a discard or by self-draw.
* A wins on B's discard → :func:`win_liability` (``bao_dragons``/``bao_winds`` for the last honour
  won on as the pair, ``bao_flush``, ``bao_terminals``, ``bao_green``), and :func:`bao_fresh_applies`
  (包生).
* A kongs B's discard → :func:`bao_kong_applies` (包杠: B pays the whole kong payment, and the whole
  win if A wins on that kong's replacement draw).
* None applies to thirteen wonders (it has no sets on the table; :func:`bao_fresh_applies` and
  :func:`sgmahjong.payments.win_payments` ignore liability for it).
* Under ``shooter_pays`` a liability only matters on a self-drawn win
  (:func:`sgmahjong.payments.liability_applies`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .melds import Meld
from .rules import RuleSet
from .tiles import GREEN_TILES, Tile


def _wind_value(tile: int, seat_wind: int, prevailing_wind: int) -> int:
    return (tile == 27 + seat_wind) + (tile == 27 + prevailing_wind)


def honour_value(tile: Tile, seat_wind: int, prevailing_wind: int) -> int:
    """Tai a pong of ``tile`` is worth for its owner: 1 for a dragon, 1 for the seat wind, 1 for the
    prevailing wind (2 for a double wind), 0 otherwise."""
    if tile.is_dragon:
        return 1
    if tile.is_wind:
        return _wind_value(tile, seat_wind, prevailing_wind)
    return 0


def exposed_set_tai(melds: Iterable[Meld], seat_wind: int, prevailing_wind: int) -> int:
    """Tai the sets on the table already score: dragon pongs and the seat/prevailing wind pongs."""
    return sum(honour_value(m.tile, seat_wind, prevailing_wind) for m in melds if m.is_pong_or_kong)


def bonus_tai(bonus: Iterable[Tile], seat_wind: int) -> int:
    """Tai of laid-out bonus tiles: animals (1 each, +1 for all four), seat flowers (1 each),
    complete flower sets (+1 each)."""
    have = {int(t) for t in bonus}
    animals = sum(1 for t in have if t >= 42)
    tai = animals + (animals == 4)
    tai += (34 + seat_wind in have) + (38 + seat_wind in have)
    tai += ({34, 35, 36, 37} <= have) + ({38, 39, 40, 41} <= have)
    return tai


def claim_liability(
    melds_before: Sequence[Meld],
    tile: Tile,
    *,
    kong: bool,
    seat_wind: int,
    prevailing_wind: int,
    rules: RuleSet,
    unseen: bool = False,
    bonus: Iterable[Tile] = (),
) -> str | None:
    """The liability B incurs when A pongs (``kong=False``) or kongs (``kong=True``) B's discarded
    ``tile`` with ``melds_before`` on the table, or ``None``. Checked in this order:

    * ``bao_dragons``: two dragon sets on the table; the tile is the third dragon.
    * ``bao_winds``: three wind sets; the tile is the fourth wind.
    * ``bao_limit``: A's exposed sets score less than the limit and the tile's pong brings them to
      it: limit−1 and any value honour (dragon, seat or prevailing wind), or limit−2 and A's double
      wind (seat wind = prevailing wind). RULES.md §5: "exposed" means claimed or added sets on the
      table; concealed kongs and bonus tiles do not count (``bonus`` is accepted and ignored).
    * ``bao_arhats``: three kongs on the table; A kongs B's discard for the fourth, and the tile was
      ``unseen`` (in no discard pool nor any set on the table: :func:`is_unseen`).
    """
    dragon_sets = sum(1 for m in melds_before if m.is_pong_or_kong and m.tile.is_dragon)
    wind_sets = sum(1 for m in melds_before if m.is_pong_or_kong and m.tile.is_wind)
    if rules.bao_dragons and tile.is_dragon and dragon_sets == 2:
        return "bao_dragons"
    if rules.bao_winds and tile.is_wind and wind_sets == 3:
        return "bao_winds"
    if rules.bao_limit and tile.is_honour:
        exposed = [m for m in melds_before if not m.concealed]
        before = exposed_set_tai(exposed, seat_wind, prevailing_wind)
        gain = honour_value(tile, seat_wind, prevailing_wind)
        if gain and before < rules.limit <= before + gain:
            return "bao_limit"
    if rules.bao_arhats and kong and unseen and sum(1 for m in melds_before if m.is_kong) == 3:
        return "bao_arhats"
    return None


def _suit_of(tile: int) -> int:
    return tile // 9 if tile < 27 else 3


def win_liability(melds: Sequence[Meld], tile: Tile, rules: RuleSet) -> str | None:
    """The liability B incurs when A wins on B's discarded ``tile`` with ``melds`` on the table
    (before the win), or ``None``:

    * ``bao_dragons`` / ``bao_winds``: two dragon sets (three wind sets) on the table and the tile is
      the third dragon (fourth wind), won on as the pair or to complete the set (RULES.md §5: "or
      complete an eye with it").
    * ``bao_flush``: three or four exposed sets (claimed or added: a concealed kong does not count),
      all of one suit (or all honours); the tile is of that suit (honours for honours).
    * ``bao_terminals``: three or four sets on the table, all pongs/kongs of terminals (1s and 9s);
      the tile is a terminal.
    * ``bao_green`` (only with ``pure_green``): three or four sets on the table, all of green tiles
      (2 3 4 6 8 of bamboo and the green dragon); the tile is green.
    """
    honour_sets = {m.tile for m in melds if m.is_pong_or_kong and m.tile.is_honour}
    if rules.bao_dragons and tile.is_dragon and tile not in honour_sets and sum(
            1 for t in honour_sets if t.is_dragon) == 2:
        return "bao_dragons"
    if rules.bao_winds and tile.is_wind and tile not in honour_sets and sum(
            1 for t in honour_sets if t.is_wind) == 3:
        return "bao_winds"
    if len(melds) < 3:
        return None
    exposed = [m for m in melds if not m.concealed]
    if rules.bao_flush and len(exposed) >= 3:
        suits = {_suit_of(m.tile) for m in exposed}
        if len(suits) == 1 and _suit_of(tile) in suits:
            return "bao_flush"
    if rules.bao_terminals and tile.is_terminal and all(
            m.is_pong_or_kong and m.tile.is_terminal for m in melds):
        return "bao_terminals"
    if rules.pure_green and rules.bao_green and tile in GREEN_TILES and all(
            all(t in GREEN_TILES for t in m.tiles) for m in melds):
        return "bao_green"
    return None


def is_fresh(tile: Tile, discard_pools: Iterable[Iterable[Tile]], exposed_melds: Iterable[Meld],
             rules: RuleSet) -> bool:
    """Whether ``tile`` is fresh (生牌) before it is discarded: no copy lies in any discard pool.

    ``discard_pools`` are the tiles lying in the pools (the discard being judged not yet added);
    ``exposed_melds`` every player's melds. Tiles claimed for a pong or kong count as discarded
    (``fresh_tile`` ``discards``, the default); chow tiles do not. With ``discards_or_exposed`` any
    copy in an exposed set (chows too) makes it not fresh. Concealed kongs never count."""
    for pool in discard_pools:
        if tile in pool:
            return False
    for m in exposed_melds:
        if m.concealed:
            continue
        if rules.fresh_tile == "discards_or_exposed":
            if tile in m.tiles:
                return False
        elif m.is_pong_or_kong and m.tile == tile:
            return False
    return True


def is_unseen(tile: Tile, discard_pools: Iterable[Iterable[Tile]], melds: Iterable[Meld]) -> bool:
    """Whether no copy of ``tile`` has appeared on the table: in no discard pool and in no set on the
    table, any kind (the arhats rule: "has not appeared anywhere on the table")."""
    for pool in discard_pools:
        if tile in pool:
            return False
    return all(tile not in m.tiles for m in melds)


def bao_kong_applies(drawable_left: int, fresh: bool, rules: RuleSet) -> bool:
    """包杠: with fewer than ``bao_kong_tiles`` (7) drawable tiles left, a fresh discard that is konged
    makes the discarder pay the whole kong payment."""
    return rules.bao_kong and fresh and drawable_left < rules.bao_kong_tiles


def bao_fresh_applies(drawable_left: int, fresh: bool, rules: RuleSet, *,
                      thirteen_wonders: bool = False) -> bool:
    """包生: with fewer than ``bao_fresh_tiles`` (5) drawable tiles left, a win on a fresh discard is
    paid entirely by the discarder. Not for thirteen wonders."""
    return rules.bao_fresh and fresh and not thirteen_wonders and drawable_left < rules.bao_fresh_tiles

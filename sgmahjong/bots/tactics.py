"""Shared tile-efficiency tactics: discard evaluation, acceptance (useful tiles) and claim effects.

All functions take plain 34-count lists and the number of sets already made; they never see a game
state. ``need`` = sets still to make from the concealed tiles = ``4 - n_melds``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from . import efficiency as ef

_SUIT_BASES = (0, 9, 18)


def _group_key(counts: Sequence[int], g: int) -> tuple[int, ...]:
    if g < 3:
        b = g * 9
        return tuple(counts[b:b + 9])
    return tuple(counts[27:34])


def _vec(key: tuple[int, ...], g: int, mode: int) -> ef.Vec:
    return ef.suit_vec(key, mode) if g < 3 else ef.honour_vec(key, mode)


def discard_distances(counts: list[int], n_melds: int, mode: int = ef.ALL,
                      usable: Callable[[int], bool] | None = None) -> dict[int, int]:
    """For each distinct tile held, the distance of the hand after discarding it.

    ``usable`` (optional) marks tiles a plan may use; the others count as dead weight (removed before
    evaluation), which is how the flush and sequence plans are measured.
    """
    work = counts if usable is None else [c if usable(t) else 0 for t, c in enumerate(counts)]
    vs = [_vec(_group_key(work, g), g, mode) for g in range(4)]
    rs = ef.rests(vs)
    need = 4 - n_melds
    out: dict[int, int] = {}
    base_all: int | None = None
    for t in range(34):
        if not counts[t]:
            continue
        if not work[t]:
            if base_all is None:
                base_all = ef.final(vs[0], rs[0], need)
            out[t] = base_all
            continue
        g = 3 if t >= 27 else t // 9
        work[t] -= 1
        key = _group_key(work, g)
        work[t] += 1
        out[t] = ef.final(_vec(key, g, mode), rs[g], need)
    return out


def hand_distance(counts: Sequence[int], n_melds: int, mode: int = ef.ALL,
                  usable: Callable[[int], bool] | None = None) -> int:
    """Distance of the hand as it stands (0 = complete for 14-equivalent tiles)."""
    work = counts if usable is None else [c if usable(t) else 0 for t, c in enumerate(counts)]
    return ef.distance(work, n_melds, mode)


_useful_memo: dict[tuple[tuple[int, ...], int, ef.Vec, int, int], tuple[int, ...]] = {}


def _useful(key: tuple[int, ...], suit: int, rest: ef.Vec, need: int, mode: int = ef.ALL) -> tuple[int, ...]:
    """Ranks (0-8, or honour slots 0-6) whose addition to group ``key`` lowers the hand's distance."""
    mk = (key, suit, rest, need, mode)
    hit = _useful_memo.get(mk)
    if hit is not None:
        return hit
    if len(_useful_memo) > 200_000:
        _useful_memo.clear()
    k = list(key)
    out: list[int] = []
    if suit:
        d = ef.final(ef.suit_vec(key, mode), rest, need)
        for r in range(9):
            if k[r] >= 4:
                continue
            if not (k[r] or (r > 0 and k[r - 1]) or (r < 8 and k[r + 1])
                    or (r > 1 and k[r - 2]) or (r < 7 and k[r + 2])):
                continue
            k[r] += 1
            v = ef.suit_vec(tuple(k), mode)
            k[r] -= 1
            if ef.final(v, rest, need) < d:
                out.append(r)
    else:
        d = ef.final(ef.honour_vec(key, mode), rest, need)
        for r in range(7):
            if not k[r] or k[r] >= 4:
                continue
            k[r] += 1
            v = ef.honour_vec(tuple(k), mode)
            k[r] -= 1
            if ef.final(v, rest, need) < d:
                out.append(r)
    res = tuple(out)
    _useful_memo[mk] = res
    return res


_accept_memo: dict[tuple[tuple[int, ...], int, int], tuple[int, tuple[int, ...]]] = {}


def useful_tiles(counts: list[int], n_melds: int, mode: int = ef.ALL) -> tuple[int, tuple[int, ...]]:
    """(distance, tiles whose draw lowers it) of a 13-equivalent hand, memoised on the hand (in
    ``mode``; thirteen wonders is considered in the ``ALL`` mode only)."""
    mk = (tuple(counts), n_melds, mode)
    hit = _accept_memo.get(mk)
    if hit is not None:
        return hit
    if len(_accept_memo) > 200_000:
        _accept_memo.clear()
    keys = [mk[0][0:9], mk[0][9:18], mk[0][18:27], mk[0][27:34]]
    vs = [ef.suit_vec(keys[0], mode), ef.suit_vec(keys[1], mode), ef.suit_vec(keys[2], mode),
          ef.honour_vec(keys[3], mode)]
    rs = ef.rests(vs)
    need = 4 - n_melds
    d = ef.final(vs[0], rs[0], need)
    tiles: list[int] = []
    for g in range(4):
        base = 27 if g == 3 else 9 * g
        tiles.extend(base + r for r in _useful(keys[g], g < 3, rs[g], need, mode))
    if n_melds == 0 and mode == ef.ALL:
        td = ef.thirteen_distance(counts)
        if td < d:
            d = td
            has_pair = any(counts[t] >= 2 for t in ef._TERMINALS)
            tiles = [t for t in ef._TERMINALS if not counts[t] or not has_pair]
    res = (d, tuple(tiles))
    _accept_memo[mk] = res
    return res


def acceptance(counts: list[int], n_melds: int, live: Callable[[int], int],
               mode: int = ef.ALL) -> tuple[int, int]:
    """(distance, live useful tiles) of a 13-equivalent hand: tiles whose draw lowers the distance
    (in ``mode``; thirteen wonders is considered in the ``ALL`` mode only)."""
    d, tiles = useful_tiles(counts, n_melds, mode)
    return d, sum(live(t) for t in tiles)


def fast_waits(counts: list[int], n_melds: int) -> list[int]:
    """Tiles that complete a 13-equivalent hand one tile away (memoised; [] if it is not waiting)."""
    keys = [tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27]), tuple(counts[27:34])]
    vs = [ef.suit_vec(keys[0]), ef.suit_vec(keys[1]), ef.suit_vec(keys[2]), ef.honour_vec(keys[3])]
    rs = ef.rests(vs)
    need = 4 - n_melds
    out: list[int] = []
    if ef.final(vs[0], rs[0], need) == 1:
        for g in range(4):
            base = 27 if g == 3 else 9 * g
            out.extend(base + r for r in _useful(keys[g], g < 3, rs[g], need))
    if n_melds == 0 and ef.thirteen_distance(counts) == 1:
        has_pair = any(counts[t] >= 2 for t in ef._TERMINALS)
        for t in ef._TERMINALS:
            if (not counts[t] or not has_pair) and t not in out:
                out.append(t)
    return out


def waits(counts: list[int], n_melds: int) -> list[int]:
    """Tiles that complete a 13-equivalent hand (standard or thirteen wonders)."""
    out = []
    for t in range(34):
        if counts[t] >= 4:
            continue
        counts[t] += 1
        d = ef.distance(counts, n_melds)
        if n_melds == 0 and d:
            d = min(d, ef.thirteen_distance(counts))
        counts[t] -= 1
        if d == 0:
            out.append(t)
    return out


def best_after_claim(counts: list[int], remove: Sequence[int], n_melds: int,
                     live: Callable[[int], int]) -> tuple[int, int, int]:
    """(distance, acceptance, discard) of the best discard after claiming a set that uses the
    concealed tiles ``remove`` (the claimed tile itself is not in ``counts``)."""
    work = list(counts)
    for t in remove:
        work[t] -= 1
    dd = discard_distances(work, n_melds + 1)
    best = min(dd.values())
    best_key = (99, 0, -1)
    for t, d in dd.items():
        if d != best:
            continue
        work[t] -= 1
        _, acc = acceptance(work, n_melds + 1, live)
        work[t] += 1
        key = (d, -acc, t)
        if key < best_key:
            best_key = key
    return best_key[0], -best_key[1], best_key[2]

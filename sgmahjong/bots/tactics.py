"""Shared tile-efficiency tactics: discard evaluation, acceptance (useful tiles) and claim effects.

All functions take plain 34-count lists and the number of sets already made; they never see a game
state. ``need`` = sets still to make from the concealed tiles = ``4 - n_melds``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Sequence
from typing import Final, TypeVar

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
    evaluation), which is how the flush and sequence plans are measured. (Computed directly: the
    plans are many and varied, and memoising them per group like :func:`discard_table` would only
    grow the tables that every full garbage collection traverses.)
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


# Bounds of the memo tables below: they fill within a few thousand hands of self-play and then hold a
# process's memory level (bench/bench_soak.py). At 20,000 groups and 60,000 derived entries, emptied
# all at once, four greedy bots' process still grew from 82 to 90 MB over 20,000 hands; at these
# bounds, with the derived tables' previous generation kept (below), it stays at 60-64 MB, for
# ~7% of greedy's speed.
MEMO_MAX = 5_000  # hands or groups in _useful_memo, _accept_memo and each group table
DERIVED_MAX = 15_000  # entries derived from group records (_subs, _useful_of, _dists_of), per generation

_useful_memo: dict[tuple[tuple[int, ...], int, ef.Vec, int, int], tuple[int, ...]] = {}


def _useful(key: tuple[int, ...], suit: int, rest: ef.Vec, need: int, mode: int = ef.ALL) -> tuple[int, ...]:
    """Ranks (0-8, or honour slots 0-6) whose addition to group ``key`` lowers the hand's distance."""
    mk = (key, suit, rest, need, mode)
    hit = _useful_memo.get(mk)
    if hit is not None:
        return hit
    if len(_useful_memo) > MEMO_MAX:
        _useful_memo.clear()
    d = ef.final(ef.suit_vec(key, mode) if suit else ef.honour_vec(key, mode), rest, need)
    res = tuple([r for r, v in _adds(key, bool(suit), mode) if ef.final(v, rest, need) < d])
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
    if len(_accept_memo) > MEMO_MAX:
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


# -- discard tables: every discard of a hand evaluated with shared group records -------------------

# A group record (a suit's 9 counts or the honours' 7, in one mode) is a plain tuple of numbers:
# ``(uid, key, suit, mode, vec, ranks)`` (``vec``: its distance vector, ``ranks``: the ranks held).
# What is memoised about it lives in module tables keyed by its ``uid``: the group after removing a
# tile of each rank, the draws that may help it, and per ``(rest, need)`` (``rest``: the other
# groups' combined vector) the distance after each discard and the useful draws. Plain tuples of
# numbers are not tracked by the garbage collector, so tens of thousands of records cost no pause.
Group = tuple[int, tuple[int, ...], bool, int, ef.Vec, tuple[int, ...]]
_UID: Final = 0
_KEY: Final = 1
_SUIT: Final = 2
_MODE: Final = 3
_VEC: Final = 4
_RANKS: Final = 5

_group_tables: tuple[dict[tuple[int, ...], Group], ...] = ({}, {}, {})  # by mode
_groups = _group_tables[ef.ALL]
_subs: dict[tuple[int, int], Group] = {}  # (uid, rank) -> the group without one tile of rank
_adds_of: dict[int, tuple[tuple[int, ef.Vec], ...]] = {}  # uid -> draws that may help, vector after
_useful_of: dict[tuple[int, ef.Vec, int], tuple[int, ...]] = {}  # (uid, rest, need) -> useful ranks
_dists_of: dict[tuple[int, ef.Vec, int], tuple[tuple[int, int], ...]] = {}  # -> (rank, distance)
# the derived tables' previous generation: when they fill, their entries move here (and these
# entries go), and a miss above looks here before computing, so the entries still in use survive
_subs_prev: dict[tuple[int, int], Group] = {}
_useful_prev: dict[tuple[int, ef.Vec, int], tuple[int, ...]] = {}
_dists_prev: dict[tuple[int, ef.Vec, int], tuple[tuple[int, int], ...]] = {}
_uids = itertools.count()
_K = TypeVar("_K")
_V = TypeVar("_V")


def _clear_groups(groups_too: bool = True) -> None:
    """Empty the group records and everything derived from them or, without ``groups_too``, start a
    new generation of the derived tables (which fill ~10 times faster than the records): the current
    one becomes the previous, whose entries a miss brings back, and the previous one goes."""
    keep = not groups_too
    _next_generation(_subs, _subs_prev, keep)
    _next_generation(_useful_of, _useful_prev, keep)
    _next_generation(_dists_of, _dists_prev, keep)
    _adds_of.clear()
    if groups_too:
        for groups in _group_tables:
            groups.clear()


def _next_generation(table: dict[_K, _V], prev: dict[_K, _V], keep: bool) -> None:
    """Empty ``table``; its entries become the previous generation ``prev`` if ``keep``."""
    prev.clear()
    if keep:
        prev.update(table)
    table.clear()


def _recall(table: dict[_K, _V], prev: dict[_K, _V], key: _K) -> _V | None:
    """``table[key]``, else the previous generation's entry (brought back into ``table``), else None."""
    hit = table.get(key)
    if hit is None:
        hit = prev.get(key)
        if hit is not None:
            table[key] = hit
    return hit


def _group(key: tuple[int, ...], suit: bool, mode: int = ef.ALL) -> Group:
    """The memoised record of a group in ``mode`` (suit keys have 9 counts, honour keys 7, so one
    table per mode does)."""
    table = _group_tables[mode]
    g = table.get(key)
    if g is None:
        if len(table) > MEMO_MAX:
            _clear_groups()
        elif len(_useful_of) > DERIVED_MAX or len(_dists_of) > DERIVED_MAX or len(_subs) > DERIVED_MAX:
            _clear_groups(groups_too=False)
        vec = ef.suit_vec(key, mode) if suit else ef.honour_vec(key, mode)
        g = table[key] = (next(_uids), key, suit, mode, vec, tuple(r for r, c in enumerate(key) if c))
    return g


def _sub(g: Group, r: int) -> Group:
    """The group with one tile of rank ``r`` removed."""
    sk = (g[_UID], r)
    s = _recall(_subs, _subs_prev, sk)
    if s is None:
        k = list(g[_KEY])
        k[r] -= 1
        s = _subs[sk] = _group(tuple(k), g[_SUIT], g[_MODE])
    return s


def _discard_dists(g: Group, rest: ef.Vec, need: int) -> tuple[tuple[int, int], ...]:
    """``(rank, distance of the hand after discarding a tile of that rank)`` per rank held."""
    mk = (g[_UID], rest, need)
    hit = _recall(_dists_of, _dists_prev, mk)
    if hit is None:
        hit = _dists_of[mk] = tuple([(r, _final_of(_sub(g, r)[_VEC], rest, need)) for r in g[_RANKS]])
    return hit


def _useful_ranks(g: Group, rest: ef.Vec, need: int) -> tuple[int, ...]:
    """The ranks whose draw lowers the distance of group ``g`` with ``rest`` (as :func:`_useful`)."""
    mk = (g[_UID], rest, need)
    hit = _recall(_useful_of, _useful_prev, mk)
    if hit is not None:
        return hit
    adds = _adds_of.get(g[_UID])
    if adds is None:
        adds = _adds_of[g[_UID]] = _adds(g[_KEY], g[_SUIT], g[_MODE])
    d = _final_of(g[_VEC], rest, need)
    out = _useful_of[mk] = tuple([r for r, v in adds if _final_of(v, rest, need) < d])
    return out


def _adds(key: tuple[int, ...], suit: bool, mode: int) -> tuple[tuple[int, ef.Vec], ...]:
    """The draws :func:`_useful` considers for a group, with the group's vector after each."""
    k = list(key)
    out: list[tuple[int, ef.Vec]] = []
    if suit:
        for r in range(9):
            if k[r] >= 4:
                continue
            if not (k[r] or (r > 0 and k[r - 1]) or (r < 8 and k[r + 1])
                    or (r > 1 and k[r - 2]) or (r < 7 and k[r + 2])):
                continue
            k[r] += 1
            out.append((r, ef.suit_vec(tuple(k), mode)))
            k[r] -= 1
    else:
        for r in range(7):
            if not k[r] or k[r] >= 4:
                continue
            k[r] += 1
            out.append((r, ef.honour_vec(tuple(k), mode)))
            k[r] -= 1
    return tuple(out)


def _final_of(v: ef.Vec, rest: ef.Vec, need: int) -> int:
    """:func:`efficiency.final` (the same sum, written out for the common ``need``)."""
    if need == 4:
        return min(v[0] + rest[9], v[5] + rest[4], v[1] + rest[8], v[6] + rest[3], v[2] + rest[7],
                   v[7] + rest[2], v[3] + rest[6], v[8] + rest[1], v[4] + rest[5], v[9] + rest[0])
    return ef.final(v, rest, need)


_BASES = (0, 9, 18, 27)
_OTHERS = ((1, 2, 3), (0, 2, 3), (0, 1, 3), (0, 1, 2))
_IS_TERMINAL = tuple(t in ef._TERMINALS for t in range(34))


def discard_table(counts: list[int], n_melds: int, live: Sequence[int], thirteen: bool,
                  candidates: Collection[int] | None = None, limit: int = 99,
                  ) -> tuple[dict[int, int], dict[int, int]]:
    """Every discard of a 14-equivalent hand at once (mode ``ALL``): ``(dist, acc)`` where
    ``dist[t]`` is the distance after discarding ``t`` (as :func:`discard_distances`, lowered by the
    thirteen wonders distance when ``thirteen``) and ``acc[t]``, for the ``candidates`` (default: all
    tiles held) of the lowest distance among them, the live useful tiles after discarding it (as
    :func:`acceptance` with ``live[t]`` for ``live(t)``); ``acc`` is left empty when that lowest
    distance is above ``limit``."""
    groups = _groups
    k0, k1, k2, k3 = tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27]), tuple(counts[27:34])
    grp = (groups.get(k0) or _group(k0, True), groups.get(k1) or _group(k1, True),
           groups.get(k2) or _group(k2, True), groups.get(k3) or _group(k3, False))
    vs = [g[_VEC] for g in grp]
    conv = ef.conv
    memo = ef._conv_memo  # the hits inline (a call per convolution costs as much as the lookup)
    p01 = conv(vs[0], vs[1])
    p23 = conv(vs[2], vs[3])
    rs = (conv(vs[1], p23), conv(vs[0], p23), conv(p01, vs[3]), conv(p01, vs[2]))
    need = 4 - n_melds
    std: dict[int, int] = {}
    dists_of = _dists_of
    for g in range(4):
        rec = grp[g]
        dd = dists_of.get((rec[_UID], rs[g], need)) or _discard_dists(rec, rs[g], need)
        base = _BASES[g]
        for r, d in dd:
            std[base + r] = d
    dist = std
    if thirteen:
        kinds = pairs = 0
        for x in ef._TERMINALS:
            c = counts[x]
            if c:
                kinds += 1
                if c >= 2:
                    pairs += 1
        td0 = 14 - kinds - (1 if pairs else 0)
        if td0 <= max(std.values()):  # else no discard can make thirteen wonders the nearer
            dist = dict(std)
            for t, d in std.items():
                if _IS_TERMINAL[t]:
                    c = counts[t]
                    kinds2 = kinds - 1 if c == 1 else kinds
                    pairs2 = pairs - 1 if c == 2 else pairs
                    td = 14 - kinds2 - (1 if pairs2 else 0)
                else:
                    td = td0
                if td < d:
                    dist[t] = td
    acc: dict[int, int] = {}
    cands = list(dist) if candidates is None else [t for t in dist if t in candidates]
    if not cands:
        return dist, acc
    best = min([dist[t] for t in cands])
    if best > limit:
        return dist, acc
    others: list[tuple[tuple[int, ef.Vec], ...] | None] = [None, None, None, None]
    cross: dict[tuple[int, ef.Vec], int] = {}
    useful_of = _useful_of
    for t in cands:
        if dist[t] != best:
            continue
        if dist is not std and dist[t] < std[t]:  # thirteen wonders is nearer: its missing tiles
            counts[t] -= 1
            has_pair = any(counts[x] >= 2 for x in ef._TERMINALS)
            acc[t] = sum(live[x] for x in ef._TERMINALS if not counts[x] or not has_pair)
            counts[t] += 1
            continue
        g = 3 if t >= 27 else t // 9
        rec = grp[g]
        r = t - _BASES[g]
        sub = _subs.get((rec[_UID], r)) or _sub(rec, r)
        oth = others[g]
        if oth is None:
            a, b, c = _OTHERS[g]
            oth = others[g] = ((a, conv(vs[b], vs[c])), (b, conv(vs[a], vs[c])), (c, conv(vs[a], vs[b])))
        ranks = useful_of.get((sub[_UID], rs[g], need))
        if ranks is None:
            ranks = _useful_ranks(sub, rs[g], need)
        base = _BASES[g]
        total = 0
        for x in ranks:
            total += live[base + x]
        # the other groups' useful draws depend on this group only through its vector, which
        # discards of different tiles often share (isolated tiles): count them once per vector
        sv = sub[_VEC]
        ck = (g, sv)
        more = cross.get(ck)
        if more is None:
            more = 0
            for h, pp in oth:
                rest = memo.get((sv, pp)) or conv(sv, pp)
                rec = grp[h]
                ranks = useful_of.get((rec[_UID], rest, need))
                if ranks is None:
                    ranks = _useful_ranks(rec, rest, need)
                if ranks:
                    base = _BASES[h]
                    for x in ranks:
                        more += live[base + x]
            cross[ck] = more
        acc[t] = total + more
    return dist, acc


def hand_acceptance(counts: list[int], n_melds: int, live: Sequence[int]) -> tuple[int, int]:
    """(distance, live useful tiles) of a 13-equivalent hand, as :func:`acceptance` (mode ``ALL``)
    with ``live[t]`` for ``live(t)``, from the memoised group records."""
    grp = (_group(tuple(counts[0:9]), True), _group(tuple(counts[9:18]), True),
           _group(tuple(counts[18:27]), True), _group(tuple(counts[27:34]), False))
    rs = ef.rests([g[_VEC] for g in grp])
    need = 4 - n_melds
    d = ef.final(grp[0][_VEC], rs[0], need)
    if n_melds == 0:
        td = ef.thirteen_distance(counts)
        if td < d:
            has_pair = any(counts[x] >= 2 for x in ef._TERMINALS)
            return td, sum(live[x] for x in ef._TERMINALS if not counts[x] or not has_pair)
    total = 0
    for h in range(4):
        base = _BASES[h]
        for r in _useful_ranks(grp[h], rs[h], need):
            total += live[base + r]
    return d, total

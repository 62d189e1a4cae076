"""Hand shapes: sequence hand (平胡), triplets hand (碰碰胡), hidden treasure, eighteen arhats,
thirteen wonders, nine gates."""

from __future__ import annotations

from ...analysis.special import is_nine_gates_wait
from ..facts import Arrangement, HandFacts
from ..registry import FIXED, LIMIT, pattern


def is_sequence_hand(h: HandFacts, a: Arrangement) -> bool:
    """The conditions of the sequence hand (RULES.md §4), bonus tiles aside:

    * all four sets are chows (exposed chows allowed);
    * the pair is suited, or a wind that is neither the seat nor the prevailing wind (never a dragon);
    * a hand with all four chows exposed (waiting on its single tile) never qualifies;
    * on a discard or a robbed kong the 13-tile hand waits on at least two different tiles (tiles it
      already holds four of do not count); a self-drawn win may complete any wait.
    """
    if not a.all_chows:
        return False
    p = a.pair
    if p >= 31 or p == h.seat or p == h.prevailing:
        return False
    if h.exposed_chows == 4:
        return False
    if h.self_drawn:
        return True
    return len(h.waits()) >= 2


@pattern("ping_hu", "Sequence hand", "平胡", "4", scope="decomposition")
def ping_hu(h: HandFacts, a: Arrangement) -> int:
    """Four chows and a pair, no bonus tiles, under the conditions of :func:`is_sequence_hand`."""
    return 4 if not h.bonus and is_sequence_hand(h, a) else 0


@pattern("lesser_ping_hu", "Lesser sequence hand", "臭平胡", "1", scope="decomposition")
def lesser_ping_hu(h: HandFacts, a: Arrangement) -> int:
    """The sequence hand with any bonus tile (flower or animal): 1 tai, same conditions."""
    return 1 if h.bonus and is_sequence_hand(h, a) else 0


@pattern("pong_pong", "Triplets hand", "碰碰胡", "2", scope="decomposition")
def pong_pong(h: HandFacts, a: Arrangement) -> int:
    """Four pongs or kongs (exposed or concealed) and a pair."""
    return 2 if a.all_pongs else 0


@pattern("hidden_treasure", "Hidden treasure", "四暗刻", "limit", value=LIMIT, scope="decomposition")
def hidden_treasure(h: HandFacts, a: Arrangement) -> int:
    """Four concealed pongs (concealed kongs allowed, no exposed set) and a pair, self-drawn.

    With ``hidden_treasure_on_discard`` a win off a discard also counts when the discarded tile
    completes the pair (a single wait on the pair), since every pong stays concealed."""
    if not a.all_pongs or h.has_exposed:
        return 0
    if h.self_drawn or (h.rules.hidden_treasure_on_discard and a.pair == h.winning):
        return h.rules.limit
    return 0


@pattern("eighteen_arhats", "Eighteen arhats (four kongs)", "十八罗汉", "limit", value=LIMIT, gate="n_kongs")
def eighteen_arhats(h: HandFacts) -> int:
    """Four kongs, exposed or concealed."""
    return h.rules.limit if h.n_kongs == 4 else 0


@pattern("thirteen_wonders", "Thirteen wonders", "十三幺", "13 (at most the limit)", value=FIXED,
         gate="thirteen")
def thirteen_wonders(h: HandFacts) -> int:
    """One of each terminal and honour plus a duplicate of one of them, all concealed. Everyone
    pays as on a self-drawn win (the result carries ``thirteen_wonders=True``)."""
    return 13 if h.thirteen else 0


@pattern("nine_gates", "Nine gates", "九连宝灯", "limit", value=LIMIT, gate="one_suit")
def nine_gates(h: HandFacts) -> int:
    """The 14 tiles less the winning tile are 1112345678999 of one suit; the winning tile is any tile
    of that suit. Exposed sets are allowed (the article: the player may chow or pong into it)."""
    w = h.winning
    if w < 0 or w >= 27 or h.n_kongs:
        return 0
    before = list(h.counts)
    before[w] -= 1
    return h.rules.limit if is_nine_gates_wait(before) else 0

"""The circumstances of the win: heavenly/earthly/humanly hands, fully concealed (门清), and the
additional points (花上, 杠上, 杠上杠, 抢杠, 海底捞月).

The additional points other than kong on kong are ``extra``: they do not count toward ``min_tai``
(the guide's rule) unless ``extras_count_toward_min``. Fully concealed is not in RULES.md's table; it
is counted toward ``min_tai`` as the article presents it as a low-value hand players introduced to
win with (the guide lists it among additional points; RULES.md says to follow the article first).
"""

from __future__ import annotations

from ..facts import HandFacts
from ..registry import FIXED, LIMIT, pattern


@pattern("heavenly_hand", "Heavenly hand", "天胡", "limit", value=LIMIT, gate="has_circumstances")
def heavenly_hand(h: HandFacts) -> int:
    """The dealer wins on his dealt tiles (after bonus replacements), before any discard."""
    return h.rules.limit if h.ctx.special == "heavenly" else 0


@pattern("earthly_hand", "Earthly hand", "地胡", "limit", value=LIMIT, gate="has_circumstances")
def earthly_hand(h: HandFacts) -> int:
    """A non-dealer wins on the dealer's first discard, or on his own first draw."""
    return h.rules.limit if h.ctx.special == "earthly" else 0


@pattern("humanly_hand", "Humanly hand", "人胡", "limit", value=LIMIT, gate="has_circumstances")
def humanly_hand(h: HandFacts) -> int:
    """A non-dealer wins on a discard in the first go-around, before his first draw, with no set
    claimed by anyone."""
    return h.rules.limit if h.ctx.special == "humanly" else 0


@pattern("fully_concealed", "Fully concealed hand", "门清", "+1", option="fully_concealed")
def fully_concealed(h: HandFacts) -> int:
    """Option ``fully_concealed``: no exposed chow, pong or kong (concealed kongs allowed); ``on``
    also on a discard, ``self_drawn_only`` only on a self-drawn win."""
    if h.has_exposed:
        return 0
    if h.rules.fully_concealed == "self_drawn_only" and not h.self_drawn:
        return 0
    return 1


@pattern("win_on_flower_replacement", "Win on a flower replacement", "花上", "+1", extra=True,
         gate="has_circumstances")
def win_on_flower_replacement(h: HandFacts) -> int:
    """The winning tile is a replacement for a bonus tile. ``flower_on_flower``: ``one`` +1 however
    many replacements in a row; ``per_replacement`` +1 per consecutive replacement
    (``ctx.flower_replacements``); ``five`` 5 for two or more in a row (花上花), else 1."""
    if h.ctx.replacement != "flower":
        return 0
    mode = h.rules.flower_on_flower
    n = max(1, h.ctx.flower_replacements)
    if mode == "per_replacement":
        return n
    if mode == "five" and n >= 2:
        return 5
    return 1


@pattern("win_on_kong_replacement", "Win on a kong replacement", "杠上", "+1", extra=True,
         gate="has_circumstances")
def win_on_kong_replacement(h: HandFacts) -> int:
    """The winning tile is the replacement drawn for a kong."""
    return 1 if h.ctx.replacement in ("kong", "kong_on_kong") else 0


@pattern("kong_on_kong", "Kong on kong", "杠上杠", "10 (at most the limit)", value=FIXED,
         absorbs=("win_on_kong_replacement",), gate="has_circumstances")
def kong_on_kong(h: HandFacts) -> int:
    """Winning on the replacement of a second kong in a row: 10 (absorbs the +1 of 杠上); it counts
    toward ``min_tai``."""
    return 10 if h.ctx.replacement == "kong_on_kong" else 0


@pattern("robbing_the_kong", "Robbing the kong", "抢杠", "+1", extra=True, gate="has_circumstances")
def robbing_the_kong(h: HandFacts) -> int:
    """Winning on the tile another player adds to his exposed pong (the robbed player is the
    shooter)."""
    return 1 if h.ctx.robbed_kong else 0


@pattern("last_tile", "Last tile", "海底捞月", "+1", extra=True, gate="has_circumstances")
def last_tile(h: HandFacts) -> int:
    """Self-drawn on the last drawable tile (the 16th from the end), not on a replacement draw: with
    ``ctx.replacement`` set the last tile scores nothing (the article's examples 1-3)."""
    return 1 if h.ctx.last_tile and not h.ctx.replacement else 0

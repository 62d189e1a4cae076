"""``score(hand, ctx, rules)``: the tai of a win under a rule set (RULES.md §4).

The hand is read in every way it splits into four sets and a pair (or as thirteen wonders); each
reading is scored with every pattern of the registry, and the best reading wins. How points
combine:

* limit patterns make the total the limit;
* a fixed-value hand (10 or 13) absorbs the patterns named in its descriptor (those made of its own
  sets); everything else adds; the total is capped at the limit;
* "additional points" (``extra`` patterns) do not count toward ``min_tai`` unless
  ``extras_count_toward_min``.
"""

from __future__ import annotations

from ..analysis.decompose import decompositions
from ..errors import InvalidHandError, invalid_hand
from ..hand import Hand
from ..rules import RuleSet
from . import patterns as _patterns  # noqa: F401  (fills the registry)
from .context import PatternScore, ScoreResult, WinContext
from .facts import THIRTEEN, Arrangement, HandFacts, arrangements
from .registry import FIXED, LIMIT, PATTERNS, Pattern, enabled

_Entry = tuple[Pattern, int]
_Runs = list[tuple[str | None, list[Pattern]]]
_cache: dict[int, tuple[RuleSet, _Runs, _Runs]] = {}
_SCORES: dict[tuple[str, int], PatternScore] = {}
_ORDER: dict[str, int] = {p.id: i for i, p in enumerate(PATTERNS)}  # report order


def _runs(patterns: list[Pattern]) -> _Runs:
    """Consecutive patterns sharing a gate, grouped (order kept)."""
    out: _Runs = []
    for p in patterns:
        if out and out[-1][0] == p.gate:
            out[-1][1].append(p)
        else:
            out.append((p.gate, [p]))
    return out


def _patterns_for(rules: RuleSet) -> tuple[_Runs, _Runs]:
    """The enabled hand-level and decomposition-level patterns of ``rules`` in gated runs (cached
    per rule-set object)."""
    hit = _cache.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1], hit[2]
    on = [p for p in PATTERNS if enabled(p, rules)]
    hand_level = _runs([p for p in on if p.scope == "hand"])
    dec_level = _runs([p for p in on if p.scope == "decomposition"])
    if len(_cache) > 64:
        _cache.clear()
    _cache[id(rules)] = (rules, hand_level, dec_level)
    return hand_level, dec_level


def _pattern_score(name: str, tai: int) -> PatternScore:
    """Shared immutable PatternScore objects."""
    got = _SCORES.get((name, tai))
    if got is None:
        got = _SCORES[(name, tai)] = PatternScore(name, tai)
    return got


def check_context(hand: Hand, ctx: WinContext) -> None:
    """Raise :class:`InvalidHandError` when the circumstances cannot go together (or with the hand)."""
    if not (0 <= ctx.seat_wind <= 3 and 0 <= ctx.prevailing_wind <= 3):
        raise InvalidHandError("seat and prevailing wind are 0-3 (East, South, West, North)")
    if ctx.robbed_kong and ctx.self_drawn:
        raise invalid_hand("score.robbed_self_drawn", "robbing the kong is not a self-drawn win")
    if ctx.robbed_kong and ctx.replacement:
        raise invalid_hand("score.robbed_replacement", "robbing the kong is not a win on a replacement tile")
    if ctx.replacement and not ctx.self_drawn:
        raise invalid_hand("score.replacement_self_drawn", "a win on a replacement tile is self-drawn")
    if ctx.last_tile and not ctx.self_drawn:
        raise invalid_hand("score.last_tile_self_drawn", "the last tile (海底捞月) is a self-drawn tile")
    if ctx.replacement in ("kong", "kong_on_kong"):
        kongs = sum(1 for m in hand.melds if m.is_kong)
        if ctx.replacement == "kong" and kongs < 1:
            raise invalid_hand("score.kong_replacement_kong", "a win on a kong replacement needs a kong")
        if ctx.replacement == "kong_on_kong" and kongs < 2:
            raise invalid_hand("score.kong_on_kong_kongs", "kong on kong needs two kongs")
    special = ctx.special
    if special == "heavenly" and (ctx.seat_wind != 0 or not ctx.self_drawn):
        raise invalid_hand("score.heavenly", "a heavenly hand is the dealer's (East) self-drawn win")
    if special == "earthly" and ctx.seat_wind == 0:
        raise invalid_hand("score.earthly", "an earthly hand is a non-dealer's win")
    if special == "humanly" and (ctx.seat_wind == 0 or ctx.self_drawn):
        raise invalid_hand("score.humanly", "a humanly hand is a non-dealer's win on a discard")
    if ctx.robbed_kong and hand.winning_tile is not None:
        w = hand.winning_tile
        if sum(1 for t in hand.all_tiles() if t == w) > 1:
            raise invalid_hand("score.robbed_tile_count",
                               f"a robbed kong leaves one {w!r} for the winner; the hand holds more")


def _combine(entries: list[_Entry], rules: RuleSet) -> tuple[int, int, list[_Entry]]:
    """(capped total, points toward min_tai, reported entries) for one reading."""
    limit = rules.limit
    absorbed: set[str] = set()
    has_limit = False
    for p, _v in entries:
        if p.absorbs:
            absorbed.update(p.absorbs)
        if p.value == LIMIT:
            has_limit = True
    if has_limit:
        kept = [(p, limit) for p, _v in entries if p.value == LIMIT]
        return limit, limit, kept
    total = 0
    toward_min = 0
    kept = []
    extras_count = rules.extras_count_toward_min
    for p, v in entries:
        if p.id in absorbed:
            continue
        if p.value == FIXED:
            v = min(v, limit)
        kept.append((p, v))
        total += v
        if extras_count or not p.extra:
            toward_min += v
    return min(total, limit), min(toward_min, limit), kept


def score(hand: Hand, ctx: WinContext, rules: RuleSet) -> ScoreResult:
    """Score ``hand`` (14 playing tiles with its winning tile) won in the circumstances ``ctx``.

    Returns ``valid=False`` with a reason when the tiles are not a winning hand or the best reading
    scores under ``min_tai``; raises :class:`InvalidHandError` for circumstances that cannot go
    together (a robbed kong that is self-drawn, a heavenly hand for a non-dealer...)."""
    check_context(hand, ctx)
    if hand.winning_tile is None:
        return ScoreResult(False, 0, False, reason="not a winning hand: there is no winning tile",
                           reason_code="no_winning_tile")
    h = HandFacts(hand, ctx, rules)
    readings: list[Arrangement]
    if h.thirteen:
        readings = [THIRTEEN]
    else:
        decs = decompositions(h.concealed_counts)
        if not decs:
            return ScoreResult(False, 0, False, reason="not a winning hand: the tiles do not form "
                               "four sets and a pair (nor thirteen wonders)",
                               reason_code="not_sets_and_pair")
        readings = arrangements(h, decs)
    hand_level, dec_level = _patterns_for(rules)
    base: list[_Entry] = []
    for gate, run in hand_level:
        if gate is not None and not getattr(h, gate):
            continue
        for p in run:
            v = p.fn(h)
            if v:
                base.append((p, v))
    best: tuple[int, int, list[_Entry]] | None = None
    min_tai = rules.min_tai
    for a in readings:
        entries = list(base)
        if not a.thirteen:
            for gate, run in dec_level:
                if gate is not None and not getattr(h, gate):
                    continue
                for p in run:
                    v = p.fn(h, a)
                    if v:
                        entries.append((p, v))
        result = _combine(entries, rules)
        if best is None or (result[1] >= min_tai, result[0], result[1]) > (
                best[1] >= min_tai, best[0], best[1]):
            best = result
    assert best is not None
    total, toward_min, kept = best
    if len(kept) > 1:
        kept.sort(key=lambda e: _ORDER[e[0].id])
    pats = tuple(_pattern_score(p.id, v) for p, v in kept)
    at_limit = total >= rules.limit
    if toward_min < min_tai:
        reason = f"scores {toward_min} tai; the minimum is {min_tai}"
        code = "under_min"
        if toward_min != total:
            reason = (f"scores {toward_min} tai without additional points (which do not count "
                      f"toward the minimum); the minimum is {min_tai}")
            code = "under_min_extras"
        return ScoreResult(False, total, at_limit, pats, reason, h.thirteen, code,
                           {"tai": toward_min, "min": min_tai})
    return ScoreResult(True, total, at_limit, pats, None, h.thirteen)

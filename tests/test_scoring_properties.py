"""Properties of the scorer over random complete hands."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from sgmahjong.hand import Hand
from sgmahjong.melds import Meld, MeldKind
from sgmahjong.payments import win_payments
from sgmahjong.rules import RuleSet
from sgmahjong.scoring import BY_ID, WinContext, score
from sgmahjong.tiles import Tile

SET = st.one_of(
    st.tuples(st.just("chow"), st.integers(0, 2), st.integers(0, 6)),
    st.tuples(st.just("pong"), st.integers(0, 33), st.just(0)),
)


@st.composite
def complete_hands(draw: st.DrawFn) -> tuple[Hand, WinContext]:
    counts = [0] * 34
    sets = []
    for _ in range(4):
        kind, a, b = draw(SET)
        tiles = [a * 9 + b + i for i in range(3)] if kind == "chow" else [a] * 3
        for t in tiles:
            counts[t] += 1
        sets.append((kind, tiles))
    pair = draw(st.integers(0, 33))
    counts[pair] += 2
    assume(max(counts) <= 4)
    n_exposed = draw(st.integers(0, 4))
    melds = []
    concealed: list[Tile] = [Tile(pair)] * 2
    for i, (kind, tiles) in enumerate(sets):
        if i < n_exposed:
            melds.append(Meld(MeldKind.CHOW if kind == "chow" else MeldKind.PONG, Tile(tiles[0])))
        else:
            concealed.extend(Tile(t) for t in tiles)
    w = draw(st.integers(0, len(concealed) - 1))
    winning = concealed.pop(w)
    bonus = draw(st.lists(st.integers(34, 45), max_size=4, unique=True))
    ctx = WinContext(seat_wind=draw(st.integers(0, 3)), prevailing_wind=draw(st.integers(0, 3)),
                     self_drawn=draw(st.booleans()))
    return Hand(tuple(concealed), tuple(melds), winning, tuple(Tile(b) for b in bonus)), ctx


RULES = [RuleSet(), RuleSet(limit=13), RuleSet(min_tai=0, limit=10, pure_green=True,
                                               fully_concealed="on")]


@settings(max_examples=200, deadline=None)
@given(hc=complete_hands(), rules=st.sampled_from(RULES))
def test_complete_hands_score_within_the_limit(hc: tuple[Hand, WinContext], rules: RuleSet) -> None:
    hand, ctx = hc
    r = score(hand, ctx, rules)
    assert r.reason is None or not r.reason.startswith("not a winning hand")
    assert 0 <= r.tai <= rules.limit
    assert r.limit == (r.tai == rules.limit)
    assert all(p.name in BY_ID and p.tai > 0 for p in r.patterns)
    if not any(BY_ID[p.name].value == "limit" for p in r.patterns):
        assert r.tai == min(sum(p.tai for p in r.patterns), rules.limit)
    assert r.valid == (r.reason is None)
    if r.valid:
        shooter = None if ctx.self_drawn else (ctx.seat_wind + 1) % 4
        pays = win_payments(r.tai, winner=ctx.seat_wind, shooter=shooter, self_drawn=ctx.self_drawn,
                            rules=rules, thirteen_wonders=r.thirteen_wonders)
        assert sum(pays) == 0 and pays[ctx.seat_wind] > 0


@settings(max_examples=100, deadline=None)
@given(hc=complete_hands())
def test_a_bonus_tile_never_lowers_the_score(hc: tuple[Hand, WinContext]) -> None:
    hand, ctx = hc
    rules = RuleSet(limit=20, min_tai=0)
    free = [b for b in range(42, 46) if Tile(b) not in hand.bonus]  # animals always add 1
    if not free:
        return
    more = Hand(hand.concealed, hand.melds, hand.winning_tile, (*hand.bonus, Tile(free[0])))
    before, after = score(hand, ctx, rules), score(more, ctx, rules)
    # an animal adds 1 but may turn a sequence hand (4) into a lesser one (1)
    lost = 3 if any(p.name == "ping_hu" for p in before.patterns) else 0
    lost = 10 - 4 - 1 if any(p.name == "full_flush_ping_hu" for p in before.patterns) else lost
    assert after.tai >= before.tai + 1 - lost or after.tai == rules.limit

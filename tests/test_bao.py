"""包 (paying for all): the liability predicates of RULES.md §5 and the article's scenarios."""

from __future__ import annotations

from sgmahjong.bao import (
    bao_fresh_applies,
    bao_kong_applies,
    bonus_tai,
    claim_liability,
    exposed_set_tai,
    is_fresh,
    is_unseen,
    win_liability,
)
from sgmahjong.melds import Meld, chow, kong, pong
from sgmahjong.notation import parse_meld, parse_tile, parse_tiles
from sgmahjong.rules import RuleSet

R = RuleSet()


def melds(*texts: str) -> list[Meld]:
    return [parse_meld(t) for t in texts]


def claim(ms: list[Meld], tile: str, *, kong_: bool = False, seat: int = 0, wind: int = 0,
          rules: RuleSet = R, **kw: object) -> str | None:
    return claim_liability(ms, parse_tile(tile), kong=kong_, seat_wind=seat, prevailing_wind=wind,
                           rules=rules, **kw)  # type: ignore[arg-type]


def test_dragons_third_dragon_fed() -> None:
    ms = melds("[CCC]", "[FFFF]")
    assert claim(ms, "P") == "bao_dragons"
    assert claim(ms, "P", kong_=True) == "bao_dragons"
    assert claim(melds("[CCC]", "[123m]"), "F") is None
    assert claim(ms, "P", rules=R.with_options(bao_dragons=False, bao_limit=False)) is None


def test_winds_fourth_wind_fed() -> None:
    ms = melds("[EEE]", "[SSS]", "[WWW]")
    assert claim(ms, "N", seat=2, wind=0) == "bao_winds"
    assert claim(melds("[EEE]", "[SSS]"), "W", seat=3, wind=3) is None


def test_limit_fed_counts_exposed_sets_only() -> None:
    # RULES.md §5: "exposed" means claimed or added sets; concealed kongs and bonus tiles do not count
    ms = melds("[EEE]", "[SSS]")  # seat South, prevailing East: 1 + 1
    assert exposed_set_tai(ms, 1, 0) == 2
    r3 = R.with_options(limit=3, min_tai=1)
    assert claim(ms, "C", seat=1, wind=0, rules=r3) == "bao_limit"  # 2 -> 3, the limit
    assert claim(ms, "W", seat=1, wind=0, rules=r3) is None  # not a value honour
    assert claim(ms, "C", seat=1, wind=0) is None  # limit 5: 3 after the pong
    bonus = parse_tiles("1a2a")  # animals on the table do not count
    assert claim(ms, "C", seat=1, wind=0, bonus=bonus) is None
    # a concealed kong does not count: one exposed value set, 2 after the pong
    assert claim(melds("[SSS]", "{EEEE}"), "C", seat=1, wind=0, rules=r3) is None
    assert claim(melds("[SSS]", "[EEEE]"), "C", seat=1, wind=0, rules=r3) == "bao_limit"
    # limit-2 and the tile is A's double wind (seat East in the East round)
    assert claim(melds("[CCC]", "[123m]"), "E", seat=0, wind=0, rules=r3) == "bao_limit"  # 1 -> 3
    assert claim(melds("[CCC]", "[123m]"), "S", seat=0, wind=0, rules=r3) is None
    # already at the limit: nothing to reach
    assert claim(melds("[CCC]", "[FFF]", "[EEE]"), "S", seat=1, wind=0, rules=r3) is None


def test_bonus_tai() -> None:
    assert bonus_tai(parse_tiles("1a2a3a4a"), 0) == 5
    assert bonus_tai(parse_tiles("1f2f3f4f"), 0) == 2
    assert bonus_tai(parse_tiles("2f6f"), 1) == 2 and bonus_tai(parse_tiles("2f6f"), 0) == 0


def test_arhats_fourth_kong_on_an_unseen_tile() -> None:
    ms = melds("[1111m]", "[2222p]", "{3333s}")
    assert claim(ms, "5s", kong_=True, unseen=True) == "bao_arhats"
    assert claim(ms, "5s", kong_=True, unseen=False) is None
    assert claim(ms, "5s", kong_=False, unseen=True) is None


def test_flush_win_on_a_tile_of_the_suit() -> None:
    ms = melds("[123s]", "[555s]", "[789s]")
    assert win_liability(ms, parse_tile("4s"), R) == "bao_flush"
    assert win_liability(ms, parse_tile("4m"), R) is None
    assert win_liability(ms, parse_tile("C"), R) is None
    assert win_liability(ms[:2], parse_tile("4s"), R) is None  # three sets needed
    assert win_liability(melds("[123s]", "[555s]", "[789p]"), parse_tile("4s"), R) is None
    # 包字一色: honours
    assert win_liability(melds("[EEE]", "[SSS]", "[NNN]"), parse_tile("W"), R) is not None
    assert win_liability(melds("[EEE]", "[SSS]", "[CCC]"), parse_tile("E"), R) == "bao_flush"
    # a concealed kong does not count toward the three sets (RULES.md §5: "exposed")
    assert win_liability(melds("[123s]", "[555s]", "{7777s}"), parse_tile("4s"), R) is None
    assert win_liability(melds("[123s]", "[555s]", "{7777s}", "[999s]"), parse_tile("4s"), R) == "bao_flush"


def test_dragons_and_winds_won_on_as_the_pair() -> None:
    # two dragon sets exposed; B discards the third dragon and A wins on it (as the pair)
    assert win_liability(melds("[CCC]", "[FFFF]"), parse_tile("P"), R) == "bao_dragons"
    assert win_liability(melds("[CCC]", "[123m]"), parse_tile("P"), R) is None
    assert win_liability(melds("[CCC]", "[FFF]"), parse_tile("C"), R) is None  # not the third dragon
    assert win_liability(melds("[CCC]", "[FFF]"), parse_tile("P"), R.with_options(bao_dragons=False)) is None
    assert win_liability(melds("[EEE]", "[SSS]", "[WWW]"), parse_tile("N"), R) == "bao_winds"


def test_terminals_and_green() -> None:
    ms = melds("[111m]", "[999p]", "[1111s]")
    assert win_liability(ms, parse_tile("9s"), R) == "bao_terminals"
    assert win_liability(ms, parse_tile("5s"), R) is None
    green = melds("[234s]", "[666s]", "[FFF]")
    assert win_liability(green, parse_tile("8s"), R) is None  # pure_green off
    assert win_liability(green, parse_tile("8s"), R.with_options(pure_green=True)) == "bao_green"
    assert win_liability(green, parse_tile("5s"), R.with_options(pure_green=True)) is None


def test_fresh_tile() -> None:
    t = parse_tile("5p")
    pools = [parse_tiles("1m2m"), [], parse_tiles("E"), []]
    assert is_fresh(t, pools, [], R)
    assert not is_fresh(t, [*pools[:3], parse_tiles("5p")], [], R)
    # claimed for a pong or kong: discarded; chow tiles: not
    assert not is_fresh(t, pools, [pong(t)], R)
    assert not is_fresh(t, pools, [kong(t)], R)
    assert is_fresh(t, pools, [chow(parse_tile("4p"))], R)
    assert is_fresh(t, pools, [kong(t, concealed=True)], R)
    wide = R.with_options(fresh_tile="discards_or_exposed")
    assert not is_fresh(t, pools, [chow(parse_tile("4p"))], wide)
    # unseen: nowhere on the table
    assert not is_unseen(t, pools, [chow(parse_tile("3p"))])
    assert is_unseen(t, pools, [chow(parse_tile("6p"))])


def test_bao_kong_and_bao_fresh_thresholds() -> None:
    assert bao_kong_applies(6, True, R)
    assert not bao_kong_applies(7, True, R)
    assert not bao_kong_applies(3, False, R)
    assert not bao_kong_applies(3, True, R.with_options(bao_kong=False))
    assert bao_fresh_applies(4, True, R)
    assert not bao_fresh_applies(5, True, R)
    assert not bao_fresh_applies(0, True, R, thirteen_wonders=True)
    assert bao_fresh_applies(6, True, R.with_options(bao_fresh_tiles=7))

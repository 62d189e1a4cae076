"""The rule set: every option of RULES.md §3-§5 in one frozen, validated object, with presets.

>>> RuleSet().limit
5
>>> RuleSet.preset("site").base
10
>>> RuleSet().with_options(limit=10).limit
10
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field, fields
from typing import Any, Literal, get_args

from .errors import RuleSetError

Payout = Literal["all_pay", "shooter_pays"]
Stakes = Literal["doubling", "chart_3_6"]
InstantPayments = Literal["all", "animals_only", "none"]
FlowerOnFlower = Literal["one", "per_replacement", "five"]
FullyConcealed = Literal["off", "on", "self_drawn_only"]
FreshTile = Literal["discards", "discards_or_exposed"]

def _opt(default: Any, doc: str, **kw: Any) -> Any:
    return field(default=default, metadata={"doc": doc, **kw})


@dataclass(frozen=True)
class RuleSet:
    """Every house-rule option. Build with ``RuleSet(**options)``, ``RuleSet.preset(name)`` or
    ``rules.with_options(key=value)``; bad keys or values raise :class:`RuleSetError`."""

    # §4 scoring
    limit: int = _opt(5, "tai limit (cap); any value >= 3", minimum=3, maximum=20)
    min_tai: int = _opt(1, "minimum tai to win (0 allows the chicken hand)", minimum=0, maximum=20)
    pure_green: bool = _opt(False, "all green (绿一色) scores 4 instead of half flush")
    fully_concealed: FullyConcealed = _opt("off", "门清 +1 for a hand with no exposed set")
    extras_count_toward_min: bool = _opt(False, "additional points count toward min_tai")
    flower_on_flower: FlowerOnFlower = _opt("one", "tai for winning on flower replacements")
    hidden_treasure_on_discard: bool = _opt(False, "hidden treasure also on a discard (pair wait)")
    declare_three_dragons: bool = _opt(True, "three dragon sets win at once for 5 tai")
    declare_four_winds: bool = _opt(True, "four wind sets win at once for 10 tai (capped)")
    eight_flowers: bool = _opt(True, "eight flowers win at once at the limit")
    robbing_the_eighth: bool = _opt(True, "seven flowers rob the eighth at the limit")
    # §5 payments
    base: int = _opt(1, "payment of a 1-tai hand per loser", minimum=1, maximum=1_000_000)
    payout: Payout = _opt("all_pay", "who pays a win")
    stakes: Stakes = _opt("doubling", "doubling per tai, or the 3/6 chart (shooter_pays only)")
    zimo_bonus: int = _opt(0, "extra paid by each loser on a self-drawn win", minimum=0, maximum=1_000_000)
    instant: int | None = _opt(None, "unit of instant payments (default 2 x base)", minimum=0,
                               maximum=1_000_000)
    instant_payments: InstantPayments = _opt("all", "which instant payments are made")
    bao_dragons: bool = _opt(True, "包: third dragon set fed")
    bao_winds: bool = _opt(True, "包: fourth wind set fed")
    bao_limit: bool = _opt(True, "包: set that reaches the limit fed")
    bao_flush: bool = _opt(True, "包: flush completed on a discard of the suit")
    bao_terminals: bool = _opt(True, "包: pure terminals completed on a discard")
    bao_arhats: bool = _opt(True, "包: fourth kong on an unseen tile")
    bao_green: bool = _opt(True, "包: pure green fed (with pure_green only)")
    fresh_tile: FreshTile = _opt("discards", "what makes a tile no longer fresh (生牌)")
    bao_kong: bool = _opt(True, "包杠: a fresh discard konged late pays the whole kong")
    bao_kong_tiles: int = _opt(7, "包杠 applies with fewer drawable tiles than this", minimum=0,
                               maximum=148)
    bao_fresh: bool = _opt(True, "包生: a win on a fresh discard late is paid by the shooter")
    bao_fresh_tiles: int = _opt(5, "包生 applies with fewer drawable tiles than this", minimum=0,
                                maximum=148)
    # §3 match
    rounds: int = _opt(4, "prevailing-wind rounds in a match", minimum=1, maximum=4)
    rotate_every_hand: bool = _opt(False, "the deal passes after every hand (duplicate events: hand k "
                                   "is dealt by seat k mod 4)")
    match_hands: int = _opt(0, "hands in a match (0: the prevailing-wind rounds decide)", minimum=0,
                            maximum=64)

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            _check_value(f, value)
        if self.stakes == "chart_3_6" and self.payout != "shooter_pays":
            raise RuleSetError("stakes=chart_3_6 needs payout=shooter_pays")
        if self.min_tai > self.limit:
            raise RuleSetError(f"min_tai ({self.min_tai}) cannot exceed limit ({self.limit})")

    # -- derived values ------------------------------------------------------------------------
    @property
    def instant_unit(self) -> int:
        """The unit of instant payments: ``instant`` or, by default, ``2 x base``."""
        return self.instant if self.instant is not None else 2 * self.base

    # -- construction --------------------------------------------------------------------------
    def with_options(self, **options: Any) -> RuleSet:
        """A copy with some options changed (validated like the constructor)."""
        _check_keys(options)
        return dataclasses.replace(self, **options)

    def with_strings(self, pairs: dict[str, str]) -> RuleSet:
        """A copy with options given as strings (``{"limit": "10", "payout": "shooter_pays"}``)."""
        _check_keys(pairs)
        by_name = {f.name: f for f in fields(self)}
        return self.with_options(**{k: _coerce(by_name[k], v) for k, v in pairs.items()})

    @classmethod
    def preset(cls, name: str) -> RuleSet:
        try:
            return PRESETS[name]
        except KeyError:
            raise RuleSetError(f"unknown preset {name!r}; presets: {', '.join(PRESETS)}") from None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        _check_keys(data)
        return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def changed_from_default(self) -> dict[str, Any]:
        default = RuleSet()
        return {k: v for k, v in self.to_dict().items() if getattr(default, k) != v}

    @classmethod
    def describe(cls) -> list[dict[str, Any]]:
        """Each option: name, default, allowed values (or range) and its description."""
        out: list[dict[str, Any]] = []
        for f in fields(cls):
            entry: dict[str, Any] = {"name": f.name, "default": f.default, "doc": f.metadata["doc"]}
            choices = _choices(f)
            if choices:
                entry["choices"] = list(choices)
            elif "minimum" in f.metadata:
                entry["minimum"] = f.metadata["minimum"]
                entry["maximum"] = f.metadata["maximum"]
            entry["type"] = _type_name(f)
            out.append(entry)
        return out


def _type_name(f: dataclasses.Field[Any]) -> str:
    if _choices(f):
        return "choice"
    t = str(f.type)
    if "bool" in t:
        return "bool"
    return "int"


def _choices(f: dataclasses.Field[Any]) -> tuple[str, ...]:
    hint = _HINTS.get(f.name)
    return get_args(hint) if hint is not None else ()


_HINTS: dict[str, Any] = {
    "payout": Payout,
    "stakes": Stakes,
    "instant_payments": InstantPayments,
    "flower_on_flower": FlowerOnFlower,
    "fully_concealed": FullyConcealed,
    "fresh_tile": FreshTile,
}


def _check_keys(options: dict[str, Any]) -> None:
    known = {f.name for f in fields(RuleSet)}
    for key in options:
        if key not in known:
            raise RuleSetError(f"unknown rule {key!r}")


def _check_value(f: dataclasses.Field[Any], value: Any) -> None:
    name = f.name
    choices = _choices(f)
    if choices:
        if value not in choices:
            raise RuleSetError(f"rule {name} must be one of {', '.join(choices)}; got {value!r}")
        return
    kind = _type_name(f)
    if kind == "bool":
        if not isinstance(value, bool):
            raise RuleSetError(f"rule {name} must be true or false; got {value!r}")
        return
    if value is None and f.default is None:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleSetError(f"rule {name} must be a whole number; got {value!r}")
    lo, hi = f.metadata["minimum"], f.metadata["maximum"]
    if not lo <= value <= hi:
        raise RuleSetError(f"rule {name} must be between {lo} and {hi}; got {value}")


def _coerce(f: dataclasses.Field[Any], text: str) -> Any:
    if _choices(f):
        return text
    kind = _type_name(f)
    if kind == "bool":
        low = text.strip().lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        raise RuleSetError(f"rule {f.name} must be true or false; got {text!r}")
    try:
        return int(text)
    except ValueError:
        raise RuleSetError(f"rule {f.name} must be a whole number; got {text!r}") from None


def parse_rule_assignment(text: str) -> tuple[str, str]:
    """Split ``KEY=VALUE`` (the CLI's ``--rule``)."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise RuleSetError(f"a rule is written KEY=VALUE; got {text!r}")
    return key.strip(), value.strip()


PRESETS: dict[str, RuleSet] = {
    "default": RuleSet(),
    # The rival site: 1 tai = 10 points, all-pay; its instant payments are 10 a unit (咬到 10, 明杠 10,
    # 暗杠 20, four animals 20 more), where the default unit would be 2 x base = 20.
    "site": RuleSet(base=10, payout="all_pay", instant=10),
    "shooter_pays": RuleSet(payout="shooter_pays"),
}

"""Every module-level table of the package is bounded (issue 13: a long-running server's memory levels
off). A table is either a constant (filled at import, never written), a memo over a small fixed domain,
or a memo emptied when it reaches a bound; a new module-level table fails the first test until it is
declared here, and the second plays hands with every bound lowered and checks each memo stays within
its own.

The bots' distance-vector memos (``efficiency._memo``) once had no bound: the suit shapes number
~405k per mode and a server's bots meet a few new ones every hand, so a server soak grew by ~1.5 KB a
hand for as long as it ran (bench/bench_soak.py)."""

from __future__ import annotations

import collections
import importlib
import pkgutil
import random
import sys
from typing import Any

import pytest

import sgmahjong

# module-level tables filled at import and never written (module.name)
CONSTANTS = {
    "analysis.decompose.SUIT_COMPLETE", "analysis.decompose.SUIT_DECOMPS", "analysis.shanten._ORPHAN_INDEX",
    "analysis.waits._ALL_ORPHANS", "bots.CLOCKS", "bots.determinise._KINDS", "bots.forward._PHASE",
    "bots.horizon.VALUES",
    "bots.lean_seat.NO_WINS", "bots.perception._TILE", "bots.perception._INDEX", "cli.COMMANDS",
    "game.events._PRIVATE", "game.events._OWN_ONLY", "game.events._SECRET", "game.testing._QUIET",
    "game.view._NOTATION", "game.wall._NAMES", "notation._SUIT_BASE", "notation._SUIT_MAX",
    "notation._HONOURS", "notation._ALIASES", "payments.INSTANT_UNITS", "review.REASON_CODES",
    "rules._HINTS", "rules.PRESETS", "scoring.BY_ID", "scoring.PATTERNS", "scoring.SPECIAL_WINS",
    "scoring.context.REASON_CODES", "scoring.registry._FIXED_VALUES", "scoring.registry._ADD_VALUES",
    "scoring.scorer._ORDER", "tiles._NOTATION", "server.http.reference.PRESETS",
    "server.http.websocket.MOVED", "server.http.reference.BOT_LEVEL_INFO", "server.http.pages.PAGES",
    "server.http.common.STORAGE_DOWN", "server.http.common.STATUS", "server.http.websocket.STORAGE_DOWN",
    "server.http.app.STORAGE_DOWN",
    "server.options.CHOICES", "server.table.bot_timing.PACES",
    "server.http.assets.TYPES", "server.http.assets.TEXT", "server.http.assets.SHELL_PAGES",
    "calculator._FIELDS",  # a calculator request's fields, their checks and defaults
    "server.table.departures.GONE",  # the message of a socket sent away (its player was deleted)
    "server.table.departures.SIGNED_OUT",  # the message of a socket sent away (its session ended)
    # the same objects imported under other names
    "analysis.tables.SUIT_COMPLETE", "analysis.tables.SUIT_DECOMPS", "analysis.waits.SUIT_COMPLETE",
    "bots.expert.CLOCKS", "bots.lean.NO_WINS", "bots.lean_state.NO_WINS", "calculator.BY_ID",
    "calculator.SPECIAL_WINS", "calculator._REPLACEMENTS",
    "scoring.reference.PATTERNS", "scoring.reference.SPECIAL_WINS", "scoring.registry.BY_ID",
    "scoring.registry.PATTERNS", "scoring.scorer.PATTERNS", "scoring.special.SPECIAL_WINS",
    "server.cluster.ownership.MOVED", "server.http.players.PRESETS", "server.protocol.BOT_LEVEL_INFO",
    "server.http.clubs.PRESETS", "server.clubs.view.PRESETS",
    "bots.styles.STYLES", "bots.styles.CLAIM_ORDER", "bots.STYLES", "commands.simulate.STYLES",  # test styles
    "bots.forward._CLAIM_RANK",  # the eager rollout style: the order of the claims it takes
    "server.http.events_http.PRESETS",  # rules.PRESETS imported
    "server.http.previews.CARD", "server.http.previews.TEXTS",  # link previews' card size and words
    "server.push.evening.WORDS",  # the notifications' words, per language
    "bots.tells.FACTORS",  # what the discards tell: measured factors (bench/tile_tells.py)
    "bots.EXPERT_VARIANTS",  # the expert's variants (expert+told)
    "bots.expert.BASES",  # the players the expert's search may start from (strong, wary, advised)
}

# memos over a small fixed domain: name -> most entries
FIXED_DOMAIN = {
    "bots.perception._MELDS": 10_000,  # meld tile strings (also capped at 10,000)
    "game.view._MELD_TILES": 4 * 34,  # (meld kind, tile)
    "game.view._ACTION_TEXT": 16 * 43,  # (action kind, tile or None)
    "scoring.scorer._cache": 65,  # by rule-set object, emptied past 64
    "scoring.scorer._SCORES": 36 * 14,  # (pattern, tai)
    # the database files (device, inode) of this process's open SQLite stores: a server opens one
    "server.store.sqlite._held": 1,
}

# memos emptied when full: name -> (module of the bound, the bound's name, entries allowed beyond it)
BOUNDED: dict[str, tuple[str, str, int]] = {
    **{f"analysis.{name}": ("analysis.tables", "MEMO_LIMIT", 0) for name in (
        "decompose._GLOBAL", "decompose._HONOURS", "shanten._SUIT_FAST", "shanten._HONOUR_FAST",
        "shanten._NEIGHBOURS", "tables._SUIT_WAITS", "tables._SUFFIX", "tables._SUIT_OPTIONS",
        "tables._HONOUR_OPTIONS", "waits._GROUP_WAITS", "waits._HONOUR_STATE")},
    "bots.efficiency._memo": ("bots.efficiency", "VEC_MAX", 14),  # a shape's sub-shapes, then itself
    "bots.efficiency._honour_memo": ("bots.efficiency", "VEC_MAX", 14),
    "bots.efficiency._conv_memo": ("bots.efficiency", "CONV_MAX", 1),
    "bots.efficiency._code_memo": ("bots.efficiency", "VEC_MAX", 1),  # the quick policy's suit vectors
    "bots.forward._keeps_memo": ("bots.efficiency", "CONV_MAX", 1),  # the expert's quick policy
    "bots.tactics._useful_memo": ("bots.tactics", "MEMO_MAX", 1),
    "bots.tactics._accept_memo": ("bots.tactics", "MEMO_MAX", 1),
    "bots.tactics._group_tables": ("bots.tactics", "MEMO_MAX", 1),
    "bots.tactics._groups": ("bots.tactics", "MEMO_MAX", 1),
}
# emptied with the group tables, checked when a group is made: a few hands' entries beyond the bound
DERIVED = {"bots.tactics._subs", "bots.tactics._useful_of", "bots.tactics._dists_of", "bots.tactics._adds_of",
           "bots.tactics._subs_prev", "bots.tactics._useful_prev", "bots.tactics._dists_prev"}

SMALL = 60  # every bound, lowered for the play below


def _is_table(value: Any) -> bool:
    if isinstance(value, (dict, set, list, collections.deque)):
        return True
    return isinstance(value, tuple) and bool(value) and all(isinstance(x, (dict, set, list)) for x in value)


def _tables() -> dict[str, Any]:
    """Every module-level table of the package, by ``module.name`` without ``sgmahjong.``."""
    for info in pkgutil.walk_packages(sgmahjong.__path__, "sgmahjong."):
        if info.name != "sgmahjong.__main__":
            importlib.import_module(info.name)
    out: dict[str, Any] = {}
    for name, module in sorted(sys.modules.items()):
        if not name.startswith("sgmahjong."):
            continue
        for attr, value in vars(module).items():
            if not attr.startswith("__") and _is_table(value):
                out[f"{name.removeprefix('sgmahjong.')}.{attr}"] = value
    return out


def _size(value: Any) -> int:
    """Entries of a table (of the biggest part for a tuple of tables: each part is bounded alone)."""
    if isinstance(value, tuple):
        return max(len(x) for x in value)
    return len(value)


def test_every_module_level_table_is_declared() -> None:
    found = set(_tables())
    declared = CONSTANTS | set(FIXED_DOMAIN) | set(BOUNDED) | DERIVED
    assert found - declared == set(), "a new module-level table: declare it here, with its bound"
    assert declared - found == set(), "a declared table is gone: remove it here"


def test_the_memos_stay_within_their_bounds_over_play(monkeypatch: pytest.MonkeyPatch) -> None:
    from sgmahjong.analysis import shanten
    from sgmahjong.bots import make_bot
    from sgmahjong.bots.arena import play_hand
    from sgmahjong.rules import RuleSet

    tables = _tables()
    constants = {name: _size(tables[name]) for name in CONSTANTS}
    for module, bound, _ in BOUNDED.values():
        monkeypatch.setattr(sys.modules[f"sgmahjong.{module}"], bound, SMALL)
    monkeypatch.setattr(sys.modules["sgmahjong.bots.tactics"], "DERIVED_MAX", SMALL)
    for name in (*BOUNDED, *DERIVED):  # start empty (they refill: memos hold nothing but results)
        for part in tables[name] if isinstance(tables[name], tuple) else (tables[name],):
            part.clear()

    biggest = dict.fromkeys(tables, 0)

    def look() -> None:
        for name, value in tables.items():
            biggest[name] = max(biggest[name], _size(value))

    rules = RuleSet()
    rng = random.Random(5)
    for level, hands in (("greedy", 12), ("strong", 4)):
        bots = [make_bot(level, i, rules) for i in range(4)]
        for n in range(hands):
            play_hand(rules, bots, seed=100 + n, dealer=n % 4)
            look()
    from sgmahjong.bots.expert import ExpertBot

    searcher = [ExpertBot(0, rules, budget_ms=None, max_rounds=2, extend=1),
                *(make_bot("strong", i, rules) for i in (1, 2, 3))]
    play_hand(rules, searcher, seed=99, dealer=0)  # the expert's playouts (forward's quick policy)
    look()
    for _ in range(300):  # the server's hints (shanten) on random hands
        tiles = sorted(rng.sample(range(136), 13))
        counts = [0] * 34
        for t in tiles:
            counts[t // 4] += 1
        shanten.shanten(counts)
        look()

    for name, (_, _, beyond) in BOUNDED.items():
        assert biggest[name] <= SMALL + beyond, name
    for name in DERIVED:
        assert biggest[name] <= 4 * SMALL, name
    for name, most in FIXED_DOMAIN.items():
        assert biggest[name] <= most, name
    for name, size in constants.items():
        assert _size(tables[name]) == size, name
    # the play went far beyond the bounds: a memo without one would have failed above
    for name in ("bots.efficiency._memo", "bots.efficiency._conv_memo", "bots.forward._keeps_memo",
                 "bots.tactics._accept_memo",
                 "bots.tactics._groups", "analysis.tables._SUIT_WAITS", "analysis.shanten._SUIT_FAST"):
        assert biggest[name] >= SMALL // 2, name
    # the derived tables were full at least once without the groups: a previous generation was kept
    assert biggest["bots.tactics._dists_prev"] > 0 and biggest["bots.tactics._useful_prev"] > 0

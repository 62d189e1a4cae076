"""The compiled hot path (mypyc, ``make compile``; :mod:`sgmahjong.native`): the same play as the pure
Python, loaded in place of the sources when built and fresh, never when stale or ``SGMAHJONG_PURE=1``."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sgmahjong import native
from sgmahjong.bots.shuffle import draw_told, shuffle

ROOT = Path(__file__).resolve().parent.parent

# plays hands with an expert in seat 0 (fixed deals, no budget: deterministic) and prints every search's
# statistics and choice, the hands' ledgers, and which compiled modules were loaded as extensions
_PLAY = """
import json, sys
from sgmahjong import native
from sgmahjong.bots.arena import play_hand
from sgmahjong.bots.expert import ExpertBot
from sgmahjong.bots.strong import StrongBot
from sgmahjong.rules import RuleSet

rules = RuleSet()
searches = []

class Recording(ExpertBot):
    def choose(self, view, legal):
        action = super().choose(view, legal)
        s = self.stats
        searches.append([repr(action), s.rounds, s.playouts, s.candidates, s.overruled,
                         round(s.advantage, 9)])
        return action

hands = []
for n in range(int(sys.argv[1])):
    bots = [Recording(7 + n, rules, budget_ms=None, max_rounds=16), *(StrongBot(s, rules) for s in (1, 2, 3))]
    hands.append(play_hand(rules, bots, seed=910 + n, dealer=n % 4).net)
compiled = [name for name in native.COMPILED if native.is_compiled(sys.modules[name])]
print(json.dumps({"searches": searches, "hands": hands, "compiled": compiled}))
"""


def _play(hands: int, *, pure: bool) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
    if pure:
        env[native.PURE_ENV] = "1"
    out = subprocess.run([sys.executable, "-c", _PLAY, str(hands)], cwd=ROOT, env=env, capture_output=True,
                         text=True, check=True, timeout=600)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def _built() -> bool:
    return all(native.extension(n) is not None and not native.stale(n) for n in native.COMPILED)


def test_compiled_and_pure_expert_play_alike() -> None:
    """With a fixed number of deals the expert searches and chooses exactly alike compiled and pure."""
    pure = _play(4, pure=True)
    assert pure["compiled"] == []
    fast = _play(4, pure=False)
    assert fast["compiled"] == (list(native.COMPILED) if _built() else [])
    searches = pure["searches"]  # [choice, deals, playouts, candidates, overruled, advantage]
    assert len(searches) > 40
    assert sum(s[2] for s in searches) > 1000  # playouts, whose results decide the drops and choices
    assert any(s[4] for s in searches)  # strong overruled: a choice the rollouts' results made
    assert fast == {**pure, "compiled": fast["compiled"]}


def test_the_built_extensions_are_what_runs() -> None:
    """Extensions that are built and fresh are imported in place of the sources (in this process)."""
    for name in native.COMPILED:
        module = sys.modules.get(name) or __import__(name, fromlist=["_"])
        assert native.is_compiled(module) == (_built() and not native.pure_requested()), name


def test_a_stale_extension_runs_the_sources() -> None:
    """One compiled module older than its source: every compiled module loads from source, with a
    warning (compiled modules call each other's compiled code directly)."""
    code = (
        "import warnings, sys\n"
        "from sgmahjong import native\n"
        "native.stale = lambda name: name == 'sgmahjong.bots.forward'\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    import sgmahjong.bots.lean\n"
        "print(sorted(n for n in native.COMPILED if native.is_compiled(sys.modules[n])))\n"
        "print(['older than their sources (sgmahjong.bots.forward)' in str(w.message) for w in caught])\n"
    )
    env = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True, timeout=120).stdout.splitlines()
    assert out == ["[]", "[True]"]


def test_stale_means_older_than_the_source_or_an_inlined_module(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """An extension is stale when its ``.py`` or a module whose constants it inlines is newer."""
    monkeypatch.setattr(native, "ROOT", tmp_path)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    files = {name: tmp_path / name for name in
             ("bots/lean.py", f"bots/lean{suffix}", "tiles.py", "game/state.py")}
    for path in files.values():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("")
        os.utime(path, (1000, 1000))
    so = files[f"bots/lean{suffix}"]
    assert native.extension("sgmahjong.bots.lean") == so
    assert not native.stale("sgmahjong.bots.lean")
    os.utime(so, (2000, 2000))
    assert not native.stale("sgmahjong.bots.lean")
    for edited in ("bots/lean.py", "tiles.py", "game/state.py"):
        os.utime(files[edited], (3000, 3000))
        assert native.stale("sgmahjong.bots.lean"), edited
        os.utime(files[edited], (1000, 1000))
    so.unlink()
    assert native.extension("sgmahjong.bots.lean") is None
    assert not native.stale("sgmahjong.bots.lean")  # nothing compiled: nothing stale


def test_shuffle_is_random_shuffle() -> None:
    """The sampling's shuffle gives ``random.shuffle``'s permutations and uses the same random bits."""
    for seed in range(300):
        for n in (0, 1, 2, 3, 5, 17, 64, 136):
            a, b = list(range(n)), list(range(n))
            r1, r2 = random.Random(seed), random.Random(seed)
            r1.shuffle(a)
            shuffle(b, r2)
            assert a == b
            assert r1.random() == r2.random()


def _draw_by_sorting(pool: list[int], hidden: tuple[int, ...], weights: tuple[tuple[float, ...], ...],
                     rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """The told draw written plainly: sort every tile's exponential clock, each seat takes the first."""
    hands: list[list[int]] = [[], [], [], []]
    for s in range(4):
        if not hidden[s]:
            continue
        clocks = sorted((-math.log(1.0 - rng.random()) / weights[s][x], i) for i, x in enumerate(pool))
        take = {i for _, i in clocks[:hidden[s]]}
        hands[s] = sorted(pool[i] for i in take)
        pool = [x for i, x in enumerate(pool) if i not in take]
    return hands, pool


def test_the_told_draw_is_the_sorted_clocks_draw() -> None:
    """The told draw keeps only each seat's smallest clocks as they come, and gives the hands and the
    rest that sorting every clock gives, from the same random numbers; equal weights included."""
    for seed in range(200):
        rng = random.Random(seed)
        pool = sorted(rng.choices(range(34), k=rng.randrange(0, 90)))
        hidden = tuple(0 if s == seed % 4 else rng.randrange(0, 14) for s in range(4))
        if sum(hidden) > len(pool):
            hidden = (0, 0, 0, 0)
        flat = seed % 3 == 0  # every tile the same weight: the clocks alone decide
        weights = tuple(tuple(1.0 if flat else rng.choice((0.02, 0.3, 1.0, 1.4)) for _ in range(34))
                        for _ in range(4))
        r1, r2 = random.Random(seed + 1), random.Random(seed + 1)
        told = draw_told(list(pool), list(pool), hidden, weights, r1)
        assert told == _draw_by_sorting(pool, hidden, weights, r2)
        assert r1.random() == r2.random()


def test_the_makefile_rebuilds_when_any_compiled_module_or_what_it_inlines_changes() -> None:
    """The Makefile takes its list of compiled sources from native.py (one list): an edit to any module
    in ``COMPILED`` or ``INLINED`` makes ``make compile`` rebuild."""
    out = subprocess.run(["make", "-pn", "compile"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60, check=False).stdout
    line = next(x for x in out.splitlines() if x.startswith("NATIVE_SRC :="))
    listed = line.split(":=", 1)[1].split()
    wanted = [str(native.source(n).relative_to(ROOT)) for n in (*native.COMPILED, *native.INLINED)]
    assert listed == [*wanted, "sgmahjong/native.py", "tools/compile.py"]


def test_clean_removes_every_extension_even_of_a_module_no_longer_compiled(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """tools/compile.py's outputs are every extension module in the package: a leftover of a module
    taken off ``COMPILED`` would be imported in place of its source and fail against the new shared
    library, so a rebuild (which cleans first) removes it too."""
    spec = importlib.util.spec_from_file_location("compile_tool", ROOT / "tools" / "compile.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    monkeypatch.setattr(tool, "ROOT", tmp_path)
    monkeypatch.setattr(tool, "BUILD", tmp_path / "build" / "mypyc")
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    made = [tmp_path / "sgmahjong" / name for name in
            (f"_native__mypyc{suffix}", f"bots/lean{suffix}", f"bao{suffix}", f"scoring/scorer{suffix}")]
    kept = tmp_path / "sgmahjong" / "bao.py"
    for path in (*made, kept):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("")
    assert tool.outputs() == sorted(made)
    tool.clean()
    assert not any(p.exists() for p in made) and kept.exists()

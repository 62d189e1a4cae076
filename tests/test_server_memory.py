"""glibc malloc bounds of the server (memory.py, docs/performance.md, "Memory"): the settings reach
mallopt, and they have the effect the server soak needs (big blocks stay mapped alone, threads share a
capped number of arenas). The effects are checked in child processes: mallopt changes the whole process."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from typing import Any

import pytest

from sgmahjong.server import memory
from sgmahjong.server.settings import ServerSettings, SettingsError

glibc = pytest.mark.skipif(memory._libc() is None, reason="glibc only")


class FakeLibc:
    def __init__(self, ok: bool = True) -> None:
        self.calls: list[tuple[int, int]] = []
        self.ok = ok

    def mallopt(self, param: int, value: int) -> int:
        self.calls.append((param, value))
        return int(self.ok)


def test_defaults_bound_the_arenas_and_fix_the_threshold() -> None:
    libc = FakeLibc()
    done = memory.tune_malloc(ServerSettings(), libc)
    assert libc.calls == [(memory.M_ARENA_MAX, 2), (memory.M_MMAP_THRESHOLD, 128 * 1024)]
    assert done == {"M_ARENA_MAX": 2, "M_MMAP_THRESHOLD": 128 * 1024}


def test_zero_leaves_glibc_alone_and_a_refusal_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    libc = FakeLibc()
    assert memory.tune_malloc(ServerSettings(malloc_arena_max=0, malloc_mmap_threshold=0), libc) == {}
    assert libc.calls == []
    refusing = FakeLibc(ok=False)
    assert memory.tune_malloc(ServerSettings(malloc_arena_max=3), refusing) == {}
    assert "mallopt(M_ARENA_MAX, 3) refused" in caplog.text


def test_settings_from_the_environment() -> None:
    s = ServerSettings.from_env({"SGMAHJONG_MALLOC_ARENA_MAX": "4",
                                 "SGMAHJONG_MALLOC_MMAP_THRESHOLD": "65536"})
    assert (s.malloc_arena_max, s.malloc_mmap_threshold) == (4, 65536)
    with pytest.raises(SettingsError, match="malloc_mmap_threshold"):
        ServerSettings(malloc_mmap_threshold=64 * 1024 * 1024)
    with pytest.raises(SettingsError, match="malloc_arena_max"):
        ServerSettings.from_env({"SGMAHJONG_MALLOC_ARENA_MAX": "-1"})


def child(settings: dict[str, int], body: str) -> Any:
    """Run ``body`` in a fresh interpreter after tune_malloc(ServerSettings(**settings)); it prints a
    Python literal, returned."""
    import ast

    code = textwrap.dedent("""
        import ctypes, threading
        from sgmahjong.server import memory
        from sgmahjong.server.settings import ServerSettings
        memory.tune_malloc(ServerSettings(**SETTINGS))
        libc = ctypes.CDLL("libc.so.6")
        class Mallinfo2(ctypes.Structure):
            _fields_ = [(n, ctypes.c_size_t) for n in ("arena", "ordblks", "smblks", "hblks", "hblkhd",
                        "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]
        libc.mallinfo2.restype = Mallinfo2
        libc.malloc.restype = ctypes.c_void_p
        libc.free.argtypes = [ctypes.c_void_p]
    """).replace("SETTINGS", repr(settings)) + textwrap.dedent(body)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    return ast.literal_eval(out.stdout.strip())


MAPPED_AFTER_A_BIGGER_FREE = """
    big = libc.malloc(4 << 20)     # mapped alone (over the threshold) ...
    libc.free(big)                 # ... and freed: glibc's sliding threshold rises to 4 MiB
    before = libc.mallinfo2().hblkhd
    block = libc.malloc(1 << 20)   # a memo's hash table, say
    print(libc.mallinfo2().hblkhd - before >= 1 << 20)
    libc.free(block)
"""


@glibc
def test_a_fixed_threshold_keeps_big_blocks_mapped_alone() -> None:
    # with glibc's sliding threshold the 1 MiB block is cut from the heap (where its hole stays)
    assert child({"malloc_mmap_threshold": 0}, MAPPED_AFTER_A_BIGGER_FREE) is False
    assert child({"malloc_mmap_threshold": 128 * 1024}, MAPPED_AFTER_A_BIGGER_FREE) is True


ARENAS_OF_SIX_THREADS = """
    import os, tempfile
    start = threading.Barrier(6)
    def work():
        start.wait()  # all six alive at once, each allocating
        for _ in range(100):
            libc.free(libc.malloc(1000))
    threads = [threading.Thread(target=work) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    libc.fopen.restype = ctypes.c_void_p
    libc.fopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    libc.fclose.argtypes = [ctypes.c_void_p]
    libc.malloc_info.argtypes = [ctypes.c_int, ctypes.c_void_p]
    fd, path = tempfile.mkstemp()
    os.close(fd)
    f = libc.fopen(path.encode(), b"w")
    libc.malloc_info(0, f)
    libc.fclose(f)
    print(open(path).read().count("<heap nr="))
    os.unlink(path)
"""


@glibc
def test_threads_share_at_most_the_capped_arenas() -> None:
    assert child({"malloc_arena_max": 2}, ARENAS_OF_SIX_THREADS) <= 2
    assert child({"malloc_arena_max": 0}, ARENAS_OF_SIX_THREADS) > 2  # glibc's own: 8 per core


def test_the_server_bounds_the_memos_at_its_setting(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """``SGMAHJONG_MEMO_LIMIT`` (default 5,000) bounds the analysis and bot memos of the server's process
    (emptied when full: a soak levels within ~2,000 hands); 0 leaves the library's own bounds."""
    from sgmahjong.analysis import tables
    from sgmahjong.bots import efficiency, tactics
    from sgmahjong.server import create_app

    bounds = ((tables, "MEMO_LIMIT"), (efficiency, "CONV_MAX"), (efficiency, "VEC_MAX"),
              (tactics, "MEMO_MAX"), (tactics, "DERIVED_MAX"))
    for module, name in bounds:
        monkeypatch.setattr(module, name, getattr(module, name))  # restored after the test
    library = [getattr(module, name) for module, name in bounds]
    memory.bound_memos(0)
    assert library == [getattr(module, name) for module, name in bounds]
    assert ServerSettings().memo_limit == 5000
    assert ServerSettings.from_env({"SGMAHJONG_MEMO_LIMIT": "123"}).memo_limit == 123
    create_app(str(tmp_path / "db.sqlite3"), settings=ServerSettings(memo_limit=777))
    assert [getattr(module, name) for module, name in bounds] == [777] * 5

"""The calculator's offline scorer as the server builds and sends it (docs/delivery.md): the core zip
holds exactly the modules the scorer imports (their sources only) and scores by itself in a clean
interpreter; Pyodide's files are served immutable with their types; only the worker script's policy
allows WebAssembly; a server without Pyodide offers no offline scorer."""

from __future__ import annotations

import ast
import io
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import httpx

from sgmahjong.calculator import score_answer
from sgmahjong.server.http.assets import STATIC_DIR, build
from sgmahjong.server.http.offline_scorer import CORE_MODULES, core_zip, default_pyodide_dir, pyodide_version
from tests.conftest import LiveServer

HAND = "234m 99p 56s [678p] [CCC] +4s /1f"


def test_the_core_modules_are_what_the_calculator_imports() -> None:
    code = ("import sys, sgmahjong.calculator; "
            "print(sorted(m for m in sys.modules if m == 'sgmahjong' or m.startswith('sgmahjong.')))")
    env = {**os.environ, "SGMAHJONG_PURE": "1"}  # the sources, as in Pyodide (no compiled extension there)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert ast.literal_eval(out.stdout) == sorted(CORE_MODULES), "update CORE_MODULES (offline_scorer.py)"


def test_the_core_zip_scores_alone(tmp_path: Path) -> None:
    data = core_zip()
    assert core_zip() == data  # the same sources make the same bytes (and the same hashed URL)
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert len(names) == len(CORE_MODULES)
    assert all(n.startswith("sgmahjong/") and n.endswith(".py") for n in names)  # sources, no extension
    (tmp_path / "core.zip").write_bytes(data)
    body = {"hand": HAND, "self_drawn": True}
    # -I: no site-packages (only the standard library, as in Pyodide), and the package from the zip only
    code = ("import json, sys; sys.path.insert(0, sys.argv[1]); import sgmahjong.calculator as c; "
            "assert c.__file__.startswith(sys.argv[1]), c.__file__; "
            "print(json.dumps(c.score_answer(json.loads(sys.argv[2]))))")
    out = subprocess.run([sys.executable, "-I", "-c", code, str(tmp_path / "core.zip"), json.dumps(body)],
                         capture_output=True, text=True, check=True, cwd=tmp_path)
    assert json.loads(out.stdout) == list(score_answer(body))


def test_pyodide_and_the_core_are_served_for_the_worker(live_server: LiveServer) -> None:
    assert pyodide_version(default_pyodide_dir()) is not None, "Pyodide is missing: run `make pyodide`"
    sw = httpx.get(live_server.url + "/sw.js").text
    scorer = json.loads(re.search(r"^const BUILD = (.*);$", sw, re.M).group(1))["scorer"]  # type: ignore[union-attr]
    assert scorer["pyodide"] == f"/static/pyodide/{pyodide_version(default_pyodide_dir())}/"
    assert 3_000_000 < scorer["bytes"] < 8_000_000  # "about N MB" on the page
    assert scorer["core"] in scorer["files"]
    assert re.fullmatch(r"/static/pyodide/core\.[0-9a-f]{10}\.zip", scorer["core"])
    sent = 0
    for url in scorer["files"]:
        r = httpx.get(live_server.url + url, headers={"Accept-Encoding": "br, gzip"})
        assert r.status_code == 200 and r.headers["cache-control"].endswith("immutable"), url
        sent += int(r.headers["content-length"])
        if url.endswith(".wasm"):
            assert r.headers["content-type"] == "application/wasm" and r.headers["content-encoding"] == "br"
            assert r.content[:4] == b"\0asm"
        if url.endswith(".mjs"):
            assert "javascript" in r.headers["content-type"]
    assert abs(sent - scorer["bytes"]) < 50_000  # the size the page announces is what is sent
    assert httpx.get(live_server.url + scorer["pyodide"] + "nothing.js").status_code == 404
    # only the worker script may compile WebAssembly; never 'unsafe-eval'
    page = httpx.get(live_server.url + "/calculator")
    folder = re.search(r'"(/static/r/[0-9a-f]+/js/)page-calculator\.js"', page.text)  # the joined module's
    assert folder is not None
    worker = folder.group(1) + "score-worker.js"
    for url, wasm in ((worker, True), ("/static/js/score-worker.js", True), ("/calculator", False),
                      (worker.replace("score-worker", "calculator"), False)):
        csp = httpx.get(live_server.url + url).headers["content-security-policy"]
        assert ("'wasm-unsafe-eval'" in csp) == wasm and "'unsafe-eval'" not in csp, url


def test_without_pyodide_no_offline_scorer_is_offered(tmp_path: Path) -> None:
    folder = build(STATIC_DIR, tmp_path, quality=1, pyodide=tmp_path / "missing")
    index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    sw = (folder / index["sw"]["file"]).read_text(encoding="utf-8")
    assert '"scorer": null' in sw
    assert not any(key.startswith("pyodide/") for key in index["files"])
    assert not (tmp_path / "vendor").exists()

"""A page's modules joined into one file by the build (sgmahjong/server/http/bundle.py).

The joined file must behave as the modules it holds: the same values, each module evaluated once, in
the order a browser evaluates them (run by Node.js here, as ES modules and then joined). Forms the join
could not keep are refused with the reason, and every page of the site joins."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from sgmahjong.server.http.assets import STATIC_DIR, build
from sgmahjong.server.http.bundle import BundleError, join, page_bundle

NODE = shutil.which("node")

MODULES = {
    "js/log.js": 'export const log = [];\nglobalThis.order = log;\nlog.push("log");\n',
    "js/util.js": ('import { log } from "./log.js";\nlog.push("util");\n'
                   "export function twice(x) {\n  return 2 * x;\n}\n"
                   "export async function later(x) {\n  return x + 1;\n}\n"
                   "export class Box {\n  constructor(v) { this.v = v; }\n}\n"
                   "export const LIMIT = 7;\n"),
    "js/data.js": ('import { log } from "./log.js";\nlog.push("data");\n'
                   'export default {\n  name: "east",\n};\n'),
    "js/slow.js": ('import { log } from "./log.js";\n'
                   "const value = await new Promise((resolve) => setTimeout(() => resolve(41), 5));\n"
                   'log.push("slow");\nexport const SLOW = value + 1;\n'),
    "js/side.js": 'import { log } from "./log.js";\nlog.push("side");\n',
    "js/first.js": ('import {\n  twice,\n  later as plusOne,\n  Box,\n} from "./util.js";\n'
                    'import DATA from "./data.js";\nimport * as U from "./util.js";\n'
                    'import "./side.js";\nimport { SLOW } from "./slow.js";\n'
                    'import { log } from "./log.js";\n'
                    "const box = new Box(twice(U.LIMIT));\n"
                    'log.push(["first", box.v, DATA.name, SLOW, await plusOne(1)]);\n'
                    "export const FIRST = box.v;\n"),
    "js/second.js": ('import { FIRST } from "./first.js";\nimport { log } from "./log.js";\n'
                     'import "./side.js";\nlog.push(["second", FIRST]);\n'),
}
ENTRIES = ["js/first.js", "js/second.js"]


def run_node(folder: Path, script: str) -> object:
    assert NODE is not None, "these tests need Node.js (apt-get install nodejs)"
    (folder / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    (folder / "main.js").write_text(script, encoding="utf-8")
    out = subprocess.run([NODE, str(folder / "main.js")], capture_output=True, text=True, timeout=60,
                         check=True)
    return json.loads(out.stdout)


def test_the_joined_file_behaves_as_its_modules(tmp_path: Path) -> None:
    for rel, text in MODULES.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    report = "console.log(JSON.stringify(globalThis.order));\n"
    apart = run_node(tmp_path, "".join(f'import "./{e}";\n' for e in ENTRIES) + report)
    joined, order = join(ENTRIES, MODULES)
    (tmp_path / "js" / "page-test.js").write_text(joined, encoding="utf-8")
    together = run_node(tmp_path, 'import "./js/page-test.js";\n' + report)
    assert apart == ["log", "util", "data", "side", "slow", ["first", 14, "east", 42, 2], ["second", 14]]
    assert together == apart
    assert order == ["js/log.js", "js/util.js", "js/data.js", "js/side.js", "js/slow.js", *ENTRIES]


def test_a_page_loads_its_joined_module_in_place_of_its_scripts() -> None:
    html = ('<head>\n<script type="module" src="/static/js/first.js"></script>\n<title>x</title>\n'
            '<script type="module" src="/static/js/second.js"></script>\n</head>')
    found = page_bundle("game.html", html, MODULES)
    assert found is not None
    page, name, _text, order = found
    assert name == "js/page-game.js" and order[-2:] == ENTRIES
    assert page == ('<head>\n<script type="module" src="/static/js/page-game.js"></script>\n'
                    '<title>x</title>\n</head>')
    assert page_bundle("plain.html", "<p>no scripts</p>", MODULES) is None


@pytest.mark.parametrize(("texts", "reason"), [
    ({"js/a.js": 'import { b } from "./b.js";\n', "js/b.js": "export let b = 1;\n"}, "an export other than"),
    ({"js/a.js": 'import { b } from "./b.js";\n', "js/b.js": "const b = 1;\nexport { b };\n"},
     "an export other than"),
    ({"js/a.js": 'import { c } from "./b.js";\n', "js/b.js": "export const b = 1;\n"}, "does not export it"),
    ({"js/a.js": 'import B from "./b.js";\n', "js/b.js": "export const b = 1;\n"}, "does not export it"),
    ({"js/a.js": 'import { b } from "./b.js";\nexport const a = 1;\n',
      "js/b.js": 'import { a } from "./a.js";\nexport const b = a;\n'}, "import cycle"),
    ({"js/a.js": 'import "./gone.js";\n'}, "not a source"),
    ({"js/a.js": 'import "https://example.org/x.js";\n'}, "only relative imports"),
    ({"js/a.js": 'import { b } from "./b.js";\nconst again = import("./b.js");\n',
      "js/b.js": "export const b = 1;\n"},
     "would run twice"),
    ({"js/a.js": 'import "../lib/b.js";\n', "lib/b.js": 'const s = import("./strings.js");\n'},
     "another folder"),
])
def test_what_the_join_could_not_keep_is_refused(texts: dict[str, str], reason: str) -> None:
    html = '<script type="module" src="/static/js/a.js"></script>'
    with pytest.raises(BundleError, match=reason):
        page_bundle("p.html", html, texts)


def test_every_page_of_the_site_loads_one_joined_module(tmp_path: Path) -> None:
    folder = build(STATIC_DIR, tmp_path, quality=1)
    index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    pages = [p.name for p in STATIC_DIR.glob("*.html") if 'type="module"' in p.read_text(encoding="utf-8")]
    assert len(pages) >= 14
    for page in pages:
        html = (folder / index["files"][page]["file"]).read_text(encoding="utf-8")
        scripts = re.findall(r'<script type="module" src="([^"]+)"', html)
        assert scripts == [f"/static/r/{index['release']}/js/page-{page.removesuffix('.html')}.js"], page
        preloads = re.findall(r'rel="modulepreload" href="([^"]+)"', html)
        assert all("/js/strings/" in url for url in preloads), page  # only the language's strings
        joined = folder / index["files"][scripts[0].removeprefix("/static/")]["file"]
        checked = tmp_path / f"{page}.mjs"
        shutil.copy(joined, checked)
        assert NODE is not None
        subprocess.run([NODE, "--check", str(checked)], check=True, timeout=60)


def test_the_service_worker_keeps_the_joined_modules_not_their_parts(tmp_path: Path) -> None:
    folder = build(STATIC_DIR, tmp_path, quality=1)
    index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    sw = (folder / index["sw"]["file"]).read_text(encoding="utf-8")
    match = re.search(r"^const BUILD = (.*);$", sw, re.M)
    assert match is not None
    kept = {url.split(f"/r/{index['release']}/", 1)[-1] for url in json.loads(match.group(1))["precache"]}
    assert {"js/page-table.js", "js/page-calculator.js", "js/page-learn.js"} <= kept  # pages kept offline
    assert {"js/strings/en.js", "js/strings/zh.js", "js/score-worker.js"} <= kept  # loaded as files
    assert "js/tiles.js" not in kept and "js/i18n.js" not in kept  # only inside joined modules
    assert "js/page-club.js" not in kept  # a page not kept offline: its module is fetched when used

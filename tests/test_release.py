"""A new release never mixes old and new modules in one page (issue 28; docs/delivery.md).

The server builds the static files into a release folder named after their hash (assets.py): after a
module changes, a page loaded before goes on getting its own release's modules (its lazy imports too),
a page loaded after gets only the new release's; the previous builds are kept, up to the setting."""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Page

from sgmahjong.server.http.assets import STATIC_DIR, Assets
from sgmahjong.server.settings import ServerSettings
from tests.conftest import LiveServer, free_port

RELEASE = re.compile(r"/static/r/([0-9a-f]+)/")


def releases_of_modules(loaded: list[str]) -> set[str]:
    """The releases of every module script among the URLs a page fetched."""
    return {m.group(1) for url in loaded if url.endswith(".js") and (m := RELEASE.search(url))}


def watched(page: Page, loaded: list[str]) -> Page:
    """``page``, adding the URL of every response it gets (its own requests only) to ``loaded``."""
    page.on("response", lambda r: loaded.append(r.url))
    return page


def test_a_page_never_mixes_two_releases(tmp_path: Path, browser: Browser) -> None:
    static = tmp_path / "static"
    shutil.copytree(STATIC_DIR, static)
    settings = ServerSettings(static_dir=str(static), static_build_dir=str(tmp_path / "build"),
                              static_check_seconds=0.01)
    server = LiveServer(free_port(), str(tmp_path / "db.sqlite3"), settings=settings)
    server.start()
    try:
        context = browser.new_context()
        old = watched(context.new_page(), loaded_old := [])
        old.goto(server.url + "/calculator")
        old.locator("#picked .tile").first.wait_for()
        (first,) = releases_of_modules(loaded_old)
        old_api = httpx.get(f"{server.url}/static/r/{first}/js/api.js").text

        # a new release: two modules change
        for name in ("api.js", "tiles.js"):
            path = static / "js" / name
            text = path.read_text(encoding="utf-8")
            path.write_text(f"{text}\n// release two: {name}\n", encoding="utf-8")
        time.sleep(0.05)
        httpx.get(server.url + "/", timeout=60)  # the server builds the new release (as at a deploy's start)
        new = watched(context.new_page(), loaded_new := [])
        new.goto(server.url + "/calculator")
        new.locator("#picked .tile").first.wait_for()
        (second,) = releases_of_modules(loaded_new)  # one release only...
        assert second != first  # ...the new one
        assert "release two: api.js" in httpx.get(f"{server.url}/static/r/{second}/js/api.js").text

        # the page opened before imports a module now: its own release's copy
        loaded_old.clear()
        mark = old.evaluate("""async () => {
          const base = [...document.querySelectorAll('script[type=module]')].map((s) => s.src)[0];
          const api = await fetch(new URL('api.js', base)).then((r) => r.text());
          await import(new URL('tiles.js', base).href);
          return api;
        }""")
        assert mark == old_api and "release two" not in mark
        assert releases_of_modules(loaded_old) == {first}
        fetched = [u for u in loaded_old if "/static/r/" in u]
        assert fetched and all(f"/r/{first}/" in u for u in fetched)
        context.close()
    finally:
        server.stop()


def test_builds_beyond_the_kept_number_are_removed(tmp_path: Path) -> None:
    static = tmp_path / "static"
    static.mkdir()
    (static / "a.js").write_text('import "./b.js";\n', encoding="utf-8")
    (static / "b.js").write_text("export const B = 0;\n", encoding="utf-8")
    (static / "page.html").write_text('<script type="module" src="/static/a.js"></script>\n')
    assets = Assets(static, tmp_path / "build", kept=2, check_seconds=0.01)
    releases = []
    for n in range(3):
        (static / "b.js").write_text(f"export const B = {n};\n", encoding="utf-8")
        time.sleep(0.02)
        build = assets.refresh()
        releases.append(build.release)
        page = build.file("page.html")
        assert page is not None
        html = page.bodies[""].decode()
        # the page's modules joined in one, in this release, holding this release's b.js
        assert f'src="/static/r/{build.release}/page-page.js"' in html
        joined = build.file(f"r/{build.release}/page-page.js")
        assert joined is not None and f"const B = {n};" in joined.bodies[""].decode()
    assert len(set(releases)) == 3
    assert assets.file(f"r/{releases[2]}/b.js") is not None
    assert assets.file(f"r/{releases[1]}/b.js") is not None  # the one before: kept
    assert assets.file(f"r/{releases[0]}/b.js") is None  # older: gone
    assert sorted(p.name for p in (tmp_path / "build").iterdir()) == sorted(releases[1:])

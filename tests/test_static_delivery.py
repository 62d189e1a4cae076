"""How the server sends the static build (docs/delivery.md): precompressed per Accept-Encoding, cached for
a year at hashed and release URLs, revalidated for pages and the service worker, a page copy per
language, and the service worker's file list all served."""

from __future__ import annotations

import json
import re

import httpx

from tests.conftest import LiveServer

BR = {"Accept-Encoding": "br, gzip"}


def get(server: LiveServer, path: str, **headers: str) -> httpx.Response:
    return httpx.get(server.url + path, headers=headers, timeout=10)


def test_pages_are_compressed_and_revalidated(live_server: LiveServer) -> None:
    page = get(live_server, "/calculator", **BR)
    assert page.status_code == 200
    assert page.headers["content-encoding"] == "br" and "Accept-Encoding" in page.headers["vary"]
    assert page.headers["cache-control"] == "no-cache"
    again = get(live_server, "/calculator", **BR, **{"If-None-Match": page.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    plain = get(live_server, "/calculator", **{"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.text == page.text
    assert plain.headers["etag"] != page.headers["etag"]  # one ETag per body


def test_release_files_are_immutable_and_sent_in_the_accepted_encoding(live_server: LiveServer) -> None:
    html = get(live_server, "/calculator").text
    modules = re.findall(r'(?:src|href)="(/static/r/[0-9a-f]+/js/[\w/.-]+\.js)"', html)
    assert modules[0].endswith("/js/page-calculator.js")  # the page's modules, joined (bundle.py)
    for encoding in ("br", "gzip"):
        r = get(live_server, modules[0], **{"Accept-Encoding": encoding})
        assert r.headers["content-encoding"] == encoding
        assert r.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert "text/javascript" in r.headers["content-type"]
    css = get(live_server, re.findall(r'href="(/static/r/[0-9a-f]+/fonts/fonts\.css)"', html)[0]).text
    font = re.findall(r'url\("(/static/fonts/sgmj-cjk\.[0-9a-f]{10}\.woff2)"\)', css)[0]  # own hash
    r = get(live_server, font, **BR)
    assert r.headers["cache-control"].endswith("immutable") and "content-encoding" not in r.headers
    assert r.headers["content-type"] == "font/woff2"
    source = get(live_server, "/static/js/calculator.js", **BR)  # the source's own path: revalidated
    assert source.status_code == 200 and source.headers["cache-control"] == "no-cache"
    assert get(live_server, "/static/js/nothing.js").status_code == 404
    assert get(live_server, "/static/../http/app.py").status_code == 404


def test_json_answers_are_gzipped(live_server: LiveServer) -> None:
    r = get(live_server, "/api/rules", **{"Accept-Encoding": "gzip"})
    assert r.headers["content-encoding"] == "gzip" and r.json()["options"]


def test_each_language_gets_a_page_preloading_its_strings_and_font(live_server: LiveServer) -> None:
    def strings(**headers: str) -> list[str]:
        return re.findall(r'modulepreload" href="/static/r/[0-9a-f]+/js/strings/(\w+)\.js"',
                          get(live_server, "/how-to-play", **headers).text)

    assert strings() == ["en"]
    assert strings(**{"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8"}) == ["zh"]
    assert strings(**{"Accept-Language": "zh-CN", "Cookie": "sgmahjong_lang=en"}) == ["en"]
    assert strings(Cookie="sgmahjong_lang=zh") == ["zh"]
    # the 中文 page preloads the file of its characters too (js/i18n.js waits for it before any text)
    fonts = re.compile(r'rel="preload" href="(/static/fonts/sgmj-cjk-sans[-a-z]*\.[0-9a-f]+\.woff2)"')
    zh = fonts.findall(get(live_server, "/how-to-play", Cookie="sgmahjong_lang=zh").text)
    en = fonts.findall(get(live_server, "/how-to-play", Cookie="sgmahjong_lang=en").text)
    assert len(zh) == 2 and [u for u in zh if "-zh." in u] and len(en) == 1 and "-zh." not in en[0]
    assert all(get(live_server, url).status_code == 200 for url in zh)


def test_the_service_worker_lists_files_that_are_served(live_server: LiveServer) -> None:
    sw = get(live_server, "/sw.js", **BR)
    assert sw.headers["cache-control"] == "no-cache" and "javascript" in sw.headers["content-type"]
    build = json.loads(re.search(r"^const BUILD = (.*);$", sw.text, re.M).group(1))  # type: ignore[union-attr]
    assert build["release"] and len(build["precache"]) > 20
    assert set(build["shell"]) == {"/", "/how-to-play", "/scoring", "/calculator", "/me", "/t/", "/replay/",
                                  "/leaderboard", "/learn"}
    for url in build["precache"]:
        assert get(live_server, url).status_code == 200, url
    assert not any("/sounds/" in url or "-zh." in url for url in build["precache"])  # kept when used
    manifest = get(live_server, next(u for u in build["precache"] if u.endswith(".webmanifest"))).json()
    assert manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        assert get(live_server, icon["src"]).status_code == 200

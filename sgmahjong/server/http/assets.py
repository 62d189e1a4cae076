"""The static files as browsers get them: a build of hashed, precompressed copies (docs/delivery.md).

The sources under ``static/`` stay plain files that run as they are. A build (``sgmahjong build-static``,
run by ``make``; the server runs it at startup, and again when a page is asked for after the sources
changed) writes, into a folder named after the hash of every source:

* every file under a release folder, ``r/<release>/js/table.js``, where the release is that hash:
  a module's relative imports stay inside its release, so a page never mixes two releases' modules;
* every binary file (fonts, sounds, images) also under a name holding its own hash,
  ``fonts/sgmj-cjk.1a2b3c4d5e.woff2``, so a release that did not change it does not download it again;
* every ``/static/...`` path in the pages, stylesheets and modules rewritten to its built URL, and
  ``<link rel="modulepreload">`` tags for each page's imports (one round trip instead of one per level);
* a brotli and a gzip copy of every file that compresses (served per ``Accept-Encoding``);
* ``index.json``: each URL path's file, content type, encodings and ETag;
* when Pyodide's npm package is there (``make pyodide``), the calculator's offline scorer: the scorer's
  Python modules as one zip (``pyodide/core.<hash>.zip``, in the release) and Pyodide's files, built once
  per Pyodide version into ``vendor/pyodide-<version>`` and served at ``/static/pyodide/<version>/<file>``
  (offline_scorer.py).

Built URLs are cached by browsers for a year (``immutable``); the pages, ``/sw.js`` and the sources'
own paths (``/static/js/table.js``) are revalidated on each use (ETag). The last
``static_builds_kept`` builds stay on disk and are served, so a page of the previous release that
imports a module later still gets its own release's copy.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import os
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import brotli  # type: ignore[import-untyped]

import sgmahjong

from .bundle import loaded_alone, page_bundle
from .offline_scorer import CORE_ZIP, PYODIDE_FILES, core_inputs, core_zip, pyodide_version

STATIC_DIR = Path(__file__).parent.parent / "static"
INDEX = "index.json"
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
TYPES = {
    ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8", ".json": "application/json", ".txt": "text/plain; charset=utf-8",
    ".webmanifest": "application/manifest+json", ".svg": "image/svg+xml", ".png": "image/png",
    ".woff2": "font/woff2", ".wav": "audio/wav", ".md": "text/markdown; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8", ".wasm": "application/wasm", ".zip": "application/zip",
}
TEXT = {".html", ".js", ".css", ".webmanifest"}  # files whose /static/ paths are rewritten
STATIC_PATH = re.compile(r"/static/([A-Za-z0-9_./-]+)")
SW_BUILD = re.compile(r"^const BUILD = .*;$", re.M)  # the service worker's line the build fills in
SW_SOURCE = "sw.js"
I18N = "js/i18n.js"  # a page importing it gets a copy per language preloading its strings file
# ... and the font file of its language's characters, which js/i18n.js waits for before setting any text
ZH_FONT = ('<link rel="preload" href="/static/fonts/sgmj-cjk-sans-zh.woff2" as="font" type="font/woff2" '
           'crossorigin>\n')
LANGS = ("en", "zh")  # the first is the default
#: pages whose built copies the service worker keeps for offline use, by the path it answers them at
SHELL_PAGES = {"/": "index.html", "/how-to-play": "howto.html", "/scoring": "scoring.html",
               "/calculator": "calculator.html", "/me": "me.html", "/t/": "table.html",
               "/replay/": "replay.html", "/leaderboard": "leaderboard.html", "/learn": "learn.html"}
#: not precached by the service worker (fetched, then kept, when a page uses them)
LAZY = re.compile(r"^(sounds/|fonts/slices/|fonts/.*-zh\b|fonts/.*\.txt$|fonts/.*\.md$|icons/.*\.png$"
                  r"|pyodide/)")
#: the build's own version, part of a release's hash: raised when the build writes its files otherwise
FORMAT = 5
VENDOR = "vendor"  # the build root's folder of Pyodide's builds, one per version
BIG = 2_000_000  # bytes from which a file is brotli-compressed at quality 9 (11 takes 20 s for the wasm)


def default_build_root() -> Path:
    """``build/static`` in a checkout (next to pyproject.toml), else the user's cache folder."""
    checkout = Path(sgmahjong.__file__).resolve().parent.parent
    if (checkout / "pyproject.toml").is_file() and os.access(checkout, os.W_OK):
        return checkout / "build" / "static"
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "sgmahjong" / "static"


def sources(source: Path) -> list[Path]:
    return sorted(p for p in source.rglob("*") if p.is_file() and not p.name.startswith("."))


def source_hash(source: Path, extra: bytes = b"") -> str:
    """The hash of every source file's path and bytes (and of ``extra``): the release's name."""
    h = hashlib.sha256(extra)
    for path in sources(source):
        h.update(path.relative_to(source).as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def _hashed_name(rel: str, data: bytes) -> str:
    stem, dot, ext = rel.rpartition(".")
    digest = hashlib.sha256(data).hexdigest()[:10]
    return f"{stem}.{digest}.{ext}" if dot else f"{rel}.{digest}"


def build(source: Path, root: Path, *, quality: int = 11, pyodide: Path | None = None) -> Path:
    """Build ``source`` into ``root/<release>`` (nothing to do when it exists); its folder. With
    Pyodide's package folder ``pyodide``, the offline scorer's files too."""
    version = pyodide_version(pyodide)
    extras = {CORE_ZIP: core_zip()} if version else {}
    stamp = f"format {FORMAT}\0pyodide {version}\0".encode()
    release = source_hash(source, stamp + b"".join(extras.values()))
    dest = root / release
    if (dest / INDEX).is_file():
        return dest
    root.mkdir(parents=True, exist_ok=True)
    scorer = _scorer(pyodide, version, root, extras) if pyodide and version else None
    return _built(root, release, lambda work: _write_build(source, work, release, quality, extras, scorer))


def _built(root: Path, name: str, write: Callable[[Path], None]) -> Path:
    """``root/name``, written by ``write`` into a temporary folder first (a half build is never served)."""
    dest = root / name
    work = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=root))
    try:
        write(work)
        try:
            work.rename(dest)
        except OSError:  # another process built the same meanwhile
            if not (dest / INDEX).is_file():
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return dest


def vendor_build(pyodide: Path, version: str, root: Path) -> Path:
    """Pyodide's files, compressed once per version: ``root/vendor/pyodide-<version>`` (its index's
    keys are the URL paths ``pyodide/<version>/<file>``)."""
    vendor = root / VENDOR
    name = f"pyodide-{version}"
    if (vendor / name / INDEX).is_file():
        return vendor / name
    vendor.mkdir(parents=True, exist_ok=True)

    def write(out: Path) -> None:
        files: dict[str, Any] = {}
        for rel in PYODIDE_FILES:
            data = (pyodide / rel).read_bytes()
            entry = _store(out, rel, data, 11 if len(data) < BIG else 9)
            files[f"pyodide/{version}/{rel}"] = {**entry, "immutable": True}
        index = {"release": name, "files": files}
        (out / INDEX).write_text(json.dumps(index, indent=0, sort_keys=True), encoding="utf-8")

    return _built(vendor, name, write)


def _scorer(pyodide: Path, version: str, root: Path, extras: dict[str, bytes]) -> dict[str, Any]:
    """The service worker's facts of the offline scorer: Pyodide's folder URL, the files to keep
    (the core zip's URL is filled in with the release's), and their bytes as sent (brotli)."""
    folder = vendor_build(pyodide, version, root)
    files = json.loads((folder / INDEX).read_text(encoding="utf-8"))["files"]
    size = sum(_sent_size(folder, entry) for entry in files.values())
    size += len(gzip.compress(extras[CORE_ZIP]))  # a zip: sent as it is, about this size
    return {"version": version, "pyodide": f"/static/pyodide/{version}/",
            "files": [f"/static/{url}" for url in sorted(files)], "bytes": size}


def _sent_size(folder: Path, entry: dict[str, Any]) -> int:
    best = "br" if "br" in entry["encodings"] else ""
    return int((folder / (entry["file"] + (f".{best}" if best else ""))).stat().st_size)


def _write_build(source: Path, out: Path, release: str, quality: int, extras: dict[str, bytes],
                 scorer: dict[str, Any] | None) -> None:
    prefix = f"r/{release}/"
    files = {p.relative_to(source).as_posix(): p.read_bytes() for p in sources(source)}
    files.update(extras)
    url_of = {rel: "/static/" + (prefix + rel if Path(rel).suffix in TEXT else _hashed_name(rel, data))
              for rel, data in files.items()}
    texts = {rel: data.decode("utf-8") for rel, data in files.items() if Path(rel).suffix in TEXT}

    def rewrite(text: str) -> str:
        def one(m: re.Match[str]) -> str:
            rel = m.group(1)
            if rel in url_of:
                return url_of[rel]
            if rel.endswith("/") and any(k.startswith(rel) for k in files):
                return "/static/" + prefix + rel  # a folder a script completes (sounds/${name}.wav)
            return m.group(0)

        return STATIC_PATH.sub(one, text)

    joined: dict[str, list[str]] = {}  # page -> the modules its one joined module holds (bundle.py)
    bundles: dict[str, str] = {}  # page -> its joined module
    for rel, text in list(texts.items()):
        if rel.endswith(".html") and (found := page_bundle(rel, text, texts)) is not None:
            texts[rel], name, texts[name], joined[rel] = found
            bundles[rel] = name
            files[name] = texts[name].encode("utf-8")
            url_of[name] = f"/static/{prefix}{name}"
    built: dict[str, bytes] = dict(files)
    variants: dict[str, bytes] = {}  # "page.html#zh": the page preloading the 中文 strings
    for rel, text in texts.items():
        if I18N in joined.get(rel, ()):  # a page's language's strings: no round trip more
            for lang in LANGS:
                tag = (f'<link rel="modulepreload" href="/static/js/strings/{lang}.js">\n'
                       f'{ZH_FONT if lang == "zh" else ""}</head>')
                variants[f"{rel}#{lang}"] = rewrite(text.replace("</head>", tag, 1)).encode("utf-8")
            built[rel] = variants[f"{rel}#{LANGS[0]}"]
            continue
        built[rel] = rewrite(text).encode("utf-8")
    index: dict[str, Any] = {"release": release, "files": {}}
    for key, data in variants.items():
        index["files"][key] = {**_store(out, key.split("#")[0], data, quality), "immutable": False}
    precache: list[str] = []
    # not kept offline: modules no page loads as files, and the joined modules of pages not kept
    # offline (fetched when used)
    held = {rel for order in joined.values() for rel in order}
    inside_only = held - loaded_alone(texts, held)
    inside_only |= {name for page, name in bundles.items() if page not in SHELL_PAGES.values()}
    for rel, data in built.items():
        urls = {prefix + rel: True, rel: False}  # the release copy, and the source's own path
        if Path(rel).suffix not in TEXT:
            urls[url_of[rel].removeprefix("/static/")] = True
        entry = _store(out, rel, data, quality)
        for url, immutable in urls.items():
            index["files"][url] = {**entry, "immutable": immutable}
        if not rel.endswith(".html") and rel != SW_SOURCE and not LAZY.match(rel) and rel not in inside_only:
            precache.append(url_of[rel])
    shell = {url: f"/static/{prefix}{page}" for url, page in SHELL_PAGES.items() if page in built}
    if SW_SOURCE in texts:
        sw: dict[str, Any] = {"release": release, "precache": sorted({*precache, *shell.values()}),
                              "shell": shell, "scorer": None}
        if scorer is not None:
            core = url_of[CORE_ZIP]
            sw["scorer"] = {**scorer, "core": core, "files": [*scorer["files"], core]}
        text = SW_BUILD.sub(lambda _m: f"const BUILD = {json.dumps(sw)};", built[SW_SOURCE].decode())
        index["sw"] = _store(out, SW_SOURCE, text.encode("utf-8"), quality)
    (out / INDEX).write_text(json.dumps(index, indent=0, sort_keys=True), encoding="utf-8")


def _store(out: Path, rel: str, data: bytes, quality: int) -> dict[str, Any]:
    """Write ``data`` (and its compressed copies, when they are smaller by a tenth) under ``out/files``."""
    digest = hashlib.sha256(data).hexdigest()[:20]
    name = f"files/{digest}{Path(rel).suffix}"
    target = out / name
    encodings: list[str] = []
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    if Path(rel).suffix not in {".woff2", ".png"}:
        packs = (("br", brotli.compress(data, quality=quality)), ("gzip", gzip.compress(data, 9, mtime=0)))
        for enc, packed in packs:
            if len(packed) <= len(data) * 0.9:
                Path(f"{target}.{enc}").write_bytes(packed)
                encodings.append(enc)
    ctype = TYPES.get(Path(rel).suffix, "application/octet-stream")
    return {"file": name, "type": ctype, "encodings": encodings, "etag": f'"{digest}"'}


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


@dataclass(frozen=True)
class Asset:
    """One URL's answer: the content type, the cache policy and the bytes per encoding."""

    ctype: str
    cache: str
    etag: str
    bodies: dict[str, bytes]  # "" (identity), "br", "gzip"

    def choose(self, accept_encoding: str) -> str:
        """The encoding to send for this ``Accept-Encoding`` header ("" for none)."""
        offered = _accepted(accept_encoding)
        for enc in ("br", "gzip"):
            if enc in self.bodies and enc in offered:
                return enc
        return ""


def _accepted(header: str) -> set[str]:
    accepted = set()
    for part in header.lower().split(","):
        name, _, params = part.strip().partition(";")
        q = params.strip().removeprefix("q=") if params.strip().startswith("q=") else "1"
        try:
            if float(q) > 0:
                accepted.add(name.strip())
        except ValueError:
            continue
    return accepted


class Build:
    """One build folder's index, its files read on first use."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.index: dict[str, Any] = json.loads((folder / INDEX).read_text(encoding="utf-8"))
        self.release: str = self.index["release"]
        self._cache: dict[str, Asset] = {}  # bounded by the build's own files
        self._lock = threading.Lock()

    def _asset(self, entry: dict[str, Any], cache: str) -> Asset:
        path = self.folder / entry["file"]
        bodies = {"": path.read_bytes()}
        for enc in entry["encodings"]:
            bodies[enc] = Path(f"{path}.{enc}").read_bytes()
        return Asset(entry["type"], cache, entry["etag"], bodies)

    def get(self, key: str, entry: dict[str, Any] | None, cache: str) -> Asset | None:
        if entry is None:
            return None
        with self._lock:
            asset = self._cache.get(key)
        if asset is None:
            try:
                asset = self._asset(entry, cache)
            except OSError:  # the build was removed (another process keeps fewer): not served any more
                return None
            with self._lock:
                self._cache[key] = asset
        return asset

    def file(self, path: str) -> Asset | None:
        entry = self.index["files"].get(path)
        return self.get("f:" + path, entry, IMMUTABLE if entry and entry["immutable"] else REVALIDATE)

    def service_worker(self) -> Asset | None:
        return self.get("sw", self.index.get("sw"), REVALIDATE)


class Assets:
    """The current build of a static folder, rebuilt when its files change (checked at most every
    ``check_seconds``, on a page request), and the previous builds still kept; with Pyodide's package
    folder ``pyodide``, the offline scorer's files too."""

    def __init__(self, source: Path = STATIC_DIR, root: Path | None = None, *, kept: int = 3,
                 check_seconds: float = 1.0, pyodide: Path | None = None) -> None:
        self.source = source
        self.root = root or default_build_root()
        self.pyodide = pyodide
        self.vendor: Build | None = None  # Pyodide's files, when the build has the offline scorer
        self.kept = max(1, kept)
        self.check_seconds = check_seconds
        self._lock = threading.Lock()
        self._signature: tuple[Any, ...] = ()
        self._checked = 0.0
        self.current: Build | None = None
        self.builds: dict[str, Build] = {}

    def _stat_signature(self) -> tuple[Any, ...]:
        watched = [*sources(self.source), *core_inputs()]
        if self.pyodide is not None:
            watched += [p for p in (self.pyodide / "package.json",) if p.is_file()]
        return tuple((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in watched)

    def due(self) -> bool:
        """Whether a check for changed sources is due (cheap; call :meth:`refresh` when it is)."""
        return self.current is None or (self.check_seconds > 0
                                        and time.monotonic() - self._checked >= self.check_seconds)

    def refresh(self) -> Build:
        """The current build, after building the sources again if they changed (blocking: in a thread)."""
        with self._lock:
            self._checked = time.monotonic()
            signature = self._stat_signature()
            if self.current is not None and signature == self._signature:
                return self.current
            folder = build(self.source, self.root, pyodide=self.pyodide)
            version = pyodide_version(self.pyodide)
            if self.pyodide is not None and version is not None:
                vendor = vendor_build(self.pyodide, version, self.root)
                if self.vendor is None or self.vendor.folder != vendor:
                    self.vendor = Build(vendor)
            else:
                self.vendor = None
            self._signature = signature
            if self.current is None or folder.name != self.current.release:
                self.current = Build(folder)
                self._prune()
            return self.current

    def _prune(self) -> None:
        """Keep the newest ``kept`` builds (the current one always) and load their indexes."""
        assert self.current is not None
        with contextlib.suppress(OSError):
            os.utime(self.current.folder)  # the most recent in use, for every process sharing the folder
        built = [p for p in self.root.iterdir() if not p.name.startswith(".")]  # ".x": being built
        folders = sorted((p for p in built if (p / INDEX).is_file()), key=_mtime, reverse=True)
        keep = [self.current.folder, *[f for f in folders if f != self.current.folder][: self.kept - 1]]
        for folder in folders:
            if folder not in keep:
                shutil.rmtree(folder, ignore_errors=True)
        builds = {self.current.release: self.current}
        for folder in keep[1:]:
            try:
                builds[folder.name] = self.builds.get(folder.name) or Build(folder)
            except (OSError, ValueError):  # removed meanwhile (by another process sharing the folder)
                continue
        self.builds = builds

    def file(self, path: str) -> Asset | None:
        """The asset of ``/static/<path>``: the current build's, else a kept build's (an older page)."""
        current = self.current or self.refresh()
        if path.startswith("pyodide/") and self.vendor is not None:
            found = self.vendor.file(path)
            if found is not None:
                return found
        asset = current.file(path)
        if asset is None and path.startswith("r/"):
            older = self.builds.get(path.split("/", 2)[1])
            asset = older.file(path) if older is not None else None
        if asset is None:
            for other in list(self.builds.values()):
                if other is not current and not path.startswith("r/"):
                    asset = other.file(path)
                    if asset is not None:
                        break
        return asset

"""The documentation: every relative link and anchor in README.md and docs/*.md resolves (anchors by
GitHub's heading slugs), the settings page is what the code gives, and the pages speak of the
software, not of the work's history."""

from __future__ import annotations

import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

_FENCE = re.compile(r"^\s*(```|~~~)")
_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_HTML = re.compile(r"<(?:img|a)\s[^>]*?(?:src|href)=\"([^\"]+)\"")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def prose_lines(text: str) -> list[str]:
    """The lines outside fenced code blocks, with inline code spans blanked (links there are text)."""
    out, fenced = [], False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            out.append(line)
    return out


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: markup dropped, lower case, punctuation removed, spaces to '-'."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text stays
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").lower()
    kept = [c for c in text if c in " -_" or unicodedata.category(c)[0] in "LNM"]
    return "".join(kept).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found: set[str] = set()
    counts: dict[str, int] = {}
    for line in prose_lines(page.read_text(encoding="utf-8")):
        m = _HEADING.match(line)
        if m is None:
            continue
        base = slug(m.group(2))
        n = counts.get(base, 0)
        counts[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return found


def links(page: Path) -> list[str]:
    out = []
    for line in prose_lines(page.read_text(encoding="utf-8")):
        line = re.sub(r"`[^`]*`", "", line)
        out += [m.group(1) for m in _LINK.finditer(line)] + [m.group(1) for m in _HTML.finditer(line)]
    return out


def test_links_are_found_in_markdown_and_html_but_not_in_code(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("[a](x.md#b) ![c](d.png) <img src=\"e.png\" width=\"9\"> `[f](g.md)`\n"
                    "```\n[h](i.md)\n```\n[j [k]](l.md \"title\")\n", encoding="utf-8")
    assert links(page) == ["x.md#b", "d.png", "e.png", "l.md"]


def test_slugs_follow_githubs_rules() -> None:
    assert slug("Server settings") == "server-settings"
    assert slug("Replays, reviews and your history") == "replays-reviews-and-your-history"
    assert slug("The server under load (`bench_server`, `bench_fanout`)") == \
        "the-server-under-load-bench_server-bench_fanout"
    assert slug("Levels: how strong each is") == "levels-how-strong-each-is"
    assert slug("包 and 生牌") == "包-and-生牌"


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_every_relative_link_and_anchor_resolves(page: Path) -> None:
    broken = []
    for target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto: ...
            continue
        path_part, _, anchor = target.partition("#")
        dest = (page.parent / path_part).resolve() if path_part else page
        if not dest.exists():
            shown = dest.relative_to(ROOT) if dest.is_relative_to(ROOT) else dest
            broken.append(f"{target}: no file {shown}")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target}: no heading with the anchor #{anchor} in {dest.name}")
    assert broken == [], f"{page.relative_to(ROOT)}: broken links: {broken}"


def test_the_settings_page_is_what_the_code_gives() -> None:
    done = subprocess.run([sys.executable, "tools/gen_settings.py", "--check"], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr or done.stdout  # says: run `python tools/gen_settings.py`


def test_the_pages_do_not_narrate_the_works_history() -> None:
    diary = re.compile(r"session [0-9]", re.IGNORECASE)
    found = [f"{p.relative_to(ROOT)}:{n}" for p in PAGES
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1)
             if diary.search(line)]
    assert found == [], "the docs speak of the software; the work's history is in the git log"

"""A page's module scripts as one file in the build (docs/delivery.md).

A page's scripts import 20 to 45 small modules. Over HTTP/1.1 a browser fetches six at a time, so on a
slow phone network every six modules cost a round trip before the page can draw. The build joins a
page's module scripts and every module they import, in the order a browser evaluates them, into one
module (``js/page-<page>.js``, next to the page's first script, so that a relative ``import()`` or
``import.meta.url`` resolves as in its source; a module doing either from another folder is refused),
and the page loads that one instead. The sources stay plain modules that run as they are.

Each module becomes a scope of its own in the joined file, evaluated once, in the order ES modules are
(depth first, each import before its importer, the page's scripts in document order)::

    const __m3 = await (async () => {
    const { t, lang } = __m1;         // import { t, lang } from "./i18n.js";
    ...the module's code, its ``export`` keywords removed...
    return { renderHand, TILE_W };    // what it exports
    })();

The modules' own style is what this reads, and anything else is refused (``BundleError``) so that the
build never ships a page that behaves otherwise than its sources: imports and exports at the start of a
line; ``export function|async function|class|const NAME`` and ``export default``; named, default and
namespace imports of relative paths. A live binding (``export let``), ``export {…}`` lists, re-exports
and import cycles are refused. A dynamic ``import()`` is left as it is (it loads its module's own file,
so it must not be a module the joined file holds: that one would run twice).
"""

from __future__ import annotations

import os
import re

#: a static import at the start of a line: ``import { a, b as c } from "./x.js";``, ``import X from``,
#: ``import * as ns from``, ``import "./x.js";`` (a clause may span lines)
IMPORT_STMT = re.compile(r"""^import\s*(?:(?P<what>[^"';]*?)\s*from\s*)?["'](?P<spec>[^"']+)["'][ \t]*;?""",
                         re.M)
EXPORT_DECL = re.compile(
    r"^export\s+(?:(?:async\s+)?function\*?\s+|class\s+|const\s+)(?P<name>[A-Za-z_$][\w$]*)", re.M)
EXPORT_DEFAULT = re.compile(r"^export\s+default\s+", re.M)
EXPORT_ANY = re.compile(r"^export\b", re.M)
RELATIVE_AT_RUN = re.compile(r"\bimport\s*\(|\bimport\.meta\b")
DYNAMIC = re.compile(r"""\bimport\s*\(\s*["'](\.{1,2}/[^"']+)["']\s*\)""")
NAME = re.compile(r"^[A-Za-z_$][\w$]*$")
DEFAULT = "__default__"


class BundleError(ValueError):
    """The page's modules use a form the joined file could not keep as it is."""


def _folder(rel: str) -> str:
    """The folder of static/-relative path ``rel`` ("js" of "js/table.js", "" of "page.js")."""
    return rel.rsplit("/", 1)[0] if "/" in rel else ""


def bundle_name(page: str, first: str) -> str:
    """The joined file of page ``page`` (a path relative to static/, "table.html") whose first module
    script is ``first`` ("js/table.js"): next to that module, "js/page-table.js"."""
    stem = page.rsplit("/", 1)[-1].removesuffix(".html")
    return os.path.join(_folder(first), f"page-{stem}.js").replace(os.sep, "/")


def _target(importer: str, spec: str) -> str:
    if not spec.startswith(("./", "../")):
        raise BundleError(f"{importer}: only relative imports are joined ({spec})")
    return os.path.normpath(os.path.join(_folder(importer), spec)).replace(os.sep, "/")


def _bindings(what: str, module: str, where: str) -> tuple[list[str], list[str]]:
    """The declarations binding an import clause's names to module object ``module``, and the names
    the clause takes from it ("default" for a default import)."""
    what = " ".join(what.split())
    if not what:
        return [], []
    out: list[str] = []
    taken: list[str] = []
    if what.startswith("* as "):
        name = what[5:].strip()
        if not NAME.match(name):
            raise BundleError(f"{where}: cannot read the import {what!r}")
        return [f"const {name} = {module};"], []
    default, _, rest = what.partition("{") if not what.startswith("{") else ("", "", what[1:])
    default = default.strip().rstrip(",").strip()
    if default:
        if not NAME.match(default):
            raise BundleError(f"{where}: cannot read the import {what!r}")
        out.append(f"const {default} = {module}.default;")
        taken.append("default")
    if rest or what.startswith("{"):
        inner = rest.rstrip().removesuffix("}")
        if "}" in inner:
            raise BundleError(f"{where}: cannot read the import {what!r}")
        pairs = []
        for part in (p.strip() for p in inner.split(",")):
            if not part:
                continue
            name, _, alias = (x.strip() for x in part.partition(" as "))
            if not NAME.match(name) or (alias and not NAME.match(alias)):
                raise BundleError(f"{where}: cannot read the import {what!r}")
            pairs.append(f"{name}: {alias}" if alias and alias != name else name)
            taken.append(name)
        out.append(f"const {{ {', '.join(pairs)} }} = {module};")
    return out, taken


class _Module:
    def __init__(self, rel: str, text: str) -> None:
        self.rel = rel
        self.imports: list[tuple[str, str]] = []  # (target, clause)
        for m in IMPORT_STMT.finditer(text):
            self.imports.append((_target(rel, m.group("spec")), m.group("what") or ""))
        self.exports = [m.group("name") for m in EXPORT_DECL.finditer(text)]
        self.has_default = bool(EXPORT_DEFAULT.search(text))
        known = len(self.exports) + int(self.has_default)
        if len(EXPORT_ANY.findall(text)) != known:
            raise BundleError(f"{rel}: an export other than function, class, const or default")
        self.text = text


def join(entries: list[str], texts: dict[str, str]) -> tuple[str, list[str]]:
    """The joined module of the scripts ``entries`` (paths relative to static/, in document order) and
    the modules it holds, in evaluation order. ``texts``: every source text by its path."""
    modules: dict[str, _Module] = {}
    order: list[str] = []
    active: list[str] = []

    def visit(rel: str) -> None:
        if rel in order:
            return
        if rel in active:
            raise BundleError(f"import cycle: {' -> '.join([*active, rel])}")
        if rel not in texts:
            raise BundleError(f"{active[-1] if active else 'the page'} imports {rel}, which is not a source")
        module = modules.setdefault(rel, _Module(rel, texts[rel]))
        active.append(rel)
        for target, _clause in module.imports:
            visit(target)
        active.pop()
        order.append(rel)

    for entry in entries:
        visit(entry)
    ids = {rel: f"__m{n}" for n, rel in enumerate(order)}
    parts = ["// This page's modules joined by the build (sgmahjong/server/http/bundle.py); "
             "the sources are under /static/js/."]
    for rel in order:
        parts.append(_wrapped(modules[rel], ids, modules))
    return "\n".join(parts) + "\n", order


def _wrapped(module: _Module, ids: dict[str, str], modules: dict[str, _Module]) -> str:
    head: list[str] = []
    for target, clause in module.imports:
        lines, taken = _bindings(clause, ids[target], module.rel)
        exported = {*modules[target].exports, *(["default"] if modules[target].has_default else [])}
        for name in taken:
            if name not in exported:
                raise BundleError(f"{module.rel} imports {name} from {target}, which does not export it")
        head.extend(lines)
    body = IMPORT_STMT.sub("", module.text)
    body = EXPORT_DEFAULT.sub(f"const {DEFAULT} = ", body)
    body = EXPORT_DECL.sub(lambda m: m.group(0).removeprefix("export").lstrip(), body)
    names = [*module.exports, *([f"default: {DEFAULT}"] if module.has_default else [])]
    return (f"// {module.rel}\nconst {ids[module.rel]} = await (async () => {{\n" + "\n".join(head)
            + f"\n{body.rstrip()}\nreturn {{ {', '.join(names)} }};\n}})();")


MODULE_TAG = re.compile(r'<script type="module" src="/static/([^"]+)"></script>\n?')


def page_bundle(page: str, html: str, texts: dict[str, str]) -> tuple[str, str, str, list[str]] | None:
    """Page ``page``'s HTML loading one joined module instead of its module scripts, the joined
    module's path and text, and the modules it holds; None for a page without module scripts."""
    entries = MODULE_TAG.findall(html)
    if not entries:
        return None
    name = bundle_name(page, entries[0])
    if name in texts:
        raise BundleError(f"{name} is a source: the joined module of {page} needs its name")
    text, order = join(entries, texts)
    for rel in order:
        if RELATIVE_AT_RUN.search(texts[rel]) and _folder(rel) != _folder(name):
            raise BundleError(f"{rel} resolves a path at run time (import(), import.meta) from another "
                              f"folder than {name}")
        for spec in DYNAMIC.findall(texts[rel]):
            if _target(rel, spec) in order:
                raise BundleError(f"{rel} imports {spec} at run time, which the joined module holds: "
                                  "it would run twice")
    tag = f'<script type="module" src="/static/{name}"></script>\n'
    first = MODULE_TAG.search(html)
    assert first is not None
    html = html[:first.start()] + tag + MODULE_TAG.sub("", html[first.start():])
    return html, name, text, order


def loaded_alone(texts: dict[str, str], held: set[str]) -> set[str]:
    """The modules a browser may still fetch as files once pages load joined modules: every module no
    joined module holds (a worker's script, a strings file ``import()`` loads, the joined modules
    themselves) and whatever those import."""
    stack = [rel for rel in texts if rel.endswith(".js") and rel not in held]
    seen = set(stack)
    while stack:
        rel = stack.pop()
        for m in IMPORT_STMT.finditer(texts[rel]):
            spec = m.group("spec")
            if not spec.startswith(("./", "../")):
                continue
            if (target := _target(rel, spec)) in texts and target not in seen:
                seen.add(target)
                stack.append(target)
    return seen

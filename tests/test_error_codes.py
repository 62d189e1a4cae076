"""Every error code the server can send has a text in both languages (``error.CODE`` in
static/js/strings/en.js and zh.js, shown by js/errors.js instead of the server's English message).

The codes are collected from the source, so a code added later without its texts fails here:

* HTTP errors: ``error(status, message, CODE)`` (http/common.py) and the helpers like it, and every
  ``{"error": ..., "code": CODE}`` answer;
* the protocol's refusals, sent over HTTP and the WebSocket: ``ProtocolError(CODE, ...)`` and
  ``TextProblem(CODE, ...)``, and every ``{"type": "error", "code": CODE}`` message;
* the rules core's reason codes the calculator passes on: ``NotationError(..., code=X)``
  (``notation.X``), ``invalid_hand(CODE, ...)`` and ``CliError(message, CODE)``.

A code that is not a constant must be a code made elsewhere passed on (``exc.code``, a parameter of
the helper), or be listed in :data:`DYNAMIC` with the codes it can be.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "sgmahjong"
STRINGS = PACKAGE / "server" / "static" / "js" / "strings"
#: call name -> the position of its code argument (or its keyword)
CALLS = {"error": (2, "code"), "_error": (2, "code"), "ProtocolError": (0, "code"),
         "TextProblem": (0, "code"), "invalid_hand": (0, "reason_code"), "CliError": (1, "reason_code")}
PASSED_ON = {"exc.code", "problem.code", "self.code", "exc.reason_code"}  # made elsewhere, collected there
DYNAMIC = {'f"{kind}_per_day"': {"clubs_per_day", "invites_per_day"}}  # (http/clubs.py take_daily)


def _constants(node: ast.AST) -> set[str] | None:
    """The codes an expression can be when it is made of constants only (``a if x else b``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        a, b = _constants(node.body), _constants(node.orelse)
        return None if a is None or b is None else a | b
    return None


class _Codes(ast.NodeVisitor):
    def __init__(self, source: str, where: str) -> None:
        self.source, self.where = source, where
        self.codes: dict[str, str] = {}
        self.unknown: list[str] = []
        self.functions: list[ast.FunctionDef | ast.AsyncFunctionDef] = []

    def _in_function(self, name: str) -> tuple[bool, set[str] | None]:
        """Whether ``name`` is a parameter of the enclosing function; else the constants it is set to."""
        if not self.functions:
            return False, None
        fn = self.functions[-1]
        if name in {a.arg for a in [*fn.args.args, *fn.args.kwonlyargs, *fn.args.posonlyargs]}:
            return True, None
        found: set[str] = set()
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name
                                                   for t in node.targets):
                values = _constants(node.value)
                if values is None:
                    return False, None
                found |= values
        return False, found or None

    def _code(self, node: ast.AST, prefix: str = "") -> None:
        text = ast.get_source_segment(self.source, node) or ""
        line = f"{self.where}:{getattr(node, 'lineno', 0)}"
        values = _constants(node)
        if values is None and isinstance(node, ast.Name):
            parameter, values = self._in_function(node.id)
            if parameter:
                return  # a helper's parameter: its callers are collected
        if values is None and text in PASSED_ON:
            return
        if values is None and text in DYNAMIC:
            values = DYNAMIC[text]
        if values is None:
            self.unknown.append(f"{line}: {text}")
            return
        for v in values:
            self.codes.setdefault(prefix + v, line)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.functions.append(node)
        self.generic_visit(node)
        self.functions.pop()

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function

    def visit_Call(self, node: ast.Call) -> None:
        name = node.func.id if isinstance(node.func, ast.Name) else None  # not log.error(...)
        if name == "NotationError":
            for k in node.keywords:
                if k.arg == "code":
                    self._code(k.value, "notation.")
        elif name in CALLS:
            index, keyword = CALLS[name]
            arg = next((k.value for k in node.keywords if k.arg == keyword), None)
            if arg is None and len(node.args) > index:
                arg = node.args[index]
            if arg is not None and not (isinstance(arg, ast.Constant) and arg.value is None):
                self._code(arg)
        self.generic_visit(node)

    def visit_Dict(self, node: ast.Dict) -> None:
        keys = {k.value: v for k, v in zip(node.keys, node.values, strict=True)
                if isinstance(k, ast.Constant)}
        is_error = "error" in keys or _constants(keys.get("type", ast.Constant(None))) == {"error"}
        if "code" in keys and is_error:
            self._code(keys["code"])
        self.generic_visit(node)


def server_codes() -> tuple[dict[str, str], list[str]]:
    """Every error code of the package (code -> where it is first made), and the codes not understood."""
    codes: dict[str, str] = {}
    unknown: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        found = _Codes(source, str(path.relative_to(PACKAGE.parent)))
        found.visit(ast.parse(source))
        for code, where in found.codes.items():
            codes.setdefault(code, where)
        unknown += found.unknown
    return codes, unknown


def error_texts(lang: str) -> dict[str, str]:
    text = (STRINGS / f"{lang}.js").read_text(encoding="utf-8")
    return dict(re.findall(r'^\s*"error\.([\w.]+)":\s*"((?:[^"\\]|\\.)*)"', text, re.M))


def test_the_scan_finds_the_kinds_of_codes() -> None:
    """The scan sees each way a code is made (so an empty scan cannot pass)."""
    codes, unknown = server_codes()
    assert unknown == [], "codes the scan does not understand (list them in DYNAMIC):\n" + "\n".join(unknown)
    for code in ("invite_revoked", "club_only", "too_large", "illegal", "stale", "hello_timeout", "moved",
                 "storage", "rate_limited", "text_invisible", "chat_rate", "notation.unknown_tile",
                 "hand.copies", "meld.no_chow", "score.shooter_is_winner", "clubs_per_day",
                 "expert_jobs", "review_running"):
        assert code in codes, code
    assert len(codes) > 80


def test_every_error_code_has_an_english_and_a_chinese_text() -> None:
    codes, _ = server_codes()
    for lang in ("en", "zh"):
        texts = error_texts(lang)
        missing = sorted(f"{code} ({where})" for code, where in codes.items() if code not in texts)
        assert missing == [], f"error codes without an error.CODE text in {lang}.js:\n" + "\n".join(missing)
        assert all(texts[code].strip() for code in codes)
    zh = error_texts("zh")
    assert all(re.search(r"[\u4e00-\u9fff]", zh[code]) for code in codes), "a 中文 text that is not Chinese"


def _keys(lang: str, prefix: str) -> set[str]:
    text = (STRINGS / f"{lang}.js").read_text(encoding="utf-8")
    return set(re.findall(rf'^\s*"{re.escape(prefix)}([\w.]+)":', text, re.M))


def test_every_reason_the_calculator_and_the_review_give_has_both_languages() -> None:
    """Not errors but said the same way: why a hand is not a win (the calculator's ``reason_code``,
    ``calc.reason.CODE``) and why the review flags a decision (``replay.reason.CODE``)."""
    from sgmahjong.review import REASON_CODES as REVIEW_REASONS
    from sgmahjong.scoring.context import REASON_CODES as SCORE_REASONS

    for lang in ("en", "zh"):
        assert set(SCORE_REASONS) - _keys(lang, "calc.reason.") == set(), lang
        assert set(REVIEW_REASONS) - _keys(lang, "replay.reason.") == set(), lang

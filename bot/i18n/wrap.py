"""A codemod for the migration to catalogues: string literals and f-strings -> `N_("…{x}…", x=…)`.

    python -m bot.i18n.wrap FILE [LINE ...]   # rewrite in place; only the given lines if any

It skips docstrings, log calls, subscripts, dict keys, comparisons, internal errors (ValueError,
AssertionError, …) and strings without a space (identifiers, notation). Review the diff: a
sentence built with `+` or `"".join` must become `Msg.cat`/`Msg.join` by hand. Kept in the code base
because every new game's core goes through the same step.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

INTERNAL = {"ValueError", "AssertionError", "RuntimeError", "TypeError", "KeyError", "NotImplementedError"}
# functions whose strings are notation or data, never prose: a move's text, stored state, views
NOTATION = {
    "format_action",
    "dump_state",
    "load_state",
    "dump_action",
    "load_action",
    "view",
    "new",
    "seat_name",
    "to_json",
    "from_json",
    "_grave_view",
    "lasting_view",
}
SEAT_FUNCS = {"_seat", "_Seat", "seat_name", "who", "seat_token", "P"}
LOGS = {"debug", "info", "warning", "error", "exception", "log", "critical"}
SKIP_CALLS = {
    "N_",
    "Nn_",
    "t",
    "nt",
    "tr",
    "getattr",
    "setattr",
    "hasattr",
    "get",
    "startswith",
    "endswith",
    "split",
    "replace",
    "partition",
    "rsplit",
    "strip",
    "rstrip",
    "lstrip",
    "join",
    "compile",
    "sub",
    "match",
    "search",
    "fullmatch",
    "format",
    "Path",
    "open",
    "execute",
    "re",
}


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name) and node.func.id in SEAT_FUNCS:
            return "seat"
        if node.args:
            return _name(node.args[0])
        return _name(node.func)
    if isinstance(node, ast.Subscript):
        return _name(node.value)
    return "x"


def _skipped(tree: ast.AST) -> set[int]:
    """ids of string nodes that must stay literals."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in NOTATION:
            for sub in ast.walk(node):
                out.add(id(sub))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Module):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
        elif isinstance(node, ast.Call):
            f = node.func
            fname = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            owner = f.value.id if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) else ""
            if fname in INTERNAL or fname in SKIP_CALLS or (fname in LOGS and owner in ("log", "logging", "logger")):
                for sub in ast.walk(node):
                    out.add(id(sub))
            for kw in node.keywords:  # identifiers passed by keyword
                if kw.arg in ("custom_id", "kind", "style", "key", "name_key"):
                    for sub in ast.walk(kw.value):
                        out.add(id(sub))
        elif isinstance(node, ast.Subscript):
            for sub in ast.walk(node.slice):
                out.add(id(sub))
        elif isinstance(node, ast.Dict):
            for k in node.keys:
                if k is not None:
                    for sub in ast.walk(k):
                        out.add(id(sub))
        elif isinstance(node, ast.Compare):
            for sub in ast.walk(node):
                out.add(id(sub))
        elif isinstance(node, ast.JoinedStr):
            for v in node.values:
                out.add(id(v))
                if isinstance(v, ast.FormattedValue) and v.format_spec is not None:
                    for sub in ast.walk(v.format_spec):
                        out.add(id(sub))
    return out


def _wanted(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and " " in node.value.strip() and any(c.isalpha() for c in node.value)
    if isinstance(node, ast.JoinedStr):
        text = "".join(str(v.value) for v in node.values if isinstance(v, ast.Constant))
        return any(c.isalpha() for c in text) and " " in text.strip()
    return False


def convert(source: str, lines: set[int] | None = None) -> str:
    tree = ast.parse(source)
    skip = _skipped(tree)
    nodes: list[ast.expr] = [n for n in ast.walk(tree) if isinstance(n, ast.expr) and _wanted(n) and id(n) not in skip]
    if lines:
        nodes = [n for n in nodes if any(n.lineno <= ln <= (n.end_lineno or n.lineno) for ln in lines)]
    # innermost-last edits would clash: keep only the outermost of overlapping nodes
    nodes.sort(key=lambda n: (n.lineno, n.col_offset))
    kept: list[ast.expr] = []
    for n in nodes:
        if kept and (n.lineno, n.col_offset) < ((kept[-1].end_lineno or 0), (kept[-1].end_col_offset or 0)):
            continue
        kept.append(n)
    src_lines = source.splitlines(keepends=True)
    offsets = [0]
    for line in src_lines:
        offsets.append(offsets[-1] + len(line))

    def pos(line: int, col: int) -> int:
        return offsets[line - 1] + len(src_lines[line - 1].encode()[:col].decode())

    out = source
    for n in reversed(kept):
        start, end = pos(n.lineno, n.col_offset), pos(n.end_lineno or n.lineno, n.end_col_offset or 0)
        out = out[:start] + _call(n, source) + out[end:]
    if kept and "import N_" not in out and "N_," not in out:
        out = _add_import(out)
    return out


def _literal(text: str) -> str:
    """A msgid as Python source: long ones as implicit concatenation (Babel joins them back)."""
    if len(text) <= 80:
        return repr(text)
    chunks, line = [], ""
    for word in text.split(" "):
        if line and len(line) + len(word) > 80:
            chunks.append(line + " ")
            line = word
        else:
            line = f"{line} {word}" if line else word
    chunks.append(line)
    return "\n" + "\n".join(repr(c) for c in chunks) + "\n"


def _call(node: ast.expr, source: str) -> str:
    if isinstance(node, ast.Constant):
        return f"N_({_literal(str(node.value))})"
    assert isinstance(node, ast.JoinedStr)
    parts: list[str] = []
    params: dict[str, str] = {}
    for v in node.values:
        if isinstance(v, ast.Constant):
            parts.append(str(v.value).replace("{", "{{").replace("}", "}}"))
            continue
        assert isinstance(v, ast.FormattedValue)
        expr = ast.get_source_segment(source, v.value) or "None"
        base = _name(v.value).lstrip("_") or "x"
        name = base
        i = 2
        while name in params and params[name] != expr:
            name, i = f"{base}{i}", i + 1
        params[name] = expr
        conv = {115: "!s", 114: "!r", 97: "!a"}.get(v.conversion, "")
        spec = ""
        if isinstance(v.format_spec, ast.JoinedStr):
            spec = ":" + "".join(str(c.value) for c in v.format_spec.values if isinstance(c, ast.Constant))
        parts.append("{" + name + conv + spec + "}")
    args = ", ".join(f"{k}={e}" for k, e in params.items())
    return f"N_({_literal(''.join(parts))}" + (f", {args})" if args else ")")


def _add_import(source: str) -> str:
    lines = source.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.startswith(("from bot.", "import bot")):
            lines.insert(i, "from bot.i18n import N_\n")
            return "".join(lines)
    for i, line in enumerate(lines):
        if line.startswith(("from ", "import ")) and "__future__" not in line:
            lines.insert(i, "from bot.i18n import N_\n")
            return "".join(lines)
    return "from bot.i18n import N_\n" + source


def main(argv: list[str]) -> int:
    path = Path(argv[0])
    lines = {int(a) for a in argv[1:]} or None
    path.write_text(convert(path.read_text(encoding="utf-8"), lines), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

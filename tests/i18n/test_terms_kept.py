"""A glossary term flattened into a plain string (an f-string, `", ".join(...)`, `str + term`) is
frozen in English: a zh-TW reader then sees "Take corn candy" in a Chinese menu. The whole-game
pseudo-locale tests only catch it in the states their games happen to reach (a Trick or Treat menu
for four magnifiers was missed that way), so this scans every module that builds text for a
term map used inside an f-string or a string join."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from bot.i18n import Msg

REPO = Path(__file__).resolve().parents[2]
AREAS = ("bot/rules", "bot/tables", "cogs", "rendering")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _term_maps() -> set[str]:
    """Names of the rules cores' module-level dicts whose values are all glossary terms."""
    found: set[str] = set()
    for path in (REPO / "bot/rules").rglob("*.py"):
        module = importlib.import_module(_module_name(path))
        for name, value in vars(module).items():
            if (
                isinstance(value, dict)
                and value
                and all(isinstance(v, Msg) and v.kind == "term" for v in value.values())
            ):
                found.add(name)
    return found


def _flattened(tree: ast.AST, maps: set[str]) -> list[tuple[int, str]]:
    def uses(node: ast.AST) -> bool:
        return any(isinstance(n, ast.Name) and n.id in maps for n in ast.walk(node))

    hits: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            for part in node.values:
                if isinstance(part, ast.FormattedValue) and uses(part.value):
                    hits.append((node.lineno, ast.unparse(node)))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "join"
            and isinstance(node.func.value, ast.Constant)
            and any(uses(a) for a in node.args)
        ) or (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Add)
            and any(isinstance(side, ast.Constant) and isinstance(side.value, str) for side in (node.left, node.right))
            and uses(node)
        ):
            hits.append((node.lineno, ast.unparse(node)))
    return hits


def test_the_scan_knows_the_term_maps() -> None:
    maps = _term_maps()
    assert {"FACE_NAME", "KIND_NAME", "TYPE_NAME"} <= maps, maps


def test_no_glossary_term_is_flattened_into_english() -> None:
    maps = _term_maps()
    bad = [
        f"{path.relative_to(REPO)}:{line}: {code}"
        for area in AREAS
        for path in sorted((REPO / area).rglob("*.py"))
        for line, code in _flattened(ast.parse(path.read_text(encoding="utf-8")), maps)
    ]
    assert not bad, "use N_(...) or Msg.cat/Msg.join instead:\n" + "\n".join(bad)


def test_the_scan_finds_a_flattened_term() -> None:
    code = 'label = f"Take {KIND_NAME[k]}"\n'
    code += 'desc = ", ".join(KIND_NAME[k] for k in ks)\n'
    code += 'ok = N_("Take {k}", k=KIND_NAME[k])\n'
    code += 'more = "Take " + KIND_NAME[k]\n'
    assert [line for line, _ in _flattened(ast.parse(code), {"KIND_NAME"})] == [1, 2, 4]


def test_a_list_in_the_pseudo_locale_marks_its_connectors_too() -> None:
    """A list's words come from CLDR, not a catalogue: in the pseudo-locale they are marked like the
    rest, so the whole-game pseudo tests can tell a joined list from English left behind."""
    from bot.i18n import PSEUDO, T_, tr

    waffle = T_("trick_or_treat.candy.waffle", "waffle")
    assert tr(PSEUDO, Msg.join([waffle, waffle, waffle])) == "⟦waffle⟧, ⟦waffle⟧, ⟦and⟧ ⟦waffle⟧"
    assert tr("zh-TW", Msg.join([waffle, waffle])) == "鬆餅和鬆餅"

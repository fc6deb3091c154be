"""The code's layers go one way (cogs -> tables/rendering -> store/rules) and no modules import each
other in a cycle, even lazily inside a function: a cycle hides an order dependency that breaks the
day someone imports the other module first. Typing-only imports (`if TYPE_CHECKING:`) are not counted."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TOPS = ("bot", "cogs", "rendering")
# A module of the first prefix may not import one of the second.
FORBIDDEN = [
    ("bot.rules", "bot.tables"), ("bot.rules", "bot.store"), ("bot.rules", "rendering"), ("bot.rules", "cogs"),
    ("bot.store", "bot.tables"), ("bot.store", "rendering"), ("bot.store", "cogs"),
    ("bot.tables", "cogs"), ("bot.tables", "rendering"),
    ("rendering", "cogs"), ("rendering", "bot.tables"), ("rendering", "bot.store"),
    ("bot.i18n", "bot.tables"), ("bot.i18n", "bot.store"), ("bot.i18n", "cogs"), ("bot.i18n", "rendering"),
]


def _modules() -> dict[str, Path]:
    mods: dict[str, Path] = {}
    for top in TOPS:
        for path in (REPO / top).rglob("*.py"):
            parts = list(path.relative_to(REPO).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            mods[".".join(parts)] = path
    return mods


def _typing_only(tree: ast.Module) -> set[int]:
    """Ids of the import nodes under `if TYPE_CHECKING:`."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            out.update(id(n) for body in node.body for n in ast.walk(body))
    return out


def _graph() -> dict[str, set[str]]:
    mods = _modules()

    def resolve(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    edges: dict[str, set[str]] = {m: set() for m in mods}
    for mod, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _typing_only(tree)
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                names = [f"{base}.{a.name}" for a in node.names] + [base]
            for name in names:
                target = resolve(name)
                # `from pkg import sibling` imports pkg's __init__ too (which may import this module):
                # an edge like any other; siblings are imported by their own name.
                if target and target != mod:
                    edges[mod].add(target)
    return edges


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp: list[str] = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        found.append(sorted(comp))
    return found


def test_no_module_imports_a_higher_layer() -> None:
    bad = [
        f"{mod} imports {dep}"
        for mod, deps in _graph().items()
        for dep in sorted(deps)
        for low, high in FORBIDDEN
        if (mod == low or mod.startswith(low + ".")) and (dep == high or dep.startswith(high + "."))
    ]
    assert not bad, "\n".join(bad)


def test_no_import_cycles() -> None:
    assert _cycles(_graph()) == []


def test_the_cycle_finder_finds_a_lazy_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []

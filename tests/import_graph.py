"""The project's import graph, read statically from the import statements (function-level ones included, those
under ``if TYPE_CHECKING:`` not: they never run).

Modules are named as installed: ``envs/clock/screens.py`` is ``mobilegym.envs.clock.screens`` and
``tasks/clock/plans.py`` is ``mobilegym.tasks.clock.plans``; ``benchmarks/x.py`` is ``benchmarks.x``."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = {"mobilegym": "mobilegym", "envs": "mobilegym.envs", "tasks": "mobilegym.tasks", "benchmarks": "benchmarks"}


def modules() -> dict[str, Path]:
    """Every module of the project: dotted name -> file."""
    out: dict[str, Path] = {}
    for folder, package in SOURCES.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.is_symlink() or any(p.is_symlink() for p in path.relative_to(ROOT).parents if str(p) != "."):
                continue
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join([package, *parts])] = path
    return out


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node but those under ``if TYPE_CHECKING:`` (annotations only: no import at run time)."""
    out, todo = [], [tree]
    while todo:
        node = todo.pop()
        out.append(node)
        if isinstance(node, ast.If) and getattr(node.test, "id", getattr(node.test, "attr", None)) == "TYPE_CHECKING":
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))
    return out


def _imported(tree: ast.AST, name: str, is_package: bool, known: dict[str, Path]) -> set[str]:
    """The project modules a module's import statements name (``from a import b`` counts a.b when b is a module)."""
    here = name if is_package else name.rpartition(".")[0]
    out: set[str] = set()
    for node in _runtime_nodes(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here.split(".")[: len(here.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            submodules = [f"{base}.{alias.name}" for alias in node.names]
            # the package counts only when a name is taken from it (a module named is imported, not its package)
            targets = submodules + ([base] if any(m not in known for m in submodules) else [])
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def graph() -> dict[str, set[str]]:
    """module -> the project modules it imports."""
    known = modules()
    return {name: _imported(ast.parse(path.read_text(encoding="utf-8")), name, path.name == "__init__.py", known)
            for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """The strongly connected components of more than one module (Tarjan), each sorted, in sorted order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[tuple[str, ...]] = []

    def visit(start: str) -> None:  # iterative, so deep graphs do not hit the recursion limit
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(tuple(sorted(component)))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(found)

"""One source for each fact: a module-level UPPER_CASE constant whose literal value is a str, tuple, list, dict or
set (its repr 8 characters or more) is defined in one module of mobilegym/, envs/ and tasks/ and imported
everywhere else; and no module imports another module's private ``_name``."""
from __future__ import annotations

import ast
from collections import defaultdict
from typing import Any, Hashable

from .import_graph import modules

# Equal values that are not one fact, each set of names with why, e.g.
#     frozenset({"mobilegym.a.LIMIT", "mobilegym.b.LIMIT"}),  # a path limit and a screen limit, both 4096
# None today: the coincidences found so far are bare numbers (4096, 60.0, 0.35: not checked) or in benchmarks/.
ALLOWED: set[frozenset[str]] = set()


def _sources() -> dict[str, ast.Module]:
    return {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in modules().items()
            if not name.startswith("benchmarks.")}


def _key(value: Any) -> Hashable:
    """The value, lists read as tuples (the same words in a list and in a tuple are one fact)."""
    if isinstance(value, (list, tuple)):
        return tuple(_key(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return frozenset(_key(v) for v in value)
    if isinstance(value, dict):
        return frozenset((_key(k), _key(v)) for k, v in value.items())
    return type(value), value


def _constants(tree: ast.Module) -> dict[str, Any]:
    """The module-level UPPER_CASE names bound to a literal str, tuple, list, dict or set (repr >= 8 characters)."""
    out: dict[str, Any] = {}
    for node in tree.body:
        target, value = ((node.targets[0], node.value) if isinstance(node, ast.Assign) and len(node.targets) == 1
                         else (node.target, node.value) if isinstance(node, ast.AnnAssign) else (None, None))
        if not isinstance(target, ast.Name) or not target.id.isupper() or value is None:
            continue
        try:
            literal = ast.literal_eval(value)
        except (ValueError, TypeError, SyntaxError):
            continue
        if isinstance(literal, (str, tuple, list, dict, set)) and len(repr(literal)) >= 8:
            out[target.id] = literal
    return out


def test_each_fact_is_defined_once() -> None:
    where: dict[Hashable, list[str]] = defaultdict(list)
    for module, tree in _sources().items():
        for name, value in _constants(tree).items():
            where[_key(value)].append(f"{module}.{name}")
    repeated = [sorted(names) for names in where.values()
                if len({n.rpartition(".")[0] for n in names}) > 1 and frozenset(names) not in ALLOWED]
    assert not repeated, ("the same value is defined in several modules: define it once (in the module that owns "
                          "the fact) and import it elsewhere, or, for a coincidence, add the names to ALLOWED "
                          "saying why:\n" + "\n".join(", ".join(names) for names in sorted(repeated)))


def test_no_module_imports_a_private_name() -> None:
    found = [f"{module}: from {'.' * node.level}{node.module or ''} import {alias.name}"
             for module, tree in _sources().items() for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
             for alias in node.names if alias.name.startswith("_") and not alias.name.startswith("__")]
    assert not found, ("a private name is its module's own: make it public (drop the underscore, at every use) "
                       "when other modules need it:\n" + "\n".join(found))

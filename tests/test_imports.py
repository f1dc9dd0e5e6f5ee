"""The import graph (read statically, function-level imports included) has no cycles and keeps the layering:
the simulator knows no device layer or judge, the judge no simulator, task suites or harness, the apps no judge.

What is left to untangle is listed in tests/data/import_debts.txt, kept exact: a cycle or a layering edge that
is not listed fails, and so does a listed one that is gone (take it off the list)."""
from __future__ import annotations

from pathlib import Path

from .import_graph import cycles, graph

DEBTS = Path(__file__).resolve().parent / "data" / "import_debts.txt"
# layer -> the layers it must not import; a layer is the first name below mobilegym (mobilegym.envs -> envs)
FORBIDDEN = {
    "sim": {"device", "judge", "eval", "env", "tasks", "serve", "remote", "agentic", "adbd"},
    "judge": {"sim", "tasks", "eval", "env", "serve", "remote", "agentic", "adbd"},
    "envs": {"judge", "tasks", "eval", "env", "device"},
    "device": {"env", "eval", "judge", "tasks"},
    "actions": {"env", "sim", "judge", "eval"},
    "adbd": {"env", "judge", "eval", "tasks"},
    "mobilegym": {"adbd"},  # the package's __init__
}


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if parts[0] == "mobilegym" and len(parts) > 1 else parts[0]


def _found() -> set[str]:
    edges = graph()
    debts = {"cycle " + " ".join(c) for c in cycles(edges)}
    debts |= {f"layer {m} -> {t}" for m, targets in edges.items() for t in targets
              if _layer(t) in FORBIDDEN.get(_layer(m), ()) and _layer(t) != _layer(m)}
    return debts


def _listed() -> set[str]:
    lines = DEBTS.read_text(encoding="utf-8").splitlines()
    return {line for line in lines if line.strip() and not line.startswith("#")}


def test_no_new_cycle_or_layering_edge() -> None:
    new = sorted(_found() - _listed())
    assert not new, "imports against the layering (or a new cycle):\n" + "\n".join(new)


def test_the_debt_list_is_exact() -> None:
    paid = sorted(_listed() - _found())
    assert not paid, "no longer true, take off tests/data/import_debts.txt:\n" + "\n".join(paid)


def test_the_graph_reads_relative_and_function_level_imports() -> None:
    edges = graph()
    assert "mobilegym.envs.clock.app" in edges["mobilegym.envs.clock.screens"]  # from .app import APP
    assert "mobilegym.envs.clock" not in edges["mobilegym.envs.clock.screens"]  # the package is not re-entered
    assert "mobilegym.adbd.shell" not in edges["mobilegym.adbd.commands.registry"]  # under TYPE_CHECKING only
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [("a", "b", "c")]

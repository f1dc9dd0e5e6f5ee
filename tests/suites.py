"""The worlds the task suites play every task on, and the cases they make of them."""
from __future__ import annotations

from typing import Any, Callable

from mobilegym.eval import Case
from mobilegym.eval.adversaries import adversary_cases
from mobilegym.eval.false_negatives import false_negative_cases
from mobilegym.judge import default_registry

SEEDS = tuple(range(20))  # twenty generated worlds per task
REGISTRY = default_registry()
TASK_IDS = sorted(REGISTRY.refs)


def chinese_seed(task_id: str) -> int:
    """The one world a task is played on with a Chinese phone: the tasks take turns through SEEDS (5% more
    cases, every task covered)."""
    return SEEDS[TASK_IDS.index(task_id) % len(SEEDS)]


def _with_chinese(make: Callable[..., list[Any]]) -> list[Any]:
    """``make``'s cases (or (case, name) pairs) on every seed, then on each task's Chinese world."""
    return make(REGISTRY, SEEDS) + [c for t in TASK_IDS
                                    for c in make(REGISTRY, [chinese_seed(t)], task_ids=[t], language="zh")]


def _adversaries_by_case() -> dict[Case, list[str]]:
    by_case: dict[Case, list[str]] = {}
    for case, name in _with_chinese(adversary_cases):
        by_case.setdefault(case, []).append(name)
    return by_case


ADVERSARIES_BY_CASE = _adversaries_by_case()
"""Every (task, mode, seed, language) case the adversary suite plays -> the adversaries that apply to it."""
PHRASED_CASES = list(dict.fromkeys(_with_chinese(false_negative_cases)))
"""The cases the false-negative suite re-words right answers on (every feasible task's)."""
CASES = list(dict.fromkeys([*ADVERSARIES_BY_CASE, *PHRASED_CASES]))
"""Every case of either suite, a task's cases together."""

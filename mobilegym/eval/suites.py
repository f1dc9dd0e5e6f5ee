"""Running the adversary and false-negative suites outside pytest, for ``mobilegym adversaries``."""
from __future__ import annotations

import time
from typing import Callable, Sequence

from . import adversaries, false_negatives
from .runs import Runner
from .tally import Tally

SUITES = ("adversaries", "false-negatives")


def run_suites(runner: Runner, suites: Sequence[str], seeds: Sequence[int], task_ids: Sequence[str] | None = None,
               names: Sequence[str] | None = None, random_rollouts: int = 0,
               progress: Callable[[str], None] = lambda _: None) -> list[Tally]:
    """Play the chosen suites over the tasks and seeds; a tally per suite.

    ``names`` limits the adversaries; ``random_rollouts`` > 0 adds that many random episodes per
    one-step task (the random agent's bound, measured)."""
    span = f"seeds {', '.join(map(str, seeds))}"
    tallies = []
    if "adversaries" in suites:
        tally = Tally(f"Adversary suite ({span})", want_paid=False)
        started = time.perf_counter()
        for case, name in adversaries.adversary_cases(runner.registry, seeds, names, task_ids):
            progress(f"{case} {name}")
            tally.add(adversaries.play(runner, case, name))
        if random_rollouts:
            for task_id in task_ids or runner.task_ids:
                if runner.facts(task_id).one_step:
                    tally.add(adversaries.random_rollouts(runner, task_id, seeds, random_rollouts))
        tally.seconds = time.perf_counter() - started
        tallies.append(tally)
    if "false-negatives" in suites:
        tally = Tally(f"False-negative suite ({span})", want_paid=True)
        started = time.perf_counter()
        for case in false_negatives.false_negative_cases(runner.registry, seeds, task_ids):
            progress(str(case))
            tally.add(false_negatives.play(runner, case))
        tally.seconds = time.perf_counter() - started
        tallies.append(tally)
    return tallies


def report(tallies: Sequence[Tally], failures: bool) -> str:
    """The tables; with ``failures``, the tasks of every row judged against its suite's goal."""
    parts = []
    for tally in tallies:
        parts.append(f"{tally.title}\n{tally.table()}")
        if failures:
            wrong = tally.wrong_tasks()
            parts.append("\n".join(f"  {name}: {', '.join(tasks)}" for name, tasks in wrong.items()) or "  (none)")
    return "\n\n".join(parts)

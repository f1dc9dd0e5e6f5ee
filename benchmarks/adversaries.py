"""The adversary and false-negative suites outside pytest: per-adversary and per-phrasing tables.

    python benchmarks/adversaries.py [--suite adversaries|false-negatives] [--seeds 0 1 2]
        [--task clock.CountAlarms] [--adversary hedge] [--wrong-targets 2] [--random-rollouts 50]
        [--failures] [--progress]

The same as ``mobilegym adversaries``: every registered task, seeds 0-2, both evaluation modes
where the task has an answer. ``--random-rollouts N`` measures the random agent's rate on one-step
tasks (its bound is 2%); ``--failures`` lists, per row, the tasks judged against the suite's goal
(adversaries paid, right answers rejected). Exit status 1 when any row has such a task.
"""
from __future__ import annotations

import sys

from mobilegym.cli import main

if __name__ == "__main__":
    sys.exit(main(["adversaries", *sys.argv[1:]]))

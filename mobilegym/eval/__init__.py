"""Evaluating the judge itself: adversaries that must not be paid and right answers that must be.

``mobilegym.eval.adversaries`` and ``mobilegym.eval.false_negatives`` are the two suites; both play
episodes through ``env.step`` from the oracle plans' runs (``mobilegym.eval.runs``) and count them
per adversary or phrasing (``mobilegym.eval.tally``). ``benchmarks/adversaries.py`` and
``mobilegym adversaries`` print their tables; ``tests/test_case_matrix.py`` runs both in CI.
"""
from .runs import Case, Outcome, Runner, TaskKind
from .tally import Tally

__all__ = ["Case", "Outcome", "Runner", "Tally", "TaskKind"]

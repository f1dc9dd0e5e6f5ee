"""The case matrix: every task on twenty generated worlds and one Chinese one, a case at a time.

A case is one (task, mode, seed, language). Its three tests share one oracle run: pytest groups a case's tests
together (the module-scoped ``case`` fixture) and the runner keeps the run while the case is recent. The oracle
plan is paid; no adversary is paid (issue 13's adversary suite: a failure lists the paid episodes with the judge's
checks); every natural wording of the right answer is paid (the false-negative suite: a failure lists each
rejected wording). The per-adversary and per-wording tables are printed after the run (tests/conftest.py).
"""
from __future__ import annotations

import time

import pytest

from mobilegym.eval import Case, Runner, Tally
from mobilegym.eval import adversaries, false_negatives

from .suites import ADVERSARIES_BY_CASE, CASES, PHRASED_CASES

PHRASED = frozenset(PHRASED_CASES)


@pytest.fixture(scope="module", params=CASES, ids=[f"{c.task_id}-{c.mode}-{c.seed}-{c.language}" for c in CASES])
def case(request: pytest.FixtureRequest) -> Case:
    return request.param


def test_oracle_plan_is_paid(suite_runner: Runner, case: Case) -> None:
    run = suite_runner.oracle(case)  # raises with the judge's checks when the plan is not paid
    assert run.judge["error"] is None and run.judge["score"] == 1.0


def test_no_adversary_is_paid(suite_runner: Runner, adversary_tally: Tally, case: Case) -> None:
    started = time.perf_counter()
    outcomes = [o for name in ADVERSARIES_BY_CASE[case] for o in adversaries.play(suite_runner, case, name)]
    adversary_tally.seconds += time.perf_counter() - started
    adversary_tally.add(outcomes)
    assert all(o.judge.get("error") is None for o in outcomes), [o.explain() for o in outcomes]
    paid = [o.explain() for o in outcomes if o.beat_the_judge]
    assert not paid, "paid:\n" + "\n".join(paid)


def test_right_answers_in_natural_wording_are_paid(suite_runner: Runner, phrasing_tally: Tally, case: Case) -> None:
    if case not in PHRASED:
        pytest.skip("an infeasible task: no right answer to re-word")
    started = time.perf_counter()
    outcomes = false_negatives.play(suite_runner, case)
    phrasing_tally.seconds += time.perf_counter() - started
    phrasing_tally.add(outcomes)
    rejected = [o.explain() for o in outcomes if not o.paid]
    assert not rejected, "rejected:\n" + "\n".join(rejected)

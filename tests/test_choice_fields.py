"""Choice fields cannot be won by position: every choice field of an AnswerSheet has at least
MIN_CHOICE_OPTIONS options, shown in an order drawn per world, so that ticking the option at a fixed position
is right on about 1 world in (options) over the matrix worlds, never more than chance allows."""
from __future__ import annotations

import math

import gymnasium as gym
import pytest

import mobilegym  # noqa: F401
from mobilegym.judge import default_registry
from mobilegym.judge.python.validation import MIN_CHOICE_OPTIONS
from mobilegym.oracle import plans_for, run_plan

from .suites import SEEDS

REGISTRY = default_registry()


def _choice_tasks() -> list[str]:
    out = []
    for task_id, ref in sorted(REGISTRY.refs.items()):
        cls = getattr(ref, "cls", None)
        fields = getattr(cls, "answer_fields", None) if cls is not None else None
        spec = fields.get("fields", []) if isinstance(fields, dict) else fields or []
        if any(f.get("type") == "choice" for f in spec):
            out.append(task_id)
    return out


CHOICE_TASKS = _choice_tasks()


def _chance_bound(n: int, options: int) -> int:
    """The most wins of n fair guesses at 1/options the test allows: the mean plus three standard deviations."""
    p = 1 / options
    return math.floor(n * p + 3 * math.sqrt(n * p * (1 - p)))


def test_the_choice_tasks_are_found() -> None:
    assert {"weather.TomorrowCondition", "maps.FastestMode"} <= set(CHOICE_TASKS)


@pytest.fixture(scope="module")
def env():
    return gym.make("MobileGym-v0", task=CHOICE_TASKS, eval_mode="grounded", obs_parts=("a11y",))


@pytest.mark.parametrize("task_id", CHOICE_TASKS)
def test_a_fixed_position_wins_no_more_than_chance(env, task_id: str) -> None:
    oracle = next(p for p in plans_for(task_id) if p.expect_success)
    wins: dict[tuple[int, int], int] = {}
    orders = set()
    for seed in SEEDS:
        _, info, driver = run_plan(env, task_id, oracle, seed)
        assert info["judge"]["success"], (task_id, seed)
        answers = driver.answers[-1]
        for index, field in enumerate(driver.env.episode.fields):
            if field.get("type") != "choice":
                continue
            options = field["options"]
            assert len(options) >= MIN_CHOICE_OPTIONS, (task_id, options)
            orders.add(tuple(options))
            truth = answers[index]
            for position in range(len(options)):
                wins[(index, position)] = wins.get((index, position), 0) + (options[position] == truth)
    assert len(orders) > 1, f"{task_id}: the options come in one order on every world"
    options = len(next(iter(orders)))
    bound = _chance_bound(len(SEEDS), options)
    over = {k: v for k, v in wins.items() if v > bound}
    assert not over, f"{task_id}: fixed positions right on more than {bound} of {len(SEEDS)} worlds: {over}"


@pytest.mark.parametrize("task_id", CHOICE_TASKS)
def test_the_order_puts_each_option_at_each_position_equally_often(task_id: str) -> None:
    """Over 2,000 seeds the position of every option is uniform (within 20% of 1/options): whatever the
    truth, a fixed-position guess is right with probability 1/options."""
    cls = REGISTRY.refs[task_id].cls
    options = [f"option {i}" for i in range(MIN_CHOICE_OPTIONS + 2)]
    seen = {(o, p): 0 for o in options for p in range(len(options))}
    n = 2000
    for seed in range(n):
        for position, option in enumerate(cls(seed=seed).option_order(options)):
            seen[(option, position)] += 1
    expected = n / len(options)
    assert all(abs(v - expected) < 0.2 * expected for v in seen.values()), seen

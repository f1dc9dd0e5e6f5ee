"""No answer can be memorised: the project's memoriser (the answer the oracle gives most often on the worlds it
learned, MEMORY_SEEDS) is right on at most 1 world in 10 when the answer is a name or an amount, and on at most
about 1 in 6 (3 of 20) when it is a count, over twenty other worlds; and the spread helper draws what it says."""
from __future__ import annotations

import collections
import json
import random

import gymnasium as gym
import pytest

import mobilegym  # noqa: F401
from mobilegym.eval.runs import MEMORY_SEEDS
from mobilegym.judge import default_registry
from mobilegym.oracle import plans_for, run_plan
from mobilegym.tasks.spread import COUNT_SPAN, Spread, fit_count, spread_choice, spread_count

from .suites import SEEDS

REGISTRY = default_registry()
ANSWER_TASKS = sorted(t for t, ref in REGISTRY.refs.items()
                      if ref.metadata.get("objective") in ("query", "hybrid") and not ref.metadata.get("infeasible"))
MAX_COUNT_HITS = 3  # of the 20 worlds: about 1 in 6
MAX_NAME_HITS = 2  # 1 in 10


def _answers(env, task_id: str, seeds) -> list[str]:
    oracle = next(p for p in plans_for(task_id) if p.expect_success)
    out = []
    for seed in seeds:
        _, _, driver = run_plan(env, task_id, oracle, seed)
        out.append(json.dumps(driver.answers[:1], ensure_ascii=False, sort_keys=True))
    return out


def _is_count(answer: str) -> bool:
    values = [v for a in json.loads(answer) for v in a]
    return bool(values) and all(isinstance(v, int) and not isinstance(v, bool) for v in values)


@pytest.fixture(scope="module")
def env():
    return gym.make("MobileGym-v0", task=ANSWER_TASKS, eval_mode="text", obs_parts=("instruction",))


@pytest.mark.parametrize("task_id", ANSWER_TASKS)
def test_the_memoriser_is_rarely_right(env, task_id: str) -> None:
    learned = collections.Counter(_answers(env, task_id, MEMORY_SEEDS)).most_common(1)[0][0]
    truths = _answers(env, task_id, SEEDS)
    hits = truths.count(learned)
    bound = MAX_COUNT_HITS if _is_count(learned) else MAX_NAME_HITS
    assert hits <= bound, f"the memorised {learned} is right on {hits} of {len(truths)} worlds (at most {bound})"


def test_spread_count_draws_every_value_of_its_span() -> None:
    rng = random.Random(1)
    drawn = collections.Counter(spread_count(rng, 2) for _ in range(3000))
    assert set(drawn) == set(range(2, 2 + COUNT_SPAN))
    assert max(drawn.values()) < 1.3 * 3000 / COUNT_SPAN
    with pytest.raises(ValueError, match="span"):
        spread_count(rng, 1, 0)


def test_spread_choice_needs_enough_candidates() -> None:
    assert spread_choice(random.Random(0), list("abc"), span=3) in "abc"
    with pytest.raises(ValueError, match="fewer than the 20"):
        spread_choice(random.Random(0), list("abc"))


def test_fit_count_grows_cuts_and_keeps() -> None:
    items = [{"id": i, "on": i % 2 == 0} for i in range(6)]  # three on
    rng = random.Random(0)
    fewer = fit_count(items, lambda i: i["on"], 1, rng, drop=lambda i: {**i, "on": False}, add=lambda k, now: None,
                      keep=lambda i: i["id"] == 4)
    assert [i["id"] for i in fewer if i["on"]] == [4] and len(fewer) == 6
    more = fit_count(items, lambda i: i["on"], 5, rng, drop=lambda i: None,
                     add=lambda k, now: {"id": 10 + k, "on": True})
    assert sum(i["on"] for i in more) == 5 and len(more) == 8
    with pytest.raises(ValueError, match="cannot add"):
        fit_count(items, lambda i: i["on"], 4, rng, drop=lambda i: None, add=lambda k, now: None)
    with pytest.raises(ValueError, match="must stay"):
        fit_count(items, lambda i: i["on"], 0, rng, drop=lambda i: None, add=lambda k, now: None,
                  keep=lambda i: i["on"])


def test_spread_draws_each_value_once_per_block_of_reset_seeds() -> None:
    for span in (4, 12):
        values = [Spread("t.T", seed, random.Random(0)).count(1, span) for seed in range(3 * span)]
        for block in range(3):
            assert sorted(values[block * span:(block + 1) * span]) == list(range(1, span + 1))
        assert values[:span] != values[span:2 * span]  # a fresh order per block
    no_seed = Spread("t.T", None, random.Random(3))
    assert 1 <= no_seed.count(1) <= COUNT_SPAN
    assert Spread("t.T", 7, random.Random(0)).choice(["a", "b", "c"]) in "abc"
    with pytest.raises(ValueError, match="no choices"):
        Spread("t.T", 7, random.Random(0)).choice([])

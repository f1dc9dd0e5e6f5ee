"""Difficulty holds on every world: every task that declares its distractors (BaseTask.distractors) has them on
every world of the matrix (seeds 0-19 and the worlds the playtests found short), and every feasible L3-L4 task
written in Python declares them (several candidates, at least one trap, or the items the task must handle)."""
from __future__ import annotations

import gymnasium as gym
import pytest

import mobilegym  # noqa: F401
from mobilegym.judge import copy_state, default_registry
from mobilegym.judge.python.tasks import BaseTask

from .suites import SEEDS

REGISTRY = default_registry()
DECLARED = sorted(t for t, ref in REGISTRY.refs.items()
                  if getattr(ref, "cls", None) is not None and ref.cls.distractors is not BaseTask.distractors)
MUST_DECLARE = sorted(t for t, ref in REGISTRY.refs.items()
                      if getattr(ref, "cls", None) is not None and ref.metadata["difficulty"] in ("L3", "L4")
                      and not ref.metadata.get("infeasible"))
WORLDS = sorted({*SEEDS, 211, 304})  # 211 and 304: the worlds a playtest found one open restaurant, three videos on


def test_the_tasks_that_need_distractors_declare_them() -> None:
    missing = sorted(set(MUST_DECLARE) - set(DECLARED))
    assert not missing, f"L3-L4 tasks that declare no distractors: {missing}"
    assert {"maps.SaveBestOpen", "video.PruneWatchedFromLater"} <= set(MUST_DECLARE)


@pytest.fixture(scope="module", params=["en", "zh"])
def env(request):
    return gym.make("MobileGym-v0", task=DECLARED, eval_mode="text", obs_parts=("instruction",),
                    language=request.param)


@pytest.mark.parametrize("task_id", DECLARED)
def test_every_world_keeps_the_distractors(env, task_id: str) -> None:
    short = []
    for seed in WORLDS if env.unwrapped.language == "en" else WORLDS[:6]:
        env.reset(seed=seed, options={"task": task_id})
        state = copy_state(env.unwrapped.device)
        found = env.unwrapped.episode.task.distractors(state["apps"], state["os"])
        short += [(seed, what, have, need) for what, (have, need) in found.items() if have < need]
    assert not short, f"{task_id}: (seed, distractor, found, needed): {short}"

"""gym.make_vec on the SB3-ready env: sync and async (shared memory), every autoreset mode."""
from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import mobilegym.wrappers  # noqa: F401  (registers MobileGymSB3-v0)
from mobilegym.wrappers import SB3_ENV_ID

from .uitools import CORE_APPS

KWARGS = dict(task="home.OpenApp", obs="multi", action="element", extra_actions=("back", "home", "complete"),
              apps=CORE_APPS, shuffle_launcher=True, max_steps=3)
COMPLETE, BACK = 34, 32  # extra actions follow the 32 element rows
ACTIONS = [[COMPLETE, BACK], [BACK, BACK], [BACK, BACK], [BACK, BACK], [COMPLETE, BACK]]


def make(mode: str, autoreset: AutoresetMode) -> gym.vector.VectorEnv:
    return gym.make_vec(SB3_ENV_ID, num_envs=2, vectorization_mode=mode,
                        vector_kwargs={"autoreset_mode": autoreset}, **KWARGS)


def rollout(envs: gym.vector.VectorEnv) -> list[tuple]:
    obs, _ = envs.reset(seed=[1, 2])
    out = [(obs, None, None, None, {})]
    for action in ACTIONS:
        out.append(envs.step(np.array(action)))
    return out


@pytest.fixture(scope="module")
def sync_next_step() -> list[tuple]:
    envs = make("sync", AutoresetMode.NEXT_STEP)
    try:
        return rollout(envs)
    finally:
        envs.close()


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("autoreset", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_vector_modes_step_reset_and_agree(mode: str, autoreset: AutoresetMode, sync_next_step) -> None:
    envs = make(mode, autoreset)
    try:
        if mode == "async":
            assert envs.shared_memory  # the SB3-ready observation has no text: shared memory works
        assert envs.single_action_space.n == 35
        steps = rollout(envs)
        for obs, *_ in steps:
            assert envs.observation_space.contains(obs)
        masks = envs.call("action_masks")
        assert len(masks) == 2 and all(m.shape == (35,) and m[32:].all() for m in masks)
    finally:
        envs.close()
    # env 0 completes at step 1 (terminated); env 1 only presses back: truncated (max_steps=3) at step 3
    _, _, terminated, truncated, info = steps[1]
    assert terminated.tolist() == [True, False] and truncated.tolist() == [False, False]
    assert steps[3][3].tolist() == [False, True]
    if autoreset == AutoresetMode.NEXT_STEP:
        assert info["is_success"].tolist() == [False, False] and info["_is_success"].tolist() == [True, False]
        _, reward, terminated, truncated, _ = steps[2]  # env 0 resets on this step; its action is ignored
        assert reward[0] == 0.0 and not terminated[0] and not truncated[0]
        for got, want in zip(steps, sync_next_step):  # sync and async give the same episodes
            assert all(np.array_equal(got[0][k], want[0][k]) for k in want[0])
    else:
        assert info["_final_obs"].tolist() == [True, False]
        final = info["final_obs"][0]
        assert set(final) == set(envs.single_observation_space.spaces)
        assert info["final_info"]["_is_success"].tolist() == [True, False]
        reset_obs = steps[1][0]
        assert not np.array_equal(final["elements"], reset_obs["elements"][0]) or (
            not np.array_equal(final["instruction"], reset_obs["instruction"][0]))


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_autoreset_disabled_with_partial_reset(mode: str) -> None:
    envs = make(mode, AutoresetMode.DISABLED)
    try:
        envs.reset(seed=[1, 2])
        _, _, terminated, _, _ = envs.step(np.array([COMPLETE, BACK]))
        obs, info = envs.reset(options={"reset_mask": terminated})
        assert envs.observation_space.contains(obs)
        _, _, terminated, truncated, _ = envs.step(np.array([BACK, BACK]))
        assert not terminated.any() and not truncated.any()
    finally:
        envs.close()

"""BatchedSubprocVecEnv: SB3's VecEnv over several envs per worker, the same as DummyVecEnv."""
from __future__ import annotations

import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
import torch
from stable_baselines3 import PPO
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.evaluation import evaluate_policy
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv

from mobilegym.sb3_vec import BatchedSubprocVecEnv
from mobilegym.wrappers import make_sb3_env

from .test_batched_vector import COMPLETE, HOME, KWARGS, assert_same


def make(vec_env_cls: type, n_envs: int = 3, **vec_env_kwargs: Any):
    return make_vec_env(make_sb3_env, n_envs=n_envs, seed=5, env_kwargs=KWARGS, vec_env_cls=vec_env_cls,
                        vec_env_kwargs=vec_env_kwargs or None)


def without_wall_time(infos: list[dict]) -> list[dict]:
    """Monitor's episode info carries the wall-clock time "t": everything else must match."""
    return [{k: ({**v, "t": 0} if k == "episode" else v) for k, v in info.items()} for info in infos]


def rollout(venv) -> list[Any]:
    rng = np.random.default_rng(3)
    out: list[Any] = [venv.reset(), list(venv.reset_infos)]
    for _ in range(10):
        obs, rewards, dones, infos = venv.step(rng.choice([COMPLETE, HOME, 0, 1, 2], size=venv.num_envs))
        out += [obs, rewards, dones, without_wall_time(infos), list(venv.reset_infos)]
    venv.seed(40)
    out += [venv.reset(), list(venv.reset_infos)]
    return out


def test_matches_dummy_vec_env_step_for_step() -> None:
    reference = make(DummyVecEnv)
    want = rollout(reference)
    reference.close()
    venv = make(BatchedSubprocVecEnv, envs_per_worker=2)
    try:
        got = rollout(venv)
    finally:
        venv.close()
    assert_same(got, want)
    dones = want[4:52:5]  # out: reset, reset infos, then (obs, rewards, dones, infos, reset infos) per step
    assert all(d.dtype == np.bool_ for d in dones)
    assert sum(int(d.sum()) for d in dones) >= 3  # episodes ended, so autoresets were compared
    finals = [info for infos in want[5:52:5] for info in infos if "terminal_observation" in info]
    assert finals and all("episode" in info for info in finals)


def test_env_access_by_index() -> None:
    venv = make(BatchedSubprocVecEnv, envs_per_worker=2)
    try:
        venv.reset()
        masks = venv.env_method("action_masks", indices=[2, 0])
        assert len(masks) == 2 and all(mask.shape == (35,) for mask in masks)
        venv.set_attr("tag", [1, 2], indices=[1])  # one value, even a list, for every chosen env
        assert venv.get_attr("tag", indices=1) == [[1, 2]]
        assert not venv.has_attr("no_such_attribute")
        assert venv.env_is_wrapped(Monitor) == [True, True, True]
        assert venv.env_is_wrapped(gym.wrappers.TimeAwareObservation) == [False, False, False]
        with pytest.raises(ValueError, match=r"env indices \[7\]"):
            venv.get_attr("tag", indices=[7])
    finally:
        venv.close()


def test_ppo_trains_and_evaluates_on_it() -> None:
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    venv = make(BatchedSubprocVecEnv, n_envs=4, envs_per_worker=2)
    try:
        model = PPO("MultiInputPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0, device="cpu")
        model.learn(256)
        assert model.num_timesteps >= 256
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # evaluate_policy warns when it cannot see a Monitor
            mean, _ = evaluate_policy(model, venv, n_eval_episodes=4)
        assert 0.0 <= mean <= 1.0
    finally:
        venv.close()
        torch.set_num_threads(threads)

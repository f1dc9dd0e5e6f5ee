"""stable-baselines3 PPO on the SB3-ready env: the policies run, and a short training beats a random policy."""
from __future__ import annotations

import numpy as np
import pytest
import torch
from stable_baselines3 import PPO
from stable_baselines3.common.env_util import make_vec_env

from mobilegym.wrappers import make_sb3_env

from .uitools import CORE_APPS

OPEN_APP = dict(task="home.OpenApp", shuffle_launcher=True, max_steps=3, apps=CORE_APPS)


@pytest.fixture(autouse=True)
def one_thread():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # deterministic and polite on shared cores
    yield
    torch.set_num_threads(threads)


@pytest.mark.parametrize("policy, obs", [("MultiInputPolicy", "multi"), ("MultiInputPolicy", "a11y"),
                                         ("CnnPolicy", "image")])
def test_ppo_policies_run(policy: str, obs: str) -> None:
    env = make_sb3_env(obs=obs, action="grid" if obs == "image" else "element", **OPEN_APP)
    model = PPO(policy, env, n_steps=32, batch_size=32, n_epochs=1, seed=0, device="cpu")
    model.learn(64)
    obs_now, _ = env.reset(seed=0)
    action, _ = model.predict(obs_now, deterministic=True)
    assert env.action_space.contains(int(action))


def success_rate(env, policy, episodes: int = 50) -> float:
    wins = 0
    for episode in range(episodes):
        # seeds and worlds never used in training
        obs, _ = env.reset(seed=1_000_000 + episode, options={"world_seed": 1_000_000 + episode})
        done = False
        while not done:
            obs, _, terminated, truncated, info = env.step(policy(obs))
            done = terminated or truncated
        wins += info["is_success"]
    return wins / episodes


@pytest.mark.slow
def test_short_ppo_training_beats_a_random_policy_on_unseen_worlds() -> None:
    kwargs = dict(obs="a11y", action="element", max_elements=16, **OPEN_APP)
    venv = make_vec_env(make_sb3_env, n_envs=8, seed=0, env_kwargs=dict(kwargs, world_seeds=range(200)))
    model = PPO("MultiInputPolicy", venv, n_steps=64, batch_size=128, n_epochs=10, learning_rate=5e-4, gamma=0.9,
                ent_coef=0.01, policy_kwargs=dict(net_arch=[256, 256]), seed=0, device="cpu")
    model.learn(4096)
    env = make_sb3_env(**kwargs)
    rng = np.random.default_rng(0)
    random = success_rate(env, lambda _: int(rng.integers(env.action_space.n)))
    trained = success_rate(env, lambda obs: int(model.predict(obs, deterministic=True)[0]))
    assert trained >= 0.8 and trained >= random + 0.4, f"trained {trained:.2f} vs random {random:.2f}"

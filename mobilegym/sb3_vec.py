"""stable-baselines3's ``VecEnv`` interface over :class:`~mobilegym.vector.BatchedAsyncVectorEnv`.

SB3 trains on its own vector envs, whose ``SubprocVecEnv`` runs one env per process and so waits
for the slowest process every step, like Gymnasium's ``AsyncVectorEnv``. ``BatchedSubprocVecEnv``
is a drop-in replacement whose worker processes each step several envs::

    from stable_baselines3 import PPO
    from stable_baselines3.common.env_util import make_vec_env
    from mobilegym.sb3_vec import BatchedSubprocVecEnv
    from mobilegym.wrappers import make_sb3_env

    venv = make_vec_env(make_sb3_env, n_envs=16, env_kwargs=dict(task="home.OpenApp"),
                        vec_env_cls=BatchedSubprocVecEnv, vec_env_kwargs=dict(envs_per_worker=8))
    PPO("MultiInputPolicy", venv).learn(10_000)

It behaves like SB3's ``DummyVecEnv`` on the same seeds and actions: an episode's last step
returns the next episode's first observation, with ``info["terminal_observation"]`` and
``info["TimeLimit.truncated"]``; seeds and options from ``seed()``/``set_options()`` apply to the
next ``reset()``; ``reset_infos`` holds the latest reset infos.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices, VecEnvObs, VecEnvStepReturn

from .vector import BatchedAsyncVectorEnv


class BatchedSubprocVecEnv(VecEnv):
    """``len(env_fns)`` envs in worker processes of ``envs_per_worker`` envs each."""

    def __init__(self, env_fns: Sequence[Callable[[], gym.Env]], envs_per_worker: int = 1,
                 start_method: str | None = None) -> None:
        self.venv = BatchedAsyncVectorEnv(env_fns, envs_per_worker, autoreset_mode=AutoresetMode.SAME_STEP,
                                          context=start_method)
        self._actions: Any = None
        super().__init__(len(env_fns), self.venv.single_observation_space, self.venv.single_action_space)

    def reset(self) -> VecEnvObs:
        observations, infos = self.venv.reset_each(self._seeds, self._options)
        self.reset_infos = [info or {} for info in infos]
        self._reset_seeds()
        self._reset_options()
        return observations

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self) -> VecEnvStepReturn:
        observations, rewards, terminated, truncated, infos = self.venv.step_each(self._actions)
        self._actions = None
        out = []
        for i, info in enumerate(infos):
            if terminated[i] or truncated[i]:  # autoreset happened: split the final step's info off
                final = dict(info["final_info"])
                final["terminal_observation"] = info["final_obs"]
                self.reset_infos[i] = {k: v for k, v in info.items() if k not in ("final_obs", "final_info")}
                info = final
            info["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            out.append(info)
        return observations, rewards.astype(np.float32), terminated | truncated, out

    def close(self) -> None:
        self.venv.close()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return list(self.venv.call_envs(self._index_list(indices), attr_name))

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        chosen = self._index_list(indices)
        self.venv.set_attr_envs(chosen, attr_name, [value] * len(chosen))

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        return list(self.venv.call_envs(self._index_list(indices), method_name, method_args, method_kwargs))

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None) -> list[bool]:
        return list(self.venv.env_is_wrapped(wrapper_class, self._index_list(indices)))

    def get_images(self) -> Sequence[np.ndarray | None]:
        if self.render_mode != "rgb_array":
            return [None] * self.num_envs
        return list(self.venv.call("render"))

    def _index_list(self, indices: VecEnvIndices) -> list[int]:
        return list(self._get_indices(indices))

"""Reference agents: the task's oracle plan (an upper bound) and uniform random actions (a lower bound)."""
from __future__ import annotations

from typing import Any, Mapping

import gymnasium as gym

from ... import ENV_ID
from ...actions import ActionSpace, CoordinateSpace
from .base import AgentError


class OracleAgent:
    """Plays the task's scripted oracle plan.

    A plan drives an env itself (it reads the tree and scrolls until a node shows), so at reset the
    agent plays it on a private env built with the harness's settings and the episode's seeds, and
    then replays the recorded actions one per step: same seed and actions give the same phone.
    """

    name = "oracle"
    version = "1"

    def __init__(self) -> None:
        self._actions: list[dict[str, Any]] = []

    def reset(self, instruction: str, info: Mapping[str, Any]) -> None:
        from ...oracle import Driver, plans_for

        oracle = next((p for p in plans_for(info["task_id"]) if p.expect_success), None)
        if oracle is None:
            raise AgentError(f"task {info['task_id']!r} has no oracle plan")
        # always the in-process simulated phone: a shadow run on the episode's own device (ADB) would change it
        kwargs = {**info["env_kwargs"], "device": "sim"}
        if "screen_size" in info:
            kwargs["screen_size"] = tuple(info["screen_size"])
        shadow = gym.make(ENV_ID, disable_env_checker=True, **kwargs)
        try:
            obs, first = shadow.reset(seed=info["seed"], options=info["reset_options"])
            driver = Driver(shadow, obs, first)
            oracle.fn(driver)
            if not driver.done:
                driver.complete()
            self._actions = list(driver.trace)
        finally:
            shadow.close()

    def act(self, obs: Mapping[str, Any], info: Mapping[str, Any]) -> dict[str, Any]:
        return self._actions.pop(0) if self._actions else {"type": "complete"}


class RandomAgent:
    """Uniformly sampled valid actions (over every app's name), seeded per episode."""

    name = "random"
    version = "1"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._space: ActionSpace | None = None

    def reset(self, instruction: str, info: Mapping[str, Any]) -> None:
        self._space = ActionSpace(CoordinateSpace("pixels", tuple(info["screen_size"])), apps=list(info["apps"]))
        self._space.seed(self.seed + int(info["seed"]) * 1_000 + int(info.get("repeat", 0)))

    def act(self, obs: Mapping[str, Any], info: Mapping[str, Any]) -> dict[str, Any]:
        if self._space is None:
            raise AgentError("reset() the agent before act()")
        return self._space.sample()

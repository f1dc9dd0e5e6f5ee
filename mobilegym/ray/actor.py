"""The Ray actor of an :class:`~mobilegym.ray.EnvPool`: a process holding one or more MobileGym envs.

Every method returns its result or a :class:`Failure` (the exception's class, message and traceback)
instead of raising, so one env's error reaches the driver as a named error and leaves the actor and its
other envs as they were. Nothing here imports Ray: the pool wraps the class with ``ray.remote``.
"""
from __future__ import annotations

import os
import socket
import traceback
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import gymnasium as gym

from .. import ENV_ID


@dataclass(frozen=True)
class Failure:
    """An exception raised in the actor, as data the driver turns into a named error."""

    kind: str
    message: str
    trace: str

    @classmethod
    def of(cls, exc: BaseException) -> "Failure":
        return cls(type(exc).__name__, str(exc), traceback.format_exc())


def _guard(call: Callable[[], Any]) -> Any:
    try:
        return call()
    except Exception as exc:  # noqa: BLE001  (an env's failure is the driver's to report, never the actor's end)
        return Failure.of(exc)


class EnvActor:
    """Envs by pool-wide integer id; created with ``gym.make("MobileGym-v0", **make_kwargs)``."""

    def __init__(self) -> None:
        import mobilegym  # noqa: F401  (registers the env ids in this process)

        self.envs: dict[int, Any] = {}

    def where(self) -> dict[str, Any]:
        """The node and process this actor runs on."""
        import ray

        return {"node_id": ray.get_runtime_context().get_node_id(), "host": socket.gethostname(), "pid": os.getpid()}

    def create(self, env_ids: Sequence[int], make_kwargs: Mapping[str, Any]) -> Failure | None:
        def make() -> None:
            for env_id in env_ids:
                self.envs[env_id] = gym.make(ENV_ID, **make_kwargs)
        return _guard(make)

    def _env(self, env_id: int) -> Any:
        env = self.envs.get(env_id)
        if env is None:
            raise KeyError(f"this actor holds no env {env_id}")
        return env

    def reset(self, env_id: int, seed: int | None, options: dict[str, Any] | None) -> Any:
        return _guard(lambda: self._env(env_id).reset(seed=seed, options=options))

    def step(self, env_id: int, action: Any) -> Any:
        return _guard(lambda: self._env(env_id).step(action))

    def reset_many(self, calls: Sequence[tuple[int, int | None, dict[str, Any] | None]]) -> list[Any]:
        return [self.reset(env_id, seed, options) for env_id, seed, options in calls]

    def step_many(self, calls: Sequence[tuple[int, Any]]) -> list[Any]:
        return [self.step(env_id, action) for env_id, action in calls]

    def call(self, env_id: int, method: str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        """``env.unwrapped.<method>(*args, **kwargs)`` for the methods :data:`CALLABLE` lists."""
        if method not in CALLABLE:
            return Failure("ValueError", f"{method!r} cannot be called through the pool; callable: "
                                         f"{', '.join(sorted(CALLABLE))}", "")
        return _guard(lambda: CALLABLE[method](self._env(env_id).unwrapped, *args, **kwargs))

    def fork(self, env_id: int, new_ids: Sequence[int]) -> Failure | None:
        """``len(new_ids)`` copies of an env in its exact state, here."""
        def fork() -> None:
            for new_id, twin in zip(new_ids, self._env(env_id).unwrapped.fork(len(new_ids))):
                self.envs[new_id] = twin
        return _guard(fork)

    def export(self, env_id: int) -> Any:
        """A copy of an env to send to another actor (it travels pickled): its exact state."""
        return _guard(lambda: self._env(env_id).unwrapped.fork(1)[0])

    def adopt(self, env: Any, new_ids: Sequence[int]) -> Failure | None:
        """Take an exported env as ``new_ids[0]`` and forks of it as the other ids."""
        def adopt() -> None:
            twins = env.fork(len(new_ids) - 1) if len(new_ids) > 1 else []
            for new_id, twin in zip(new_ids, [env, *twins]):
                self.envs[new_id] = twin
        if isinstance(env, Failure):
            return env
        return _guard(adopt)

    def remove(self, env_ids: Sequence[int]) -> Failure | None:
        def remove() -> None:
            for env_id in env_ids:
                env = self.envs.pop(env_id, None)
                if env is not None:
                    env.close()
        return _guard(remove)

    def close(self) -> None:
        for env in self.envs.values():
            try:
                env.close()
            except Exception:  # noqa: BLE001  (closing the rest matters more)
                pass
        self.envs.clear()


CALLABLE: dict[str, Callable[..., Any]] = {
    "judge": lambda env: env.judge_now().to_dict(),
    "observe": lambda env: env.observe(),
    "state": lambda env: {"steps": env.steps, "task_id": env.episode.id if env.episode is not None else None,
                          "time_ms": env.device.time_ms()},
}

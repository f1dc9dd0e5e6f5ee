"""A multiprocess vector env whose worker processes each step several environments.

Gymnasium's ``AsyncVectorEnv`` runs one environment per process and steps them in lock-step, so
every step waits for the slowest worker. MobileGym steps vary about tenfold in cost (a tap on the
home screen, opening a list app, judging an episode and resetting), so a round of two workers
costs about 1.4 average steps and two workers give only ~1.45x one. :class:`BatchedAsyncVectorEnv`
gives each worker ``envs_per_worker`` environments, stepped one after another in that process:
a worker's share of a round is then a sum of several step costs, which varies far less, and the
pipe round trip is paid once per worker instead of once per env (the approach of Sample Factory
and RLlib's ``num_envs_per_env_runner``).

It is a ``gymnasium.vector.VectorEnv``: batched spaces, observations in shared memory (or, for
spaces with text such as the raw ``MobileGym-v0`` observation, sent through the pipes), every
``AutoresetMode``, ``reset(seed=..., options={"reset_mask": ...})``, ``call``/``get_attr``/
``set_attr``, ``render`` and ``close``. Environment ``i`` lives in worker ``i // envs_per_worker``.
Actions are checked against the action space before any worker steps, so a malformed action
raises without moving any environment. An exception inside a worker is re-raised in the caller
with the worker's traceback attached; one from ``reset`` or ``step`` also closes the vector env
(some envs may have moved and others not), one from ``call``/``get_attr``/``set_attr`` does not.

    envs = make_batched_vec("MobileGymSB3-v0", num_envs=8, envs_per_worker=4, task="home.OpenApp")
"""
from __future__ import annotations

import multiprocessing
import os
import pickle
import time
import traceback
from copy import deepcopy
from multiprocessing.connection import Connection
from typing import Any, Callable, Sequence

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.error import AlreadyPendingCallError, ClosedEnvironmentError, NoAsyncCallError
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import (
    CloudpickleWrapper,
    batch_space,
    clear_mpi_env_vars,
    concatenate,
    create_empty_array,
    create_shared_memory,
    iterate,
    read_from_shared_memory,
    write_to_shared_memory,
)

_CLOSE_TIMEOUT_S = 10.0
_COMMANDS = ("reset", "step", "call", "set_attr", "is_wrapped")


class BatchedAsyncVectorEnv(VectorEnv):
    """``len(env_fns)`` environments in ``ceil(len(env_fns) / envs_per_worker)`` processes."""

    def __init__(
        self,
        env_fns: Sequence[Callable[[], gym.Env]],
        envs_per_worker: int = 1,
        *,
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        copy: bool = True,
        shared_memory: bool | None = None,
        context: str | None = None,
    ) -> None:
        """
        Args:
            env_fns: one callable per environment, each returning a new env (picklable with
                cloudpickle: they are sent to the worker processes).
            envs_per_worker: environments stepped one after another by each worker process.
            autoreset_mode: a ``gymnasium.vector.AutoresetMode`` (or its value).
            copy: return a copy of the observation buffer (``False``: the buffer itself, which the
                next step overwrites).
            shared_memory: workers write observations into shared memory (``None``: whenever the
                observation space is all fixed-size arrays; spaces with text go through the pipes).
            context: multiprocessing start method (``None``: the platform default).
        """
        if len(env_fns) == 0:
            raise ValueError("BatchedAsyncVectorEnv needs at least one env_fn")
        if isinstance(envs_per_worker, bool) or not isinstance(envs_per_worker, (int, np.integer)) \
                or envs_per_worker < 1:
            raise ValueError(f"envs_per_worker must be a positive integer, got {envs_per_worker!r}")
        try:
            self.autoreset_mode = AutoresetMode(autoreset_mode)
        except ValueError:
            raise ValueError(f"unknown autoreset_mode {autoreset_mode!r}; expected one of "
                             f"{[mode.value for mode in AutoresetMode]}") from None
        self.num_envs = len(env_fns)
        self.envs_per_worker = int(envs_per_worker)
        self.copy = copy

        probe = env_fns[0]()
        self.metadata = {**probe.metadata, "autoreset_mode": self.autoreset_mode}
        self.render_mode = probe.render_mode
        self.single_observation_space = probe.observation_space
        self.single_action_space = probe.action_space
        probe.close()
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

        fixed_size = _fixed_size(self.single_observation_space)
        if shared_memory and not fixed_size:
            raise ValueError(f"shared_memory=True needs fixed-size array observations; "
                             f"{self.single_observation_space} has text or other variable parts")
        self.shared_memory = fixed_size if shared_memory is None else bool(shared_memory)
        ctx = multiprocessing.get_context(context)
        if self.shared_memory:
            buffer = create_shared_memory(self.single_observation_space, n=self.num_envs, ctx=ctx)
            self.observations = read_from_shared_memory(self.single_observation_space, buffer, n=self.num_envs)
        else:
            buffer = None
            self.observations = create_empty_array(self.single_observation_space, n=self.num_envs, fn=np.zeros)
        self.worker_envs = [range(start, min(start + self.envs_per_worker, self.num_envs))
                            for start in range(0, self.num_envs, self.envs_per_worker)]
        self._pipes: list[Connection] = []
        self._pending_step = False  # step_async was called and step_wait not yet
        self._processes: list[multiprocessing.process.BaseProcess] = []
        with clear_mpi_env_vars():
            for index, envs in enumerate(self.worker_envs):
                parent, child = ctx.Pipe()
                process = ctx.Process(
                    target=_run_worker, name=f"BatchedAsyncVectorEnv-worker-{index}", daemon=True,
                    args=(CloudpickleWrapper([env_fns[i] for i in envs]), envs.start, child, parent, buffer,
                          self.single_observation_space, self.single_action_space, self.autoreset_mode))
                process.start()
                child.close()
                self._pipes.append(parent)
                self._processes.append(process)
        self._gather()  # every worker built its envs (or the error is raised here)

    # -- gymnasium VectorEnv API ------------------------------------------------------------------
    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Reset every env (or those in ``options["reset_mask"]``); an int seed gives env i seed+i."""
        options = dict(options or {})
        mask = self._reset_mask(options.pop("reset_mask", None))
        observations, infos_each = self.reset_each(seed, [options] * self.num_envs, mask)
        infos: dict[str, Any] = {}
        for i, info in enumerate(infos_each):
            if info is not None:
                infos = self._add_info(infos, info, i)
        return observations, infos

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every env with its action (autoresetting as ``autoreset_mode`` says)."""
        observations, rewards, terminated, truncated, infos_each = self.step_each(actions)
        infos: dict[str, Any] = {}
        for i, info in enumerate(infos_each):
            infos = self._add_info(infos, info, i)
        return observations, rewards, terminated, truncated, infos

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call a method (or read an attribute) of every env; one result per env."""
        return self.call_envs(None, name, args, kwargs)

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """An attribute of every env."""
        return self.call(name)

    def set_attr(self, name: str, values: Any) -> None:
        """Set an attribute on every env: one value for all, or a list/tuple of one per env."""
        self.set_attr_envs(None, name, values)

    # -- per-env access (what stable-baselines3's VecEnv interface needs) ------------------------
    def reset_each(self, seed: int | Sequence[int | None] | None, options: Sequence[dict[str, Any] | None],
                   mask: np.ndarray | None = None) -> tuple[Any, list[dict[str, Any] | None]]:
        """Reset with one options dict per env; infos stay one dict per env (None: not reset)."""
        self._check_open()
        seeds = self._seeds(seed)
        if len(options) != self.num_envs:
            raise ValueError(f"reset needs one options dict per env ({self.num_envs}), got {len(options)}")
        mask = np.ones(self.num_envs, np.bool_) if mask is None else mask
        replies = self._request("reset", [([seeds[i] for i in envs], [bool(mask[i]) for i in envs],
                                           [options[i] for i in envs]) for envs in self.worker_envs])
        infos = _per_env(self._take_observations(replies))
        return self._observations_out(), infos

    def step_async(self, actions: Any) -> None:
        """Send every env its action and return at once; :meth:`step_wait` collects the results (gymnasium's
        ``AsyncVectorEnv`` split: the caller works, e.g. queries a model, while the workers step)."""
        self._check_open()
        per_env = self._checked_actions(actions)
        self._send("step", [(per_env[envs.start:envs.stop],) for envs in self.worker_envs])
        self._pending_step = True

    def step_wait(self, timeout: float | None = None) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """The results of :meth:`step_async`, as :meth:`step` returns them. With ``timeout`` (seconds) a
        ``multiprocessing.TimeoutError`` is raised if the workers have not all answered by then (the step
        stays pending)."""
        observations, rewards, terminated, truncated, infos_each = self._step_results(timeout)
        infos: dict[str, Any] = {}
        for i, info in enumerate(infos_each):
            infos = self._add_info(infos, info, i)
        return observations, rewards, terminated, truncated, infos

    def step_each(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """:meth:`step` with the infos left as one dict per env."""
        self.step_async(actions)
        return self._step_results(None)

    def _step_results(self, timeout: float | None) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray,
                                                            list[dict[str, Any]]]:
        self._check_open()
        if not self._pending_step:
            raise NoAsyncCallError("call step_async() before step_wait()", "step")
        if timeout is not None:
            deadline = time.monotonic() + timeout
            if not all(pipe.poll(max(0.0, deadline - time.monotonic())) for pipe in self._pipes):
                raise multiprocessing.TimeoutError(f"step_wait: the workers did not answer within {timeout} s")
        self._pending_step = False
        results = _per_env(self._take_observations(self._gather(fatal=True)))
        rewards = np.array([result[0] for result in results], np.float64)
        terminated = np.array([result[1] for result in results], np.bool_)
        truncated = np.array([result[2] for result in results], np.bool_)
        return self._observations_out(), rewards, terminated, truncated, [result[3] for result in results]

    def call_envs(self, indices: Sequence[int] | None, name: str, args: tuple = (),
                  kwargs: dict[str, Any] | None = None) -> tuple[Any, ...]:
        """Call a method (or read an attribute) of the envs at ``indices`` (None: all), in that order."""
        self._check_open()
        if name in ("reset", "step", "close"):
            raise ValueError(f"call {name!r} through the vector env's own {name}() instead")
        indices, local = self._local(indices)
        replies = self._request("call", [(name, args, kwargs or {}, chosen) for chosen in local])
        return self._in_order(indices, local, replies)

    def set_attr_envs(self, indices: Sequence[int] | None, name: str, values: Any) -> None:
        """Set an attribute on the envs at ``indices``: one value for all, or one per index."""
        self._check_open()
        indices, local = self._local(indices)
        if not isinstance(values, (list, tuple)):
            values = [values] * len(indices)
        if len(values) != len(indices):
            raise ValueError(f"set_attr needs one value per env ({len(indices)}), got {len(values)}")
        by_env = dict(zip(indices, values))
        self._request("set_attr", [(name, {j: by_env[envs.start + j] for j in chosen})
                                   for envs, chosen in zip(self.worker_envs, local)])

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: Sequence[int] | None = None) -> tuple[bool, ...]:
        """Whether each env at ``indices`` (None: all) has a ``wrapper_class`` in its wrapper chain."""
        self._check_open()
        indices, local = self._local(indices)
        return self._in_order(indices, local, self._request("is_wrapped", [(wrapper_class, chosen) for chosen in local]))

    def render(self) -> tuple[Any, ...] | None:
        return self.call("render")

    def close_extras(self, **kwargs: Any) -> None:
        """Ask every live worker to close its envs, then make sure the processes are gone."""
        for pipe in self._pipes:
            try:
                pipe.send(("close", None))
            except (BrokenPipeError, OSError):
                pass
        for process, pipe in zip(self._processes, self._pipes):
            process.join(_CLOSE_TIMEOUT_S)
            if process.is_alive():
                process.terminate()
                process.join()
            pipe.close()

    def __del__(self) -> None:
        if not getattr(self, "closed", True) and getattr(self, "_processes", None):
            self.close()

    # -- helpers ----------------------------------------------------------------------------------
    def _check_open(self) -> None:
        if self.closed:
            raise ClosedEnvironmentError("this BatchedAsyncVectorEnv is closed")

    def _seeds(self, seed: int | Sequence[int | None] | None) -> list[int | None]:
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            return [int(seed) + i for i in range(self.num_envs)]
        seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(f"reset(seed=...) got {len(seeds)} seeds for {self.num_envs} envs")
        return seeds

    def _local(self, indices: Sequence[int] | None) -> tuple[list[int], list[list[int]]]:
        """The env indices (checked) and, per worker, the positions of the chosen envs in it."""
        indices = list(range(self.num_envs)) if indices is None else list(indices)
        bad = [i for i in indices if isinstance(i, bool) or not isinstance(i, (int, np.integer))
               or not 0 <= i < self.num_envs]
        if bad:
            raise ValueError(f"env indices {bad} are not in range(0, {self.num_envs})")
        chosen = set(indices)
        return indices, [[j for j, i in enumerate(envs) if i in chosen] for envs in self.worker_envs]

    def _in_order(self, indices: list[int], local: list[list[int]], replies: list[list[Any]]) -> tuple[Any, ...]:
        by_env = {envs.start + j: result for envs, chosen, results in zip(self.worker_envs, local, replies)
                  for j, result in zip(chosen, results)}
        return tuple(by_env[i] for i in indices)

    def _reset_mask(self, mask: Any) -> np.ndarray:
        if mask is None:
            return np.ones(self.num_envs, np.bool_)
        if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_ or mask.shape != (self.num_envs,):
            raise ValueError(f"options['reset_mask'] must be a bool numpy array of shape ({self.num_envs},), "
                             f"got {mask!r}")
        if not mask.any():
            raise ValueError("options['reset_mask'] selects no env to reset")
        return mask

    def _checked_actions(self, actions: Any) -> list[Any]:
        try:
            per_env = list(iterate(self.action_space, actions))
        except Exception as exc:
            raise ValueError(f"actions do not fit the batched action space {self.action_space}: {exc}") from None
        if len(per_env) != self.num_envs:
            raise ValueError(f"expected {self.num_envs} actions (one per env), got {len(per_env)}")
        bad = {i: action for i, action in enumerate(per_env) if not self.single_action_space.contains(action)}
        if bad:
            raise ValueError(f"actions outside {self.single_action_space} (env index: action): {bad}")
        return per_env

    def _take_observations(self, replies: list[tuple[Any, list | None]]) -> list[Any]:
        """Split (payload, observations) replies; without shared memory the observations arrive here."""
        if not self.shared_memory:
            observations = [observation for _, part in replies for observation in part]
            self.observations = concatenate(self.single_observation_space, observations, self.observations)
        return [payload for payload, _ in replies]

    def _observations_out(self) -> Any:
        return deepcopy(self.observations) if self.copy else self.observations

    def _send(self, command: str, per_worker: list[Any]) -> None:
        if self._pending_step:
            raise AlreadyPendingCallError(f"a step is pending: call step_wait() before {command}", "step")
        for pipe, data in zip(self._pipes, per_worker):
            pipe.send((command, data))

    def _request(self, command: str, per_worker: list[Any]) -> list[Any]:
        self._send(command, per_worker)
        return self._gather(fatal=command == "reset")

    def _gather(self, fatal: bool = True) -> list[Any]:
        """One reply per worker. The first failure is raised here, with the worker's traceback; it
        closes the vector env if ``fatal`` (a reset or step may have left some envs moved and
        others not) or if a worker died."""
        replies, failure, died = [], None, False
        for index, pipe in enumerate(self._pipes):
            try:
                ok, payload = pipe.recv()
            except (EOFError, OSError):
                ok, payload, died = False, (RuntimeError(f"worker {index} exited unexpectedly"), ""), True
            if ok:
                replies.append(payload)
            elif failure is None:
                failure = (index, *payload)
        if failure is not None:
            index, error, trace = failure
            if fatal or died:
                self.close()
            error.add_note(f"raised in BatchedAsyncVectorEnv worker {index} "
                           f"(envs {list(self.worker_envs[index])}):\n{trace}")
            raise error
        return replies


class _Worker:
    """The envs of one worker process, their autoreset flags and their slots in shared memory."""

    def __init__(self, envs: list[gym.Env], start: int, buffer: Any, observation_space: gym.Space,
                 mode: AutoresetMode) -> None:
        self.envs, self.start, self.buffer, self.space, self.mode = envs, start, buffer, observation_space, mode
        self.needs_reset = [False] * len(envs)
        self.latest: list[Any] = [None] * len(envs)  # without shared memory: sent with every reply

    def reset(self, seeds: list[int | None], selected: list[bool],
              options: list[dict[str, Any] | None]) -> tuple[list[dict | None], list | None]:
        infos: list[dict | None] = []
        for j, (env, seed, chosen, env_options) in enumerate(zip(self.envs, seeds, selected, options)):
            if not chosen:
                infos.append(None)
                continue
            observation, info = env.reset(seed=seed, options=env_options or None)
            self._write(j, observation)
            self.needs_reset[j] = False
            infos.append(info)
        return infos, self._sent_observations()

    def step(self, actions: list[Any]) -> tuple[list[tuple[float, bool, bool, dict]], list | None]:
        return [self._step_one(j, action) for j, action in enumerate(actions)], self._sent_observations()

    def _step_one(self, j: int, action: Any) -> tuple[float, bool, bool, dict]:
        env = self.envs[j]
        if self.needs_reset[j]:
            observation, info = env.reset()
            reward, terminated, truncated = 0.0, False, False
        else:
            observation, reward, terminated, truncated, info = env.step(action)
            if self.mode is AutoresetMode.SAME_STEP and (terminated or truncated):
                final_observation, final_info = observation, info
                observation, info = env.reset()
                info = {"final_obs": final_observation, "final_info": final_info, **info}
        self.needs_reset[j] = self.mode is AutoresetMode.NEXT_STEP and bool(terminated or truncated)
        self._write(j, observation)
        return float(reward), bool(terminated), bool(truncated), info

    def call(self, name: str, args: tuple, kwargs: dict, chosen: list[int]) -> list[Any]:
        results = []
        for j in chosen:
            attribute = self.envs[j].get_wrapper_attr(name)
            results.append(attribute(*args, **kwargs) if callable(attribute) else attribute)
        return results

    def set_attr(self, name: str, values: dict[int, Any]) -> None:
        for j, value in values.items():
            self.envs[j].set_wrapper_attr(name, value)

    def is_wrapped(self, wrapper_class: type[gym.Wrapper], chosen: list[int]) -> list[bool]:
        results = []
        for j in chosen:
            env, found = self.envs[j], False
            while isinstance(env, gym.Wrapper) and not found:
                found, env = isinstance(env, wrapper_class), env.env
            results.append(found)
        return results

    def close(self) -> None:
        for env in self.envs:
            env.close()

    def _write(self, j: int, observation: Any) -> None:
        if self.buffer is None:
            self.latest[j] = observation
        else:
            write_to_shared_memory(self.space, self.start + j, observation, self.buffer)

    def _sent_observations(self) -> list | None:
        return None if self.buffer is not None else list(self.latest)


def _fixed_size(space: gym.Space) -> bool:
    """Whether shared memory can hold the space: fixed-size arrays, possibly inside Dict/Tuple."""
    if isinstance(space, spaces.Dict):
        return all(_fixed_size(part) for part in space.spaces.values())
    if isinstance(space, spaces.Tuple):
        return all(_fixed_size(part) for part in space.spaces)
    return isinstance(space, (spaces.Box, spaces.Discrete, spaces.MultiDiscrete, spaces.MultiBinary))


def _per_env(per_worker: list[list[Any]]) -> list[Any]:
    """Per-worker reply lists (workers hold consecutive envs) as one list in env order."""
    return [item for part in per_worker for item in part]


def _failure(error: BaseException) -> tuple[bool, tuple[BaseException, str]]:
    trace = traceback.format_exc()
    try:
        pickle.dumps(error)
    except Exception:
        error = RuntimeError(f"{type(error).__name__}: {error}")
    return False, (error, trace)


def _run_worker(env_fns: CloudpickleWrapper, start: int, pipe: Connection, parent_pipe: Connection, buffer: Any,
                observation_space: gym.Space, action_space: gym.Space, mode: AutoresetMode) -> None:
    parent_pipe.close()
    worker = None
    try:
        envs = [make() for make in env_fns.fn]
        for offset, env in enumerate(envs):
            if env.observation_space != observation_space or env.action_space != action_space:
                raise ValueError(f"env {start + offset} has spaces {env.observation_space} / {env.action_space}, "
                                 f"unlike env 0's {observation_space} / {action_space}")
        worker = _Worker(envs, start, buffer, observation_space, mode)
        pipe.send((True, None))
    except Exception as error:
        pipe.send(_failure(error))
    while True:
        try:
            command, args = pipe.recv()
        except (EOFError, KeyboardInterrupt):
            break
        if command == "close":
            break
        try:
            if worker is None or command not in _COMMANDS:
                raise RuntimeError(f"worker cannot run {command!r}")
            reply = getattr(worker, command)(*args)
        except Exception as error:
            pipe.send(_failure(error))
        else:
            pipe.send((True, reply))
    if worker is not None:
        worker.close()


def make_batched_vec(env_id: str, num_envs: int, *, envs_per_worker: int | None = None,
                     autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP, copy: bool = True,
                     shared_memory: bool | None = None, context: str | None = None,
                     **env_kwargs: Any) -> BatchedAsyncVectorEnv:
    """``num_envs`` copies of ``gym.make(env_id, **env_kwargs)`` in a :class:`BatchedAsyncVectorEnv`.

    ``envs_per_worker`` defaults to spreading the envs over one worker per CPU core.
    """
    if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
        raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
    if envs_per_worker is None:
        envs_per_worker = -(-num_envs // (os.cpu_count() or 1))
    spec = gym.spec(env_id)  # the spec travels to the workers: they need not have registered the id
    env_fns = [lambda: gym.make(spec, **env_kwargs)] * num_envs
    return BatchedAsyncVectorEnv(env_fns, envs_per_worker, autoreset_mode=autoreset_mode, copy=copy,
                                 shared_memory=shared_memory, context=context)

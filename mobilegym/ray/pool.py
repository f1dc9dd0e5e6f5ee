"""``EnvPool``: MobileGym envs on Ray actors, stepped in batches or asynchronously, forked for GRPO groups."""
from __future__ import annotations

import itertools
from typing import Any, Generator, Iterable, Mapping, Sequence

from .actor import CALLABLE, EnvActor, Failure
from .errors import (ActorDiedError, BatchError, EnvCreateError, EnvError, EnvLostError, EnvPoolError,
                     PoolClosedError, UnknownEnvError)

DEFAULT_ACTOR_OPTIONS: dict[str, Any] = {"num_cpus": 1, "max_restarts": 0}
CLOSE_TIMEOUT_S = 30.0  # close() waits this long at most for the actors to end
Seeds = int | Sequence[int | None] | None


def require_ray() -> Any:
    """Import Ray, or say which extra installs it."""
    try:
        import ray
    except ImportError:
        raise ImportError("mobilegym.ray needs Ray: pip install \"mobilegym[ray]\"") from None
    return ray


def _await_exit(ray: Any, actors: list[Any], timeout_s: float) -> None:
    """Until every actor has ended (a kill reaches an actor after calls already on their way to it)."""
    import time

    deadline = time.monotonic() + timeout_s
    for actor in actors:
        while time.monotonic() < deadline:
            try:
                ray.get(actor.where.remote(), timeout=max(0.1, deadline - time.monotonic()))
            except (ray.exceptions.RayActorError, ray.exceptions.GetTimeoutError):
                break
            except Exception:  # noqa: BLE001  (any other sign that it is gone)
                break
            time.sleep(0.05)


def _positive(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return value


class EnvFuture:
    """One env's reset or step in flight: ``ref`` is its Ray ObjectRef; ``result()`` waits for it and
    ``await future`` awaits it, both returning what the env returned or raising the pool's named error."""

    def __init__(self, pool: "EnvPool", env_id: int, op: str, ref: Any) -> None:
        self.pool, self.env_id, self.op, self.ref = pool, env_id, op, ref

    def result(self, timeout: float | None = None) -> Any:
        ray = require_ray()
        try:
            value = ray.get(self.ref, timeout=timeout)
        except ray.exceptions.GetTimeoutError:
            raise TimeoutError(f"env {self.env_id} did not {self.op} within {timeout} s") from None
        except ray.exceptions.RayActorError as exc:
            raise self.pool._actor_died(self.pool._home.get(self.env_id, -1), exc) from None
        return self.pool._unwrap(self.env_id, self.op, value)

    def __await__(self) -> Generator[Any, None, Any]:
        return self._wait().__await__()

    async def _wait(self) -> Any:
        ray = require_ray()
        try:
            value = await self.ref
        except ray.exceptions.RayActorError as exc:
            raise self.pool._actor_died(self.pool._home.get(self.env_id, -1), exc) from None
        return self.pool._unwrap(self.env_id, self.op, value)


class EnvPool:
    """``num_envs`` MobileGym envs on Ray actors, ``envs_per_actor`` in each actor's process.

    ``EnvPool(8, envs_per_actor=2, address="auto", task="clock.CountAlarms", render_scale=0.1)``: the
    keyword arguments left over go to ``gym.make("MobileGym-v0", ...)`` in the actors, so an env of the
    pool gives the observations and rewards a local env gives on the same seed and actions.

    Envs are named by integer ids (``env_ids``; 0 .. num_envs-1, then the ids ``fork`` hands out).
    ``reset``/``step`` run a batch (one Ray call per actor) and return the results in order;
    ``reset_async``/``step_async`` return one :class:`EnvFuture` per env, so a trainer runs its model on
    the envs that are ready while the others step (``wait`` returns those done first). An env's
    exception comes back as :class:`EnvError`, a dead actor as :class:`ActorDiedError` (its envs lost);
    neither stops the other envs.

    Args:
        num_envs: envs made at the start.
        envs_per_actor: envs per actor process (a process steps one at a time).
        address: the Ray cluster ("auto", "ray://...", "HOST:PORT"); None: the one this process is
            connected to, else ``ray.init()``'s default. A pool that connected closes the connection.
        actor_options: ``ray.remote`` options of the actors (``num_cpus`` (default 1), ``resources``,
            ``scheduling_strategy``, ``runtime_env`` ...), e.g. ``{"resources": {"mobilegym": 1}}`` to
            place them on env nodes only.
        spread: place the actors on as many nodes as possible (Ray's SPREAD strategy; default True)
            unless ``actor_options`` names a ``scheduling_strategy``.
    """

    def __init__(self, num_envs: int = 1, *, envs_per_actor: int = 1, address: str | None = None,
                 actor_options: Mapping[str, Any] | None = None, spread: bool = True, **make_kwargs: Any) -> None:
        _positive("num_envs", num_envs)
        _positive("envs_per_actor", envs_per_actor)
        ray = require_ray()
        self.make_kwargs = dict(make_kwargs)
        self._connected_here = not ray.is_initialized()
        if self._connected_here:
            ray.init(address=address, log_to_driver=False, include_dashboard=False, configure_logging=False)
        options = {**DEFAULT_ACTOR_OPTIONS, **({"scheduling_strategy": "SPREAD"} if spread else {}),
                   **dict(actor_options or {})}
        self._actor_class = ray.remote(EnvActor).options(**options)
        self._actors: list[Any] = []
        self._home: dict[int, int] = {}
        self._dead: dict[int, str] = {}
        self._ids = itertools.count()
        self._closed = False
        try:
            groups = [list(range(start, min(start + envs_per_actor, num_envs)))
                      for start in range(0, num_envs, envs_per_actor)]
            self._actors = [self._actor_class.remote() for _ in groups]
            made = [actor.create.remote(ids, self.make_kwargs) for actor, ids in zip(self._actors, groups)]
            for index, (ids, outcome) in enumerate(zip(groups, ray.get(made))):
                if isinstance(outcome, Failure):
                    raise EnvCreateError(f"gym.make('MobileGym-v0', ...) failed in the actors: "
                                         f"{outcome.kind}: {outcome.message}")
                self._home.update({env_id: index for env_id in ids})
            self._ids = itertools.count(num_envs)
        except BaseException:
            self.close()
            raise

    # the envs ---------------------------------------------------------------------------------------
    @property
    def env_ids(self) -> list[int]:
        """The envs the pool holds, lost ones included (see ``lost``)."""
        return sorted(self._home)

    @property
    def lost(self) -> list[int]:
        """The envs whose actor died."""
        return sorted(e for e, a in self._home.items() if a in self._dead)

    @property
    def num_actors(self) -> int:
        return len(self._actors)

    def actor_of(self, env_id: int) -> Any:
        """The Ray actor handle an env lives in."""
        return self._actors[self._actor_index(env_id)]

    def placement(self) -> dict[int, dict[str, Any]]:
        """Where each live actor runs: ``{actor: {"node_id", "host", "pid", "env_ids"}}``."""
        ray = require_ray()
        live = [i for i in range(len(self._actors)) if i not in self._dead]
        places = ray.get([self._actors[i].where.remote() for i in live])
        return {i: {**place, "env_ids": sorted(e for e, a in self._home.items() if a == i)}
                for i, place in zip(live, places)}

    # batches ----------------------------------------------------------------------------------------
    def reset(self, env_ids: Sequence[int] | None = None, *, seed: Seeds = None,
              options: Mapping[str, Any] | None = None, return_errors: bool = False) -> list[Any]:
        """Reset envs (default: all) -> their ``(obs, info)`` in order. ``seed``: an int (env k of the
        batch gets ``seed + k``, as gymnasium's vector envs do), one seed per env, or None."""
        ids = self._select(env_ids)
        seeds = self._seeds(seed, len(ids))
        calls = [(env_id, s, None if options is None else dict(options)) for env_id, s in zip(ids, seeds)]
        return self._batch("reset", "reset_many", calls, return_errors)

    def step(self, actions: Sequence[Any], env_ids: Sequence[int] | None = None, *,
             return_errors: bool = False) -> list[Any]:
        """Step envs (default: all, in ``env_ids`` order) with one action each -> their
        ``(obs, reward, terminated, truncated, info)`` in order. When some envs fail, a
        :class:`BatchError` carries their errors and everyone's results (``return_errors=True``: the
        errors stand in the list instead)."""
        ids = self._select(env_ids)
        actions = list(actions)
        if len(actions) != len(ids):
            raise ValueError(f"step needs one action per env: {len(actions)} actions for {len(ids)} envs")
        return self._batch("step", "step_many", list(zip(ids, actions)), return_errors)

    def _batch(self, op: str, method: str, calls: list[tuple], return_errors: bool) -> list[Any]:
        ray = require_ray()
        results: list[Any] = [None] * len(calls)
        errors: dict[int, EnvPoolError] = {}
        by_actor: dict[int, list[int]] = {}
        for k, call in enumerate(calls):
            env_id = call[0]
            actor = self._actor_index(env_id)
            if actor in self._dead:
                errors[env_id] = results[k] = EnvLostError(env_id, actor)
            else:
                by_actor.setdefault(actor, []).append(k)
        refs = {actor: getattr(self._actors[actor], method).remote([calls[k] for k in ks])
                for actor, ks in by_actor.items()}
        for actor, ref in refs.items():
            try:
                outcomes = ray.get(ref)
            except ray.exceptions.RayActorError as exc:
                died = self._actor_died(actor, exc)
                outcomes = [died] * len(by_actor[actor])
            for k, outcome in zip(by_actor[actor], outcomes):
                env_id = calls[k][0]
                try:
                    results[k] = outcome if isinstance(outcome, EnvPoolError) else self._unwrap(env_id, op, outcome)
                except EnvError as exc:
                    results[k] = exc
                if isinstance(results[k], EnvPoolError):
                    errors[env_id] = results[k]
        if errors and not return_errors:
            raise BatchError(op, errors, results)
        return results

    # one env at a time, asynchronously ----------------------------------------------------------------
    def reset_async(self, env_ids: Sequence[int] | None = None, *, seed: Seeds = None,
                    options: Mapping[str, Any] | None = None) -> list[EnvFuture]:
        """As ``reset``, without waiting: one :class:`EnvFuture` per env."""
        ids = self._select(env_ids)
        opts = None if options is None else dict(options)
        return [EnvFuture(self, env_id, "reset", self._live_actor(env_id).reset.remote(env_id, s, opts))
                for env_id, s in zip(ids, self._seeds(seed, len(ids)))]

    def step_async(self, actions: Sequence[Any], env_ids: Sequence[int] | None = None) -> list[EnvFuture]:
        """As ``step``, without waiting: one :class:`EnvFuture` per env (``await`` it, ``.result()`` it, or
        hand ``.ref`` to ``ray.wait``). Steps of one actor's envs run in the order they were sent."""
        ids = self._select(env_ids)
        actions = list(actions)
        if len(actions) != len(ids):
            raise ValueError(f"step_async needs one action per env: {len(actions)} actions for {len(ids)} envs")
        return [EnvFuture(self, env_id, "step", self._live_actor(env_id).step.remote(env_id, action))
                for env_id, action in zip(ids, actions)]

    def wait(self, futures: Sequence[EnvFuture], num_returns: int = 1,
             timeout: float | None = None) -> tuple[list[EnvFuture], list[EnvFuture]]:
        """``(done, pending)``: the futures that have finished once at least ``num_returns`` have (unless
        ``timeout`` seconds pass first; every one finished by then is in ``done``), and the others."""
        ray = require_ray()
        by_ref = {future.ref: future for future in futures}
        done, pending = ray.wait(list(by_ref), num_returns=min(num_returns, len(by_ref)), timeout=timeout)
        if pending:  # the others that are ready too: one call instead of one per future
            more, pending = ray.wait(pending, num_returns=len(pending), timeout=0)
            done += more
        return [by_ref[r] for r in done], [by_ref[r] for r in pending]

    async def astep(self, actions: Sequence[Any], env_ids: Sequence[int] | None = None) -> list[Any]:
        """``await pool.astep(actions)``: ``step`` for an event loop (the first error is raised)."""
        import asyncio

        return list(await asyncio.gather(*self.step_async(actions, env_ids)))

    def call(self, env_id: int, method: str, *args: Any, **kwargs: Any) -> Any:
        """An env's ``judge`` (``judge_now().to_dict()``), ``observe`` or ``state`` (steps, task id, phone clock)."""
        if method not in CALLABLE:
            raise ValueError(f"{method!r} cannot be called through the pool; callable: {', '.join(sorted(CALLABLE))}")
        return EnvFuture(self, env_id, method, self._live_actor(env_id).call.remote(env_id, method, args, kwargs)
                         ).result()

    # groups -----------------------------------------------------------------------------------------
    def fork(self, env_id: int, n: int = 1, *, spread: bool = False) -> list[int]:
        """``n`` new envs in ``env_id``'s exact state (phone, world, episode, clock, judge), e.g. a GRPO
        group; returns their ids. They live in the same actor (an in-memory copy) unless ``spread``:
        then the env travels pickled to the actors with the fewest envs, which step the copies in parallel."""
        ray = require_ray()
        _positive("n", n)
        source = self._actor_index(env_id)
        actor = self._live_actor(env_id)
        new_ids = [next(self._ids) for _ in range(n)]
        if not spread:
            placed = {source: new_ids}
            refs = {source: actor.fork.remote(env_id, new_ids)}
        else:
            live = sorted((i for i in range(len(self._actors)) if i not in self._dead), key=self._load)
            placed = {}
            for k, new_id in enumerate(new_ids):
                placed.setdefault(live[k % len(live)], []).append(new_id)
            exported = actor.export.remote(env_id)
            refs = {i: self._actors[i].adopt.remote(exported, ids) for i, ids in placed.items()}
        failure: EnvPoolError | None = None
        for index, ref in refs.items():
            try:
                outcome = ray.get(ref)
            except ray.exceptions.RayActorError as exc:
                failure = failure or self._actor_died(index, exc)
                continue
            if isinstance(outcome, Failure):
                failure = failure or self._error(env_id, "fork", outcome)
            else:
                self._home.update({new_id: index for new_id in placed[index]})
        if failure is not None:
            self.remove([i for i in new_ids if i in self._home])
            raise failure
        return new_ids

    def remove(self, env_ids: Iterable[int]) -> None:
        """Close envs and forget them (e.g. a GRPO group that has finished); lost envs are just forgotten."""
        ray = require_ray()
        ids = list(env_ids)
        by_actor: dict[int, list[int]] = {}
        for env_id in ids:
            by_actor.setdefault(self._actor_index(env_id), []).append(env_id)
        refs = [self._actors[a].remove.remote(group) for a, group in by_actor.items() if a not in self._dead]
        for env_id in ids:
            del self._home[env_id]
        for ref in refs:
            try:
                ray.get(ref)
            except ray.exceptions.RayActorError:
                pass  # the actor went away with the envs

    # the end ----------------------------------------------------------------------------------------
    def close(self) -> None:
        """Close every env and end the actors (and the Ray connection, if the pool made it); returns once the
        actors have ended (or after CLOSE_TIMEOUT_S). Idempotent."""
        if self._closed:
            return
        self._closed = True
        ray = require_ray()
        live = [a for i, a in enumerate(self._actors) if i not in self._dead]
        try:
            ray.wait([a.close.remote() for a in live], num_returns=len(live), timeout=30)
        except Exception:  # noqa: BLE001  (the actors are killed below all the same)
            pass
        for actor in live:
            try:
                ray.kill(actor, no_restart=True)
            except Exception:  # noqa: BLE001  (already gone)
                pass
        _await_exit(ray, live, CLOSE_TIMEOUT_S)
        self._actors, self._home = [], {}
        if self._connected_here and ray.is_initialized():
            ray.shutdown()

    def __enter__(self) -> "EnvPool":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __len__(self) -> int:
        return len(self._home)

    # helpers ----------------------------------------------------------------------------------------
    def _actor_index(self, env_id: Any) -> int:
        if self._closed:
            raise PoolClosedError("the pool is closed")
        if env_id not in self._home:
            raise UnknownEnvError(env_id, self.env_ids)
        return self._home[env_id]

    def _live_actor(self, env_id: int) -> Any:
        index = self._actor_index(env_id)
        if index in self._dead:
            raise EnvLostError(env_id, index)
        return self._actors[index]

    def _load(self, actor: int) -> int:
        return sum(1 for a in self._home.values() if a == actor)

    def _select(self, env_ids: Sequence[int] | None) -> list[int]:
        ids = self.env_ids if env_ids is None else list(env_ids)
        for env_id in ids:
            self._actor_index(env_id)
        if len(set(ids)) != len(ids):
            raise ValueError(f"each env may appear once in a batch, got {ids}")
        return ids

    @staticmethod
    def _seeds(seed: Seeds, count: int) -> list[int | None]:
        if seed is None:
            return [None] * count
        if isinstance(seed, int) and not isinstance(seed, bool):
            return [seed + k for k in range(count)]
        seeds = list(seed)
        if len(seeds) != count or not all(s is None or (isinstance(s, int) and not isinstance(s, bool)) for s in seeds):
            raise ValueError(f"seed must be an int, None or one int/None per env ({count}), got {seed!r}")
        return seeds

    def _error(self, env_id: int, op: str, failure: Failure) -> EnvError:
        return EnvError(env_id, op, failure.kind, failure.message, failure.trace)

    def _unwrap(self, env_id: int, op: str, outcome: Any) -> Any:
        if isinstance(outcome, Failure):
            raise self._error(env_id, op, outcome)
        return outcome

    def _actor_died(self, actor: int, exc: BaseException) -> ActorDiedError:
        cause = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        self._dead.setdefault(actor, cause)
        return ActorDiedError(actor, sorted(e for e, a in self._home.items() if a == actor), self._dead[actor])

"""MobileGym on Ray: :class:`EnvPool`, envs held by Ray actors on CPU nodes, stepped in batches or
asynchronously (a trainer overlaps its model with the env steps) and forked for GRPO groups.

::

    from mobilegym.ray import EnvPool

    with EnvPool(8, envs_per_actor=2, address="auto", task="clock.CountAlarms", render_scale=0.1) as pool:
        first = pool.reset(seed=[0] * 8)                 # [(obs, info), ...]
        futures = pool.step_async([{"type": "wait", "seconds": 1}] * 8)
        done, pending = pool.wait(futures)               # or: await futures[0]
        group = pool.fork(0, 4)                          # 4 envs in env 0's exact state

Needs the ``ray`` extra: ``pip install "mobilegym[ray]"``. Nothing here imports Ray until a pool is made.
"""
from .errors import (ActorDiedError, BatchError, EnvCreateError, EnvError, EnvLostError, EnvPoolError,
                     PoolClosedError, UnknownEnvError)
from .pool import EnvFuture, EnvPool, require_ray

__all__ = ["ActorDiedError", "BatchError", "EnvCreateError", "EnvError", "EnvFuture", "EnvLostError", "EnvPool",
           "EnvPoolError", "PoolClosedError", "UnknownEnvError", "require_ray"]

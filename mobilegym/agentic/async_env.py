"""``AsyncChatEnv``: ``ChatEnv`` for an event loop, its phone work off the loop on a bounded :class:`StepPool`.

One process can then drive hundreds of episodes against a model server: while most episodes wait
for the model, a few threads (the pool's bound) render, judge and encode screenshots for the rest.
"""
from __future__ import annotations

import asyncio
import functools
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, TypeVar

from ..eval.agents.openai.client import Completion
from .chat_env import ChatEnv, Messages

T = TypeVar("T")
DEFAULT_STEP_WORKERS = 2  # threads of the default pool (see docs/drafts/chat.md for the measurements)
_default: "StepPool | None" = None
_default_lock = threading.Lock()


class StepPool:
    """At most ``max_workers`` phone steps (reset, step, prompt building) at once, on as many threads.

    ``running`` is the number of steps in progress and ``peak`` the most there ever were at once.
    Share one pool between the envs of a process; ``close()`` waits for the steps in progress.
    """

    def __init__(self, max_workers: int = DEFAULT_STEP_WORKERS) -> None:
        if isinstance(max_workers, bool) or not isinstance(max_workers, int) or max_workers < 1:
            raise ValueError(f"max_workers must be an integer >= 1, got {max_workers!r}")
        self.max_workers = max_workers
        self._executor = ThreadPoolExecutor(max_workers, thread_name_prefix="mobilegym-step")
        self._lock = threading.Lock()
        self.running = self.peak = 0

    async def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` on one of the pool's threads, awaited."""
        return await asyncio.get_running_loop().run_in_executor(
            self._executor, functools.partial(self._call, fn, args, kwargs))

    def _call(self, fn: Callable[..., T], args: tuple, kwargs: dict) -> T:
        with self._lock:
            self.running += 1
            self.peak = max(self.peak, self.running)
        try:
            return fn(*args, **kwargs)
        finally:
            with self._lock:
                self.running -= 1

    def close(self) -> None:
        self._executor.shutdown(wait=True)


def default_pool() -> StepPool:
    """The process's shared pool of :data:`DEFAULT_STEP_WORKERS` threads (made on first use)."""
    global _default
    with _default_lock:
        if _default is None:
            _default = StepPool()
        return _default


class AsyncChatEnv:
    """``await env.reset()`` and ``await env.step(reply)``: a :class:`ChatEnv` whose phone work runs on
    ``pool`` (default: the process's shared :func:`default_pool`). Arguments are ChatEnv's."""

    def __init__(self, task: Any = None, adapter: Any = "json", history: int = 4, *, pool: StepPool | None = None,
                 **chat_kwargs: Any) -> None:
        self.chat = ChatEnv(task, adapter, history, **chat_kwargs)
        self.pool = pool or default_pool()

    @classmethod
    def of(cls, chat: ChatEnv, pool: StepPool | None = None) -> "AsyncChatEnv":
        """An AsyncChatEnv over an existing ChatEnv."""
        env = cls.__new__(cls)
        env.chat, env.pool = chat, pool or default_pool()
        return env

    @property
    def unwrapped(self) -> Any:
        return self.chat.unwrapped

    async def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Messages, dict]:
        """See :meth:`ChatEnv.reset`."""
        return await self.pool.run(self.chat.reset, seed=seed, options=options)

    async def step(self, reply: str | Completion) -> tuple[Messages, float, bool, bool, dict]:
        """See :meth:`ChatEnv.step`."""
        return await self.pool.run(self.chat.step, reply)

    def fork(self, n: int = 1) -> list["AsyncChatEnv"]:
        """See :meth:`ChatEnv.fork`; the forks share this env's pool."""
        return [AsyncChatEnv.of(chat, self.pool) for chat in self.chat.fork(n)]

    def close(self) -> None:
        self.chat.close()

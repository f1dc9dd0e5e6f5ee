"""Running episodes on this machine: in this process, or in worker processes; each runs
``concurrency`` episodes at once on asyncio, one env and one agent per slot."""
from __future__ import annotations

import asyncio
import multiprocessing
import os
import queue
from pathlib import Path
from typing import Any, Awaitable, Callable

import gymnasium as gym

from ... import ENV_ID
from ..agents import load_agent
from .config import EvalConfig
from .episode import play
from .plan import EpisodeSpec

Emit = Callable[[dict[str, Any], "str | None"], None]
NextSpec = Callable[[], Awaitable["EpisodeSpec | None"]]


def make_env(config: EvalConfig, selection: Any) -> gym.Env:
    """The env an evaluation slot plays on: local, or a session on the ``env_url`` server."""
    if config.env_url is not None:
        from ...remote import RemoteEnv
        from ...serve import TOKEN_ENV

        return RemoteEnv(config.env_url, token=os.environ.get(TOKEN_ENV), **config.env_kwargs(selection))
    return gym.make(ENV_ID, disable_env_checker=True, **config.env_kwargs(selection))


async def run_slots(config: EvalConfig, selection: Any, next_spec: NextSpec, emit: Emit, root: Path | None) -> None:
    """``config.concurrency`` slots, each taking episodes from ``next_spec`` until it gives None."""

    async def slot() -> None:
        env = make_env(config, selection)
        agent = load_agent(config.agent, config.agent_options)
        try:
            while (spec := await next_spec()) is not None:
                row, trace = await play(spec, config, env, agent, selection, root)
                emit(row, trace)
        finally:
            env.close()
            close = getattr(agent, "aclose", None)
            if close is not None:
                await close()

    await asyncio.gather(*(slot() for _ in range(config.concurrency)))


def run_in_process(specs: list[EpisodeSpec], config: EvalConfig, selection: Any, emit: Emit) -> None:
    """Every episode in this process."""
    todo = list(reversed(specs))

    async def next_spec() -> EpisodeSpec | None:
        return todo.pop() if todo else None

    asyncio.run(run_slots(config, selection, next_spec, emit, Path(config.out)))


def _worker(config_data: dict[str, Any], selection: Any, specs: Any, rows: Any) -> None:
    config = EvalConfig.from_dict(config_data)

    async def next_spec() -> EpisodeSpec | None:
        return await asyncio.get_running_loop().run_in_executor(None, specs.get)

    try:
        asyncio.run(run_slots(config, selection, next_spec, lambda row, trace: rows.put(("row", row, trace)),
                              Path(config.out)))
    except BaseException as exc:  # reported to the parent, which stops the run with it
        rows.put(("crash", f"{type(exc).__name__}: {exc}", None))
    finally:
        rows.put(("done", None, None))


class WorkerCrash(RuntimeError):
    """A worker process of the run failed outside any episode."""


def run_in_workers(specs: list[EpisodeSpec], config: EvalConfig, selection: Any, emit: Emit) -> None:
    """Every episode across ``config.workers`` processes (spawned: nothing inherited but the arguments)."""
    context = multiprocessing.get_context("spawn")
    spec_queue, row_queue = context.Queue(), context.Queue()
    for spec in specs:
        spec_queue.put(spec)
    for _ in range(config.workers * config.concurrency):
        spec_queue.put(None)
    workers = [context.Process(target=_worker, args=(config.to_dict(), selection, spec_queue, row_queue), daemon=True)
               for _ in range(config.workers)]
    for worker in workers:
        worker.start()
    running, crash = len(workers), None
    try:
        while running:
            try:
                kind, payload, trace = row_queue.get(timeout=1.0)
            except queue.Empty:
                if not any(w.is_alive() for w in workers):
                    raise WorkerCrash("every worker process exited without finishing") from None
                continue
            if kind == "row":
                emit(payload, trace)
            elif kind == "crash":
                crash = crash or payload
            else:
                running -= 1
    finally:
        for worker in workers:
            worker.join(timeout=5)
            if worker.is_alive():
                worker.terminate()
    if crash is not None:
        raise WorkerCrash(f"a worker process failed: {crash}")


def run_local(specs: list[EpisodeSpec], config: EvalConfig, selection: Any, emit: Emit) -> None:
    """The local backend."""
    if config.workers == 1:
        run_in_process(specs, config, selection, emit)
    else:
        run_in_workers(specs, config, selection, emit)

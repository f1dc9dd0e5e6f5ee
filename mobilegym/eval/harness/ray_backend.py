"""Running episodes on a Ray cluster: ``workers`` actors, each playing ``concurrency`` episodes at once
with its envs built inside it; rows and trajectory files stream back to the driver's results folder."""
from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path
from typing import Any

from .config import EvalConfig
from .local import Emit, make_env
from .plan import EpisodeSpec


class EpisodeActor:
    """A Ray actor: a pool of (env, agent) slots; ``play`` returns the row, traceback and trajectory files."""

    def __init__(self, config_data: dict[str, Any], selection: Any) -> None:
        from ..agents import load_agent

        self.config = EvalConfig.from_dict(config_data)
        self.selection = selection
        self.scratch = Path(tempfile.mkdtemp(prefix="mobilegym-ray-"))
        self.slots: asyncio.Queue | None = None
        self._slots = [(make_env(self.config, selection), load_agent(self.config.agent, self.config.agent_options))
                       for _ in range(self.config.concurrency)]

    async def play(self, spec: EpisodeSpec) -> tuple[dict[str, Any], str | None, dict[str, bytes]]:
        from .episode import play

        if self.slots is None:
            self.slots = asyncio.Queue()
            for slot in self._slots:
                self.slots.put_nowait(slot)
        env, agent = await self.slots.get()
        try:
            row, trace = await play(spec, self.config, env, agent, self.selection, self.scratch)
        finally:
            self.slots.put_nowait((env, agent))
        files: dict[str, bytes] = {}
        if row.get("trajectory"):
            folder = self.scratch / row["trajectory"]
            files = {str(p.relative_to(self.scratch)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
            shutil.rmtree(folder, ignore_errors=True)
        return row, trace, files


def run_on_ray(specs: list[EpisodeSpec], config: EvalConfig, selection: Any, emit: Emit) -> None:
    """Every episode on Ray (``config.ray_address``: a cluster's address, "auto", or None for a local one)."""
    import ray

    started_here = not ray.is_initialized()
    if started_here:
        ray.init(address=config.ray_address, log_to_driver=False, include_dashboard=False,
                 configure_logging=False)
    try:
        actor_class = ray.remote(num_cpus=1, max_concurrency=config.concurrency)(EpisodeActor)
        actors = [actor_class.remote(config.to_dict(), selection) for _ in range(config.workers)]
        root = Path(config.out)
        waiting = list(specs)
        running: dict[Any, int] = {}
        in_flight = config.concurrency
        for index, actor in enumerate(actors):
            for _ in range(in_flight):
                if waiting:
                    running[actor.play.remote(waiting.pop(0))] = index
        while running:
            done, _ = ray.wait(list(running), num_returns=1)
            ref = done[0]
            index = running.pop(ref)
            row, trace, files = ray.get(ref)
            for relative, data in files.items():
                target = root / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
            emit(row, trace)
            if waiting:
                running[actors[index].play.remote(waiting.pop(0))] = index
    finally:
        if started_here:
            ray.shutdown()

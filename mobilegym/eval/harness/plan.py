"""The episodes of a run: selected tasks x parameter instances x worlds x repeats, in a fixed order."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...judge.errors import TaskError
from ...judge.registry import TaskRef, resolve_tasks
from ...judge.splits import split_ids
from .config import ConfigError, EvalConfig


@dataclass(frozen=True)
class EpisodeSpec:
    """One episode: a task, the reset seed (its parameters), a world seed (None: the seed's), a repeat."""

    index: int
    task_id: str
    seed: int
    world_seed: int | None
    repeat: int

    @property
    def episode_id(self) -> str:
        world = "" if self.world_seed is None else f"-w{self.world_seed}"
        return f"{self.task_id}/s{self.seed}{world}-r{self.repeat}"

    @property
    def reset_options(self) -> dict[str, Any]:
        options: dict[str, Any] = {"task": self.task_id}
        if self.world_seed is not None:
            options["world_seed"] = self.world_seed
        return options


def task_selection(config: EvalConfig) -> list[str]:
    """The task specs a run names: its split, suites and task ids (all tasks when none is given)."""
    chosen: list[str] = []
    if config.split is not None:
        chosen += sorted(split_ids(config.split))
    chosen += list(config.suites) + list(config.tasks)
    return chosen or ["all"]


def select_tasks(config: EvalConfig) -> list[TaskRef]:
    """The tasks of a run, filtered by metadata, sorted by id."""
    try:
        refs = resolve_tasks(task_selection(config), **config.filters)
    except TaskError as exc:
        raise ConfigError(str(exc)) from exc
    return sorted(refs, key=lambda ref: ref.id)


def build_plan(config: EvalConfig, refs: list[TaskRef]) -> list[EpisodeSpec]:
    """Every episode of the run in its canonical order (results are written in this order)."""
    worlds: list[int | None] = list(config.world_seeds) if config.world_seeds else [None]
    specs = []
    for ref in refs:
        for seed in range(config.seed, config.seed + config.sample_n):
            for world in worlds:
                for repeat in range(config.repeat_n):
                    specs.append(EpisodeSpec(len(specs), ref.id, seed, world, repeat))
    return specs

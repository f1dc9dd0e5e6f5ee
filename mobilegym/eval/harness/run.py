"""``evaluate``: the Python API behind ``mobilegym eval``."""
from __future__ import annotations

import asyncio
import inspect
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..agents import load_agent
from ..extras import MissingExtra
from .config import ConfigError, EvalConfig, PreflightError
from .plan import build_plan, select_tasks, task_selection
from .progress import Progress
from .results import ResultsFolder


@dataclass
class EvalRun:
    """A finished run: its folder, summary and rows (in plan order)."""

    root: Path
    summary: dict[str, Any]
    rows: list[dict[str, Any]]
    notes: list[str] = field(default_factory=list)  # what the run left out, e.g. plots without matplotlib


def agent_meta(agent: Any, config: EvalConfig) -> dict[str, Any]:
    """What meta.json records of the agent: spec, name, versions and the agent's own ``meta()``."""
    meta = {"spec": config.agent, "name": getattr(agent, "name", config.agent),
            "version": getattr(agent, "version", None), "prompt_version": getattr(agent, "prompt_version", None),
            "options": {k: v for k, v in config.agent_options.items() if "key" not in k.lower()}}
    extra = getattr(agent, "meta", None)
    if callable(extra):
        meta.update(extra())
    return meta


def _check_agent(agent: Any, config: EvalConfig) -> None:
    """The human agent plays in this terminal: one episode at a time, and no progress bar over it."""
    if getattr(agent, "name", None) != "human":
        return
    if config.workers > 1 or config.concurrency > 1 or config.backend != "local":
        raise ConfigError("the human agent plays one episode at a time: use workers=1, concurrency=1, backend=local")
    config.progress = "off"


def preflight(agent: Any) -> None:
    """Run the agent's optional ``preflight()`` (sync or async) once before any episode; PreflightError
    with the agent's reason when it fails (e.g. a model endpoint that is down or serves another model)."""
    check = getattr(agent, "preflight", None)
    if not callable(check):
        return
    try:
        result = check()
        if inspect.isawaitable(result):
            asyncio.run(_wait(result))
    except Exception as exc:
        raise PreflightError(f"the {getattr(agent, 'name', 'agent')} agent cannot start: {exc}") from exc


async def _wait(result: Any) -> Any:
    return await result


def evaluate(config: EvalConfig | None = None, *, report: bool = True, **options: Any) -> EvalRun:
    """Run an agent over tasks and write the results folder (see docs/evaluation.md).

    ``evaluate(agent="oracle", suites=["clock"], sample_n=2, out="runs/oracle")`` or
    ``evaluate(EvalConfig(...))``; returns the summary and rows; with ``report`` also writes
    report.html and the plots. Before the first episode the agent's ``preflight()``, when it has one,
    checks what it depends on (``OpenAIAgent``: its endpoint); PreflightError when that fails.
    """
    if config is None:
        config = EvalConfig(**options)
    elif options:
        raise ConfigError("pass an EvalConfig or keyword options, not both")
    refs = select_tasks(config)
    plan = build_plan(config, refs)
    selection = task_selection(config)
    agent = load_agent(config.agent, config.agent_options)
    _check_agent(agent, config)
    preflight(agent)
    folder = ResultsFolder(config, agent_meta(agent, config))
    pending = folder.pending(plan)
    progress = Progress(len(plan), len(plan) - len(pending), config.progress)

    def emit(row: dict[str, Any], trace: str | None) -> None:
        folder.add(row, trace)
        progress.update(row)

    try:
        if config.backend == "ray":
            from .ray_backend import run_on_ray

            run_on_ray(pending, config, selection, emit)
        else:
            from .local import run_local

            run_local(pending, config, selection, emit)
    finally:
        progress.close()
    summary = folder.finish(plan)
    notes = write_outputs(folder.root) if report else []
    order = {spec.episode_id: spec.index for spec in plan}
    rows = sorted(folder.rows.values(), key=lambda r: order.get(r["episode_id"], len(order)))
    return EvalRun(folder.root, summary, rows, notes)


def write_outputs(root: Path) -> list[str]:
    """report.html and the PNG plots beside the results; returns notes on what was skipped (the plots
    when matplotlib is missing: the report is written without them)."""
    from .plots import write_plots
    from .report import write_report

    notes = []
    try:
        write_plots(root)
    except MissingExtra as exc:
        notes.append(f"plots skipped: {exc}; report.html is written without them")
    write_report(root)
    return notes


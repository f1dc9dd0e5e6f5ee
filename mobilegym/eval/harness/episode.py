"""One episode of an evaluation: reset, let the agent act until the episode ends, judge, make the row."""
from __future__ import annotations

import asyncio
import hashlib
import json
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from ..agents.base import AgentError, Decision
from .config import EvalConfig
from .plan import EpisodeSpec
from .trajectory import TrajectoryWriter

ENDS = ("complete", "abort", "step_budget", "time_budget", "loop", "error")


@dataclass
class Usage:
    """Model calls, retries and tokens over an episode."""

    calls: int = 0
    retries: int = 0
    prompt: int = 0
    completion: int = 0

    def add(self, decision: Decision) -> None:
        if decision.response is not None or decision.usage:
            self.calls += 1
        self.retries += decision.retries
        self.prompt += int(decision.usage.get("prompt_tokens", decision.usage.get("prompt", 0)) or 0)
        self.completion += int(decision.usage.get("completion_tokens", decision.usage.get("completion", 0)) or 0)


@dataclass
class Outcome:
    """How an episode ended, before it becomes a row."""

    end: str = "error"
    steps: int = 0
    judge: dict[str, Any] | None = None
    error_kind: str | None = None
    error: str | None = None
    traceback: str | None = None
    loop: bool = False
    instruction: str | None = None
    usage: Usage = field(default_factory=Usage)


class LoopDetector:
    """Ends an episode when the agent repeats one action on an unchanged screen ``limit`` times."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._last: str | None = None
        self._run = 0

    def repeated(self, screen: str, action: Mapping[str, Any] | None) -> bool:
        """Record one step; True when it makes the ``limit``-th identical (screen, action) in a row."""
        if self.limit == 0:
            return False
        key = hashlib.sha1((screen + json.dumps(action, sort_keys=True, default=str)).encode()).hexdigest()
        self._run = self._run + 1 if key == self._last else 1
        self._last = key
        return self._run >= self.limit


async def decide(agent: Any, obs: Mapping[str, Any], info: Mapping[str, Any], timeout: float | None) -> Decision:
    """The agent's next step, awaited if it is asynchronous, within ``timeout`` seconds."""
    aact = getattr(agent, "aact", None)
    if aact is not None:
        step = await asyncio.wait_for(aact(obs, info), timeout)
    else:
        step = agent.act(obs, info)
    if not isinstance(step, (dict, Decision)):
        raise AgentError(f"act() must return an action dict or a Decision, got {type(step).__name__}")
    return Decision.of(step)


def reset_info(spec: EpisodeSpec, config: EvalConfig, env: Any, info: Mapping[str, Any],
               selection: Any) -> dict[str, Any]:
    """What an agent's reset receives: the env's info plus the episode's settings."""
    unwrapped = env.unwrapped
    return {**info, "seed": spec.seed, "repeat": spec.repeat, "screen_size": tuple(config.screen_size),
            "language": config.language, "eval_mode": config.eval_mode, "apps": list(unwrapped.action_space.apps),
            "env_kwargs": config.env_kwargs(selection), "reset_options": spec.reset_options}


async def play(spec: EpisodeSpec, config: EvalConfig, env: Any, agent: Any, selection: Any,
               root: Path | None) -> tuple[dict[str, Any], str | None]:
    """Run one episode; returns its results row and, for an errored episode, the traceback."""
    started = time.perf_counter()
    outcome = Outcome()
    info: dict[str, Any] = {}
    writer: TrajectoryWriter | None = None
    obs = None
    try:
        obs, info = env.reset(seed=spec.seed, options=spec.reset_options)
        outcome.instruction = obs["instruction"]
    except Exception as exc:  # a task that cannot start is broken: a task error, not the agent's 0
        outcome.error_kind, outcome.error = "task_error", f"{type(exc).__name__}: {exc}"
        outcome.traceback = traceback.format_exc()
        return make_row(spec, config, env, info, outcome, None, time.perf_counter() - started), outcome.traceback
    if root is not None and config.trajectories:
        writer = TrajectoryWriter(root, trajectory_path(spec), tuple(config.screen_size), config.trajectory_scale)
    try:
        obs = await _run(spec, config, env, agent, selection, obs, info, outcome, writer, started)
    except (AgentError, asyncio.TimeoutError) as exc:
        _fail(outcome, getattr(exc, "kind", "agent_error"), exc)
    except Exception as exc:  # an agent's own bug: recorded as its error, never a crash of the run
        _fail(outcome, "agent_error", exc)
    if outcome.judge is None and outcome.error_kind is None:
        outcome.judge = env.unwrapped.judge_now().to_dict()
    if outcome.judge is not None and outcome.judge.get("error") is not None:
        outcome.error_kind, outcome.error = "task_error", str(outcome.judge["error"])
    row = make_row(spec, config, env, info, outcome, writer, time.perf_counter() - started)
    if writer is not None:
        writer.finish(obs, row, outcome.judge)
    return row, outcome.traceback


async def _run(spec: EpisodeSpec, config: EvalConfig, env: Any, agent: Any, selection: Any, obs: Any,
               info: dict[str, Any], outcome: Outcome, writer: TrajectoryWriter | None, started: float) -> Any:
    agent.reset(obs["instruction"], reset_info(spec, config, env, info, selection))
    loops = LoopDetector(config.loop_limit)
    while True:
        remaining = None if config.time_limit_s is None else config.time_limit_s - (time.perf_counter() - started)
        if remaining is not None and remaining <= 0:
            outcome.end = "time_budget"
            return obs
        try:
            decision = await decide(agent, obs, info, remaining)
        except asyncio.TimeoutError:
            outcome.end = "time_budget"
            return obs
        outcome.usage.add(decision)
        action = decision.action
        if loops.repeated(obs["a11y"], action):
            outcome.end, outcome.loop = "loop", True
            if writer is not None:
                writer.step(outcome.steps, obs, info, decision, action, 0.0, "loop: the same action on the same screen")
            return obs
        seen, seen_info = obs, info
        obs, reward, terminated, truncated, info = env.step(action if action is not None else {})
        error = decision.error or info.get("last_action_error")
        if writer is not None:
            writer.step(outcome.steps, seen, seen_info, decision, action, float(reward), error)
        outcome.steps += 1
        if terminated or truncated:
            outcome.judge = info.get("judge")
            outcome.end = (action or {}).get("type") if terminated else "step_budget"
            return obs


def _fail(outcome: Outcome, kind: str, exc: BaseException) -> None:
    outcome.end, outcome.error_kind = "error", kind
    outcome.error = f"{type(exc).__name__}: {exc}"
    outcome.traceback = traceback.format_exc()


def trajectory_path(spec: EpisodeSpec) -> str:
    """The trajectory folder of an episode, relative to the results folder."""
    return f"trajectories/{spec.episode_id}"


def make_row(spec: EpisodeSpec, config: EvalConfig, env: Any, info: Mapping[str, Any], outcome: Outcome,
             writer: TrajectoryWriter | None, wall_time_s: float) -> dict[str, Any]:
    """The results.jsonl row of an episode (the schema the README documents)."""
    ref = next((r for r in env.unwrapped.tasks if r.id == spec.task_id), None)
    meta = ref.metadata if ref is not None else {}
    judge = outcome.judge or {}
    success = bool(judge.get("success")) and outcome.error_kind is None
    return {
        "episode_id": spec.episode_id, "task_id": spec.task_id, "suite": meta.get("suite"), "app": meta.get("app"),
        "difficulty": meta.get("difficulty"), "objective": meta.get("objective"), "seed": spec.seed,
        "world_seed": info.get("world_seed"), "repeat": spec.repeat, "params": info.get("params"),
        "instruction": outcome.instruction,
        "steps": outcome.steps, "score": float(judge.get("score", 0.0)), "success": success,
        "progress": float(judge.get("progress", 0.0)), "clean": bool(judge.get("clean", True)),
        "side_effects": list(judge.get("side_effects", [])), "error_kind": outcome.error_kind,
        "error": outcome.error, "end": outcome.end,
        "false_complete": outcome.end == "complete" and not success,
        "overdue": outcome.end in ("step_budget", "time_budget"), "loop": outcome.loop,
        "tokens": {"prompt": outcome.usage.prompt, "completion": outcome.usage.completion},
        "model_calls": outcome.usage.calls, "retries": outcome.usage.retries,
        "wall_time_s": round(wall_time_s, 3), "checks": list(judge.get("checks", [])),
        "trajectory": writer.relative if writer is not None else None,
    }

"""One episode of an evaluation: reset, let the agent act until the episode ends, judge, make the row."""
from __future__ import annotations

import asyncio
import hashlib
import json
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Protocol

from ..agents.base import AgentError, Decision
from .config import EvalConfig
from .plan import EpisodeSpec
from .trajectory import TrajectoryWriter

ENDS = ("complete", "abort", "step_budget", "time_budget", "loop", "unreadable", "error")


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


def agent_info(env: Any) -> dict[str, Any]:
    """What an agent's reset learns of the phone: screen size (device pixels), language, evaluation mode, apps."""
    unwrapped = env.unwrapped
    return {"screen_size": (unwrapped.coords.width, unwrapped.coords.height), "language": unwrapped.language,
            "eval_mode": unwrapped.eval_mode, "apps": list(unwrapped.action_space.apps)}


def reset_info(spec: EpisodeSpec, config: EvalConfig, env: Any, info: Mapping[str, Any],
               selection: Any) -> dict[str, Any]:
    """What an agent's reset receives: the env's info plus the episode's settings."""
    return {**info, "seed": spec.seed, "repeat": spec.repeat, **agent_info(env),
            "env_kwargs": config.env_kwargs(selection), "reset_options": spec.reset_options}


class Recorder(Protocol):
    """Receives each step of an episode (the trajectory writer, a rollout's in-memory record)."""

    def step(self, index: int, obs: Mapping[str, Any], info: Mapping[str, Any], decision: Decision,
             action: Mapping[str, Any] | None, reward: float, error: str | None) -> None:
        """The screen the agent saw at step ``index`` (and the info beside it), what it did, what it earned."""


async def play(spec: EpisodeSpec, config: EvalConfig, env: Any, agent: Any, selection: Any,
               root: Path | None) -> tuple[dict[str, Any], str | None]:
    """Run one episode; returns its results row and, for an errored episode, the traceback."""
    started = time.perf_counter()
    info: dict[str, Any] = {}
    try:
        obs, info = env.reset(seed=spec.seed, options=spec.reset_options)
    except Exception as exc:  # a task that cannot start is broken: a task error, not the agent's 0
        outcome = Outcome(error_kind="task_error", error=f"{type(exc).__name__}: {exc}",
                          traceback=traceback.format_exc())
        return make_row(spec, config, env, info, outcome, None, time.perf_counter() - started), outcome.traceback
    writer: TrajectoryWriter | None = None
    if root is not None and config.trajectories:
        writer = TrajectoryWriter(root, trajectory_path(spec), tuple(config.screen_size), config.trajectory_scale)
    outcome, obs = await run_episode(env, agent, obs, info, reset_info(spec, config, env, info, selection),
                                     loop_limit=config.loop_limit, time_limit_s=config.time_limit_s,
                                     recorder=writer, started=started, unreadable_limit=config.unreadable_limit)
    row = make_row(spec, config, env, info, outcome, writer, time.perf_counter() - started)
    if writer is not None:
        writer.finish(obs, row, outcome.judge)
    return row, outcome.traceback


async def run_episode(env: Any, agent: Any, obs: Any, info: dict[str, Any], start: Mapping[str, Any], *,
                      loop_limit: int = 5, time_limit_s: float | None = None, recorder: Recorder | None = None,
                      started: float | None = None, unreadable_limit: int = 0) -> tuple[Outcome, Any]:
    """Play a started episode to its end and judge it: the agent is reset with ``start`` and acts on
    ``obs`` until it ends the episode, the step budget runs out, it loops ``loop_limit`` times (0: never
    checked), ``unreadable_limit`` replies in a row give no action (0: never checked; the episode ends
    as ``unreadable``, judged as it stands) or ``time_limit_s`` passes since ``started``. Agent failures
    are recorded in the outcome, never raised. Returns the outcome and the last observation."""
    started = time.perf_counter() if started is None else started
    outcome = Outcome(instruction=obs["instruction"])
    try:
        obs = await _run(env, agent, obs, info, start, outcome, LoopDetector(loop_limit), time_limit_s, recorder,
                         started, unreadable_limit)
    except (AgentError, asyncio.TimeoutError) as exc:
        _fail(outcome, getattr(exc, "kind", "agent_error"), exc)
    except Exception as exc:  # an agent's own bug: recorded as its error, never a crash of the run
        _fail(outcome, "agent_error", exc)
    if outcome.judge is None and outcome.error_kind is None:
        outcome.judge = env.unwrapped.judge_now().to_dict()
    if outcome.judge is not None and outcome.judge.get("error") is not None:
        outcome.error_kind, outcome.error = "task_error", str(outcome.judge["error"])
    return outcome, obs


def in_coords(action: Mapping[str, Any], coords: Any) -> dict[str, Any]:
    """An action in device pixels written in a coordinate space (``env.unwrapped.coords``) so that the env
    maps it back to exactly those pixels: the same dict in ``pixels``, each pixel's centre otherwise."""
    out = dict(action)
    if coords.extent is None:
        return out
    for key in ("x", "y", "x2", "y2"):
        if isinstance(out.get(key), (int, float)):
            size = coords.width if key[0] == "x" else coords.height
            out[key] = (out[key] + 0.5) / size * coords.extent
    return out


def send(env: Any, decision: Decision) -> tuple[Any, float, bool, bool, dict[str, Any]]:
    """Step the env with a decision's action (device pixels, whatever the env's coordinate space); a decision
    without one is sent as an invalid action, which an env built with ``invalid_action="noop"`` ignores and
    counts as a step."""
    action = decision.action
    return env.step(in_coords(action, env.unwrapped.coords) if action is not None else {})


async def _run(env: Any, agent: Any, obs: Any, info: dict[str, Any], start: Mapping[str, Any], outcome: Outcome,
               loops: LoopDetector, time_limit_s: float | None, recorder: Recorder | None, started: float,
               unreadable_limit: int = 0) -> Any:
    agent.reset(obs["instruction"], start)
    unreadable = 0
    while True:
        remaining = None if time_limit_s is None else time_limit_s - (time.perf_counter() - started)
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
        unreadable = unreadable + 1 if action is None else 0
        if unreadable_limit and unreadable >= unreadable_limit:
            outcome.end = "unreadable"
            if recorder is not None:
                recorder.step(outcome.steps, obs, info, decision, action, 0.0,
                              f"{decision.error or 'no action'} ({unreadable} unreadable replies in a row: "
                              "the episode ends)")
            return obs
        if loops.repeated(obs["a11y"], action):
            outcome.end, outcome.loop = "loop", True
            if recorder is not None:
                recorder.step(outcome.steps, obs, info, decision, action, 0.0,
                              "loop: the same action on the same screen")
            return obs
        seen, seen_info = obs, info
        obs, reward, terminated, truncated, info = send(env, decision)
        error = decision.error or info.get("last_action_error")
        if recorder is not None:
            recorder.step(outcome.steps, seen, seen_info, decision, action, float(reward), error)
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
    """The results.jsonl row of an episode (the schema docs/evaluation.md documents)."""
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

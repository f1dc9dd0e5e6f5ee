"""Group rollouts (GRPO-style): ``group_size`` episodes of each task instance, played by one policy.

Each episode runs on the harness's episode loop (:func:`mobilegym.eval.harness.episode.run_episode`:
the same agent reset, step accounting, usage, loop detection and judging as ``mobilegym eval``)
with a :class:`~mobilegym.eval.agents.openai.conversation.ChatAgent`, so the prompts are those of
``ChatEnv`` and of the eval's OpenAI agent. The policy is an OpenAI-compatible endpoint (a
:class:`~mobilegym.eval.agents.openai.client.ChatClient`) or an in-process callable
``messages -> reply`` (sync or async; the reply is the text or a ``Completion`` with usage).
"""
from __future__ import annotations

import asyncio
import inspect
import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import gymnasium as gym

from ..eval.agents.base import Decision
from ..eval.agents.openai.adapters import Adapter
from ..eval.agents.openai.client import ChatClient, Completion
from ..eval.agents.openai.conversation import ChatAgent, Respond
from ..eval.harness.episode import Usage, agent_info, run_episode
from .chat_env import as_completion, check_penalty, conversation_for, make_chat_env, penalised

Policy = ChatClient | Callable[[list[dict[str, Any]]], Any]
STARTS = ("seed", "fork")


@dataclass
class Step:
    """One model turn: what it was sent, what it answered, what that did and earned."""

    messages: list[dict[str, Any]]  # the request, images as data URLs
    reply: str
    action: dict[str, Any] | None  # the parsed action, device pixels (None: the reply was no action)
    thought: str | None
    parse_error: str | None
    action_error: str | None  # what the phone rejected (or why the loop detector ended the episode)
    reward: float  # the env's reward plus the format penalty
    usage: dict[str, int]


@dataclass
class Trajectory:
    """One episode of a group. ``reward`` sums the steps' rewards (what ChatEnv pays); ``score`` and
    ``success`` are the judge's; ``judge`` is its full result (``checks`` among it)."""

    task_id: str
    seed: int
    member: int
    steps: list[Step] = field(default_factory=list)
    reward: float = 0.0
    score: float = 0.0
    success: bool = False
    end: str = "error"
    judge: dict[str, Any] | None = None
    usage: Usage = field(default_factory=Usage)
    error_kind: str | None = None
    error: str | None = None

    @property
    def checks(self) -> list[dict[str, Any]]:
        return list((self.judge or {}).get("checks", []))


@dataclass
class Group:
    """The ``group_size`` trajectories of one task instance (task and seed)."""

    task_id: str
    seed: int
    trajectories: list[Trajectory]

    @property
    def rewards(self) -> list[float]:
        return [t.reward for t in self.trajectories]


def as_respond(policy: Policy) -> Respond:
    """A policy as the coroutine a ChatAgent asks: a ChatClient's ``complete``, or the callable's reply
    (awaited when it is awaitable) as a Completion."""
    if isinstance(policy, ChatClient):
        return policy.complete
    if not callable(policy):
        raise TypeError(f"policy must be a ChatClient or a callable messages -> reply, got {type(policy).__name__}")

    async def respond(messages: list[dict[str, Any]]) -> Completion:
        reply = policy(messages)
        if inspect.isawaitable(reply):
            reply = await reply
        return as_completion(reply)

    return respond


class _Recorder:
    """The steps of one trajectory, as the episode loop reports them."""

    def __init__(self, agent: ChatAgent, trajectory: Trajectory, penalty: float) -> None:
        self.agent, self.trajectory, self.penalty = agent, trajectory, penalty

    def step(self, index: int, obs: Mapping[str, Any], info: Mapping[str, Any], decision: Decision,
             action: Mapping[str, Any] | None, reward: float, error: str | None) -> None:
        sent = self.agent.last_step
        self.trajectory.steps.append(Step(
            messages=sent.request if sent is not None else [], reply=decision.response or "",
            action=dict(action) if action else None, thought=decision.thought, parse_error=decision.error,
            action_error=None if error == decision.error else error,
            reward=penalised(reward, decision, self.penalty), usage=dict(decision.usage)))


def _instances(tasks: str | Sequence[str], seeds: int | Sequence[int]) -> list[tuple[str, int]]:
    task_list = [tasks] if isinstance(tasks, str) else list(tasks)
    seed_list = [seeds] if isinstance(seeds, int) else list(seeds)
    if not task_list or not seed_list:
        raise ValueError("group rollouts need at least one task and one seed")
    for seed in seed_list:
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"seeds must be non-negative integers, got {seed!r}")
    return [(task, seed) for task in task_list for seed in seed_list]


def _count(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    return value


async def agroup_rollouts(tasks: str | Sequence[str], seeds: int | Sequence[int], group_size: int = 4, *,
                          policy: Policy, **options: Any) -> list[Group]:
    """:func:`group_rollouts` awaited in a running event loop (all in this process)."""
    return await _play(_instances(tasks, seeds), group_size, policy=policy, **options)


async def _play(
    instances: list[tuple[str, int]],
    group_size: int,
    *,
    policy: Policy,
    start: str = "seed",
    adapter: str | Adapter = "json",
    adapter_options: Mapping[str, Any] | None = None,
    history: int = 4,
    history_images: int = 0,
    send_tree: bool = False,
    set_of_mark: bool = False,
    format_penalty: float = 0.0,
    concurrency: int = 8,
    loop_limit: int = 0,
    time_limit_s: float | None = None,
    **make_kwargs: Any,
) -> list[Group]:
    group_size, concurrency = _count("group_size", group_size), _count("concurrency", concurrency)
    if start not in STARTS:
        raise ValueError(f"start must be one of {', '.join(STARTS)}, got {start!r}")
    penalty = check_penalty(format_penalty)
    respond = as_respond(policy)
    conversation = dict(adapter=adapter, adapter_options=adapter_options, history=history,
                        history_images=history_images, send_tree=send_tree, set_of_mark=set_of_mark)
    if "task" in make_kwargs:
        raise ValueError("group rollouts take their tasks as the first argument, not task=")
    all_tasks = sorted({task for task, _ in instances})
    idle: list[gym.Env] = []
    slots = asyncio.Semaphore(concurrency)

    async def member(env: Any, obs: Any, info: dict[str, Any], task_id: str, seed: int, index: int) -> Trajectory:
        agent = ChatAgent(conversation_for(env, **conversation), respond)
        trajectory = Trajectory(task_id, seed, index)
        start_info = {**info, "seed": seed, **agent_info(env), "env_kwargs": env.unwrapped.make_kwargs,
                      "reset_options": {"task": task_id}}
        outcome, _ = await run_episode(env, agent, obs, dict(info), start_info, loop_limit=loop_limit,
                                       time_limit_s=time_limit_s, recorder=_Recorder(agent, trajectory, penalty))
        judge = outcome.judge or {}
        trajectory.reward = sum(step.reward for step in trajectory.steps)
        trajectory.score, trajectory.judge = float(judge.get("score", 0.0)), outcome.judge
        trajectory.success = bool(judge.get("success")) and outcome.error_kind is None
        trajectory.end, trajectory.usage = outcome.end, outcome.usage
        trajectory.error_kind, trajectory.error = outcome.error_kind, outcome.error
        return trajectory

    async def seeded(task_id: str, seed: int, index: int) -> Trajectory:
        async with slots:
            env = idle.pop() if idle else make_chat_env(all_tasks, make_kwargs)
            try:
                obs, info = env.reset(seed=seed, options={"task": task_id})
                return await member(env, obs, info, task_id, seed, index)
            finally:
                idle.append(env)

    async def forked(task_id: str, seed: int) -> list[Trajectory]:
        async with slots:
            env = idle.pop() if idle else make_chat_env(all_tasks, make_kwargs)
            try:
                _, info = env.reset(seed=seed, options={"task": task_id})
                forks = env.unwrapped.fork(group_size)
            finally:
                idle.append(env)

        async def one(fork: Any, index: int) -> Trajectory:
            async with slots:
                try:
                    return await member(fork, fork.observe(), info, task_id, seed, index)
                finally:
                    fork.close()

        return list(await asyncio.gather(*(one(fork, i) for i, fork in enumerate(forks))))

    try:
        if start == "seed":
            played = await asyncio.gather(*(seeded(task, seed, i) for task, seed in instances for i in range(group_size)))
            chunks = [list(played[k * group_size:(k + 1) * group_size]) for k in range(len(instances))]
        else:
            chunks = list(await asyncio.gather(*(forked(task, seed) for task, seed in instances)))
    finally:
        for env in idle:
            env.close()
    return [Group(task, seed, chunk) for (task, seed), chunk in zip(instances, chunks)]


def _shard(instances: list[tuple[str, int]], group_size: int, policy: Policy, options: dict[str, Any]) -> list[Group]:
    return asyncio.run(_play(instances, group_size, policy=policy, **options))


def group_rollouts(tasks: str | Sequence[str], seeds: int | Sequence[int], group_size: int = 4, *,
                   policy: Policy, workers: int = 1, **options: Any) -> list[Group]:
    """``group_size`` episodes of every (task, seed) instance, played by ``policy``; one Group per instance,
    in the order tasks x seeds.

    Args:
        tasks, seeds: the task ids and the reset seeds of the instances.
        group_size: episodes per instance (G).
        policy: a ChatClient (an OpenAI-compatible endpoint) or a callable ``messages -> reply``
            (``str`` or ``Completion``, or an awaitable of one).
        workers: processes the instances are shared out to (spawned; the policy must pickle, as a
            ChatClient or a module-level callable does); 1 plays everything in this process.
        start: ``"seed"`` (each member resets with the instance's seed: the same phone) or ``"fork"``
            (one reset, then ``env.unwrapped.fork(group_size)``: cheaper, needs the simulated phone).
        adapter, adapter_options, history, history_images, send_tree, set_of_mark, format_penalty: as
            for :class:`~mobilegym.agentic.ChatEnv`.
        concurrency: episodes in play at once in each process (their phone steps share its event loop).
        loop_limit: end an episode after this many identical actions on an unchanged screen (0: never).
        time_limit_s: end an episode after this many seconds (None: never).
        The other keyword arguments go to ``gym.make("MobileGym-v0", ...)``, as for ChatEnv (coord_space
        defaults to norm1000, invalid actions are "noop").
    """
    instances = _instances(tasks, seeds)
    workers = _count("workers", workers)
    if workers == 1:
        return asyncio.run(_play(instances, group_size, policy=policy, **options))
    try:
        pickle.dumps(policy)
    except Exception as exc:
        raise TypeError(f"workers > 1 sends the policy to other processes, and it does not pickle ({exc}); "
                        "use a ChatClient or a module-level callable, or workers=1") from None
    positions = [list(range(k, len(instances), workers)) for k in range(min(workers, len(instances)))]
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(len(positions), mp_context=context) as pool:
        futures = [pool.submit(_shard, [instances[i] for i in shard], group_size, policy, options)
                   for shard in positions]
        shards = [future.result() for future in futures]
    groups: list[Group | None] = [None] * len(instances)
    for shard, played in zip(positions, shards):
        for index, group in zip(shard, played):
            groups[index] = group
    return [group for group in groups if group is not None]

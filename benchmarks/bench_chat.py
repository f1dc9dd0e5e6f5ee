"""ChatEnv's cost per step against the raw env's, and AsyncChatEnv's throughput by step-pool size.

    PYTHONPATH=$PWD python benchmarks/bench_chat.py [--steps 400] [--episodes 120] [--latency-ms 20]

Both parts play random valid actions (seeded) on clock.CountAlarms at RL resolution
(render_scale=0.1, 108x240 screenshots of a 1080x2400 phone). ``overhead`` replays the same actions
on the raw env and through ChatEnv (as json replies) and prints ms per step and the ratio.
``throughput`` plays ``--episodes`` episodes at once through AsyncChatEnv against an in-process
policy that answers after ``--latency-ms`` (a model server's latency): inline (ChatEnv on the event
loop), step pools of 1, 2 and 4 threads, and the episodes split over two processes.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import statistics
import time
from typing import Any

import gymnasium as gym

import mobilegym  # noqa: F401  (registers MobileGym-v0)
from mobilegym.agentic import AsyncChatEnv, ChatEnv, StepPool

TASK = "clock.CountAlarms"
RL = dict(task=TASK, render_scale=0.1, coord_space="norm1000", invalid_action="noop")
EPISODE_STEPS = 8


def random_action(rng: random.Random) -> dict[str, Any]:
    """A valid action of the env's schema in norm1000 coordinates."""
    kind = rng.choice(("tap", "tap", "swipe", "back"))
    if kind == "tap":
        return {"type": "tap", "x": rng.randint(50, 950), "y": rng.randint(80, 950)}
    if kind == "swipe":
        return {"type": "swipe", "x": 500, "y": 700, "x2": 500, "y2": 300}
    return {"type": "key", "key": "back"}


def overhead(steps: int, seed: int = 0) -> dict[str, float]:
    """ms per step of the raw env and of ChatEnv over the same actions (resets excluded)."""
    rng = random.Random(seed)
    actions = [random_action(rng) for _ in range(steps)]
    raw = gym.make("MobileGym-v0", disable_env_checker=True, max_steps=10_000, **RL)
    chat = ChatEnv(max_steps=10_000, **RL)
    out: dict[str, list[float]] = {"raw": [], "chat": []}
    for _ in range(3):  # best of three runs of each
        raw.reset(seed=seed)
        started = time.perf_counter()
        for action in actions:
            raw.step(action)
        out["raw"].append((time.perf_counter() - started) / steps * 1000)
        chat.reset(seed=seed)
        replies = [json.dumps(action) for action in actions]
        started = time.perf_counter()
        for reply in replies:
            chat.step(reply)
        out["chat"].append((time.perf_counter() - started) / steps * 1000)
    raw_ms, chat_ms = min(out["raw"]), min(out["chat"])
    return {"raw_ms": raw_ms, "chat_ms": chat_ms, "ratio": chat_ms / raw_ms}


async def _policy(rng: random.Random, latency_s: float, step: int) -> str:
    await asyncio.sleep(latency_s)
    action = random_action(rng) if step < EPISODE_STEPS - 1 else {"type": "complete"}
    return json.dumps(action)


async def _episode(env: Any, index: int, latency_s: float, inline: bool) -> int:
    rng = random.Random(index)
    messages, _ = env.reset(seed=index) if inline else await env.reset(seed=index)
    for step in range(EPISODE_STEPS):
        reply = await _policy(rng, latency_s, step)
        messages, _, terminated, truncated, _ = env.step(reply) if inline else await env.step(reply)
        if terminated or truncated:
            return step + 1
    return EPISODE_STEPS


async def _episodes(first: int, count: int, latency_s: float, workers: int | None) -> tuple[int, float]:
    """``count`` concurrent episodes (resets included, building the envs not); workers None: ChatEnv
    stepped on the loop itself. Returns the steps and the seconds they took."""
    pool = StepPool(workers) if workers else None
    envs = [ChatEnv(**RL) if pool is None else AsyncChatEnv(pool=pool, **RL) for _ in range(count)]
    try:
        started = time.perf_counter()
        steps = await asyncio.gather(*(_episode(env, first + i, latency_s, pool is None) for i, env in enumerate(envs)))
        return sum(steps), time.perf_counter() - started
    finally:
        for env in envs:
            env.close()
        if pool is not None:
            pool.close()


def _shard(args: tuple[int, int, float, int]) -> tuple[int, float]:
    return asyncio.run(_episodes(*args))


def throughput(episodes: int, latency_ms: float) -> dict[str, float]:
    """Steps per second of ``episodes`` concurrent episodes in each configuration."""
    latency = latency_ms / 1000
    out = {}
    for name, workers in (("inline", None), ("pool1", 1), ("pool2", 2), ("pool4", 4)):
        steps, seconds = asyncio.run(_episodes(0, episodes, latency, workers))
        out[name] = steps / seconds
    half = episodes // 2
    with multiprocessing.get_context("spawn").Pool(2) as processes:
        processes.map(_shard, [(0, 1, 0.0, 1)] * 2)  # warm the workers' imports
        shards = processes.map(_shard, [(0, half, latency, 2), (half, episodes - half, latency, 2)])
        out["2 processes x pool2"] = sum(steps for steps, _ in shards) / max(seconds for _, seconds in shards)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--episodes", type=int, default=120)
    parser.add_argument("--latency-ms", type=float, default=20.0)
    args = parser.parse_args()
    result = overhead(args.steps)
    print(f"overhead at RL resolution (108x240): raw env {result['raw_ms']:.3f} ms/step, ChatEnv json "
          f"{result['chat_ms']:.3f} ms/step, ratio {result['ratio']:.2f}x")
    rates = throughput(args.episodes, args.latency_ms)
    base = rates["inline"]
    print(f"throughput, {args.episodes} concurrent episodes, policy latency {args.latency_ms:g} ms:")
    for name, rate in rates.items():
        print(f"  {name:>20}: {rate:8.1f} steps/s ({rate / base:.2f}x inline)")
    print(f"  median of pools: {statistics.median(rates[k] for k in ('pool1', 'pool2', 'pool4')):.1f} steps/s")


if __name__ == "__main__":
    main()

"""Steps per second of local envs against the same envs served by `mobilegym serve` (RemoteEnv), at RL resolution.

    python benchmarks/bench_remote.py [--steps 2000] [--sessions 1 8 32] [--workers N] [--forks 200]

A row kind is one function ``(sessions, actions, context) -> steps/s``: ``local`` steps ``sessions`` envs in
turn in this process (a process steps one env at a time); ``server`` drives as many RemoteEnvs on one server
concurrently, a thread per session. Each row prints its rate and its ratio to the local row with as many sessions.
Add a kind to ROWS to compare another way of running the envs.
"""
from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from typing import Any, Callable

import gymnasium as gym

sys.path.insert(0, os.path.dirname(__file__))
from bench_speed import RL_SCALE, SCREEN, agent_actions, as_dict  # noqa: E402

import mobilegym  # noqa: E402,F401  (registers the env ids)

TASK = "home.OpenApp"
KWARGS: dict[str, Any] = dict(task=TASK, screen_size=SCREEN, render_scale=RL_SCALE, shuffle_launcher=True)


def episode_loop(env: Any, actions: list[int], seed: int) -> None:
    """Step one env through ``actions``, resetting (to seeds of its own) when an episode ends."""
    env.reset(seed=seed)
    for n, index in enumerate(actions):
        *_, terminated, truncated, _ = env.step(as_dict(index))
        if terminated or truncated:
            env.reset(seed=seed + 100_000 * (n + 1))


def drive(envs: list[Any], actions: list[int], concurrent: bool) -> float:
    """Every env through ``actions``: in turn, or each in a thread of its own (an actor per session, as a
    trainer's rollout workers drive them); steps/s over all envs, resets included."""
    started = time.perf_counter()
    if concurrent:
        threads = [threading.Thread(target=episode_loop, args=(env, actions, 1000 + i)) for i, env in enumerate(envs)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    else:
        for i, env in enumerate(envs):
            episode_loop(env, actions, 1000 + i)
    return len(actions) * len(envs) / (time.perf_counter() - started)


def row_local(sessions: int, actions: list[int], context: dict[str, Any]) -> float:
    envs = [gym.make("MobileGym-v0", **KWARGS) for _ in range(sessions)]
    try:
        return drive(envs, actions, concurrent=False)
    finally:
        for env in envs:
            env.close()


def row_server(sessions: int, actions: list[int], context: dict[str, Any]) -> float:
    from mobilegym.remote import RemoteEnv

    envs = [RemoteEnv(context["url"], **KWARGS) for _ in range(sessions)]
    try:
        return drive(envs, actions, concurrent=True)
    finally:
        for env in envs:
            env.close()


ROWS: dict[str, Callable[[int, list[int], dict[str, Any]], float]] = {"local": row_local, "server": row_server}


def fork_costs(count: int) -> None:
    """Milliseconds per ``env.unwrapped.fork(1)`` mid-episode, beside a step and a reset measured in the same run."""
    env = gym.make("MobileGym-v0", **KWARGS, max_steps=10 * count + 10)
    env.reset(seed=0)
    env.step({"type": "swipe", "x": 540, "y": 1800, "x2": 540, "y2": 600})
    unwrapped = env.unwrapped

    def per_call_ms(call: Callable[[], Any]) -> float:
        started = time.perf_counter()
        for _ in range(count):
            call()
        return (time.perf_counter() - started) / count * 1000

    fork_ms = per_call_ms(lambda: unwrapped.fork(1))
    step_ms = per_call_ms(lambda: unwrapped.step({"type": "wait", "seconds": 1}))
    reset_ms = per_call_ms(lambda: unwrapped.reset(seed=0))
    print(f"fork {fork_ms:.3f} ms, wait step {step_ms:.3f} ms, reset {reset_ms:.3f} ms: "
          f"a fork costs {fork_ms / step_ms:.2f} steps, {fork_ms / reset_ms:.2f} resets\n")
    env.close()


def main() -> None:
    from mobilegym.serve.pool import default_workers
    from mobilegym.serve.process import ServerProcess

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000, help="steps per session count (split over sessions)")
    parser.add_argument("--sessions", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--workers", type=int, default=default_workers(), help="server worker processes")
    parser.add_argument("--rows", nargs="+", choices=list(ROWS), default=list(ROWS))
    parser.add_argument("--forks", type=int, default=200, help="forks timed (0: skip the fork row)")
    args = parser.parse_args()
    print(f"task {TASK}, screen {SCREEN[0]}x{SCREEN[1]} at render scale {RL_SCALE:g}, random grid agent, "
          f"{len(os.sched_getaffinity(0))} cores, server workers {args.workers}\n")
    if args.forks:
        fork_costs(args.forks)
    print(f"{'row':10} {'sessions':>8} {'steps/s':>10} {'vs local':>9}")
    with ServerProcess("--workers", str(args.workers), "--max-sessions", str(max(args.sessions) + 1)) as server:
        context = {"url": server.url}
        for sessions in args.sessions:
            actions = agent_actions(max(20, args.steps // sessions), seed=sessions)
            rates: dict[str, float] = {}
            for name in args.rows:
                rates[name] = ROWS[name](sessions, actions, context)
                ratio = f"{rates[name] / rates['local']:.2f}" if "local" in rates else "-"
                print(f"{name:10} {sessions:>8} {rates[name]:>10.0f} {ratio:>9}", flush=True)


if __name__ == "__main__":
    main()

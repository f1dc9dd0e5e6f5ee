"""Steps per second of local envs against the same envs on `mobilegym serve` (RemoteEnv) and on Ray actors
(mobilegym.ray.EnvPool), at RL and full resolution; the cost of a fork and of ChatEnv per step.

    python benchmarks/bench_remote.py [--steps 2000] [--full-steps 300] [--sessions 1 8 32]
        [--resolutions rl full] [--rows local server ray ray-batch] [--workers N] [--ray-actors N]
        [--ray-inline-kb 100] [--forks 200] [--chat-steps 400]

A row kind is one function ``(sessions, actions, context) -> steps/s``: ``local`` steps ``sessions`` envs in
turn in this process (a process steps one env at a time); ``server`` drives as many RemoteEnvs on one server
concurrently, a thread per session; ``ray`` keeps one step of each of ``sessions`` envs in flight on an EnvPool
of ``--ray-actors`` actors (a local Ray instance, one actor per core by default), as an async trainer does; ``ray-batch`` steps them in lockstep (``pool.step``, one Ray call per actor).
Each row prints its rate and its ratio to the local row with as many sessions at that resolution, measured in
the same run. Add a kind to ROWS to compare another way of running the envs.
"""
from __future__ import annotations

import argparse
import math
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
SCALES = {"rl": RL_SCALE, "full": 1.0}  # --resolutions: render scales of the rows


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
    envs = [gym.make("MobileGym-v0", **context["kwargs"]) for _ in range(sessions)]
    try:
        return drive(envs, actions, concurrent=False)
    finally:
        for env in envs:
            env.close()


def row_server(sessions: int, actions: list[int], context: dict[str, Any]) -> float:
    from mobilegym.remote import RemoteEnv

    envs = [RemoteEnv(context["url"], **context["kwargs"]) for _ in range(sessions)]
    try:
        return drive(envs, actions, concurrent=True)
    finally:
        for env in envs:
            env.close()


def row_ray(sessions: int, actions: list[int], context: dict[str, Any]) -> float:
    """``sessions`` envs on an EnvPool, one step each in flight: whichever comes back first is stepped (or
    reset, to seeds of its own, when its episode ended) again; steps/s over all envs, resets included."""
    from mobilegym.ray import EnvPool

    actors = min(sessions, context["ray_actors"])
    with EnvPool(sessions, envs_per_actor=math.ceil(sessions / actors), **context["kwargs"]) as pool:
        started = time.perf_counter()
        for future in pool.reset_async(seed=[1000 + i for i in range(sessions)]):
            future.result()
        done_steps = [0] * sessions
        flying = {}
        for env_id in pool.env_ids:
            flying[env_id] = pool.step_async([as_dict(actions[0])], [env_id])[0]
        while flying:
            ready, _ = pool.wait(list(flying.values()))
            for future in ready:
                env_id = future.env_id
                del flying[env_id]
                if future.op == "step":
                    *_, terminated, truncated, _ = future.result()
                    done_steps[env_id] += 1
                    n = done_steps[env_id]
                    if n == len(actions):
                        continue
                    if terminated or truncated:
                        flying[env_id] = pool.reset_async([env_id], seed=1000 + env_id + 100_000 * n)[0]
                        continue
                else:
                    future.result()
                flying[env_id] = pool.step_async([as_dict(actions[done_steps[env_id]])], [env_id])[0]
        return len(actions) * sessions / (time.perf_counter() - started)


def row_ray_batch(sessions: int, actions: list[int], context: dict[str, Any]) -> float:
    """``sessions`` envs on an EnvPool stepped in lockstep with ``pool.step`` (one Ray call per actor per
    step of all its envs), the envs whose episode ended reset in one ``pool.reset`` before the next step."""
    from mobilegym.ray import EnvPool

    actors = min(sessions, context["ray_actors"])
    with EnvPool(sessions, envs_per_actor=math.ceil(sessions / actors), **context["kwargs"]) as pool:
        started = time.perf_counter()
        pool.reset(seed=[1000 + i for i in range(sessions)])
        for n, index in enumerate(actions):
            results = pool.step([as_dict(index)] * sessions)
            ended = [env_id for env_id, r in zip(pool.env_ids, results) if r[2] or r[3]]
            if ended and n + 1 < len(actions):
                pool.reset(ended, seed=[1000 + e + 100_000 * (n + 1) for e in ended])
        return len(actions) * sessions / (time.perf_counter() - started)


ROWS: dict[str, Callable[[int, list[int], dict[str, Any]], float]] = {"local": row_local, "server": row_server,
                                                                       "ray": row_ray, "ray-batch": row_ray_batch}


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


def chat_overhead(steps: int) -> None:
    """ms per ChatEnv.step (a json reply read, the phone stepped, the next prompt built with its PNG
    screenshot) against env.step on the same actions, at RL resolution (bench_chat's measurement)."""
    from bench_chat import overhead

    result = overhead(steps)
    print(f"ChatEnv.step {result['chat_ms']:.3f} ms, env.step {result['raw_ms']:.3f} ms: "
          f"ChatEnv overhead {result['chat_ms'] - result['raw_ms']:.3f} ms per step ({result['ratio']:.2f}x)\n")


def main() -> None:
    from mobilegym.serve.pool import default_workers
    from mobilegym.serve.process import ServerProcess

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000, help="steps per session count at RL resolution "
                                                               "(split over sessions)")
    parser.add_argument("--full-steps", type=int, default=300, help="steps per session count at full resolution")
    parser.add_argument("--resolutions", nargs="+", choices=list(SCALES), default=list(SCALES))
    parser.add_argument("--sessions", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--workers", type=int, default=default_workers(), help="server worker processes")
    parser.add_argument("--rows", nargs="+", choices=list(ROWS), default=list(ROWS))
    parser.add_argument("--forks", type=int, default=200, help="forks timed (0: skip the fork row)")
    parser.add_argument("--ray-actors", type=int, default=default_workers(), help="actors of the Ray rows")
    parser.add_argument("--ray-inline-kb", type=int, default=100,
                        help="results up to this size travel inline in Ray's replies rather than through its "
                             "object store (Ray's max_direct_call_object_size; Ray's default is 100)")
    parser.add_argument("--chat-steps", type=int, default=400, help="ChatEnv steps timed (0: skip the ChatEnv row)")
    args = parser.parse_args()
    print(f"task {TASK}, screen {SCREEN[0]}x{SCREEN[1]}, random grid agent, {len(os.sched_getaffinity(0))} cores, "
          f"server workers {args.workers}, Ray actors {args.ray_actors}, Ray inline results up to "
          f"{args.ray_inline_kb} KB\n")
    if args.forks:
        fork_costs(args.forks)
    if args.chat_steps:
        chat_overhead(args.chat_steps)
    if "ray" in args.rows:
        import ray

        ray.init(num_cpus=args.ray_actors, include_dashboard=False, log_to_driver=False, configure_logging=False,
                 _system_config={"max_direct_call_object_size": args.ray_inline_kb * 1024})
    print(f"{'row':10} {'resolution':>10} {'sessions':>8} {'steps/s':>10} {'vs local':>9}")
    with ServerProcess("--workers", str(args.workers), "--max-sessions", str(max(args.sessions) + 1)) as server:
        for resolution in args.resolutions:
            scale = SCALES[resolution]
            shown = f"{round(SCREEN[0] * scale)}x{round(SCREEN[1] * scale)}"
            context = {"url": server.url, "kwargs": {**KWARGS, "render_scale": scale}, "ray_actors": args.ray_actors}
            total = args.steps if resolution == "rl" else args.full_steps
            for sessions in args.sessions:
                actions = agent_actions(max(20, total // sessions), seed=sessions)
                rates: dict[str, float] = {}
                for name in args.rows:
                    rates[name] = ROWS[name](sessions, actions, context)
                    ratio = f"{rates[name] / rates['local']:.2f}" if "local" in rates else "-"
                    print(f"{name:10} {shown:>10} {sessions:>8} {rates[name]:>10.0f} {ratio:>9}", flush=True)
    if "ray" in args.rows:
        ray.shutdown()


if __name__ == "__main__":
    main()

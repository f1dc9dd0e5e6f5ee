"""Steps per second and reset time: raw env, SB3-ready env, async workers — each beside a baseline.

    python benchmarks/bench_speed.py [--steps 2000] [--task home.OpenApp] [--no-pin] [--single] [--miniwob-steps 200]

Every row runs the same seeded random agent (taps on a 4 x 8 grid, back, home: what an RL agent
does) and is printed beside a baseline measured in the same run:

- a bare numpy loop copying a frame of the same size (the floor for handing out pixels),
- the simulated phone without the environment (tap + screenshot + accessibility XML),
- the raw env at the same resolution (for the SB3-ready wrappers),
- one async worker, and two separate processes that never wait for each other (for two async
  workers: a vector env steps its workers in lock-step, so it cannot beat that ceiling). Both
  gymnasium's AsyncVectorEnv (one env per worker) and MobileGym's BatchedAsyncVectorEnv
  (ENVS_PER_WORKER envs per worker, which evens out the lock-step wait) are measured, and the
  same pair behind stable-baselines3's VecEnv interface (SubprocVecEnv, BatchedSubprocVecEnv),
- MiniWoB++ click-test-2 under random actions (issue 17's target: MobileGym at least 100x as fast
  at RL resolution and 25x at 1080x2400; see miniwob_baseline.py). It is measured first, unpinned
  (chromium is several processes); ``--miniwob-steps 0`` skips it. At RL resolution a second row
  runs over a pool of POOL worlds (``world_seeds=range(POOL)``, how an RL run trains) instead of a
  new world every episode.

Every single-env row (and MiniWoB++'s) is timed after WARMUP untimed steps on other seeds, so it
shows the steady state of a long run (process-wide caches such as fonts warm; the timed episodes
still meet new worlds).

Every timed loop resets to seeds of its own block (``fresh_seed``), so each episode meets a world no
earlier row generated. Single-env rows are pinned to one CPU core (``--no-pin`` to skip). "steps/s"
counts env.step time only, "incl. resets" counts the resets between episodes too (the SB3-ready env ends an episode as
soon as the goal holds); reset ms is the mean of ``env.reset(seed=i)``. Async rows include autoresets;
one and two workers are timed in turns, three runs each, and keep their best run. ``--single`` stops
after the single-env rows (a quick check of the hot path).
"""
from __future__ import annotations

import argparse
import itertools
import multiprocessing
import os
import time
from typing import Any, Callable

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env import SubprocVecEnv

import mobilegym  # noqa: F401  (registers MobileGym-v0)
from mobilegym.sb3_vec import BatchedSubprocVecEnv
from mobilegym.sim.phone import Phone
from mobilegym.vector import make_batched_vec
from mobilegym.wrappers import SB3_ENV_ID, make_sb3_env

SCREEN = (1080, 2400)
ENVS_PER_WORKER = 8
GRID = (4, 8)
RL_SCALE = 0.1
WARMUP = 200  # untimed steps before a single-env row (and MiniWoB++'s): steady state, as in a training run
WARMUP_SEEDS = 1_000_000_000  # reset seeds of the warm-up episodes (far from the timed ones: other worlds)
SEED_BLOCK = 100_000  # each timed loop resets to seeds of a block of its own (see fresh_seed)
_seed_blocks = itertools.count(1)
POOL = 64  # worlds of the pooled-worlds row (world_seeds=range(POOL): all stay in the process's world cache)


def agent_actions(count: int, seed: int = 0) -> list[int]:
    """Discrete actions of a random agent: grid cells, then back and home."""
    return np.random.default_rng(seed).integers(GRID[0] * GRID[1] + 2, size=count).tolist()


def as_dict(index: int) -> dict[str, Any]:
    """A grid action as a raw MobileGym action (device pixels), like GridActions does."""
    cols, rows = GRID
    if index == cols * rows:
        return {"type": "key", "key": "back"}
    if index == cols * rows + 1:
        return {"type": "key", "key": "home"}
    col, row = index % cols, index // cols
    return {"type": "tap", "x": int((col + 0.5) * SCREEN[0] / cols), "y": int((row + 0.5) * SCREEN[1] / rows)}


def fresh_seed() -> int:
    """The first reset seed of a block no earlier timed loop of this process used: its episodes meet worlds no
    earlier row generated (the process keeps recent worlds in a cache, which would flatter a later row)."""
    return next(_seed_blocks) * SEED_BLOCK


def timed_steps(env: gym.Env, actions: list[Any], convert: Callable[[int], Any],
                warmup: int = 0) -> tuple[float, float]:
    """(steps/s counting env.step only, steps/s counting the resets too) over the actions, after ``warmup``
    untimed steps on episodes of other seeds (WARMUP_SEEDS: process-wide caches such as fonts warm up, the
    timed episodes still meet their own worlds, see :func:`fresh_seed`)."""
    if warmup:
        env.reset(seed=WARMUP_SEEDS)
        for n, index in enumerate((actions * (warmup // len(actions) + 1))[:warmup]):
            *_, terminated, truncated, _ = env.step(convert(index))
            if terminated or truncated:
                env.reset(seed=WARMUP_SEEDS + n + 1)
    first = fresh_seed()
    env.reset(seed=first)
    stepping, resetting, episode = 0.0, 0.0, 0
    for index in actions:
        action = convert(index)
        started = time.perf_counter()
        _, _, terminated, truncated, _ = env.step(action)
        stepping += time.perf_counter() - started
        if terminated or truncated:
            episode += 1
            started = time.perf_counter()
            env.reset(seed=first + episode)
            resetting += time.perf_counter() - started
    return len(actions) / stepping, len(actions) / (stepping + resetting)


def reset_ms(env: gym.Env, count: int = 100) -> float:
    """Mean ms of ``env.reset`` into worlds not met before (seeds of a fresh block)."""
    first = fresh_seed()
    env.reset(seed=first)
    started = time.perf_counter()
    for seed in range(first + 1, first + 1 + count):
        env.reset(seed=seed)
    return (time.perf_counter() - started) / count * 1000


def reset_ms_phone(scale: float, count: int = 100) -> float:
    """Baseline: the phone alone reset into worlds not met before, with a fresh screenshot and tree."""
    phone = Phone(*SCREEN, render_scale=scale, shuffle_launcher=True)
    first = fresh_seed()
    started = time.perf_counter()
    for seed in range(first, first + count):
        phone.reset_state(seed)
        phone.screenshot()
        phone.a11y_xml()
    return (time.perf_counter() - started) / count * 1000


def copy_loop(shape: tuple[int, ...], steps: int) -> float:
    """Baseline: a bare loop that hands out a fresh copy of a frame every step."""
    frame = np.zeros(shape, np.uint8)
    started = time.perf_counter()
    for _ in range(steps):
        frame.copy()
    return steps / (time.perf_counter() - started)


def phone_loop(scale: float, actions: list[int]) -> float:
    """Baseline: the simulated phone alone (input, screenshot, accessibility XML), no env, no judge."""
    phone = Phone(*SCREEN, render_scale=scale, shuffle_launcher=True)
    phone.reset_state(fresh_seed())
    started = time.perf_counter()
    for index in actions:
        action = as_dict(index)
        if action["type"] == "tap":
            phone.tap(action["x"], action["y"])
        else:
            phone.key(action["key"])
        phone.screenshot()
        phone.a11y_xml()
    return len(actions) / (time.perf_counter() - started)


def gymnasium_async(workers: int, kwargs: dict[str, Any]) -> gym.vector.VectorEnv:
    """gym.make_vec(async): one env per worker process, default shared memory."""
    return gym.make_vec(SB3_ENV_ID, num_envs=workers, vectorization_mode="async", **kwargs)


def batched_async(workers: int, kwargs: dict[str, Any]) -> gym.vector.VectorEnv:
    """BatchedAsyncVectorEnv: ENVS_PER_WORKER envs per worker process."""
    return make_batched_vec(SB3_ENV_ID, workers * ENVS_PER_WORKER, envs_per_worker=ENVS_PER_WORKER, **kwargs)


def sb3_subproc(workers: int, kwargs: dict[str, Any]) -> Any:
    """stable-baselines3's SubprocVecEnv: one env per worker process."""
    return SubprocVecEnv([lambda: make_sb3_env(**kwargs)] * workers)


def sb3_batched(workers: int, kwargs: dict[str, Any]) -> Any:
    """BatchedSubprocVecEnv (SB3's VecEnv interface): ENVS_PER_WORKER envs per worker process."""
    return BatchedSubprocVecEnv([lambda: make_sb3_env(**kwargs)] * (workers * ENVS_PER_WORKER), ENVS_PER_WORKER)


def vector_steps(envs: Any, rng: np.random.Generator, rounds: int) -> float:
    """Env steps/s of ``rounds`` random steps of a Gymnasium or SB3 vector env."""
    actions = getattr(envs, "single_action_space", envs.action_space).n
    started = time.perf_counter()
    for _ in range(rounds):
        envs.step(rng.integers(actions, size=envs.num_envs))
    return rounds * envs.num_envs / (time.perf_counter() - started)


def vector_rates(make: Callable[[int, dict[str, Any]], Any], steps: int, kwargs: dict[str, Any],
                 repeats: int = 3) -> tuple[float, float]:
    """Env steps/s of a Gymnasium or SB3 vector env with one and with two workers, autoresets
    included. The two are timed in turns and each keeps its best run, so both see the same load
    from the rest of the machine (which only ever slows a run down)."""
    envs = [make(workers, kwargs) for workers in (1, 2)]
    rng = np.random.default_rng(0)
    for vec in envs:  # warm-up: workers imported and rendering
        vec.reset()
        vector_steps(vec, rng, 20)
    best = [0.0, 0.0]
    for _ in range(repeats):
        for index, vec in enumerate(envs):
            best[index] = max(best[index], vector_steps(vec, rng, max(1, steps // vec.num_envs)))
    for vec in envs:
        vec.close()
    return best[0], best[1]


def _solo(args: tuple[int, dict[str, Any]]) -> tuple[float, float]:
    """One process's env loop: the (start, end) of its timed window on the system-wide clock."""
    steps, kwargs = args
    env = make_sb3_env(**kwargs)
    actions = agent_actions(steps, seed=os.getpid())
    started = time.perf_counter()
    timed_steps(env, actions, lambda i: i % env.action_space.n)
    return started, time.perf_counter()


def independent_rate(processes: int, steps: int, kwargs: dict[str, Any], repeats: int = 3) -> float:
    """Baseline: total steps/s of separate processes each running its own env (no lock-step),
    over the span from the first start to the last end; best of ``repeats`` runs."""
    best = 0.0
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        for _ in range(repeats):
            windows = pool.map(_solo, [(steps, kwargs)] * processes)
            span = max(end for _, end in windows) - min(start for start, _ in windows)
            best = max(best, processes * steps / span)
    return best


def row(name: str, value: float, unit: str, baseline_name: str = "", baseline: float | None = None) -> None:
    text = f"{name:<44} {value:>9.1f} {unit:<8}"
    if baseline is not None:
        text += f" | {baseline_name:<34} {baseline:>9.1f}  ratio {value / baseline:5.2f}"
    print(text, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--task", default="home.OpenApp")
    parser.add_argument("--no-pin", action="store_true", help="do not pin single-env rows to one core")
    parser.add_argument("--single", action="store_true", help="only the single-env rows (no async workers)")
    parser.add_argument("--miniwob-steps", type=int, default=200, help="MiniWoB++ random steps (0: no MiniWoB row)")
    args = parser.parse_args()
    cores = os.sched_getaffinity(0)
    miniwob = None
    if args.miniwob_steps:  # before pinning: chromium's processes would inherit the pin
        from miniwob_baseline import miniwob_steps_per_second  # lazy: it imports this module's helpers
        miniwob = miniwob_steps_per_second(args.miniwob_steps)
    if not args.no_pin:
        os.sched_setaffinity(0, {min(cores)})
    actions = agent_actions(args.steps)
    print(f"task {args.task}, {args.steps} steps of a random grid agent, "
          f"{'pinned to 1 core' if not args.no_pin else f'{len(cores)} cores'}\n")

    step_rates, raw_rates, raw_reset = {}, {}, {}
    for label, scale in (("1080x2400", 1.0), (f"RL {RL_SCALE:g}", RL_SCALE)):
        env = gym.make("MobileGym-v0", task=args.task, render_scale=scale, shuffle_launcher=True)
        shape = env.observation_space["screenshot"].shape
        rate, with_resets = timed_steps(env, actions, as_dict, WARMUP)
        step_rates[scale], raw_rates[scale] = rate, with_resets
        row(f"raw env {label} {shape[1]}x{shape[0]} (+a11y) steps/s", rate, "steps/s",
            "numpy frame-copy loop", copy_loop(shape, args.steps))
        row(f"raw env {label} steps/s", rate, "steps/s", "phone alone (no env, no judge)",
            phone_loop(scale, actions))
        row(f"raw env {label} steps/s incl. resets", with_resets, "steps/s")
        raw_reset[scale] = reset_ms(env)
        row(f"raw env {label} reset", raw_reset[scale], "ms", "phone alone: reset_state + frame",
            reset_ms_phone(scale))
        env.close()

    # an RL run over a fixed pool of worlds (its warm-up visits them all, as a training run soon has)
    env = gym.make("MobileGym-v0", task=args.task, render_scale=RL_SCALE, shuffle_launcher=True,
                   world_seeds=range(POOL))
    pooled, pooled_resets = timed_steps(env, actions, as_dict, 20 * POOL)
    env.close()
    row(f"raw env RL {RL_SCALE:g}, {POOL}-world pool steps/s", pooled, "steps/s", f"raw env RL {RL_SCALE:g}",
        step_rates[RL_SCALE])

    if miniwob:
        from miniwob_baseline import TARGETS
        for label, scale, target in TARGETS:
            row(f"raw env {label} (+a11y) steps/s", step_rates[scale], "steps/s",
                f"MiniWoB++ click-test-2, target {target:g}x", miniwob["steps_per_s"])
            row(f"raw env {label} steps/s incl. resets", raw_rates[scale], "steps/s",
                "MiniWoB++ click-test-2 incl. resets", miniwob["steps_per_s_incl_resets"])
        row(f"raw env RL {RL_SCALE:g}, {POOL}-world pool steps/s", pooled, "steps/s",
            "MiniWoB++ click-test-2, target 100x", miniwob["steps_per_s"])
        row(f"raw env RL {RL_SCALE:g}, {POOL}-world pool incl. resets", pooled_resets, "steps/s",
            "MiniWoB++ click-test-2 incl. resets", miniwob["steps_per_s_incl_resets"])

    sb3 = dict(task=args.task, shuffle_launcher=True, render_scale=RL_SCALE)
    in_process = 0.0
    for obs, action in (("multi", "grid"), ("a11y", "element"), ("image", "grid")):
        env = make_sb3_env(obs=obs, action=action, **sb3)
        _, with_resets = timed_steps(env, actions, lambda i: i % env.action_space.n)
        in_process = in_process or with_resets
        row(f"SB3 env obs={obs} action={action} incl. resets", with_resets, "steps/s",
            f"raw env RL {RL_SCALE:g} incl. resets", raw_rates[RL_SCALE])
        if obs == "multi":
            row(f"SB3 env obs={obs} action={action} reset", reset_ms(env), "ms", f"raw env RL {RL_SCALE:g} reset",
                raw_reset[RL_SCALE])
        env.close()
    if args.single:
        return

    if not args.no_pin:
        os.sched_setaffinity(0, cores)
    kwargs = dict(obs="multi", action="grid", **sb3)
    independent = independent_rate(2, args.steps, kwargs)
    for name, make in (("async (make_vec, 1 env/worker)", gymnasium_async),
                       (f"batched async ({ENVS_PER_WORKER} envs/worker)", batched_async),
                       ("SB3 SubprocVecEnv (1 env/worker)", sb3_subproc),
                       (f"SB3 BatchedSubprocVecEnv ({ENVS_PER_WORKER}/worker)", sb3_batched)):
        one, two = vector_rates(make, args.steps, kwargs)
        row(f"{name} x1 worker", one, "steps/s", "same SB3 env in-process", in_process)
        row(f"{name} x2 workers", two, "steps/s", "x1 worker", one)
        row(f"{name} x2 workers", two, "steps/s", "2 separate processes (no lock-step)", independent)


if __name__ == "__main__":
    main()

"""What generated worlds cost: first reset (generation), cached reset and stepping, beside the
canonical world measured in the same run.

    python benchmarks/bench_worlds.py [--worlds 40] [--steps 2000] [--task home.OpenApp]

Rows: the generation of one world and of each app's data; ``env.reset`` on the canonical world (the
baseline: what a reset cost before worlds), on a world seen for the first time (generation included),
on cached worlds taken in turn (each reset loads another world's data) and on the same cached world
again (unchanged apps are kept, as on the canonical world); random steps per second at RL resolution.
"""
from __future__ import annotations

import argparse
import random
import time

import gymnasium as gym

import mobilegym  # noqa: F401
from mobilegym.sim.app import installed_apps, load_app
from mobilegym.sim.worldgen import World, world_image

RL = {"render_scale": 0.1, "obs_parts": ("screenshot", "a11y")}


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def generation(worlds: int) -> tuple[float, dict[str, float]]:
    """Mean seconds to generate a whole world (its cast included), and per app (its data made and kept as the
    marshal bytes a phone loads; an app that reads another's data pays for that one first)."""
    per_app = {app_id: 0.0 for app_id in sorted(installed_apps())}
    started = time.perf_counter()
    for seed in range(worlds):
        world = World(10_000 + seed, "en", load_app)
        for app_id in per_app:
            t = time.perf_counter()
            world.app_blob(app_id)
            per_app[app_id] += time.perf_counter() - t
    total = (time.perf_counter() - started) / worlds
    return total, {a: s / worlds for a, s in per_app.items()}


def resets(env: gym.Env, seeds: list[int], world_seeds: list[int | None]) -> float:
    """Mean seconds per env.reset over the given (seed, world seed) pairs."""
    started = time.perf_counter()
    for seed, world_seed in zip(seeds, world_seeds):
        env.reset(seed=seed, options={} if world_seed is None else {"world_seed": world_seed})
    return (time.perf_counter() - started) / len(seeds)


def steps_per_second(env: gym.Env, steps: int, world_seed: int | None) -> float:
    """Random taps/back/home on the env; resets (to the same world) count too."""
    rng = random.Random(0)
    width, height = env.unwrapped.device.screen_size
    options = {} if world_seed is None else {"world_seed": world_seed}
    env.reset(seed=0, options=options)
    started = time.perf_counter()
    for _ in range(steps):
        roll = rng.random()
        if roll < 0.85:
            action = {"type": "tap", "x": rng.randrange(width), "y": rng.randrange(height)}
        else:
            action = {"type": "key", "key": "back" if roll < 0.95 else "home"}
        _, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            env.reset(seed=0, options=options)
    return steps / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worlds", type=int, default=40, help="distinct worlds generated (default 40)")
    parser.add_argument("--steps", type=int, default=2000, help="random steps per stepping row (default 2000)")
    parser.add_argument("--task", default="home.OpenApp")
    args = parser.parse_args()

    total, per_app = generation(args.worlds)
    print(f"world generation, mean of {args.worlds} worlds: {_ms(total)}")
    for app_id, seconds in per_app.items():
        print(f"  {app_id:<13} {_ms(seconds)}")

    canonical = gym.make("MobileGym-v0", task=args.task, world="canonical", **RL)
    generated = gym.make("MobileGym-v0", task=args.task, **RL)
    seeds = list(range(args.worlds))
    fresh = [20_000 + s for s in seeds]
    resets(canonical, seeds[:5], [None] * 5)  # warm both (imports, fonts)
    resets(generated, seeds[:5], fresh[:5])
    world_image.cache_clear()
    base = resets(canonical, seeds, [None] * len(seeds))
    first = resets(generated, seeds, fresh)
    cached = resets(generated, seeds, fresh)
    again = resets(generated, seeds, [fresh[0]] * len(seeds))
    print(f"\n{'row':<44} {'value':>10} {'canonical (same run)':>22} {'ratio':>6}")
    print(f"{'env.reset, canonical world':<44} {_ms(base):>10}")
    print(f"{'env.reset, a world seen for the first time':<44} {_ms(first):>10} {_ms(base):>22} {first / base:>6.2f}")
    print(f"{'env.reset, a cached world (40 in turn)':<44} {_ms(cached):>10} {_ms(base):>22} {cached / base:>6.2f}")
    print(f"{'env.reset, the same cached world again':<44} {_ms(again):>10} {_ms(base):>22} {again / base:>6.2f}")
    base_sps = steps_per_second(canonical, args.steps, None)
    gen_sps = steps_per_second(generated, args.steps, 12345)
    print(f"{'steps/s at RL resolution (108x240) + a11y':<44} {gen_sps:>10.0f} {base_sps:>22.0f} {gen_sps / base_sps:>6.2f}")


if __name__ == "__main__":
    main()

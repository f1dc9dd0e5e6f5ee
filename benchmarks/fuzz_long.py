"""A long fuzz run: N random actions (default 100,000) over every app of the simulated phone.

    python benchmarks/fuzz_long.py [--steps 100000] [--seed 0] [--scale 0.25] [--episode 200]

The agent is :class:`tests.fuzzer.Fuzzer` (taps mostly on clickable views, swipes, keys, open_app over
every app, exotic Unicode typing, malformed actions; the env runs with invalid_action="noop"). Every step's
accessibility XML is parsed. Prints the exceptions (count per type, the first traceback of each), memory
every 10,000 steps, the slowest steps, and whether memory met the target: RSS growth under 20 MiB per
100,000 steps once the bounded caches are warm (measured from step 10,000 on; the growth from the start,
which includes filling those caches, is printed too). Exit status 1 if any step raised, an observation
was malformed or the memory target was missed.

Memory columns: RSS (resident set: what the target counts; every cached font face maps its font file,
so RSS counts the same page-cache pages once per face) and anonymous memory (heap and Python objects:
what the process itself allocated).
"""
from __future__ import annotations

import argparse
import collections
import os
import sys
import time
import traceback
from pathlib import Path
import xml.etree.ElementTree as ET

import gymnasium as gym

import mobilegym  # noqa: F401  (registers MobileGym-v0)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the fuzzer lives with the tests
from tests.fuzzer import Fuzzer  # noqa: E402

REPORT_EVERY = 10_000
TARGET_MB = 20.0  # RSS growth allowed per 100,000 steps, after the first REPORT_EVERY steps
SLOW_MS = (100, 500, 1000)


def memory_mb() -> dict[str, float]:
    """The process's resident and anonymous memory now (not their peaks), in MiB."""
    wanted = {"Rss": "rss", "Anonymous": "anon"}
    out: dict[str, float] = {}
    with open(f"/proc/{os.getpid()}/smaps_rollup") as rollup:
        for line in rollup:
            name, _, rest = line.partition(":")
            if name in wanted:
                out[wanted[name]] = int(rest.split()[0]) / 1024
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--scale", type=float, default=0.25, help="screenshot render scale (default 0.25)")
    parser.add_argument("--episode", type=int, default=200, help="steps per episode (default 200)")
    parser.add_argument("--task", default="home.OpenApp")
    args = parser.parse_args()

    env = gym.make("MobileGym-v0", task=args.task, obs_parts=("screenshot", "a11y"), render_scale=args.scale,
                   invalid_action="noop", max_steps=args.episode)
    phone = env.unwrapped.device
    fuzzer = Fuzzer(args.seed, sorted(phone.apps), phone.screen_size)
    errors: collections.Counter[str] = collections.Counter()
    first: dict[str, str] = {}
    slowest: list[tuple[float, int, str]] = []  # env.step only (resets and XML parsing aside)
    slow = dict.fromkeys(SLOW_MS, 0)
    routes: set[str] = set()
    episode = 0
    obs, _ = env.reset(seed=args.seed)
    start = memory_mb()
    marks: dict[int, dict[str, float]] = {0: start}
    print(f"{'steps':>8} {'RSS MiB':>8} {'growth':>8} {'anon MiB':>8} {'growth':>8} {'steps/s':>8} "
          f"{'exceptions':>10}", flush=True)
    window = time.perf_counter()
    for step in range(1, args.steps + 1):
        action = fuzzer.action(obs["a11y"])
        started = time.perf_counter()
        try:
            obs, _, terminated, truncated, _ = env.step(action)
            elapsed = (time.perf_counter() - started) * 1000
            ET.fromstring(obs["a11y"].encode("utf-8"))
            routes.add(f"{phone.current_app()} {phone.current_route().partition('?')[0]}")
            if terminated or truncated:
                episode += 1
                obs, _ = env.reset(seed=args.seed + episode)
        except Exception as exc:  # counted and reported: the point of the run
            name = type(exc).__name__
            errors[name] += 1
            first.setdefault(name, f"step {step}, action {action!r:.300}\n{traceback.format_exc()}")
            episode += 1
            obs, _ = env.reset(seed=args.seed + episode)
            elapsed = 0.0
        for limit in SLOW_MS:
            slow[limit] += elapsed > limit
        if len(slowest) < 5 or elapsed > slowest[-1][0]:
            slowest = sorted([*slowest, (elapsed, step, repr(action)[:120])], reverse=True)[:5]
        if step % REPORT_EVERY == 0 or step == args.steps:
            rate = (step - 1) % REPORT_EVERY + 1
            now = time.perf_counter()
            marks[step] = mem = memory_mb()
            print(f"{step:8d} {mem['rss']:8.1f} {mem['rss'] - start['rss']:+8.1f} {mem['anon']:8.1f} "
                  f"{mem['anon'] - start['anon']:+8.1f} {rate / (now - window):8.1f} {sum(errors.values()):10d}",
                  flush=True)
            window = now
    env.close()
    print("\nslowest steps:")
    for ms, step, action in slowest:
        print(f"  {ms:8.1f} ms  step {step}: {action}")
    print("  " + ", ".join(f"{count} over {limit} ms" for limit, count in slow.items()))
    print(f"\nscreens visited: {len(routes)}")
    met = memory_verdict(marks, args.steps)
    print(f"\nexceptions: {sum(errors.values())}")
    for name, count in errors.most_common():
        print(f"  {name}: {count}\n{first[name]}")
    return 1 if errors or met is False else 0


def memory_verdict(marks: dict[int, dict[str, float]], steps: int) -> bool | None:
    """Print the memory growth and whether it met the target (None: too short a run to say)."""
    end = marks[steps]
    for key, label in (("rss", "RSS"), ("anon", "anonymous memory")):
        print(f"{label} growth: {end[key] - marks[0][key]:+.1f} MiB over {steps:,} steps", end="")
        if steps > REPORT_EVERY:
            print(f", {end[key] - marks[REPORT_EVERY][key]:+.1f} MiB after step {REPORT_EVERY:,}", end="")
        print()
    if steps < 2 * REPORT_EVERY:
        print(f"target (RSS growth < {TARGET_MB:g} MiB per 100,000 steps after step {REPORT_EVERY:,}): "
              f"not measured (run at least {2 * REPORT_EVERY:,} steps)")
        return None
    per_100k = (end["rss"] - marks[REPORT_EVERY]["rss"]) * 100_000 / (steps - REPORT_EVERY)
    met = per_100k < TARGET_MB
    print(f"target (RSS growth < {TARGET_MB:g} MiB per 100,000 steps after step {REPORT_EVERY:,}): "
          f"{'met' if met else 'NOT met'} ({per_100k:+.1f} MiB per 100,000 steps)")
    return met


if __name__ == "__main__":
    raise SystemExit(main())

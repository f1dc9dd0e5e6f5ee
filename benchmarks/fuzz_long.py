"""A long fuzz run: N random actions (default 100,000) over every app of the simulated phone.

    python benchmarks/fuzz_long.py [--steps 100000] [--seed 0] [--scale 0.25] [--episode 200]

The agent is :class:`mobilegym.fuzz.Fuzzer` (taps mostly on clickable views, swipes, keys, open_app over
every app, exotic Unicode typing, malformed actions; the env runs with invalid_action="noop"). Every step's
accessibility XML is parsed. Prints the exceptions (count per type, the first traceback of each), the
resident memory every 10,000 steps, and the slowest steps. Exit status 1 if any step raised or an
observation was malformed.
"""
from __future__ import annotations

import argparse
import collections
import os
import time
import traceback
import xml.etree.ElementTree as ET

import gymnasium as gym

import mobilegym  # noqa: F401  (registers MobileGym-v0)
from mobilegym.fuzz import Fuzzer

REPORT_EVERY = 10_000


def rss_mb() -> float:
    """The process's resident memory now (not its peak), in MiB."""
    with open(f"/proc/{os.getpid()}/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


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
    routes: set[str] = set()
    episode = 0
    obs, _ = env.reset(seed=args.seed)
    start_rss = rss_mb()
    print(f"{'steps':>8} {'RSS MiB':>8} {'growth':>8} {'steps/s':>8} {'exceptions':>10}", flush=True)
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
        if len(slowest) < 5 or elapsed > slowest[-1][0]:
            slowest = sorted([*slowest, (elapsed, step, repr(action)[:120])], reverse=True)[:5]
        if step % REPORT_EVERY == 0 or step == args.steps:
            rate = (step - 1) % REPORT_EVERY + 1
            now = time.perf_counter()
            print(f"{step:8d} {rss_mb():8.1f} {rss_mb() - start_rss:+8.1f} {rate / (now - window):8.1f} "
                  f"{sum(errors.values()):10d}", flush=True)
            window = now
    env.close()
    print("\nslowest steps:")
    for ms, step, action in slowest:
        print(f"  {ms:8.1f} ms  step {step}: {action}")
    print(f"\nscreens visited: {len(routes)}")
    print(f"exceptions: {sum(errors.values())}")
    for name, count in errors.most_common():
        print(f"  {name}: {count}\n{first[name]}")
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Digests of what the phone shows and judges: one SHA-256 each for screenshots, accessibility trees, rewards and
end states of seeded random play over every task (RL resolution 108x240 and full 1080x2400, English and Chinese), and one for every
app's generated world data. Run it before and after a refactor: equal digests mean identical behaviour.

    python scripts/digests.py [--seeds N] [--steps N]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random

import gymnasium as gym
import numpy as np

import mobilegym  # noqa: F401  (registers MobileGym-v0)
from mobilegym.judge import copy_state, default_registry


def _update(h: "hashlib._Hash", value: object) -> None:
    if isinstance(value, np.ndarray):
        h.update(value.tobytes())
    else:
        h.update(json.dumps(value, sort_keys=True, ensure_ascii=False, default=str).encode())


def play_digests(seeds: int, steps: int) -> dict[str, str]:
    """Digests of seeded random play: every task, every seed below ``seeds``, two languages, two resolutions."""
    tasks = sorted(default_registry().refs)
    hashes = {k: hashlib.sha256() for k in ("screenshots", "trees", "rewards", "end states")}
    for language in ("en", "zh"):
        for scale in (0.1, 1.0):
            env = gym.make("MobileGym-v0", task=tasks, language=language, render_scale=scale,
                           obs_parts=("screenshot", "a11y"))
            space = env.action_space
            for i, task in enumerate(tasks):
                for seed in range(seeds):
                    obs, _ = env.reset(seed=seed, options={"task": task})
                    space.seed(seed * 7919 + i)
                    for _ in range(steps):
                        obs, reward, terminated, truncated, _ = env.step(space.sample())
                        _update(hashes["screenshots"], obs["screenshot"])
                        _update(hashes["trees"], obs["a11y"])
                        _update(hashes["rewards"], [float(reward), terminated, truncated])
                        if terminated or truncated:
                            break
                    _update(hashes["end states"], copy_state(env.unwrapped.device))
            env.close()
    return {k: h.hexdigest()[:16] for k, h in hashes.items()}


def world_digest(seeds: int) -> str:
    """One digest of every app's generated data (the phone's whole state after a reset) for ``seeds`` seeds in two
    languages."""
    from mobilegym.sim.phone import Phone

    h = hashlib.sha256()
    for language in ("en", "zh"):
        phone = Phone(language=language)
        for seed in range(seeds):
            phone.reset_state(seed)
            _update(h, copy_state(phone))
    return h.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=2, help="seeds per task (default 2)")
    parser.add_argument("--steps", type=int, default=6, help="random steps per episode (default 6)")
    parser.add_argument("--world-seeds", type=int, default=100, help="seeds of generated worlds (default 100)")
    args = parser.parse_args()
    random.seed(0)
    for name, digest in play_digests(args.seeds, args.steps).items():
        print(f"{name:12s} {digest}")
    print(f"{'worlds':12s} {world_digest(args.world_seeds)}")


if __name__ == "__main__":
    main()

"""MiniWoB++ beside MobileGym, measured in the same run: the speed target of issue 17.

    python benchmarks/miniwob_baseline.py [--steps 200] [--mobilegym-steps 1000] [--seed 0]

MiniWoB++ is Farama's ``miniwob`` package (``pip install miniwob==1.1.0``) driving Debian's
chromium through chromedriver, headless; its task is click-test-2 ("Click button ONE."/"TWO.").
Both sides run a seeded random agent: MiniWoB samples its own action space (clicks, moves,
scrolls, keys, typing, element actions), MobileGym runs bench_speed's grid agent (taps on a 4 x 8
grid, back, home) with the screenshot and the accessibility tree in every observation. Both are
timed by bench_speed's ``timed_steps`` and ``reset_ms``. Run it unpinned: chromium is several
processes, and pinning this one would pin them too (``cpus`` in the result says what it had).

Targets (issue 17): MobileGym at RL resolution (1080x2400 rendered at 0.1, 108x240) at least 100
times MiniWoB's steps/s, and at 1080x2400 at least 25 times.
"""
from __future__ import annotations

import argparse
import contextlib
import logging
import os
from typing import Any, Iterator

import gymnasium as gym

import mobilegym
from bench_speed import RL_SCALE, SCREEN, WARMUP, agent_actions, as_dict, reset_ms, timed_steps

MINIWOB_ENV_ID = "miniwob/click-test-2-v1"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
OBS_PARTS = ("screenshot", "a11y", "instruction")
TASK = "home.OpenApp"
# (label, render_scale, minimum ratio MobileGym steps/s : MiniWoB steps/s) at SCREEN
TARGETS = ((f"RL {RL_SCALE:g}", RL_SCALE, 100.0), (f"{SCREEN[0]}x{SCREEN[1]}", 1.0, 25.0))


def _positive(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return value


@contextlib.contextmanager
def _browser(chromium: str, chromedriver: str) -> Iterator[None]:
    """Point miniwob at the given browser and driver (it reads them from the environment) and
    silence its per-action warnings (random element refs mostly miss) while inside."""
    for path, package in ((chromium, "chromium"), (chromedriver, "chromium-driver")):
        if not os.access(path, os.X_OK):
            raise FileNotFoundError(f"{path} is not an executable: install Debian's {package} (apt-get install "
                                    "chromium chromium-driver) or pass its path")
    saved = {k: os.environ.get(k) for k in ("MINIWOB_CHROME_BINARY", "MINIWOB_CHROMEDRIVER")}
    os.environ.update(MINIWOB_CHROME_BINARY=chromium, MINIWOB_CHROMEDRIVER=chromedriver)
    disabled = logging.root.manager.disable
    logging.disable(logging.WARNING)
    try:
        yield
    finally:
        logging.disable(disabled)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def miniwob_steps_per_second(steps: int = 200, seed: int = 0, resets: int = 20, chromium: str = CHROMIUM,
                             chromedriver: str = CHROMEDRIVER) -> dict[str, Any]:
    """Steps/s and reset time of MiniWoB++ click-test-2 (headless chromium) under random actions
    from its action space (seeded with ``seed``); episodes are reset as they end.

    Returns steps_per_s (env.step time only), steps_per_s_incl_resets, reset_ms (mean of
    ``resets`` resets), steps, version (miniwob's), browser (chromium's version), utterance (the
    first episode's instruction: proof the task page ran) and cpus (the CPUs it could use).
    """
    _positive("steps", steps)
    _positive("resets", resets)
    import miniwob  # registers the miniwob/* env ids

    with _browser(chromium, chromedriver):
        env = gym.make(MINIWOB_ENV_ID)
        try:
            env.action_space.seed(seed)
            observation, _ = env.reset(seed=seed)
            rate, with_resets = timed_steps(env, [None] * steps, lambda _: env.action_space.sample(), WARMUP)
            reset = reset_ms(env, resets)
            browser = env.unwrapped.instance.driver.capabilities.get("browserVersion", "")
        finally:
            env.close()
    return {"steps_per_s": rate, "steps_per_s_incl_resets": with_resets, "reset_ms": reset, "steps": steps,
            "version": miniwob.__version__, "browser": browser, "utterance": observation["utterance"],
            "cpus": len(os.sched_getaffinity(0))}


def mobilegym_steps_per_second(steps: int = 1000, screen_size: tuple[int, int] = SCREEN, render_scale: float = 1.0,
                               seed: int = 0, task: str = TASK, resets: int = 100) -> dict[str, Any]:
    """Steps/s and reset time of MobileGym's raw env (screenshot + a11y tree + instruction in every
    observation) under bench_speed's random grid agent (seeded with ``seed``), its taps scaled to
    ``screen_size``; episodes are reset as they end.

    Returns steps_per_s, steps_per_s_incl_resets, reset_ms, steps, version, frame (the
    screenshot's width x height), obs_parts and cpus.
    """
    _positive("steps", steps)
    _positive("resets", resets)
    env = gym.make(mobilegym.ENV_ID, task=task, screen_size=screen_size, render_scale=render_scale,
                   shuffle_launcher=True, obs_parts=OBS_PARTS)
    width, height = env.unwrapped.device.screen_size

    def scaled(index: int) -> dict[str, Any]:
        action = as_dict(index)
        if action["type"] == "tap":
            action.update(x=action["x"] * width // SCREEN[0], y=action["y"] * height // SCREEN[1])
        return action

    try:
        rate, with_resets = timed_steps(env, agent_actions(steps, seed), scaled, WARMUP)
        reset = reset_ms(env, resets)
        frame_h, frame_w = env.observation_space["screenshot"].shape[:2]
    finally:
        env.close()
    return {"steps_per_s": rate, "steps_per_s_incl_resets": with_resets, "reset_ms": reset, "steps": steps,
            "version": mobilegym.__version__, "frame": f"{frame_w}x{frame_h}", "obs_parts": list(OBS_PARTS),
            "cpus": len(os.sched_getaffinity(0))}


def compare(steps: int = 200, mobilegym_steps: int = 1000, seed: int = 0) -> dict[str, Any]:
    """MiniWoB++ and MobileGym at each resolution of TARGETS, one after the other in this process.

    Each row has both ratios (env.step only, and counting resets) and ``met``: both at least the target.
    """
    mini = miniwob_steps_per_second(steps, seed)
    rows = []
    for label, scale, target in TARGETS:
        mobile = mobilegym_steps_per_second(mobilegym_steps, SCREEN, scale, seed)
        ratio = mobile["steps_per_s"] / mini["steps_per_s"]
        ratio_resets = mobile["steps_per_s_incl_resets"] / mini["steps_per_s_incl_resets"]
        rows.append({"label": label, "mobilegym": mobile, "ratio": ratio, "ratio_incl_resets": ratio_resets,
                     "target": target, "met": min(ratio, ratio_resets) >= target})
    return {"miniwob": mini, "rows": rows}


def print_table(result: dict[str, Any]) -> None:
    mini = result["miniwob"]
    print(f"MiniWoB++ {mini['version']} click-test-2, chromium {mini['browser']}, {mini['steps']} random steps, "
          f"{mini['cpus']} CPUs: {mini['steps_per_s']:.1f} steps/s ({mini['steps_per_s_incl_resets']:.1f} incl. "
          f"resets), reset {mini['reset_ms']:.1f} ms; first utterance {mini['utterance']!r}\n")
    print(f"{'MobileGym raw env (+a11y)':<34} {'steps/s':>9} {'incl. resets':>12} {'reset ms':>9} "
          f"{'x MiniWoB':>10} {'incl. resets':>12} {'target':>7}  met")
    for row in result["rows"]:
        mobile = row["mobilegym"]
        print(f"{row['label'] + ' (' + mobile['frame'] + ')':<34} {mobile['steps_per_s']:>9.1f} "
              f"{mobile['steps_per_s_incl_resets']:>12.1f} {mobile['reset_ms']:>9.2f} {row['ratio']:>9.1f}x "
              f"{row['ratio_incl_resets']:>11.1f}x {row['target']:>6.0f}x  {'yes' if row['met'] else 'NO'}",
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200, help="MiniWoB++ random steps")
    parser.add_argument("--mobilegym-steps", type=int, default=1000, help="MobileGym random steps per resolution")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print_table(compare(args.steps, args.mobilegym_steps, args.seed))


if __name__ == "__main__":
    main()

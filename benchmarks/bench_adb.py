"""Steps per second through ADB versus in-process, on the same simulated phone and actions.

    python benchmarks/bench_adb.py [--steps 200] [--obs screenshot,a11y] [--screencap png|raw]

Starts a private adb server on a free port (never touches 5037) and `mobilegym serve-adb`
in its own process (as a user would), connects them, runs the same action loop through
``device="sim"`` and through ``device={"serial": ..., "port": ...}``, then stops both.
"""
from __future__ import annotations

import argparse
import shutil
import socket
import subprocess
import sys
import time
from typing import Any

import gymnasium as gym

import mobilegym  # noqa: F401  (registers MobileGym-v0)

TASK = "settings.ToggleWifi"
ACTIONS: list[dict[str, Any]] = [
    {"type": "open_app", "app": "settings"},
    {"type": "tap", "x": 540, "y": 420},
    {"type": "swipe", "x": 540, "y": 1800, "x2": 540, "y2": 900, "duration_ms": 300},
    {"type": "key", "key": "back"},
    {"type": "key", "key": "home"},
]


def run(env: gym.Env, steps: int) -> float:
    """Steps per second over ``steps`` env.step calls (resets are not timed)."""
    env.reset(seed=0)
    done, elapsed = 0, 0.0
    while done < steps:
        started = time.perf_counter()
        _, _, terminated, truncated, _ = env.step(ACTIONS[done % len(ACTIONS)])
        elapsed += time.perf_counter() - started
        done += 1
        if terminated or truncated:
            env.reset(seed=done)
    return steps / elapsed


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--obs", default="screenshot,a11y", help="observation parts (comma separated)")
    parser.add_argument("--screencap", choices=["png", "raw"], default="png")
    parser.add_argument("--render-scale", type=float, default=1.0)
    args = parser.parse_args()
    parts = tuple(args.obs.split(","))
    common = {"task": TASK, "obs_parts": parts, "max_steps": 10_000, "render_scale": args.render_scale}

    local = gym.make("MobileGym-v0", device="sim", **common)
    print(f"in-process : {run(local, args.steps):8.1f} steps/s  (obs: {', '.join(parts)})")
    local.close()

    adb = shutil.which("adb")
    if adb is None:
        print("through ADB: skipped (install the adb binary: apt-get install adb)")
        return
    port, phone_port = free_port(), free_port()
    subprocess.run([adb, "-P", str(port), "start-server"], check=True, capture_output=True, timeout=30)
    phone = subprocess.Popen([sys.executable, "-m", "mobilegym.cli", "serve-adb", "--port", str(phone_port),
                              "--render-scale", str(args.render_scale)], stdout=subprocess.PIPE, text=True)
    try:
        assert phone.stdout is not None and "serving" in phone.stdout.readline(), "serve-adb did not start"
        serial = f"127.0.0.1:{phone_port}"
        subprocess.run([adb, "-P", str(port), "connect", serial], check=True, capture_output=True, timeout=15)
        remote = gym.make("MobileGym-v0", device={"serial": serial, "port": port, "screencap": args.screencap},
                          **common)
        print(f"through ADB: {run(remote, args.steps):8.1f} steps/s  (screencap {args.screencap})")
        remote.close()
    finally:
        phone.terminate()
        phone.wait(10)
        subprocess.run([adb, "-P", str(port), "kill-server"], capture_output=True, timeout=15)


if __name__ == "__main__":
    main()

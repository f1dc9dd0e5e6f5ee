"""The built wheel, installed in a fresh virtual environment, finds every app and task outside the repo."""
from __future__ import annotations

import json
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import json, pathlib, gymnasium as gym, mobilegym
from mobilegym.sim.app import installed_apps
from mobilegym.judge import default_registry
registry = default_registry()
env = gym.make("MobileGym-v0", task="settings.ToggleWifi", render_scale=0.1)
obs, info = env.reset(seed=0)
*_, step_info = env.step({"type": "complete"})
print(json.dumps({
    "package": str(pathlib.Path(mobilegym.__file__).resolve()),
    "apps": sorted(installed_apps()),
    "tasks": sorted(registry.refs),
    "errors": registry.errors,
    "shape": list(obs["screenshot"].shape),
    "judged": step_info["judge"]["task_id"],
}))
"""


def _repo_apps_and_tasks() -> tuple[list[str], list[str]]:
    from mobilegym.judge import default_registry
    from mobilegym.sim.app import installed_apps

    return sorted(installed_apps()), sorted(default_registry().refs)


@pytest.mark.slow
def test_wheel_in_fresh_venv_finds_every_app_and_task(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(dist), str(ROOT)],
                   check=True, capture_output=True)
    wheel = next(dist.glob("mobilegym-*.whl"))
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], check=True, capture_output=True)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    result = subprocess.run([str(python), "-c", PROBE], cwd=outside, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["package"].startswith(str(env_dir.resolve()))
    apps, tasks = _repo_apps_and_tasks()
    assert report["apps"] == apps
    assert report["tasks"] == tasks and not report["errors"]
    assert report["shape"] == [240, 108, 3] and report["judged"] == "settings.ToggleWifi"

"""RecordEpisode: a wrapper that logs each step and saves screenshots and a JSONL trajectory."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import gymnasium as gym
import numpy as np
from PIL import Image


class RecordEpisode(gym.Wrapper):
    """Saves ``step_NNN.png`` and ``trajectory.jsonl`` under ``out_dir``; optionally prints each step.

    The screenshot is taken from the observation when it has one, otherwise from the device.
    """

    def __init__(self, env: gym.Env, out_dir: str | Path, *, echo: Callable[[str], None] | None = None) -> None:
        super().__init__(env)
        self.out_dir = Path(out_dir)
        self.echo = echo
        self._log: Any = None
        self.step_index = 0

    def _save(self, obs: dict[str, Any]) -> str:
        shot = obs.get("screenshot")
        if shot is None:
            shot = self.env.unwrapped.device.screenshot()
        name = f"step_{self.step_index:03d}.png"
        Image.fromarray(np.asarray(shot)).save(self.out_dir / name)
        return name

    def _write(self, record: dict[str, Any]) -> None:
        self._log.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
        self._log.flush()

    def reset(self, **kwargs: Any) -> tuple[dict, dict]:
        obs, info = self.env.reset(**kwargs)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        if self._log is not None:
            self._log.close()
        self._log = open(self.out_dir / "trajectory.jsonl", "w", encoding="utf-8")
        self.step_index = 0
        image = self._save(obs)
        instruction = self.env.unwrapped.instruction
        self._write({"event": "reset", "task_id": info["task_id"], "params": info["params"],
                     "instruction": instruction, "screenshot": image})
        if self.echo:
            self.echo(f"task: {info['task_id']}  params: {json.dumps(info['params'], ensure_ascii=False)}")
            self.echo(f"instruction: {instruction}")
        return obs, info

    def step(self, action: dict[str, Any]) -> tuple[dict, float, bool, bool, dict]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.step_index += 1
        image = self._save(obs)
        record = {"event": "step", "step": self.step_index, "action": action, "reward": reward,
                  "terminated": terminated, "truncated": truncated, "route": f"{info['app']} {info['route']}",
                  "screenshot": image, "judge": info.get("judge"), "error": info.get("last_action_error")}
        self._write(record)
        if self.echo:
            self.echo(f"step {self.step_index:3d}  {json.dumps(action, ensure_ascii=False)}  ->  "
                      f"{info['app']} {info['route']}  reward={reward:g}")
        return obs, reward, terminated, truncated, info

    def close(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None
        super().close()

"""Per-episode trajectory files: each step's screenshot, an annotated copy, the tree, the agent's record."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping

import numpy as np
from PIL import Image, ImageDraw

from ...sim.ui.fonts import font, font_path
from ..agents.base import Decision

MARK = (233, 30, 99)
_PNG_OPTIONS = {"compress_level": 1}


def annotate(screenshot: np.ndarray, action: Mapping[str, Any] | None, screen_size: tuple[int, int]) -> Image.Image:
    """The screenshot with the action drawn on it: a ring at a tap, an arrow for a swipe, a caption otherwise."""
    image = Image.fromarray(screenshot).convert("RGB")
    draw = ImageDraw.Draw(image)
    sx, sy = image.width / screen_size[0], image.height / screen_size[1]
    radius = max(6, image.width // 30)
    line = max(2, image.width // 200)
    kind = (action or {}).get("type")
    caption = _caption(action)

    def point(x_key: str, y_key: str) -> tuple[float, float] | None:
        x, y = (action or {}).get(x_key), (action or {}).get(y_key)
        if not isinstance(x, (int, float)) or not isinstance(y, (int, float)):
            return None
        return x * sx, y * sy

    start = point("x", "y")
    if kind in ("swipe", "drag") and start is not None and (end := point("x2", "y2")) is not None:
        draw.line([start, end], fill=MARK, width=line * 2)
        _arrow_head(draw, start, end, radius, line)
        draw.ellipse(_box(start, radius / 2), outline=MARK, width=line)
    elif start is not None:
        draw.ellipse(_box(start, radius), outline=MARK, width=line * 2)
        draw.ellipse(_box(start, line * 1.5), fill=MARK)
    size = max(12, image.width // 24)
    face = font(font_path(caption, False), size)
    lines = wrap_caption(caption, lambda text: draw.textlength(text, font=face), image.width - size)
    step = round(size * 1.25)
    y = image.height - step * len(lines) - size // 2
    draw.rectangle([0, y - size // 3, image.width, image.height], fill=(0, 0, 0))
    for i, text in enumerate(lines):
        draw.text((size // 2, y + i * step), text, fill=(255, 255, 255), font=face)
    return image


def wrap_caption(caption: str, width_of: Any, width: float) -> list[str]:
    """The caption in lines no wider than ``width`` (``width_of`` measures a text), broken between words and,
    inside a word longer than a line, between characters."""
    lines: list[str] = []
    current = ""
    for word in caption.split(" "):
        candidate = f"{current} {word}" if current else word
        if width_of(candidate) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        current = ""
        for char in word:
            if current and width_of(current + char) > width:
                lines.append(current)
                current = ""
            current += char
    return lines + [current] if current or not lines else lines


def _caption(action: Mapping[str, Any] | None) -> str:
    if not action:
        return "(no action)"
    kind = str(action.get("type"))
    detail = {k: v for k, v in action.items() if k != "type"}
    text = " ".join(f"{k}={v!r}" if isinstance(v, str) else f"{k}={v}" for k, v in detail.items())
    caption = f"{kind} {text}".strip()
    return caption if len(caption) <= 160 else caption[:159] + "…"


def _box(center: tuple[float, float], radius: float) -> list[float]:
    x, y = center
    return [x - radius, y - radius, x + radius, y + radius]


def _arrow_head(draw: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float], size: float,
                width: int) -> None:
    direction = np.array(end) - np.array(start)
    length = float(np.hypot(*direction)) or 1.0
    unit = direction / length
    normal = np.array([-unit[1], unit[0]])
    tip = np.array(end)
    left, right = tip - unit * size + normal * size / 2, tip - unit * size - normal * size / 2
    draw.polygon([tuple(tip), tuple(left), tuple(right)], fill=MARK)


class TrajectoryWriter:
    """Writes ``trajectories/<task>/<instance>/``: NNN.png, NNN.annotated.png, NNN.xml, steps.jsonl, final.png."""

    def __init__(self, root: Path, relative: str, screen_size: tuple[int, int], scale: float = 0.5) -> None:
        self.relative = relative
        self.scale = scale
        self.folder = root / relative
        self.folder.mkdir(parents=True, exist_ok=True)
        self.screen_size = screen_size
        self._steps = (self.folder / "steps.jsonl").open("w", encoding="utf-8")

    def step(self, index: int, obs: Mapping[str, Any], info: Mapping[str, Any], decision: Decision,
             action: Mapping[str, Any] | None, reward: float, error: str | None) -> None:
        """Record the screen the agent saw at step ``index`` and what it did there."""
        name = f"{index:03d}"
        record: dict[str, Any] = {"step": index, "action": dict(action) if action else None,
                                  "thought": decision.thought, "prompt": decision.prompt,
                                  "response": decision.response, "usage": decision.usage,
                                  "retries": decision.retries, "error": error, "reward": reward,
                                  "app": info.get("app"), "route": info.get("route")}
        if "screenshot" in obs:
            shot = self._scaled(obs["screenshot"])
            shot.save(self.folder / f"{name}.png", **_PNG_OPTIONS)
            annotate(np.asarray(shot), action, self.screen_size).save(self.folder / f"{name}.annotated.png",
                                                                      **_PNG_OPTIONS)
            record["screenshot"], record["annotated"] = f"{name}.png", f"{name}.annotated.png"
        if "a11y" in obs:
            (self.folder / f"{name}.xml").write_text(obs["a11y"], encoding="utf-8")
            record["tree"] = f"{name}.xml"
        self._steps.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")

    def finish(self, obs: Mapping[str, Any] | None, row: Mapping[str, Any], judge: Mapping[str, Any] | None) -> None:
        """The final screen and episode.json (the row plus the judge's full result)."""
        self._steps.close()
        if obs is not None and "screenshot" in obs:
            self._scaled(obs["screenshot"]).save(self.folder / "final.png", **_PNG_OPTIONS)
        episode = {**row, "judge": judge}
        (self.folder / "episode.json").write_text(json.dumps(episode, ensure_ascii=False, indent=1, default=str),
                                                  encoding="utf-8")

    def _scaled(self, screenshot: np.ndarray) -> Image.Image:
        image = Image.fromarray(screenshot)
        if self.scale == 1:
            return image
        size = (max(1, round(image.width * self.scale)), max(1, round(image.height * self.scale)))
        return image.resize(size, Image.BILINEAR)

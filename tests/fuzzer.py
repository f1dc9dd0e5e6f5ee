"""A seeded random agent for robustness testing: taps (mostly on what is clickable), swipes, keys,
open_app over every app, waits, typing of exotic Unicode (control characters, line and paragraph
separators, combining marks, bidi controls, CJK, emoji, private use, non-characters, the astral planes,
very long words) and malformed actions.

Used by tests/test_fuzz.py (a few thousand steps in CI) and benchmarks/fuzz_long.py (100,000 steps)::

    fuzzer = Fuzzer(seed=0, apps=env.unwrapped.device.apps)
    action = fuzzer.action(obs["a11y"])
"""
from __future__ import annotations

import re
from typing import Any, Sequence

import numpy as np

_BOUNDS = re.compile(r'clickable="true"[^>]*?bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"')
_FIELDS = re.compile(r'class="android.widget.EditText"[^>]*?bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"')

# (first, last) code point ranges typed text is drawn from; no surrogates (an action refuses them)
UNICODE_POOLS: tuple[tuple[int, int], ...] = (
    (0x20, 0x7E),  # ASCII
    (0x00, 0x1F), (0x7F, 0x9F),  # C0 and C1 controls: \r, \x1c-\x1e, NEL...
    (0x2028, 0x2029),  # line and paragraph separators
    (0x0300, 0x036F),  # combining marks
    (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x2064), (0xFEFF, 0xFEFF),  # zero-width and bidi controls
    (0x0590, 0x06FF),  # Hebrew, Arabic
    (0x0E00, 0x0E7F),  # Thai
    (0x4E00, 0x9FFF), (0xAC00, 0xD7A3),  # CJK, Hangul
    (0x1F300, 0x1FAFF),  # emoji
    (0xE000, 0xF8FF),  # private use
    (0xFDD0, 0xFDEF), (0xFFF9, 0xFFFF),  # non-characters, specials
    (0xFE00, 0xFE0F), (0xE0000, 0xE007F),  # variation selectors, tags
    (0x10000, 0x10FFFF),  # anything astral, assigned or not
)

MALFORMED: tuple[Any, ...] = (
    {"type": "tap", "x": None, "y": 5},
    {"type": "open_app", "app": None},
    {"type": "tap", "x": 10 ** 400, "y": 1},
    {"type": "type", "text": "a\ud800b"},
    {"type": ["tap"]},
    {"type": "key", "key": ["back"]},
    {"type": "swipe", "x": 1, "y": 1, "x2": float("nan"), "y2": 2},
    {"type": "wait", "seconds": -1},
    {"type": "long_press", "x": 5, "y": 5, "duration_ms": None},
    {"type": "type", "text": "x", "clear": "yes"},
    {"type": "tap", "x": 1, "y": 1, 3: 4},
    {"type": "open_app", "app": "no such app"},
    "tap 5 5",
    None,
)


class Fuzzer:
    """Random actions in device pixels for a ``width`` x ``height`` screen (see the module docstring)."""

    def __init__(self, seed: int, apps: Sequence[str], screen_size: tuple[int, int] = (1080, 2400),
                 long_text: float = 0.01) -> None:
        self.rng = np.random.default_rng(seed)
        self.apps = list(apps)
        self.width, self.height = screen_size
        self.long_text = long_text

    def text(self) -> str:
        """Random text: mostly short, sometimes long, now and then one very long word."""
        rng = self.rng
        roll = rng.random()
        if roll < self.long_text:
            return "".join(self._char() for _ in range(8)) * int(rng.integers(100, 1250))  # up to 10,000
        length = int(rng.integers(1, 12)) if roll < 0.9 else int(rng.integers(12, 400))
        return "".join(self._char() for _ in range(length))

    def _char(self) -> str:
        lo, hi = UNICODE_POOLS[int(self.rng.integers(len(UNICODE_POOLS)))]
        return chr(int(self.rng.integers(lo, hi + 1)))

    def _point(self) -> tuple[int, int]:
        return int(self.rng.integers(self.width)), int(self.rng.integers(self.height))

    @staticmethod
    def _centres(pattern: re.Pattern[str], xml: str) -> list[tuple[int, int]]:
        return [((int(a) + int(c)) // 2, (int(b) + int(d)) // 2) for a, b, c, d in pattern.findall(xml)]

    def action(self, xml: str = "") -> Any:
        """One action; ``xml`` (the current accessibility tree) aims taps at clickable views."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.38:
            targets = self._centres(_BOUNDS, xml)
            x, y = targets[int(rng.integers(len(targets)))] if targets else self._point()
            kind = "tap" if rng.random() < 0.85 else str(rng.choice(["double_tap", "long_press"]))
            return {"type": kind, "x": min(x, self.width - 1), "y": min(y, self.height - 1)}
        if roll < 0.46:
            x, y = self._point()
            return {"type": "tap", "x": x, "y": y}
        if roll < 0.56:
            (x, y), (x2, y2) = self._point(), self._point()
            if rng.random() < 0.3:
                return {"type": "drag", "x": x, "y": y, "x2": x2, "y2": y2}
            return {"type": "swipe", "x": x, "y": y, "x2": x2, "y2": y2, "duration_ms": int(rng.integers(50, 800))}
        if roll < 0.74:
            action: dict[str, Any] = {"type": "type", "text": self.text(), "clear": bool(rng.random() < 0.2)}
            fields = self._centres(_FIELDS, xml)
            if fields and rng.random() < 0.6:
                action["x"], action["y"] = fields[int(rng.integers(len(fields)))]
            return action
        if roll < 0.86:
            return {"type": "key", "key": str(rng.choice(["back", "back", "home", "recent", "enter", "delete"]))}
        if roll < 0.93:
            return {"type": "open_app", "app": self.apps[int(rng.integers(len(self.apps)))]}
        if roll < 0.96:
            return {"type": "wait", "seconds": float(rng.integers(1, 120))}
        if roll < 0.97:
            return {"type": "answer", "text": self.text()}
        return MALFORMED[int(rng.integers(len(MALFORMED)))]

"""A person plays in the terminal: the screen as text, actions typed as short commands."""
from __future__ import annotations

import shlex
import sys
from typing import Any, Mapping, TextIO

from ... import screen_text
from .base import AgentError

HELP = """commands:
  tap N | tap X Y          tap node N of the list (or device pixels X Y)
  long N | long X Y        long-press
  type TEXT                type into the focused field
  swipe up|down|left|right swipe across the middle of the screen
  back | home | recent | enter
  open APP                 open an app by name
  wait SECONDS
  answer TEXT              give the answer (text mode)
  done [TEXT]              declare the task complete
  abort [TEXT]             declare the task infeasible
  help"""

_SWIPES = {"up": (0.5, 0.75, 0.5, 0.25), "down": (0.5, 0.25, 0.5, 0.75),
           "left": (0.8, 0.5, 0.2, 0.5), "right": (0.2, 0.5, 0.8, 0.5)}


class HumanAgent:
    """Shows each screen as numbered lines of the tree and reads one command per step."""

    name = "human"
    version = "1"

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self._size = (1080, 2400)
        self._nodes: list[screen_text.Node] = []

    def reset(self, instruction: str, info: Mapping[str, Any]) -> None:
        self._size = tuple(info["screen_size"])  # type: ignore[assignment]
        self._say(f"\n=== {info['task_id']} ===\n{instruction}\n(type 'help' for commands)")

    def act(self, obs: Mapping[str, Any], info: Mapping[str, Any]) -> dict[str, Any]:
        described = screen_text.described_nodes(obs["a11y"])
        self._nodes = [node for node, _ in described]
        lines = [f"{i:3d}  {line}" for i, (_, line) in enumerate(described)]
        self._say(f"--- step {info.get('step', 0)}: {info.get('app')} {info.get('route')} ---\n" + "\n".join(lines))
        while True:
            self.stdout.write("> ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                raise AgentError("the terminal closed (end of input)")
            try:
                action = self.parse(line)
            except ValueError as exc:
                self._say(f"? {exc}")
                continue
            if action is None:
                self._say(HELP)
                continue
            return action

    def parse(self, line: str) -> dict[str, Any] | None:
        """One typed command as an action (None for help); ValueError names what is wrong."""
        command, _, rest = line.strip().partition(" ")
        rest = rest.strip()
        command = command.lower()
        if command in ("", "help", "?"):
            return None
        if command in ("tap", "long"):
            x, y = self._point(rest)
            return {"type": "tap" if command == "tap" else "long_press", "x": x, "y": y}
        if command == "type":
            return {"type": "type", "text": rest}
        if command == "swipe":
            if rest not in _SWIPES:
                raise ValueError(f"swipe takes one of {', '.join(_SWIPES)}")
            w, h = self._size
            x, y, x2, y2 = _SWIPES[rest]
            return {"type": "swipe", "x": int(x * w), "y": int(y * h), "x2": int(x2 * w), "y2": int(y2 * h)}
        if command in ("back", "home", "recent", "enter"):
            return {"type": "key", "key": command}
        if command == "open":
            return {"type": "open_app", "app": rest}
        if command == "wait":
            try:
                return {"type": "wait", "seconds": float(rest or 1)}
            except ValueError:
                raise ValueError(f"wait takes seconds, got {rest!r}") from None
        if command == "answer":
            return {"type": "answer", "text": rest}
        if command in ("done", "abort"):
            return {"type": "complete" if command == "done" else "abort", "text": rest or None}
        raise ValueError(f"unknown command {command!r}; type 'help'")

    def _point(self, rest: str) -> tuple[int, int]:
        parts = shlex.split(rest)
        if len(parts) == 1 and parts[0].isdigit():
            index = int(parts[0])
            if index >= len(self._nodes):
                raise ValueError(f"no node {index}; the screen lists 0-{len(self._nodes) - 1}")
            return self._nodes[index].center
        if len(parts) == 2 and all(p.lstrip("-").isdigit() for p in parts):
            return int(parts[0]), int(parts[1])
        raise ValueError(f"expected a node number or X Y, got {rest!r}")

    def _say(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

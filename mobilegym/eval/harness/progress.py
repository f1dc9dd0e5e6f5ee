"""Progress of a run: a tqdm bar with the live success rate on a terminal, plain lines elsewhere.

``auto`` draws the bar when the stream is a terminal and otherwise prints a line such as
``eval: 12/40 episodes (30%), success 58.3% of 12 scored, 1 errored`` each time another tenth of
the episodes is done, or a minute after the last line, so a log or CI job shows the run moving. ``on`` asks for the
bar (plain lines when tqdm is missing), ``off`` prints nothing.
"""
from __future__ import annotations

import sys
import time
from typing import Any, Mapping

from ..extras import available

STEPS = 10  # plain lines: one per tenth of the run ...
INTERVAL_S = 60.0  # ... and at least one a minute while episodes finish


class Progress:
    """Counts finished episodes and shows them on ``stream`` (stderr by default)."""

    def __init__(self, total: int, done: int, mode: str, stream: Any = None) -> None:
        self.stream = stream or sys.stderr
        self.total, self.done = total, done
        self.successes = self.scored = self.errors = 0
        self.bar = None
        self.plain = False
        self._shown = -1
        self._last = time.monotonic()
        if mode == "off":
            return
        tty = getattr(self.stream, "isatty", lambda: False)()
        if (mode == "on" or tty) and available("tqdm"):
            from tqdm import tqdm

            self.bar = tqdm(total=total, initial=done, unit="ep", file=self.stream, dynamic_ncols=True)
        else:
            self.plain = True
            self._shown = self._tenth()
            if done:
                self._line(f"resuming with {done} of {total} episodes already done")

    def _tenth(self) -> int:
        return self.done * STEPS // self.total if self.total else STEPS

    def _line(self, text: str) -> None:
        self._last = time.monotonic()
        print(f"eval: {text}", file=self.stream, flush=True)

    def _status(self) -> str:
        share = self.done / self.total if self.total else 1.0
        rate = (f"success {self.successes / self.scored:.1%} of {self.scored} scored" if self.scored
                else "no scored episodes yet")
        errors = f", {self.errors} errored" if self.errors else ""
        return f"{self.done}/{self.total} episodes ({share:.0%}), {rate}{errors}"

    def update(self, row: Mapping[str, Any]) -> None:
        self.done += 1
        if row["error_kind"] is None:
            self.scored += 1
            self.successes += bool(row["success"])
        else:
            self.errors += 1
        if self.bar is not None:
            rate = self.successes / self.scored if self.scored else 0.0
            self.bar.set_postfix_str(f"success {rate:.1%} of {self.scored}", refresh=False)
            self.bar.update(1)
        elif self.plain:
            tenth = self._tenth()
            if tenth > self._shown or time.monotonic() - self._last >= INTERVAL_S:
                self._shown = tenth
                self._line(self._status())

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()

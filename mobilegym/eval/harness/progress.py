"""A progress bar with the live success rate (tqdm); silent when not on a terminal unless asked."""
from __future__ import annotations

import sys
from typing import Any, Mapping


class Progress:
    """Counts finished episodes; shows a tqdm bar when ``mode`` is "on", or "auto" on a terminal."""

    def __init__(self, total: int, done: int, mode: str, stream: Any = None) -> None:
        self.stream = stream or sys.stderr
        self.successes = self.scored = 0
        self.bar = None
        if mode == "on" or (mode == "auto" and getattr(self.stream, "isatty", lambda: False)()):
            from tqdm import tqdm

            self.bar = tqdm(total=total, initial=done, unit="ep", file=self.stream, dynamic_ncols=True)

    def update(self, row: Mapping[str, Any]) -> None:
        if row["error_kind"] is None:
            self.scored += 1
            self.successes += bool(row["success"])
        if self.bar is not None:
            rate = self.successes / self.scored if self.scored else 0.0
            self.bar.set_postfix_str(f"success {rate:.1%} of {self.scored}", refresh=False)
            self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()

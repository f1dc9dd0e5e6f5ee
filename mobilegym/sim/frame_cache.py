"""The phone's frame cache: the laid-out screen, its display list, screenshot and accessibility XML, kept
across inputs that change nothing the screen shows.

A screen is a pure function of the world document. Most inputs of an agent (a tap between buttons, back on
a screen with nowhere to go) change nothing but the clock, so the previous frame is still the screen:
after an input the frame is kept when

- the ``os`` part of the document is the same but for ``time_ms`` (navigation, focus, drafts, scroll),
- no app state the input's handlers touched has changed (handlers reach app states only through the
  input journal, see :class:`~mobilegym.sim.world.WorldDoc`), and
- the clock shows the same: the system UI shows at most minutes; a screen that read ``Ctx.now`` is kept
  within the same minute (screens show minutes at most, e.g. "09:41" or "today"), and one that read the
  raw clock (``Ctx.os``, ``Ctx.phone``) only at the very same millisecond.

Screenshots are painted incrementally (:mod:`.ui.repaint`). ``reuse=False`` composes and paints every frame
from scratch (tests compare both, byte for byte).
"""
from __future__ import annotations

import marshal
from typing import Any, Callable

import numpy as np

from .clock import MINUTE_MS
from .ui.repaint import Painter
from .windows import Frame


def os_key(os_state: dict[str, Any]) -> bytes | None:
    """The ``os`` part of the document without its clock, as bytes (equal bytes: equal parts); None when it
    holds a value marshal cannot write (such a frame is never kept)."""
    try:
        return marshal.dumps({k: v for k, v in os_state.items() if k != "time_ms"}, 2)
    except ValueError:
        return None


class FrameCache:
    """The current frame and what was derived from it, and the painter's recent images."""

    def __init__(self, reuse: bool = True) -> None:
        self.reuse = reuse
        self.painter = Painter(keep=reuse)
        self._frame: Frame | None = None
        self._items: list[tuple] | None = None
        self._xml: str | None = None
        self._key: bytes | None = None
        self._time_ms = 0
        self._exact = False  # the frame read the raw clock
        self.composing = False  # a frame is being composed

    def frame(self, compose: Callable[[], Frame], os_state: dict[str, Any]) -> Frame:
        """The current frame, composed when there is none."""
        if self._frame is None:
            self.composing, self._exact = True, False
            try:
                frame = compose()
            finally:
                self.composing = False
            self._frame, self._items, self._xml = frame, None, None
            self._key, self._time_ms = os_key(os_state), os_state["time_ms"]
        return self._frame

    def read_raw_clock(self) -> None:
        """The screen being composed may have read the raw clock: keep its frame only at the same millisecond."""
        if self.composing:
            self._exact = True

    def invalidate(self) -> None:
        self._frame = self._items = self._xml = None

    def keep_if_unchanged(self, os_state: dict[str, Any], apps_unchanged: Callable[[], bool]) -> None:
        """After an input or a wait: keep the frame if nothing it shows can have changed, else drop it
        (``apps_unchanged`` is asked last: it marshals the app states the input touched)."""
        if self._frame is None:
            return
        now = os_state["time_ms"]
        same_clock = now == self._time_ms or (not self._exact and now // MINUTE_MS == self._time_ms // MINUTE_MS)
        if not (self.reuse and same_clock and self._key is not None and os_key(os_state) == self._key
                and apps_unchanged()):
            self.invalidate()

    def items(self, frame: Frame) -> list[tuple]:
        """The frame's display list (painted once per frame)."""
        if self._items is None or frame is not self._frame:
            self._items = frame.items()
        return self._items

    def xml(self, frame: Frame, export: Callable[[Frame], str]) -> str:
        """The frame's accessibility XML (exported once per frame)."""
        if frame is not self._frame:
            return export(frame)
        if self._xml is None:
            self._xml = export(frame)
        return self._xml

    def pixels(self, frame: Frame, size: tuple[int, int], scale: float) -> np.ndarray:
        """The frame's screenshot as a read-only array."""
        return self.painter.paint(self.items(frame), size, scale, frame.env.theme.background)

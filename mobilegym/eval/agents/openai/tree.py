"""The accessibility tree as prompt text, with each node's centre in the model's own coordinates."""
from __future__ import annotations

from mobilegym.screen_text import described_nodes
from .images import Frame


def _point(frame: Frame, x: int, y: int) -> str:
    mx, my = frame.from_device(x, y)
    if frame.convention == "relative_1":
        return f"({mx:.3f},{my:.3f})"
    return f"({round(mx)},{round(my)})"


def tree_text(xml: str, frame: Frame) -> str:
    """The lines of :func:`mobilegym.screen_text.describe` less the nodes centred off the screen, with
    ``@(x,y)`` in the frame's convention, so a model can act on a point it reads here."""
    lines = described_nodes(xml, point=lambda x, y: _point(frame, x, y), screen=frame.device_size)
    return "\n".join(line for _, line in lines)

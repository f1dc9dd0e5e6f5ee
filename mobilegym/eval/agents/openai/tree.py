"""The accessibility tree as prompt text, with each node's centre in the model's own coordinates."""
from __future__ import annotations

from mobilegym.screen_text import parse_nodes
from .images import Frame


def _point(frame: Frame, x: int, y: int) -> str:
    mx, my = frame.from_device(x, y)
    if frame.convention == "relative_1":
        return f"({mx:.3f},{my:.3f})"
    return f"({round(mx)},{round(my)})"


def tree_text(xml: str, frame: Frame) -> str:
    """One line per node that shows text or can be acted on: ``Class#id 'text' @(x,y) [flags]``.

    The selection of :func:`mobilegym.screen_text.describe` less the nodes centred off the screen,
    with ``@(x,y)`` in the frame's convention, so a model can act on a point it reads here.
    """
    width, height = frame.device_size
    lines = []
    for node in parse_nodes(xml):
        label = node.text or node.desc
        x, y = node.center
        if not (label or node.clickable or node.scrollable) or not (0 <= x < width and 0 <= y < height):
            continue
        flags = [f for f, on in (("click", node.clickable), ("scroll", node.scrollable), ("focused", node.focused),
                                 ("selected", node.selected)) if on]
        if node.checkable:
            flags.append("on" if node.checked else "off")
        kind = node.cls.rsplit(".", 1)[-1]
        rid = f"#{node.short_id}" if node.short_id else ""
        lines.append(f"{kind}{rid} {label!r} @{_point(frame, x, y)} [{' '.join(flags)}]".replace(" []", ""))
    return "\n".join(lines)

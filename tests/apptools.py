"""Checks that a simulated app's screen is well formed: it renders, and its text and nodes stay on screen."""
from __future__ import annotations

from mobilegym.screen_text import parse_nodes
from mobilegym.sim.ui import fonts
from mobilegym.sim.phone import Phone

SLACK = 0.5  # dp of rounding allowed at the screen edges


def assert_screen_ok(phone: Phone) -> None:
    """Render the current screen; every drawn line of text and every a11y node lies inside the screen.

    Text drawn inside a scrolling list (a clip region) may run past the list's bottom edge, so only
    its horizontal extent is checked.
    """
    phone.screenshot()
    width, height = phone.size_dp
    clips = 0
    where = phone.current_route()
    for item in phone.frame().items():
        if item[0] == "clip":
            clips += 1
        elif item[0] == "unclip":
            clips -= 1
        elif item[0] == "text":
            _, x, y, line, size, _, bold = item
            right = x + fonts.text_width(line, size, bold)
            assert -SLACK <= x and right <= width + SLACK, f"{where}: text {line!r} spans x {x:.1f}..{right:.1f}"
            if not clips:
                assert -SLACK <= y and y + size <= height + SLACK, f"{where}: text {line!r} at y {y:.1f}"
    for node in parse_nodes(phone.a11y_xml()):
        x1, y1, x2, y2 = node.bounds
        assert 0 <= x1 < x2 <= phone.width and 0 <= y1 < y2 <= phone.height, f"{where}: node {node} off screen"

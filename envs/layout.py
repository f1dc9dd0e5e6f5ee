"""Layout shared by the apps' screens."""
from __future__ import annotations

from mobilegym.sim import ui

MARGIN = 16.0  # dp from the screen edge to the text of a list row or section header (Material 3)


def inset(view: ui.View, left: float, right: float = 0.0) -> ui.View:
    """``view`` moved ``left`` dp in from the start (and ``right`` from the end) of the row it is laid out in: a
    section header in a list whose rows pad themselves. The view keeps its rid and text."""
    view.flex = view.flex or 1
    return ui.Row([ui.Spacer(width=left), view, ui.Spacer(width=right) if right else None], gap=0)

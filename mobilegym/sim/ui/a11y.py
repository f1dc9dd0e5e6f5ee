"""Exports a laid-out view tree in uiautomator dump XML format (bounds in device pixels)."""
from __future__ import annotations

import re
from xml.sax.saxutils import escape

from .view import LayoutEnv, View

_ENTITIES = {'"': "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}
_SPECIAL = re.compile('[&<>"\n\r\t\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]')
# characters XML 1.0 cannot carry at all (even as references): shown as U+FFFD, so the tree always parses
# and encodes, whatever an app's data or a typed text holds
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
HEADER = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"

Rect = tuple[int, int, int, int]


def _attr(value: str) -> str:
    if _SPECIAL.search(value) is None:
        return value
    return escape(_NOT_XML.sub("\ufffd", value), _ENTITIES)


def _flag(value: bool) -> str:
    return "true" if value else "false"


class TreeExporter:
    """Turns views into <node> elements, keeping only what is visible on screen."""

    def __init__(self, env: LayoutEnv, density: float, screen: Rect) -> None:
        self.env = env
        self.density = density
        self.screen = screen

    def export(self, roots: list[tuple[View, str]]) -> str:
        """XML for a list of (root view, package) windows, drawn bottom to top."""
        parts = [HEADER, '<hierarchy rotation="0">']
        for index, (root, package) in enumerate(roots):
            self._node(root, package, index, self.screen, parts)
        parts.append("</hierarchy>")
        return "".join(parts)

    def bounds(self, view: View, clip: Rect) -> Rect:
        """A view's frame in device pixels, intersected with ``clip``."""
        x, y, w, h = view.frame
        d = self.density
        return (
            max(clip[0], round(x * d)), max(clip[1], round(y * d)),
            min(clip[2], round((x + w) * d)), min(clip[3], round((y + h) * d)),
        )

    def _node(self, view: View, package: str, index: int, clip: Rect, out: list[str]) -> None:
        box = self.bounds(view, clip)
        if box[2] <= box[0] or box[3] <= box[1]:
            return
        rid = "" if not view.rid else view.rid if ":id/" in view.rid else f"{package}:id/{view.rid}"
        out.append(
            f'<node index="{index}" text="{_attr(view.text)}" resource-id="{rid}" class="{view.cls}" '
            f'package="{package}" content-desc="{_attr(view.desc)}" checkable="{_flag(view.checkable)}" '
            f'checked="{_flag(view.checked)}" clickable="{_flag(view.on_click is not None)}" '
            f'enabled="{_flag(view.enabled)}" focusable="{_flag(view.focusable or view.on_click is not None)}" '
            f'focused="{_flag(view.focused(self.env))}" scrollable="{_flag(view.scrollable)}" '
            f'long-clickable="{_flag(view.on_long_click is not None)}" password="{_flag(view.password)}" '
            f'selected="{_flag(view.selected)}" bounds="[{box[0]},{box[1]}][{box[2]},{box[3]}]" '
            f'hint="{_attr(view.hint)}"'
        )
        children = view.shown_children()
        if not children:
            out.append(" />")
            return
        out.append(">")
        for i, child in enumerate(children):
            self._node(child, package, i, box, out)
        out.append("</node>")

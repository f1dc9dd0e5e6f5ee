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

    def _node(self, view: View, package: str, index: int, clip: Rect, out: list[str]) -> None:
        x, y, w, h = view.frame
        d = self.density
        box = (max(clip[0], round(x * d)), max(clip[1], round(y * d)),
               min(clip[2], round((x + w) * d)), min(clip[3], round((y + h) * d)))
        if box[2] <= box[0] or box[3] <= box[1]:
            return
        rid = view.rid
        rid = "" if not rid else rid if ":id/" in rid else f"{package}:id/{rid}"
        clickable = view.on_click is not None
        text, desc, hint = view.text, view.desc, view.hint
        out.append(
            f'<node index="{index}" text="{_attr(text) if text else ""}" resource-id="{rid}" class="{view.cls}" '
            f'package="{package}" content-desc="{_attr(desc) if desc else ""}" '
            f'checkable="{"true" if view.checkable else "false"}" checked="{"true" if view.checked else "false"}" '
            f'clickable="{"true" if clickable else "false"}" enabled="{"true" if view.enabled else "false"}" '
            f'focusable="{"true" if view.focusable or clickable else "false"}" '
            f'focused="{"true" if view.focused(self.env) else "false"}" '
            f'scrollable="{"true" if view.scrollable else "false"}" '
            f'long-clickable="{"true" if view.on_long_click is not None else "false"}" '
            f'password="{"true" if view.password else "false"}" selected="{"true" if view.selected else "false"}" '
            f'bounds="[{box[0]},{box[1]}][{box[2]},{box[3]}]" hint="{_attr(hint) if hint else ""}"'
        )
        children = view.shown_children()
        if not children:
            out.append(" />")
            return
        out.append(">")
        for i, child in enumerate(children):
            self._node(child, package, i, box, out)
        out.append("</node>")

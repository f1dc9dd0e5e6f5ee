"""Exports a laid-out view tree in uiautomator dump XML format (bounds in device pixels)."""
from __future__ import annotations

import re
from xml.sax.saxutils import escape

from ...screen_text import A11Y_FLAGS
from .boxes import Box, intersect
from .view import LayoutEnv, View

_ENTITIES = {'"': "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}
_SPECIAL = re.compile('[&<>"\n\r\t\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]')
# characters XML 1.0 cannot carry at all (even as references): shown as U+FFFD, so the tree always parses
# and encodes, whatever an app's data or a typed text holds
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
HEADER = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"

# a node's boolean attributes for each combination (bit i: the i-th of A11Y_FLAGS is true)
_FLAGS = tuple("".join(f'{name}="{"true" if bits >> i & 1 else "false"}" ' for i, name in enumerate(A11Y_FLAGS))
               for bits in range(1 << len(A11Y_FLAGS)))


def _attr(value: str) -> str:
    if _SPECIAL.search(value) is None:
        return value
    return escape(_NOT_XML.sub("\ufffd", value), _ENTITIES)


class TreeExporter:
    """Turns views into <node> elements, keeping only what is visible on screen."""

    def __init__(self, env: LayoutEnv, density: float, screen: Box) -> None:
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

    def _node(self, view: View, package: str, index: int, clip: Box, out: list[str]) -> None:
        x, y, w, h = view.frame
        d = self.density
        box = intersect((round(x * d), round(y * d), round((x + w) * d), round((y + h) * d)), clip)
        left, top, right, bottom = box
        if right <= left or bottom <= top:
            return
        rid = view.rid
        rid = "" if not rid else rid if ":id/" in rid else f"{package}:id/{rid}"
        clickable = view.on_click is not None
        focusable = view.focusable  # focused() is asked only of focusable views (what View.focused requires)
        text, desc, hint = view.text, view.desc, view.hint
        flags = _FLAGS[(1 if view.checkable else 0) | (2 if view.checked else 0) | (4 if clickable else 0)
                       | (8 if view.enabled else 0) | (16 if focusable or clickable else 0)
                       | (32 if focusable and view.focused(self.env) else 0) | (64 if view.scrollable else 0)
                       | (128 if view.on_long_click is not None else 0) | (256 if view.password else 0)
                       | (512 if view.selected else 0)]
        out.append(
            f'<node index="{index}" text="{_attr(text) if text else ""}" resource-id="{rid}" class="{view.cls}" '
            f'package="{package}" content-desc="{_attr(desc) if desc else ""}" {flags}'
            f'bounds="[{left},{top}][{right},{bottom}]" hint="{_attr(hint) if hint else ""}"'
        )
        children = view.shown_children()
        if not children:
            out.append(" />")
            return
        out.append(">")
        for i, child in enumerate(children):
            self._node(child, package, i, box, out)
        out.append("</node>")

"""A compact text view of a screen from its uiautomator XML (render_mode="ansi", CLI output)."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Callable

_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
# a node's boolean attributes, in uiautomator's order (the simulator writes them, JSON metrics test them)
A11Y_FLAGS = ("checkable", "checked", "clickable", "enabled", "focusable", "focused", "scrollable", "long-clickable",
              "password", "selected")


@dataclass(frozen=True)
class Node:
    """One node of a uiautomator dump, with the attributes agents use most."""

    text: str
    resource_id: str
    cls: str
    desc: str
    bounds: tuple[int, int, int, int]
    clickable: bool
    checkable: bool
    checked: bool
    scrollable: bool
    focused: bool
    selected: bool
    package: str
    hint: str = ""  # an empty text field's placeholder (never in text)

    @property
    def center(self) -> tuple[int, int]:
        x1, y1, x2, y2 = self.bounds
        return (x1 + x2) // 2, (y1 + y2) // 2

    @property
    def short_id(self) -> str:
        """The resource-id without its package prefix."""
        return self.resource_id.split(":id/", 1)[-1]


def node_from_element(el: ET.Element) -> Node:
    """One <node> element of a uiautomator dump as a Node."""
    match = _BOUNDS.fullmatch(el.get("bounds", ""))
    if match is None:
        raise ValueError(f"node has malformed bounds {el.get('bounds')!r}")
    return Node(
        text=el.get("text", ""), resource_id=el.get("resource-id", ""), cls=el.get("class", ""),
        desc=el.get("content-desc", ""), bounds=tuple(map(int, match.groups())),  # type: ignore[arg-type]
        clickable=el.get("clickable") == "true", checkable=el.get("checkable") == "true",
        checked=el.get("checked") == "true", scrollable=el.get("scrollable") == "true",
        focused=el.get("focused") == "true", selected=el.get("selected") == "true",
        package=el.get("package", ""), hint=el.get("hint", ""),
    )


def parse_nodes(xml: str) -> list[Node]:
    """Every node of a uiautomator dump, in document order."""
    return [node_from_element(el) for el in ET.fromstring(xml).iter("node")]


def described_nodes(xml: str, point: Callable[[int, int], str] | None = None,
                    screen: tuple[int, int] | None = None) -> list[tuple[Node, str]]:
    """The nodes that show text or can be acted on, each with its one-line description
    ``Class#id 'text' @(x,y) [flags]`` (an empty text field shows ``hint='...'`` instead of its text). ``point`` writes the centre in another frame (default device
    pixels); with ``screen`` (width, height), nodes centred off the screen are left out."""
    out = []
    for node in parse_nodes(xml):
        label = node.text or node.desc
        x, y = node.center
        if not (label or node.clickable or node.scrollable):
            continue
        if screen is not None and not (0 <= x < screen[0] and 0 <= y < screen[1]):
            continue
        flags = [f for f, on in (("click", node.clickable), ("scroll", node.scrollable), ("focused", node.focused),
                                 ("selected", node.selected)) if on]
        if node.checkable:
            flags.append("on" if node.checked else "off")
        kind = node.cls.rsplit(".", 1)[-1]
        rid = f"#{node.short_id}" if node.short_id else ""
        where = point(x, y) if point is not None else f"({x},{y})"
        shown = repr(label) if label or not node.hint else f"hint={node.hint!r}"
        out.append((node, f"{kind}{rid} {shown} @{where} [{' '.join(flags)}]".replace(" []", "")))
    return out


def describe(xml: str) -> str:
    """One line per node that shows text or can be acted on."""
    return "\n".join(line for _, line in described_nodes(xml))


def indexed_text(xml: str, point: Callable[[int, int], str] | None = None,
                 screen: tuple[int, int] | None = None) -> str:
    """The compact screen text of an observation: the lines of :func:`described_nodes`, each numbered
    ``[i]`` so an agent can refer to an element without parsing XML."""
    return "\n".join(f"[{i}] {line}" for i, (_, line) in enumerate(described_nodes(xml, point, screen)))

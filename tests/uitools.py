"""Helpers that find and tap nodes of the phone's accessibility tree, as a user would."""
from __future__ import annotations

from mobilegym.screen_text import Node, parse_nodes
from mobilegym.sim.phone import Phone

CORE_APPS = ("settings", "clock", "answer_sheet")  # apps the core tests need


def node(phone: Phone, rid: str | None = None, text: str | None = None, index: int = 0) -> Node:
    """The index-th on-screen node with a resource-id (short form) and/or text; fails the test if absent."""
    found = [n for n in parse_nodes(phone.a11y_xml())
             if (rid is None or n.short_id == rid) and (text is None or n.text == text)]
    assert len(found) > index, f"no node rid={rid!r} text={text!r} on {phone.current_route()}"
    return found[index]


def tap(phone: Phone, rid: str | None = None, text: str | None = None, index: int = 0) -> None:
    """Tap the centre of a node found in the accessibility tree."""
    phone.tap(*node(phone, rid, text, index).center)

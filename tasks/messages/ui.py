"""UI steps on Messages that other suites' plans use too (open, find, compose, read).

Plans import them from here, never from another suite's plans: this layer sits below every suite's plans."""
from __future__ import annotations

from mobilegym.oracle import Driver
from ..contacts.ui import open_home


def new_chat(d: Driver, number: str, text: str) -> None:
    """Start a chat with a typed number, type and send."""
    open_home(d, "Messages")
    d.tap(rid="new_message")
    d.type(number, rid="recipient_input")
    d.type(text, rid="message_input")
    d.tap(rid="send")


def search_first(d: Driver, query: str) -> str:
    """Search messages; the first hit's message text."""
    open_home(d, "Messages")
    d.tap(rid="search")
    d.type(query, rid="search_input")
    hit = d.find(rid="search_result")
    if hit is None:
        raise AssertionError(f"no search result for {query!r}")
    return next(n.text for n in d.nodes() if n.text and n.short_id == "" and inside(n.bounds, hit.bounds))


def inside(inner: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    """Whether the bounds ``inner`` lie within the bounds ``outer``."""
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def open_search_hit(d: Driver, query: str) -> None:
    """Search messages and open the first hit's thread."""
    open_home(d, "Messages")
    d.tap(rid="search")
    d.type(query, rid="search_input")
    d.tap(rid="search_result")

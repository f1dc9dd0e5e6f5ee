"""UI steps on Chat that other suites' plans use too (open, find, compose, read).

Plans import them from here, never from another suite's plans: this layer sits below every suite's plans."""
from __future__ import annotations

import re

from mobilegym.oracle import Driver, PlanError


ASKED = re.compile(r"[$¥]([\d,]+\.\d\d)")


def chat_amount(text: str) -> float:
    """"$1,234.50" -> 1234.5."""
    found = ASKED.search(text)
    if found is None:
        raise PlanError(f"no amount in {text!r}")
    return float(found.group(1).replace(",", ""))


def open_chat(d: Driver, tab: int | None = None) -> None:
    """Open Chat, on its tab number ``tab`` when given."""
    d.open_app("Chat")
    if tab is not None:
        d.tap(rid=f"tab_{tab}")


def open_friend_chat(d: Driver, name: str) -> None:
    """The one-to-one chat with a friend, through their profile (started when there is none)."""
    open_chat(d, 1)
    d.tap(rid="friend_item", desc=name)
    d.tap(rid="send_message")


def send_in_chat(d: Driver, text: str) -> None:
    d.type(text, rid="message_input")
    d.tap(rid="send")

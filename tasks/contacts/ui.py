"""UI steps on Contacts that other suites' plans use too (open, find, compose, read).

Plans import them from here, never from another suite's plans: this layer sits below every suite's plans."""
from __future__ import annotations

import re

from mobilegym.oracle import Driver


def lang(d: Driver) -> str:
    """The phone's language ("en" or "zh")."""
    return getattr(d.env.device, "language", "en")


def t(d: Driver, en: str, zh: str) -> str:
    return zh if lang(d) == "zh" else en


def open_home(d: Driver, app: str) -> None:
    """Open an app and go back to its first screen."""
    d.open_home(app)


def open_contact(d: Driver, name: str, index: int = 0) -> None:
    """Open a contact's card through the search (lists of any length)."""
    open_home(d, "Contacts")
    d.tap(rid="search")
    d.type(name, rid="search_input")
    d.tap(rid="contact_name", text=name, index=index)


def collect(d: Driver, rid: str, stop=None) -> list:
    """The nodes with ``rid`` down the whole main list (scrolling it), each once (by desc or text), in order;
    ``stop(found)`` ends the walk early."""
    seen: dict[str, object] = {}
    for _ in range(40):
        for n in d.nodes():
            if n.short_id == rid and (n.desc or n.text) not in seen:
                seen[n.desc or n.text] = n
        if (stop is not None and stop(list(seen.values()))) or not d.scroll(1):
            break
    return list(seen.values())


def off_by_one(number: str) -> str:
    """The number with its last digit changed."""
    return number[:-1] + str((int(number[-1]) + 1) % 10)


def is_number(display: str) -> bool:
    return bool(re.match(r"^[+(\d]", display))


def compose(d: Driver, recipient: str, text: str) -> None:
    """In Messages: start a chat with a contact picked from the suggestions, type and send."""
    open_home(d, "Messages")
    d.tap(rid="new_message")
    d.type(recipient, rid="recipient_input")
    d.tap(rid="suggestion_name", text=recipient)
    d.type(text, rid="message_input")
    d.tap(rid="send")


def edit_phone(d: Driver, name: str, slot: int, number: str, kind: str) -> None:
    """On the contact's edit form: ``number`` of type ``kind`` in phone slot ``slot`` (a new slot when it is
    past the last), then save."""
    open_contact(d, name)
    d.tap(rid="edit_contact")
    if slot > 0:
        d.tap(rid="add_phone")
    d.type(number, rid=f"phone_{slot}_input")
    d.tap(rid=f"phone_{slot}_{kind}")
    d.tap(rid="save_contact")


def first_name(name: str) -> str:
    """"Nora" of "Nora Quinn"; the given name of a Chinese name ("思远" of "王思远")."""
    return name.split()[0] if " " in name else name[1:]

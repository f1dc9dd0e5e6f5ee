"""UI steps on Mail that other suites' plans use too (open, find, compose, read).

Plans import them from here, never from another suite's plans: this layer sits below every suite's plans."""
from __future__ import annotations

import re

from mobilegym.oracle import Driver


FLIGHT_CODE = re.compile(r"(?:Booking code:|订座记录编号：)\s*([A-Z0-9]{6})")


HOTEL_CODE = re.compile(r"(?:Confirmation number:|确认号：)\s*(\d{8})")


def open_mail(d: Driver) -> None:
    """Open Mail at its thread list."""
    d.open_home("Mail")


def search(d: Driver, query: str) -> None:
    open_mail(d)
    d.tap(rid="search")
    d.type(query, rid="search_input")


def open_subject(d: Driver, subject: str) -> None:
    """Open the thread with a subject through the search."""
    search(d, subject)
    d.tap(rid="thread_item", desc=subject)


def bodies(d: Driver) -> list[str]:
    return d.texts("message_body")


def pick_recipient(d: Driver, rid: str, name: str) -> None:
    """Type a contact's name in a recipient field and take the suggestion."""
    d.type(name, rid=rid)
    d.tap(rid="suggestion_name", text=name)


def send_new(d: Driver, name: str, subject: str, body: str) -> None:
    """A new mail to a contact."""
    open_mail(d)
    d.tap(rid="compose")
    pick_recipient(d, "to_input", name)
    d.type(subject, rid="subject_input")
    d.type(body, rid="body_input")
    d.tap(rid="send")


def flight_code(d: Driver, city: str) -> str:
    """The booking code in the confirmation of the flight to ``city``."""
    search(d, city)
    subject = next(n.desc for n in d.nodes() if n.short_id == "thread_item"
                   and (f"flight to {city}" in n.desc or f"飞往{city}" in n.desc))
    d.tap(rid="thread_item", desc=subject)
    return next(m.group(1) for text in bodies(d) for m in [FLIGHT_CODE.search(text)] if m)


def other_code(d: Driver, city: str, code: str) -> str:
    """A code the mail shows that is not the flight's: the hotel's in that city, another flight's, or a typo."""
    search(d, d.t("Confirmation number", "确认号"))
    hits = [n.desc for n in d.nodes() if n.short_id == "thread_item"]
    if hits:
        d.tap(rid="thread_item", desc=hits[0])
        return next(m.group(1) for text in bodies(d) for m in [HOTEL_CODE.search(text)] if m)
    return code[:-1] + ("X" if code[-1] != "X" else "Y")

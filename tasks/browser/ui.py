"""UI steps on Browser that other suites' plans use too (open, find, compose, read).

Plans import them from here, never from another suite's plans: this layer sits below every suite's plans."""
from __future__ import annotations

import re

from mobilegym.oracle import Driver


def go(d: Driver, text: str) -> None:
    """Type into the address bar and go."""
    d.tap(rid="url_bar")
    d.type(text, rid="url_input")
    d.key("enter")


def search_and_open(d: Driver, title: str) -> None:
    d.open_app("Browser")
    go(d, title)
    d.tap(rid="result_title", text=title)


def cook_line(d: Driver, rid: str) -> int:
    return int(re.search(r"\d+", d.reveal(rid=rid).text).group())

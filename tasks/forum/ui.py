"""UI steps on Forum that other suites' plans use too (open, find, compose, read).

Plans import them from here, never from another suite's plans: this layer sits below every suite's plans."""
from __future__ import annotations

from mobilegym.oracle import Driver


def home(d: Driver) -> None:
    d.open_app("Forum")
    for _ in range(8):  # the app resumes where it was left: go back to its home tab
        if d.find(rid="search_button") is not None:
            return
        if d.find(rid="tab_0") is not None:
            d.tap(rid="tab_0")
        else:
            d.key("back")


def open_community(d: Driver, name: str, sort: str = "") -> None:
    home(d)
    d.tap(rid="tab_1")
    d.tap(rid="community_name", text=name)
    if sort:
        d.tap(rid=f"sort_{sort}")

"""UI steps on Video that other suites' plans use too (open, find, compose, read).

Plans import them from here, never from another suite's plans: this layer sits below every suite's plans."""
from __future__ import annotations

from mobilegym.oracle import Driver


def home(d: Driver, tab: int = 0) -> None:
    """Open Video on one of its tabs (Home, Subscriptions, Library)."""
    for _ in range(10):  # the app resumes where it was left: go back to a tab screen
        d.open_app("Video")
        if d.find(rid=f"tab_{tab}") is not None:
            d.tap(rid=f"tab_{tab}")
            return
        d.key("back")
    raise AssertionError("no tab bar")


def title_of(desc: str) -> str:
    return desc.split(" · ", 1)[0]


def open_library(d: Driver, entry: str) -> None:
    home(d, 2)
    d.tap(rid=entry)

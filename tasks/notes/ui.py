"""UI steps on Notes that other suites' plans use too (open, find, compose, read).

Plans import them from here, never from another suite's plans: this layer sits below every suite's plans."""
from __future__ import annotations

from mobilegym.oracle import Driver


def open_note(d: Driver, title: str) -> None:
    """Open a note from the notes list."""
    d.open_app("Notes")
    d.tap(rid="note_title_text", text=title)


def write_note(d: Driver, title: str, body: str) -> None:
    """Create a note from the notes list and save it."""
    d.open_app("Notes")
    d.tap(rid="add_note")
    d.type(title, rid="note_title")
    d.type(body, rid="note_body")
    d.tap(rid="save_note")

"""Preconditions of the Notes app's JSON tasks (``{"type": "prepare", "parameters": {"app": "notes", ...}}``).

Random draws come from ``prep.rng`` (seeded by the task and the episode), so the facts vary by seed.
"""
from __future__ import annotations

from typing import Any

from mobilegym.sim.app import Prep

from ..l10n import in_language
from .app import APP


@APP.preparer("pinned")
def prepare_pinned(prep: Prep, low: int = 1, high: int = 6) -> dict[str, Any]:
    """Between ``low`` and ``high`` notes pinned (drawn; at least one note stays unpinned), the others not."""
    notes = prep.state("notes")["notes"]
    count = prep.rng.randint(min(low, len(notes) - 1), min(high, len(notes) - 1))
    pinned = set(prep.rng.sample([n["id"] for n in notes], count))
    return {"apps": {"notes": {"notes": [{**n, "pinned": n["id"] in pinned} for n in notes]}}}


@APP.preparer("without_todo")
def prepare_without_todo(prep: Prep, text: str | dict[str, str]) -> dict[str, Any]:
    """No to-do reads ``text`` (case aside; one per language, or one for every language), so the task's own is
    the one to add."""
    text = in_language(text, prep.language, "to-do text")
    todos = [t for t in prep.state("notes")["todos"] if t["text"].casefold() != text.casefold()]
    return {"apps": {"notes": {"todos": todos}}}

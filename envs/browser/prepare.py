"""Preparers of the Browser app for JSON tasks (setup action ``prepare``)."""
from __future__ import annotations

from typing import Any

from mobilegym.sim.app import Prep

from .app import APP


@APP.preparer("tabs")
def tabs(prep: Prep, at_least: int = 3) -> dict[str, Any]:
    """At least ``at_least`` open tabs: missing ones open seeded pages of the world."""
    state = prep.state("browser")
    missing = max(0, at_least - len(state["tabs"]))
    content = [p for p in state["pages"] if p["kind"] != "home"]
    added = [{"id": f"tab_p{i + 1}", "url": p["url"], "title": p["title"], "host": p["host"], "back": [], "forward": []}
             for i, p in enumerate(prep.rng.sample(content, missing))]
    return {"apps": {"browser": {"tabs": [*state["tabs"], *added]}}} if added else {}

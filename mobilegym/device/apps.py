"""MobileGym's apps as the judge and the devices see them: each app's defaults, Android package and preparers.

The judge reaches the simulator's app declarations only through here (and a device's ``prepare_patch``),
so it imports nothing of :mod:`mobilegym.sim`.
"""
from __future__ import annotations

import random
from typing import Any, Iterable, Mapping

from ..sim.app import Prep, load_app


def app_defaults(app_id: str) -> dict[str, Any]:
    """A fresh copy of the app's canonical state (its defaults.json)."""
    return load_app(app_id).defaults()


def app_package(app_id: str) -> str:
    """The app's Android package name."""
    return load_app(app_id).package


def view_state(app_ids: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Per app among ``app_ids`` that MobileGym declares, the state paths that are view state, not user data."""
    out = {}
    for app_id in app_ids:
        try:
            paths = load_app(app_id).view_state
        except ValueError:  # not one of MobileGym's apps
            continue
        if paths:
            out[app_id] = paths
    return out


def prepare_patch(doc: dict[str, Any], app_id: str, name: str, args: Mapping[str, Any], *,
                  rng: random.Random, spread: Any = None) -> dict[str, Any]:
    """The state patch ``app_id``'s preparer ``name`` builds from the world document ``doc`` (read only) with the
    random stream ``rng``; ``spread`` hands it a task's answer draws (None on the canonical phone). A ValueError
    when the app has no such preparer."""
    app = load_app(app_id)
    if name not in app.preparers:
        raise ValueError(f"app {app.id!r} has no preparer {name!r}; it has: {', '.join(sorted(app.preparers)) or 'none'}")
    language = doc["os"].get("language", "en")
    return app.preparers[name](Prep(doc, rng, language, spread), **args)

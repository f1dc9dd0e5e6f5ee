"""Preparers of the Forum app for JSON tasks (setup action ``prepare``): make a named community exist in
whatever world the phone holds. Each returns a patch of the whole document. Texts may be given per language
({"en": ..., "zh": ...})."""
from __future__ import annotations

from typing import Any

from mobilegym.sim.app import Prep

from ..l10n import in_language
from .app import APP

Text = str | dict[str, str]  # a text, or one per language


@APP.preparer("community")
def community(prep: Prep, name: Text, about: Text, joined: bool = False) -> dict[str, Any]:
    """The community exists (with a seeded member count), joined or not as asked."""
    forum = prep.state("forum")
    name = in_language(name, prep.language, "community name")
    found = next((c for c in forum["communities"] if c["name"] == name), None)
    if found is not None:
        return {"apps": {"forum": {f"communities[id={found['id']}]": {"joined": joined}}}}
    return {"apps": {"forum": {"communities[]": {
        "id": f"c_{len(forum['communities']) + 1}", "name": name, "about": in_language(about, prep.language, "about"),
        "members": prep.rng.randrange(1000, 90000), "joined": joined}}}}

"""Preparers of the Maps app for JSON tasks (setup action ``prepare``): make a named place exist in whatever
world the phone holds. Each returns a patch of the whole document. Names and addresses may be given per
language ({"en": ..., "zh": ...})."""
from __future__ import annotations

from typing import Any

from mobilegym.sim.app import Prep

from ..l10n import in_language
from .app import APP
from .world import make_place, pools

Text = str | dict[str, str]  # a text, or one per language


@APP.preparer("place")
def place(prep: Prep, name: Text, category: str, street: Text, number: int, id: str = "") -> dict[str, Any]:  # noqa: A002
    """The place exists (seeded hours, position and rating) in ``category`` (a category id: "cafe",
    "restaurant"...), at ``number`` on ``street``, with the id ``id`` when given."""
    maps = prep.state("maps")
    name = in_language(name, prep.language, "place name")
    if any(p["name"] == name for p in maps["places"]):
        return {}
    cat = next((c for c in pools(prep.language)["categories"] if c["id"] == category), None)
    if cat is None:
        raise ValueError(f"maps: no category {category!r}; known: {', '.join(c['id'] for c in pools(prep.language)['categories'])}")
    item = make_place(prep.rng, prep.language, id or f"pl_{len(maps['places']) + 1}", name, cat,
                      in_language(street, prep.language, "street"), int(number))
    return {"apps": {"maps": {"places[]": item}}}

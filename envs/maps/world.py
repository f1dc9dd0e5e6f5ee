"""The Maps app of a generated world: a city of 35 to 60 places in twelve categories (restaurants, cafés,
pharmacies, groceries, parks, hospitals, banks, stations, cinemas, hotels, offices, residences) with an address,
a rating and reviews, opening hours and closed days, a position in km around the phone's location and a
congestion (the traffic at that point); the saved lists (Favourites, Want to go), the Home and Work labels and
the recently viewed places, drawn from the pools beside this file.

Invariants the screens and tasks rely on: place names and addresses are unique; every place is at least
MIN_AWAY km from the phone's location; Home is a residence and Work an office (either may be unset); a place is
at most once in a list (a saved entry has its own id); recent holds place ids, newest first, without repeats."""
from __future__ import annotations

import math
import random
from typing import Any

from mobilegym.sim.worldgen import World, load_pool
from mobilegym.sim.worldgen.draws import choice, randint, sample
from mobilegym.sim.worldgen.pools import read_pool

PACKAGE = __package__
MIN_PER_CATEGORY, MAX_PER_CATEGORY = 3, 6
RADIUS_KM = 5.0
MIN_AWAY = 0.35
MAX_RECENT = 8
MAX_CONGESTION = 2.0  # a route's traffic slows driving by 1 + the mean congestion of its ends (up to 3 times)


def pools(language: str) -> dict[str, Any]:
    """The pool of a language (read only)."""
    return load_pool(PACKAGE, "pools", language)


def address(language: str, number: int, street: str) -> str:
    """"12 Oak Avenue" / "解放路12号"."""
    return f"{number} {street}" if language == "en" else f"{street}{number}号"


def _position(rng: random.Random) -> tuple[float, float]:
    while True:
        angle, radius = rng.uniform(0, 2 * math.pi), RADIUS_KM * math.sqrt(rng.random())
        if radius >= MIN_AWAY:
            return round(radius * math.cos(angle), 2), round(radius * math.sin(angle), 2)


def _rating(rng: random.Random) -> float:
    return round(min(5.0, max(2.8, rng.gauss(4.2, 0.35))), 1)


def make_place(rng: random.Random, language: str, place_id: str, name: str, cat: dict[str, Any], street: str,
               number: int) -> dict[str, Any]:
    """One place of a category: its hours and closed days from the category's options, a position and ratings."""
    x, y = _position(rng)
    opens, closes = choice(rng, cat["hours"])
    return {"id": place_id, "name": name, "category": cat["id"], "address": address(language, number, street),
            "rating": _rating(rng), "reviews": int(rng.paretovariate(1.1) * 20) + rng.randrange(2, 30),
            "open": opens, "close": closes, "closed_days": list(choice(rng, cat["closed_days"])),
            "x": x, "y": y, "congestion": round(rng.uniform(0.0, MAX_CONGESTION), 2)}


def _places(world: World, rng: random.Random) -> list[dict[str, Any]]:
    pool = read_pool(PACKAGE, "pools", world.language)
    streets = pool["streets"]
    used: set[str] = set()
    places = []
    for cat in pool["categories"]:
        for name in sample(rng, cat["names"], randint(rng, MIN_PER_CATEGORY, min(MAX_PER_CATEGORY, len(cat["names"])))):
            while True:
                number, street = rng.randrange(1, 300), choice(rng, streets)
                text = address(world.language, number, street)
                if text not in used:
                    used.add(text)
                    break
            places.append(make_place(rng, world.language, f"pl_{len(places) + 1}", name, cat, street, number))
    return places


def generate(world: World) -> dict[str, Any]:
    rng = world.rng("maps")
    pool = read_pool(PACKAGE, "pools", world.language)
    places = _places(world, rng)
    by_cat = {c["id"]: [p["id"] for p in places if p["category"] == c["id"]] for c in pool["categories"]}
    public = [p["id"] for p in places if p["category"] not in ("office", "residence")]
    saved = [{"place_id": pid, "list": "favourites"} for pid in sample(rng, public, randint(rng, 2, 9))]
    saved += [{"place_id": pid, "list": "want_to_go"} for pid in sample(rng, public, randint(rng, 1, 9))]
    for n, entry in enumerate(saved, 1):
        entry["id"] = f"sv_{n}"
    return {"city": pool["city"],
            "categories": [{"id": c["id"], "name": c["name"], "glyph": c["glyph"]} for c in pool["categories"]],
            "places": places,
            "location": {"x": 0.0, "y": 0.0, "congestion": round(rng.uniform(0.0, MAX_CONGESTION), 2)},
            "saved": saved,
            "home": choice(rng, by_cat["residence"]) if rng.random() < 0.8 else None,
            "work": choice(rng, by_cat["office"]) if rng.random() < 0.6 else None,
            "recent": sample(rng, public, randint(rng, 0, 4))}

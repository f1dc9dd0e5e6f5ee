"""Preparers of the Trains app for JSON tasks (setup action ``prepare``). Each returns a patch of the whole
document."""
from __future__ import annotations

from typing import Any

from mobilegym.sim.app import Prep

from .app import APP
from .world import draw_id_number


@APP.preparer("companions")
def companions(prep: Prep, low: int = 1, high: int = 6) -> dict[str, Any]:
    """A seeded number (``low`` to ``high``) of saved passengers besides the owner: missing ones are people from
    Contacts with a new ID number; extra ones go, those no order names first (as far as the count allows)."""
    trains, today = prep.state("trains"), prep.now.date()
    passengers = list(trains["passengers"])
    others = [p for p in passengers if not p["self"]]
    want = prep.rng.randint(low, high)
    if want < len(others):
        on_orders = {t["name"] for o in trains["orders"] for t in o["passengers"]}
        removable = [p for p in others if p["name"] not in on_orders]
        gone = {p["id"] for p in prep.rng.sample(removable, min(len(removable), len(others) - want))}
        passengers = [p for p in passengers if p["id"] not in gone]
    taken = {p["name"] for p in passengers}
    people = [c["name"] for c in prep.state("contacts")["contacts"] if c["name"] not in taken]
    numbers = {p["id_number"] for p in passengers}
    used = {p["id"] for p in trains["passengers"]}
    for name in prep.rng.sample(people, min(len(people), max(0, want - (len(passengers) - 1)))):
        number = draw_id_number(prep.rng, prep.language, today)
        while number in numbers:
            number = draw_id_number(prep.rng, prep.language, today)
        numbers.add(number)
        n = len(used) + 1
        while f"psg_{n}" in used:
            n += 1
        used.add(f"psg_{n}")
        passengers.append({"id": f"psg_{n}", "name": name, "id_number": number, "self": False})
    return {"apps": {"trains": {"passengers": passengers}}} if passengers != trains["passengers"] else {}

"""The Contacts app's data in a generated world: the saved part of the shared cast, and a call log.

Everyone in ``world.contacts()`` becomes a contact (their numbers in the layouts the cast gives them,
their e-mail, sometimes a work address at their company, birthday, note); how many are favourites and
which, and who called when, vary with the seed. Imports nothing from the screens.
"""
from __future__ import annotations

import datetime as dt
from typing import Any

from mobilegym.sim.clock import to_ms
from mobilegym.sim.worldgen.draws import choice, fill_digits, randint, randrange, sample
from mobilegym.sim.worldgen.pools import read_pool

from .numbers import number_key

PACKAGE = __package__
PHONE_TYPES = ("mobile", "work", "home")
MAX_FAVORITES = 10
CALL_DAYS = 12  # the call log covers the last days before the phone's date


def _phones(person: Any) -> list[dict[str, str]]:
    """The person's numbers, each type once (a second line of a type already taken becomes another type)."""
    out: list[dict[str, str]] = []
    for phone in person.phones:
        kind = phone.type
        if any(p["type"] == kind for p in out):
            kind = next((k for k in PHONE_TYPES if all(p["type"] != k for p in out)), "")
            if not kind:
                continue
        out.append({"type": kind, "number": phone.number})
    return out


def _domain(email: str) -> str:
    return email.rsplit("@", 1)[-1].casefold()


def _shared_domain_ok(contacts: list[dict[str, Any]]) -> bool:
    """Some e-mail domain is used by two contacts who are not all favourites (FavoriteEmailDomain needs one)."""
    by_domain: dict[str, list[dict[str, Any]]] = {}
    for c in contacts:
        if "@" in c["email"]:
            by_domain.setdefault(_domain(c["email"]), []).append(c)
    return any(len(cs) >= 2 and not all(c["favorite"] for c in cs) for cs in by_domain.values())


def generate(world: Any) -> dict[str, Any]:
    """``{"contacts": [...], "calls": [...]}`` for ``world`` (same schema as defaults.json; calls gain a
    ``direction``: outgoing, incoming or missed)."""
    rng = world.rng("contacts")
    pool = read_pool(PACKAGE, "pools", world.language)
    people = world.contacts()
    contacts: list[dict[str, Any]] = []
    for i, person in enumerate(people, 1):
        email = person.email
        local = email.split("@", 1)[0]
        if person.company and person.company in pool["work_domains"] and rng.random() < pool["work_email_share"]:
            email = f"{local}@{pool['work_domains'][person.company]}"
        elif not person.relation and rng.random() < pool["no_email_share"]:
            email = ""
        contacts.append({"id": f"contact_{i:02d}", "name": person.name, "phones": _phones(person), "email": email,
                         "company": person.company, "birthday": person.birthday, "notes": person.note,
                         "favorite": False})
    _second_lines(world, rng, contacts)
    n = len(contacts)
    if n:
        # how many favourites: anything from one to a handful, relatives a little more likely
        count = randint(rng, 1, max(1, min(MAX_FAVORITES, n - 2)))
        weights = [3.0 if p.relation else 1.0 for p in people]
        chosen: list[int] = []
        while len(chosen) < count:
            pick = rng.choices(range(n), weights=weights)[0]
            if pick not in chosen:
                chosen.append(pick)
        for index in chosen:
            contacts[index]["favorite"] = True
    if n >= 3 and not _shared_domain_ok(contacts):
        # give one non-favourite the personal domain of another contact
        plain = [c for c in contacts if not c["favorite"] and c["email"]] or [c for c in contacts if not c["favorite"]]
        target = choice(rng, plain)
        donor = choice(rng, [c for c in contacts if c is not target and c["email"]])
        local = target["email"].split("@", 1)[0] if target["email"] else person_local(target["name"])
        target["email"] = f"{local}@{_domain(donor['email'])}"
    return {"contacts": contacts, "calls": _calls(world, rng, contacts)}


def _second_lines(world: Any, rng: Any, contacts: list[dict[str, Any]]) -> None:
    """At least two contacts have more than one number (tasks call or read someone's other line)."""
    spec = read_pool("mobilegym.sim.worldgen", "phones")[world.language]
    region = spec["regions"][spec["home"]]
    used = {number_key(p["number"]) for c in contacts for p in c["phones"]}
    used.update(number_key(s.mobile) for s in world.strangers())
    single = [c for c in contacts if len(c["phones"]) == 1]
    missing = 2 - sum(1 for c in contacts if len(c["phones"]) > 1)
    for contact in sample(rng, single, max(0, min(missing, len(single)))):
        for _ in range(200):
            template = choice(rng, region["formats"]).replace("{a}", choice(rng, region["areas"]))
            number = fill_digits(rng, template)
            key = number_key(number)
            if key not in used:
                used.add(key)
                kind = next(k for k in ("work" if contact["company"] else "home", "home", "mobile")
                            if k != contact["phones"][0]["type"])
                contact["phones"].append({"type": kind, "number": number})
                break


def person_local(name: str) -> str:
    return ".".join(name.casefold().replace("'", "").split()) or "contact"


def _calls(world: Any, rng: Any, contacts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A call log of the last days: mostly contacts (favourites more often), a few unknown numbers."""
    strangers = [p.mobile for p in world.strangers()]
    calls: list[tuple[int, dict[str, Any]]] = []
    if not contacts:
        return []
    weights = [4.0 if c["favorite"] else 1.0 for c in contacts]
    for _ in range(randint(rng, 3, 18)):
        moment = world.now - dt.timedelta(days=randrange(rng, CALL_DAYS), minutes=randrange(rng, 24 * 60))
        if moment >= world.now:
            moment = world.now - dt.timedelta(minutes=randint(rng, 5, 90))
        moment = moment.replace(second=0, microsecond=0)
        direction = choice(rng, ["outgoing", "outgoing", "incoming", "incoming", "missed"])
        if strangers and rng.random() < 0.12:
            contact, number = None, choice(rng, strangers)
        else:
            contact = rng.choices(contacts, weights=weights)[0]
            if not contact["phones"]:
                continue
            number = choice(rng, contact["phones"])["number"]
        duration = None if direction == "missed" else choice(rng, [randint(rng, 8, 90), randint(rng, 60, 1800)])
        calls.append((to_ms(moment), {"contact_id": contact["id"] if contact else None, "number": number,
                                      "time_ms": to_ms(moment), "duration_s": duration if duration is not None else 0,
                                      "direction": direction}))
    calls.sort(key=lambda item: item[0])
    return [{"id": f"call_log_{i:02d}", **call} for i, (_, call) in enumerate(calls, 1)]

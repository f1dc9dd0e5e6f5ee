"""Preparers of the Contacts app (JSON "prepare" setup actions): preconditions made true in any world.

Names may be given per language ({"en": ..., "zh": ...}).

``contact``   a contact with this exact name exists under a known id (added when the world has nobody of
              that name, else the existing one is given the id), with some fields set: a literal value, or
              ``{"pick": "company"}`` for one drawn from the world's pool (seeded by task and episode).
``duplicate`` a contact saved twice: the original (with an e-mail) and a copy with the same mobile number
              and no e-mail.
"""
from __future__ import annotations

import copy
from typing import Any

from mobilegym.sim.app import Prep
from mobilegym.sim.worldgen import load_pool

from ..l10n import in_language
from .app import APP
from .numbers import number_key

WORLDGEN = "mobilegym.sim.worldgen"
NOTES = {"en": ["Mortgage advisor", "Met at the design conference", "Neighbour in 4B", "Personal trainer"],
         "zh": ["房贷顾问", "设计大会上认识的", "楼下邻居", "私人教练"]}


def used_numbers(doc: dict[str, Any]) -> set[str]:
    """Number keys any contact or conversation uses."""
    apps = doc["apps"]
    keys = {number_key(p["number"]) for c in apps.get("contacts", {}).get("contacts", []) for p in c["phones"]}
    keys.update(number_key(c["address"]) for c in apps.get("messages", {}).get("conversations", []))
    return keys


def fresh_number(prep: Prep) -> str:
    """A number of the phone's home region, in one of its usual layouts, that nobody in the world uses."""
    spec = load_pool(WORLDGEN, "phones")[prep.language]
    region = spec["regions"][spec["home"]]
    used = used_numbers(prep.doc)
    for _ in range(500):
        template = prep.rng.choice(region["formats"]).replace("{a}", prep.rng.choice(region["areas"]))
        number = "".join(str(prep.rng.randrange(10)) if ch == "#" else ch for ch in template)
        if number_key(number) not in used:
            return number
    raise ValueError("contacts: no fresh phone number left")


def _email(name: str, prep: Prep) -> str:
    local = ".".join(name.casefold().replace("'", "").split())
    if not local.isascii():
        local = f"user{prep.rng.randrange(100, 999)}"
    domains = load_pool(WORLDGEN, "people", prep.language)["domains"]
    return f"{local}@{prep.rng.choice(domains)}"


def _value(prep: Prep, value: Any) -> Any:
    if isinstance(value, dict) and value.get("pick") == "company":
        return prep.rng.choice(load_pool(WORLDGEN, "people", prep.language)["companies"])
    if isinstance(value, dict) and value.get("pick") == "note":
        return prep.rng.choice(NOTES[prep.language])
    return value


def ensure_contact(prep: Prep, contacts: list[dict[str, Any]], name: str, contact_id: str,
                   fields: dict[str, Any] | None = None) -> dict[str, Any]:
    """The contact named ``name`` in ``contacts`` (a list being edited), given id ``contact_id`` and ``fields``;
    added with a fresh mobile number and an e-mail when there is none."""
    contact = next((c for c in contacts if c["name"] == name), None)
    if contact is None:
        contact = {"id": contact_id, "name": name, "phones": [{"type": "mobile", "number": fresh_number(prep)}],
                   "email": _email(name, prep), "company": "", "birthday": "", "notes": "", "favorite": False}
        contacts.append(contact)
    contact["id"] = contact_id
    for key, value in (fields or {}).items():
        contact[key] = _value(prep, value)
    return contact


def _calls(prep: Prep, old_id: str | None, new_id: str) -> list[dict[str, Any]]:
    calls = copy.deepcopy(prep.state("contacts").get("calls", []))
    for call in calls:
        if old_id is not None and call.get("contact_id") == old_id:
            call["contact_id"] = new_id
    return calls


@APP.preparer("contact")
def contact(prep: Prep, name: str | dict[str, str], id: str,  # noqa: A002
            fields: dict[str, Any] | None = None) -> dict[str, Any]:
    name = in_language(name, prep.language, "contact name")
    contacts = copy.deepcopy(prep.state("contacts")["contacts"])
    old = next((c["id"] for c in contacts if c["name"] == name), None)
    ensure_contact(prep, contacts, name, id, fields)
    return {"apps": {"contacts": {"contacts": contacts, "calls": _calls(prep, old, id)}}}


@APP.preparer("duplicate")
def duplicate(prep: Prep, name: str | dict[str, str], id: str, copy_id: str) -> dict[str, Any]:  # noqa: A002
    name = in_language(name, prep.language, "contact name")
    contacts = copy.deepcopy(prep.state("contacts")["contacts"])
    old = next((c["id"] for c in contacts if c["name"] == name), None)
    original = ensure_contact(prep, contacts, name, id)
    if not original["email"]:
        original["email"] = _email(name, prep)
    mobile = next((p for p in original["phones"] if p["type"] == "mobile"), original["phones"][0])
    contacts.append({"id": copy_id, "name": name, "phones": [dict(mobile)], "email": "", "company": "",
                     "birthday": "", "notes": "", "favorite": False})
    return {"apps": {"contacts": {"contacts": contacts, "calls": _calls(prep, old, id)}}}

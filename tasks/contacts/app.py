"""Accessor for the Contacts app's state: contacts (name, phones, email, company, birthday, notes,
favourite) and the call log."""
from __future__ import annotations

import datetime as dt
import random
from typing import Any, Mapping

from mobilegym.envs.contacts.numbers import number_key, same_number
from mobilegym.envs.contacts.screens import next_birthday
from mobilegym.envs.contacts.world import PHONE_TYPES
from mobilegym.judge import BaseApp, normalize_text, sim_today
from mobilegym.judge.result import check

CONTACTS_ADD_CHANGES = ["contacts.contacts[+]"]  # the one contact the task creates
CONTACTS_ADD_NUMBER_CHANGES = ["contacts.contacts[name={line.name}].phones[+]"]
CONTACTS_DELETE_CHANGES = ["contacts.contacts[-name={name}]"]
CONTACTS_FAVORITE_CHANGES = ["contacts.contacts[*].favorite"]  # stars only (the task's check says whose)
CONTACTS_CALL_CHANGES = ["contacts.calls[+]"]  # the one call the task places
NEW_PEOPLE = ("Rosa Alvarez", "Kenji Watanabe", "Amara Diallo", "Lucas Weber", "Hannah Cohen", "Mateo Silva",
              "Chloe Dubois", "Arjun Mehta", "Freya Nilsson", "Omar Farouk")
NEW_PEOPLE_ZH = ("林晓彤", "周子豪", "许嘉宁", "宋雨萱", "韩立伟", "唐思雨", "冯浩宇", "曹欣然", "彭俊熙", "邓佳琪")
# texts welcoming someone new, in the phone's language
WELCOMES = {"en": ("Hi! Nice to meet you, and welcome to town", "Hello! I'm a friend of a friend, welcome to the "
                   "neighbourhood", "Welcome! Let me know if you'd like a tour of the area"),
            "zh": ("你好！很高兴认识你，欢迎来到这里", "你好！我是你朋友的朋友，欢迎搬过来", "欢迎！想逛逛附近的话随时找我")}
AREA_CODES = ("415", "628", "510", "650", "408", "312", "617", "206")
MOBILE_PREFIXES_ZH = ("135", "137", "139", "152", "159", "183", "187", "189")


def chinese_world(state: dict[str, Any]) -> bool:
    """Whether most contacts have Chinese names (a Chinese phone's world)."""
    names = [c["name"] for c in state["contacts"]]
    return sum(any("\u4e00" <= ch <= "\u9fff" for ch in n) for n in names) * 2 > len(names)
EMAIL_DOMAINS = ("gmail.com", "outlook.com", "proton.me", "icloud.com")


def phones_text(phones: list[dict[str, str]]) -> str:
    """"mobile +1 415-555-0132, work ..." for check records."""
    return ", ".join(f"{p['type']} {p['number']}" for p in phones) or "no numbers"


class Contacts(BaseApp):
    """Contacts and calls."""

    def contacts(self) -> list[dict[str, Any]]:
        """Every contact."""
        return self.require(".contacts")

    def contact(self, name: str) -> dict[str, Any]:
        """The contact with this exact name; raises ValueError when there is none."""
        return self.find(".contacts", name=name)

    def by_id(self, contact_id: str) -> dict[str, Any] | None:
        """The contact with this id now (None once deleted)."""
        return next((c for c in self.contacts() if c["id"] == contact_id), None)

    def new_contacts(self) -> list[dict[str, Any]]:
        """Contacts that were not there at the start."""
        before = {c["id"] for c in self.initial(".contacts")}
        return [c for c in self.contacts() if c["id"] not in before]

    def phone_number(self, name: str, kind: str) -> str:
        """The contact's number of a type (mobile/work/home); raises ValueError when it has none."""
        for phone in self.contact(name)["phones"]:
            if phone["type"] == kind:
                return phone["number"]
        raise ValueError(f"contacts: {name} has no {kind} number")

    def owner_of(self, number: str) -> dict[str, Any] | None:
        """The contact one of whose numbers is ``number`` (None for an unknown number)."""
        return next((c for c in self.contacts() if any(same_number(p["number"], number) for p in c["phones"])), None)

    def favorite_names(self) -> list[str]:
        """Names of the favourite contacts, sorted."""
        return sorted(c["name"] for c in self.contacts() if c["favorite"])

    def with_email_domain(self, domain: str) -> list[dict[str, Any]]:
        """Contacts whose email address is at ``domain``."""
        return [c for c in self.contacts() if c["email"].casefold().endswith("@" + domain.casefold())]

    def next_birthday(self, os_state: Mapping[str, Any]) -> dict[str, Any]:
        """The contact whose birthday comes soonest (today counts)."""
        today = sim_today(os_state)
        dated = [c for c in self.contacts() if c["birthday"]]
        if not dated:
            raise ValueError("contacts: nobody has a birthday set")
        return min(dated, key=lambda c: (next_birthday(c["birthday"], today), c["name"]))

    def birthday(self, name: str) -> dt.date:
        """The contact's date of birth; raises ValueError when it is not set."""
        iso = self.contact(name)["birthday"]
        if not iso:
            raise ValueError(f"contacts: {name} has no birthday")
        return dt.date.fromisoformat(iso)

    def new_calls(self) -> list[dict[str, Any]]:
        """Calls placed since the start, oldest first."""
        before = {c["id"] for c in self.initial(".calls")}
        return [c for c in self.require(".calls") if c["id"] not in before]

    # --- checks -------------------------------------------------------------------------------

    def check_new_contact(self, name: str, number: str, kind: str | None = None) -> dict[str, Any]:
        """A contact named ``name`` was added with ``number`` (of type ``kind`` when given)."""
        found = [c for c in self.new_contacts() if normalize_text(c["name"]) == normalize_text(name)]
        want = f"{name}: {kind + ' ' if kind else ''}{number}"
        ok = any(same_number(p["number"], number) and (kind is None or p["type"] == kind)
                 for c in found for p in c["phones"])
        actual = "; ".join(f"{c['name']}: {phones_text(c['phones'])}" for c in self.new_contacts()) or "no new contact"
        return check("new contact", want, actual, ok)

    def check_phones(self, field: str, contact_id: str, phones: list[dict[str, str]]) -> dict[str, Any]:
        """The contact (by id) still exists and has every phone of ``phones`` (same number and type)."""
        contact = self.by_id(contact_id)
        have = contact["phones"] if contact else []
        ok = contact is not None and all(any(same_number(h["number"], p["number"]) and h["type"] == p["type"] for h in have)
                                         for p in phones)
        return check(field, phones_text(phones), phones_text(have) if contact else "contact deleted", ok)

    def check_kept(self, ids: list[str]) -> dict[str, Any]:
        """Every contact in ``ids`` still exists."""
        present = {c["id"] for c in self.contacts()}
        lost = sorted(i for i in ids if i not in present)
        return check("other contacts kept", [], lost, not lost)

    def check_last_call(self, number: str, who: str) -> dict[str, Any]:
        """The most recent call placed during the task went to ``number``."""
        calls = self.new_calls()
        actual = calls[-1]["number"] if calls else "no call placed"
        return check(f"called {who}", number, actual, bool(calls) and same_number(calls[-1]["number"], number))

    def check_favorites_only_changed_for(self, names: list[str]) -> dict[str, Any]:
        """No favourite flag changed except those of ``names``."""
        before = {c["id"]: c["favorite"] for c in self.initial(".contacts")}
        flipped = sorted(c["name"] for c in self.contacts()
                         if c["id"] in before and c["favorite"] != before[c["id"]] and c["name"] not in names)
        return check("other favourites unchanged", [], flipped, not flipped)

    # --- samplers -----------------------------------------------------------------------------

    @staticmethod
    def sample_new_person(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A name nobody in the contacts has, with a fresh mobile number."""
        taken = {c["name"] for c in state["contacts"]}
        names = [n for n in (NEW_PEOPLE_ZH if chinese_world(state) else NEW_PEOPLE) if n not in taken]
        if not names:
            raise ValueError("contacts: every candidate new name is already a contact")
        return {"name": rng.choice(names), "number": Contacts.fresh_number(rng, state)}

    @staticmethod
    def fresh_number(rng: random.Random, state: dict[str, Any]) -> str:
        """A number no contact uses (a +1 number; a Chinese mobile number in a Chinese world)."""
        used = {number_key(p["number"]) for c in state["contacts"] for p in c["phones"]}
        chinese = chinese_world(state)
        while True:
            if chinese:
                number = f"{rng.choice(MOBILE_PREFIXES_ZH)} {rng.randint(1000, 9999)} {rng.randint(1000, 9999)}"
            else:
                number = f"+1 {rng.choice(AREA_CODES)}-555-{rng.randint(200, 999):04d}"
            if number_key(number) not in used:
                return number

    @staticmethod
    def sample_non_favorite(rng: random.Random, state: dict[str, Any]) -> str:
        """The name of a contact who is not a favourite."""
        names = [c["name"] for c in state["contacts"] if not c["favorite"]]
        if not names:
            raise ValueError("contacts: every contact is already a favourite")
        return rng.choice(sorted(names))

    @staticmethod
    def sample_email_change(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A contact with an email address, and a new address for them."""
        contact = rng.choice([c for c in state["contacts"] if c["email"]])
        local = contact["email"].split("@", 1)[0].split("+")[0].rstrip("0123456789")
        domains = [d for d in EMAIL_DOMAINS if not contact["email"].endswith("@" + d)]
        return {"name": contact["name"], "email": f"{local}{rng.randint(1, 99)}@{rng.choice(domains)}"}

    @staticmethod
    def sample_phone_lookup(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A contact and the type of one of their numbers."""
        contact = rng.choice(state["contacts"])
        return {"name": contact["name"], "type": rng.choice(contact["phones"])["type"]}

    @staticmethod
    def sample_second_line(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A contact with one number, a phone type they lack, and a fresh number of that type."""
        contact = rng.choice([c for c in state["contacts"] if len(c["phones"]) == 1])
        kind = rng.choice([k for k in PHONE_TYPES if k != contact["phones"][0]["type"]])
        return {"name": contact["name"], "type": kind, "number": Contacts.fresh_number(rng, state)}

    @staticmethod
    def sample_other_line(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A contact with several numbers and the type of one that is not their first."""
        contact = rng.choice([c for c in state["contacts"] if len(c["phones"]) > 1])
        return {"name": contact["name"], "type": rng.choice(contact["phones"][1:])["type"]}

    @staticmethod
    def sample_birthday_person(rng: random.Random, state: dict[str, Any]) -> str:
        """The name of a contact whose birthday is set."""
        return rng.choice([c["name"] for c in state["contacts"] if c["birthday"]])

    @staticmethod
    def sample_shared_domain(rng: random.Random, state: dict[str, Any]) -> str:
        """The email domain most contacts share (at least two, not all of them favourites yet; ties drawn)."""
        by_domain: dict[str, list[dict[str, Any]]] = {}
        for contact in state["contacts"]:
            if "@" in contact["email"]:
                by_domain.setdefault(contact["email"].split("@", 1)[1].casefold(), []).append(contact)
        domains = sorted(d for d, cs in by_domain.items() if len(cs) >= 2 and not all(c["favorite"] for c in cs))
        if not domains:
            raise ValueError("contacts: no email domain is shared by two contacts")
        most = max(len(by_domain[d]) for d in domains)
        return rng.choice([d for d in domains if len(by_domain[d]) == most])

    @staticmethod
    def sample_welcome(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        """A text welcoming someone new, in the phone's language."""
        return rng.choice(WELCOMES[os_state.get("language", "en")])

    @staticmethod
    def sample_number_change(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A contact with an email address whose first number is their only mobile one, and a fresh number for it."""
        people = sorted(c["name"] for c in state["contacts"] if c["email"] and c["phones"]
                        and c["phones"][0]["type"] == "mobile" and [p["type"] for p in c["phones"]].count("mobile") == 1)
        if not people:
            raise ValueError("contacts: nobody with an email address has a single mobile number")
        return {"name": rng.choice(people), "number": Contacts.fresh_number(rng, state)}

    @staticmethod
    def sample_number_share(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """Someone to text (with a mobile) and another contact whose mobile number to send."""
        mobiles = sorted(c["name"] for c in state["contacts"] if any(p["type"] == "mobile" for p in c["phones"]))
        recipient = rng.choice(mobiles)
        return {"recipient": recipient, "subject": rng.choice([n for n in mobiles if n != recipient])}

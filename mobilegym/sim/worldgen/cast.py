"""The world's cast: the phone's owner and the people every app shares (contacts, texters, attendees)."""
from __future__ import annotations

import datetime as dt
import random
from functools import lru_cache
from typing import NamedTuple

from .draws import choice, fill_digits, randint, randrange
from .pools import read_pool

PACKAGE = __package__
MIN_CAST, MAX_CAST = 8, 40
COMPANY_SHARE = 0.55  # people with an employer
BIRTHDAY_SHARE = 0.8  # people whose birthday is known
NOTE_SHARE = 0.25
SECOND_LINE_SHARE = 0.35  # people with a work or home line beside their mobile


class Phone(NamedTuple):
    """One phone line of a person."""

    type: str  # mobile | work | home
    number: str


class Person(NamedTuple):
    """Someone in the world. ``name`` is how the owner knows them (a relation such as "Mom" for family).

    People and their phones are named tuples (made faster than frozen dataclasses, one object each)."""

    id: str
    name: str
    given: str
    family: str
    phones: tuple[Phone, ...]
    email: str
    company: str = ""
    birthday: str = ""  # ISO date or ""
    note: str = ""
    relation: str = ""  # mother | father | grandmother | ""
    in_contacts: bool = True  # saved in the owner's address book
    tags: tuple[str, ...] = ()

    @property
    def mobile(self) -> str:
        """The person's first number (their mobile when they have one)."""
        return next((p.number for p in self.phones if p.type == "mobile"), self.phones[0].number)


def number_key(number: str) -> str:
    """What identifies a number regardless of formatting and country prefix: its last ten digits."""
    return "".join(filter(str.isdigit, number))[-10:]


class NumberMaker:
    """Phone numbers of a home region (and some foreign ones) in the layouts people save them in; never
    two numbers that dial the same line."""

    def __init__(self, rng: random.Random, language: str) -> None:
        self.rng = rng
        self.spec = read_pool(PACKAGE, "phones")[language]
        self.foreign_regions = [r for r in sorted(self.spec["regions"]) if r != self.spec["home"]]
        self.used: set[str] = set()

    def make(self, foreign: bool | None = None) -> str:
        spec, rng = self.spec, self.rng
        if foreign is None:
            foreign = rng.random() < spec["foreign_share"]
        region = choice(rng, self.foreign_regions) if foreign else spec["home"]
        layout = spec["regions"][region]
        for _ in range(200):
            number = fill_digits(rng, choice(rng, layout["formats"]).replace("{a}", choice(rng, layout["areas"])))
            key = number_key(number)
            if key not in self.used:
                self.used.add(key)
                return number
        raise RuntimeError(f"worldgen: ran out of {region} phone numbers")


def _romanised(entry: str | list[str]) -> tuple[str, str]:
    """(display, latin) of a pool name: English names are their own latin form."""
    return (entry, entry) if isinstance(entry, str) else (entry[0], entry[1])


def _email_local(given: str, family: str, rng: random.Random) -> str:
    g, f = given.lower().replace("'", ""), family.lower().replace("'", "").replace("ü", "ue")
    return choice(rng, (f"{g}.{f}", f"{g}{f}", f"{g[0]}.{f}", f"{g}_{f}", f"{f}.{g}"))


@lru_cache(maxsize=None)
def _names(language: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]], dict[str, list[tuple[str, str]]]]:
    """The people pool's (display, latin) family names, given names, and given names by relation, made once per
    language (shared: read, never change)."""
    pool = read_pool(PACKAGE, "people", language)
    given = [_romanised(g) for g in pool["given"]]
    gendered = {"mother": pool["female"], "grandmother": pool["female"], "father": pool["male"]}
    by_relation = {relation: [g for g in given if g[0] in names] for relation, names in gendered.items()}
    return [_romanised(f) for f in pool["family"]], given, by_relation


def make_cast(rng: random.Random, language: str, today: dt.date) -> tuple[Person, list[Person]]:
    """The owner and between MIN_CAST and MAX_CAST other people: unique names, numbers and birthdays."""
    pool = read_pool(PACKAGE, "people", language)
    numbers = NumberMaker(rng, language)
    size = rng.randint(MIN_CAST, MAX_CAST)
    family_names, given_names, gendered_names = _names(language)
    used_names: set[str] = set()
    used_days: set[str] = set()
    people: list[Person] = []
    relations = list(pool["relations"])
    rng.shuffle(relations)
    owner_family = rng.choice(family_names)
    n_relatives = rng.randint(0, min(2, len(relations)))

    def birthday(age_low: int, age_high: int) -> str:
        for _ in range(100):
            year = today.year - randint(rng, age_low, age_high)
            born = dt.date(year, 1, 1) + dt.timedelta(days=randrange(rng, 365))
            iso = born.isoformat()
            if iso[5:] not in used_days:  # month and day
                used_days.add(iso[5:])
                return iso
        return ""

    def person(index: int, given: tuple[str, str], family: tuple[str, str], relation: str = "",
               nickname: str = "") -> Person:
        display = nickname or (family[0] + given[0] if language == "zh" else f"{given[0]} {family[0]}")
        domain = choice(rng, pool["domains"])
        company = choice(rng, pool["companies"]) if not relation and rng.random() < COMPANY_SHARE else ""
        first = "work" if company and rng.random() < 0.15 else "mobile"  # some only gave a work line
        phones = [Phone(first, numbers.make(foreign=False if relation else None))]
        if rng.random() < SECOND_LINE_SHARE:
            second = "home" if first == "work" or not company else "work"
            phones.append(Phone(second, numbers.make(foreign=False)))
        ages = (50, 75) if relation else (18, 60)
        return Person(
            id=f"person_{index:02d}", name=display, given=given[0], family=family[0], phones=tuple(phones),
            email=f"{_email_local(given[1], family[1], rng)}@{domain}", company=company,
            birthday=birthday(*ages) if relation or rng.random() < BIRTHDAY_SHARE else "",
            note=choice(rng, pool["notes"]) if not relation and rng.random() < NOTE_SHARE else "",
            relation=relation)

    owner_given = rng.choice(given_names)
    used_names.add(owner_given[0])
    owner = person(0, owner_given, owner_family)
    for nickname, relation in relations[:n_relatives]:
        given = rng.choice(gendered_names[relation])
        people.append(person(len(people) + 1, given, owner_family, relation, nickname))
    while len(people) < size:
        given, family = choice(rng, given_names), choice(rng, family_names)
        full = family[0] + given[0] if language == "zh" else f"{given[0]} {family[0]}"
        if full in used_names or given[0] in used_names:
            continue  # one person per first name keeps "text Maya" unambiguous
        used_names.update((full, given[0]))
        people.append(person(len(people) + 1, given, family))
    strangers = max(1, size // 8)  # texters the owner never saved
    for i in rng.sample(range(n_relatives, len(people)), strangers):
        people[i] = people[i]._replace(in_contacts=False)
    return owner, people

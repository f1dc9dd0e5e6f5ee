"""Phone-number helpers shared by Contacts, Messages and their task suites."""
from __future__ import annotations

import random
import re
from typing import Iterable

from mobilegym.sim.worldgen.cast import number_key  # one rule for the world's numbers and the apps'

NUMBER_CHARS = re.compile(r"^\+?[\d\s().-]+$")


def digits(number: str) -> str:
    """Only the digits of a number ("+1 415-555-0132" -> "14155550132")."""
    return "".join(filter(str.isdigit, number))


def same_number(a: str, b: str) -> bool:
    """Whether two numbers dial the same line (formatting and country prefix ignored)."""
    key = number_key(a)
    return bool(key) and key == number_key(b)


def is_dialable(text: str) -> bool:
    """A plausible phone number: digits with optional +, spaces, dashes, dots or brackets; 3+ digits."""
    return bool(NUMBER_CHARS.match(text.strip())) and len(digits(text)) >= 3


def new_number(rng: random.Random, language: str | None, taken: Iterable[str]) -> str:
    """A number of the phone's region (a mobile number on a Chinese phone, +1 ...-555-... otherwise) that dials
    none of the ``taken`` numbers."""
    used = {number_key(n) for n in taken if n}
    while True:
        if language == "zh":
            number = f"{rng.choice(('139', '158', '186', '177', '150'))} {rng.randint(1000, 9999)} {rng.randint(1000, 9999)}"
        else:
            number = f"+1 {rng.choice(('347', '929', '646', '213', '702'))}-555-{rng.randint(200, 999):04d}"
        if number_key(number) not in used:
            return number

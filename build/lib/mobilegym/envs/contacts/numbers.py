"""Phone-number helpers shared by Contacts, Messages and their task suites."""
from __future__ import annotations

import re

NUMBER_CHARS = re.compile(r"^\+?[\d\s().-]+$")


def digits(number: str) -> str:
    """Only the digits of a number ("+1 415-555-0132" -> "14155550132")."""
    return "".join(ch for ch in number if ch.isdigit())


def number_key(number: str) -> str:
    """What identifies a number regardless of formatting and country prefix: its last ten digits."""
    return digits(number)[-10:]


def same_number(a: str, b: str) -> bool:
    """Whether two numbers dial the same line (formatting and country prefix ignored)."""
    key = number_key(a)
    return bool(key) and key == number_key(b)


def is_dialable(text: str) -> bool:
    """A plausible phone number: digits with optional +, spaces, dashes, dots or brackets; 3+ digits."""
    return bool(NUMBER_CHARS.match(text.strip())) and len(digits(text)) >= 3

"""Input types of text fields: which typed characters a field's keyboard lets through.

``"number"`` behaves like Android's ``inputType="number|numberSigned|numberDecimal"`` (a
DigitsKeyListener with sign and decimal point): ASCII digits, one decimal point and a minus sign
as the first character. Text arrives one key press at a time, as ``adb shell input text`` sends it,
so a character the keyboard refuses is dropped and the rest still go through: "12 °C" leaves "12".
"""
from __future__ import annotations

INPUT_TYPES = ("text", "number")
DIGITS = frozenset("0123456789")
DECIMAL_POINT = "."
MINUS = "-"


def _number_accepts(current: str, char: str) -> bool:
    """Whether a signed decimal number field holding ``current`` takes ``char`` at its end."""
    if char in DIGITS:
        return True
    if char == DECIMAL_POINT:
        return DECIMAL_POINT not in current
    return char == MINUS and not current


def check_input_type(input_type: str) -> str:
    """``input_type`` itself, or a ValueError naming the known types."""
    if input_type not in INPUT_TYPES:
        raise ValueError(f"input_type must be one of {', '.join(map(repr, INPUT_TYPES))}, got {input_type!r}")
    return input_type


def append_typed(input_type: str, current: str, typed: str) -> str:
    """The field's value after ``typed`` is typed at the end of ``current``."""
    if input_type == "text":
        return current + typed
    value = current
    for char in typed:
        if _number_accepts(value, char):
            value += char
    return value

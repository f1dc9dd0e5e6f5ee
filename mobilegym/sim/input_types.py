"""Input types of text fields: which typed characters a field's keyboard lets through.

``"number"`` behaves like Android's ``inputType="number|numberSigned|numberDecimal"`` (a
DigitsKeyListener with sign and decimal point): ASCII digits, one decimal point and a minus sign
as the first character. Text arrives one key press at a time, as ``adb shell input text`` sends it,
so a character the keyboard refuses is dropped and the rest still go through: "12 °C" leaves "12".
"""
from __future__ import annotations

import re

INPUT_TYPES = ("text", "number")
# The editor action a field asks its keyboard's action key for (Android's ``imeOptions``); None lets the
# keyboard choose: Enter on a multi-line field, Next when another field follows, else Done.
IME_ACTIONS = ("done", "next", "search", "send", "go")
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


def check_ime_action(action: str | None) -> str | None:
    """``action`` itself (None or one of :data:`IME_ACTIONS`), or a ValueError naming the known actions."""
    if action is not None and action not in IME_ACTIONS:
        raise ValueError(f"ime_action must be None or one of {', '.join(map(repr, IME_ACTIONS))}, got {action!r}")
    return action


# What a text field keeps of typed text, as an Android EditText with a keyboard does: every line break
# (CR, CR LF, VT, FF, the information separators, NEL, U+2028, U+2029) becomes one "\n", and the other
# control characters (C0 but tab, DEL, C1) and lone surrogates are dropped: no key types them.
_LINE_BREAKS = re.compile("\r\n|[\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
_UNTYPABLE = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_NEEDS_CLEANING = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def typable(text: str) -> str:
    """``text`` as a keyboard can type it into a text field (see above)."""
    if _NEEDS_CLEANING.search(text) is None:
        return text
    return _UNTYPABLE.sub("", _LINE_BREAKS.sub("\n", text))


def append_typed(input_type: str, current: str, typed: str) -> str:
    """The field's value after ``typed`` is typed at the end of ``current``."""
    if input_type == "text":
        return current + typable(typed)
    value = current
    for char in typed:
        if _number_accepts(value, char):
            value += char
    return value

"""Texts that preparers take in the phone's language (JSON tasks give one per language), and texts every app writes
the same way."""
from __future__ import annotations

from typing import Any, Mapping

GONE = ("[deleted]", "[已删除]")  # (English, Chinese): what a row prints for a community or channel that is gone


def in_language(value: Any, language: str, what: str = "text") -> Any:
    """``value`` for the phone's language: {"en": ..., "zh": ...} gives one per language; anything else serves
    every language. Raises ValueError naming ``what`` when the language has no entry."""
    if not isinstance(value, Mapping):
        return value
    if language not in value:
        raise ValueError(f"{what} {dict(value)!r} has no {language!r} entry")
    return value[language]


def counted(n: int, noun: str, plural: str = "", *, grouped: bool = False) -> str:
    """An English count and its noun, agreeing: "1 item", "2 items" (``plural`` when it is not noun + "s";
    ``grouped``: thousands separated, "1,204 reviews")."""
    number = f"{n:,}" if grouped else str(n)
    return f"{number} {noun if n == 1 else plural or noun + 's'}"

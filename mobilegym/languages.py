"""The languages a phone can show: the one list, and the check every entry point applies.

Screens are written in the source language, English; every other language is data: the apps' string catalogs
(see :mod:`mobilegym.sim.strings`) and the world's pools (``<pool>.<language>.json``). A third language is an
entry here plus those files.
"""
from __future__ import annotations

from typing import Any, Mapping

LANGUAGES: Mapping[str, str] = {"en": "English", "zh": "中文"}  # code -> the language's own name
SOURCE_LANGUAGE = "en"


def check_language(language: Any) -> str:
    """``language`` if the phone can show it, else a ValueError naming the choices."""
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(map(repr, LANGUAGES))}, got {language!r}")
    return language

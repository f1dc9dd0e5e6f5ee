"""Checks of content the agent writes (a message, a note): judged by facts, not keywords.

Required facts go through the judge's one answer reader (:func:`mobilegym.judge.answers.fact_checks`):
each is stated, with no conflicting candidate of its kind. An optional fact (the day a forecast is for)
may be left out, but a text that states a value of its kind must state that one.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from mobilegym.judge.answers import fact_checks, read_answer
from mobilegym.judge.matchers import check


def written_checks(text: str, facts: Mapping[str, Any], *, rivals: Mapping[str, Sequence[str]] | None = None,
                   optional: Mapping[str, Any] | None = None,
                   os_state: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """One check per required fact (stated, no rival stated) and per optional fact (not stated, or stated
    right and alone). ``rivals``: {fact name: other candidates} for required and optional facts alike;
    ``os_state`` reads relative days (tomorrow, Thursday)."""
    checks = fact_checks(text, facts, rivals=rivals, os_state=os_state)
    for name, value in (optional or {}).items():
        reading = read_answer(value, text, rivals=(rivals or {}).get(name, ()), others=list(facts.values()),
                              os_state=os_state, scope="clause")
        checks.append(check(name, value, text, reading.passed or not reading.found))
    return checks

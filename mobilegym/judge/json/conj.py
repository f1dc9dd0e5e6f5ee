"""Combining several metric scores into one: "and" / "or" with short-circuiting."""
from __future__ import annotations

from collections.abc import Iterable

CONJUNCTIONS = ("and", "or")


def conjoin(conj: str, scores: Iterable[float]) -> float:
    """Fold lazily produced scores.

    "and": the first 0 ends the fold with 0, otherwise the mean of all scores.
    "or": the first 1 ends the fold with 1, otherwise the maximum.
    ``scores`` is consumed only as far as needed, so a generator that runs getters and
    metrics on demand never evaluates the metrics after the deciding one.
    """
    if conj not in CONJUNCTIONS:
        raise ValueError(f"conj must be one of {CONJUNCTIONS}, got {conj!r}")
    seen: list[float] = []
    for score in scores:
        if conj == "and" and score == 0:
            return 0.0
        if conj == "or" and score == 1:
            return 1.0
        seen.append(score)
    if not seen:
        raise ValueError("conjoin needs at least one score")
    return sum(seen) / len(seen) if conj == "and" else max(seen)

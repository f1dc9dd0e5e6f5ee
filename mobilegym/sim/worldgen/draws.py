"""Faster draws for generators' hot loops: each draws exactly the same stream, and returns the same value,
as the ``random.Random`` method it stands for, minus that method's argument checks and call layers.
"""
from __future__ import annotations

import random
from bisect import bisect
from typing import Sequence, TypeVar

T = TypeVar("T")


def randint(rng: random.Random, a: int, b: int) -> int:
    """``rng.randint(a, b)`` for ints ``a <= b``."""
    if b < a:
        raise ValueError(f"empty range for randint({a}, {b})")
    return a + rng._randbelow(b - a + 1)


def randrange(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for an int ``n > 0``."""
    return rng._randbelow(n)


def choice(rng: random.Random, seq: Sequence[T]) -> T:
    """``rng.choice(seq)`` for a non-empty ``seq``."""
    return seq[rng._randbelow(len(seq))]


def weighted(rng: random.Random, population: Sequence[T], cum_weights: Sequence[float]) -> T:
    """``rng.choices(population, cum_weights=cum_weights)[0]`` (weights summed beforehand, once)."""
    return population[bisect(cum_weights, rng.random() * cum_weights[-1], 0, len(population) - 1)]

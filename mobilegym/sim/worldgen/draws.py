"""Faster draws for generators' hot loops: each draws exactly the same stream, and returns the same value,
as the ``random.Random`` method it stands for, minus that method's argument checks and call layers.

``indices`` and ``sample`` inline CPython's rejection sampling on ``getrandbits``; for any other generator than a
plain ``random.Random`` (a subclass that scripts ``_randbelow``, as the task-parameter enumerator does) they go
through its own methods.
"""
from __future__ import annotations

import random
from bisect import bisect
from collections.abc import Sequence
from math import ceil, log
from string import digits
from typing import TypeVar

T = TypeVar("T")


def randint(rng: random.Random, a: int, b: int) -> int:
    """``rng.randint(a, b)`` for ints ``a <= b``."""
    if b < a:
        raise ValueError(f"empty range for randint({a}, {b})")
    return a + rng._randbelow(b - a + 1)


def randrange(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for an int ``n > 0``."""
    if n <= 0:
        raise ValueError(f"empty range for randrange({n})")
    return rng._randbelow(n)


def choice(rng: random.Random, seq: Sequence[T]) -> T:
    """``rng.choice(seq)`` for a non-empty ``seq``."""
    n = len(seq)
    if not n:
        raise IndexError("cannot choose from an empty sequence")
    return seq[rng._randbelow(n)]


def weighted(rng: random.Random, population: Sequence[T], cum_weights: Sequence[float]) -> T:
    """``rng.choices(population, cum_weights=cum_weights)[0]`` (weights summed beforehand, once)."""
    return population[bisect(cum_weights, rng.random() * cum_weights[-1], 0, len(population) - 1)]


def indices(rng: random.Random, n: int, count: int) -> list[int]:
    """``[rng.randrange(n) for _ in range(count)]`` for an int ``n > 0``: CPython's rejection sampling on
    ``getrandbits`` (what ``randrange``, ``randint`` and ``choice`` draw), inlined for draws in bulk (the
    digits of a phone number, the characters of a serial)."""
    if n <= 0:
        raise ValueError(f"empty range for indices({n})")
    if type(rng) is not random.Random:
        return [rng._randbelow(n) for _ in range(count)]
    bits, getrandbits, out = n.bit_length(), rng.getrandbits, []
    for _ in range(count):
        r = getrandbits(bits)
        while r >= n:
            r = getrandbits(bits)
        out.append(r)
    return out


def sample(rng: random.Random, population: Sequence[T], k: int) -> list[T]:
    """``rng.sample(population, k)`` for a sequence: CPython's algorithm (a shrinking copy of a small
    population, a set of the indices taken from a large one) with its ``randrange`` draws inlined."""
    if not isinstance(population, Sequence):
        raise TypeError("the population must be a sequence (a set's order is not reproducible)")
    if type(rng) is not random.Random:
        return rng.sample(population, k)
    n = len(population)
    if not 0 <= k <= n:
        raise ValueError("sample larger than population or is negative")
    getrandbits, out = rng.getrandbits, []
    setsize = 21  # CPython's threshold between the two ways, to the letter
    if k > 5:
        setsize += 4 ** ceil(log(k * 3, 4))
    if n <= setsize:
        pool = list(population)
        for left in range(n, n - k, -1):  # randrange(left); the last item left fills the gap
            bits = left.bit_length()
            j = getrandbits(bits)
            while j >= left:
                j = getrandbits(bits)
            out.append(pool[j])
            pool[j] = pool[left - 1]
    else:
        bits, taken = n.bit_length(), set()
        for _ in range(k):
            j = getrandbits(bits)
            while j >= n or j in taken:  # randrange(n) again while taken
                j = getrandbits(bits)
            taken.add(j)
            out.append(population[j])
    return out


def fill_digits(rng: random.Random, template: str) -> str:
    """``template`` with a random digit for each '#' (the stream of one ``randrange(10)`` per '#', in order)."""
    drawn = iter(indices(rng, 10, template.count("#")))
    return "".join([digits[next(drawn)] if ch == "#" else ch for ch in template])

"""worldgen.draws: each fast draw returns what the ``random.Random`` method it stands for returns and leaves the
stream where that method leaves it (generated worlds depend on both)."""
from __future__ import annotations

import random

import pytest

from mobilegym.sim.worldgen import draws

SIZES = (1, 2, 3, 7, 10, 16, 17, 100, 255, 256, 257, 1000, 2**31 + 5)


def _twins(seed: int) -> tuple[random.Random, random.Random]:
    return random.Random(f"draws|{seed}"), random.Random(f"draws|{seed}")


@pytest.mark.parametrize("n", SIZES)
def test_single_draws_follow_the_random_module(n: int) -> None:
    fast, reference = _twins(n)
    seq = list(range(n)) if n < 5000 else range(n)
    cum = [i + 1 for i in range(min(n, 50))]
    for _ in range(200):
        assert draws.randrange(fast, n) == reference.randrange(n)
        assert draws.randint(fast, -3, n) == reference.randint(-3, n)
        assert draws.choice(fast, seq) == reference.choice(seq)
        population = seq[:len(cum)]
        assert draws.weighted(fast, population, cum) == reference.choices(population, cum_weights=cum)[0]
    assert fast.getstate() == reference.getstate()


@pytest.mark.parametrize("n", SIZES)
def test_indices_are_randranges_in_bulk(n: int) -> None:
    fast, reference = _twins(n)
    for count in (0, 1, 6, 63):
        assert draws.indices(fast, n, count) == [reference.randrange(n) for _ in range(count)]
    assert fast.getstate() == reference.getstate()


@pytest.mark.parametrize("n", (0, 1, 5, 6, 21, 22, 45, 46, 300, 10**6))
def test_sample_follows_the_random_module(n: int) -> None:
    fast, reference = _twins(n)
    population = list(range(n)) if n < 5000 else range(n)
    for k in range(min(n, 40) + 1):  # both of CPython's ways, on either side of its threshold
        assert draws.sample(fast, population, k) == reference.sample(population, k)
    assert fast.getstate() == reference.getstate()


def test_empty_ranges_are_errors_not_endless_loops() -> None:
    rng = random.Random(0)
    with pytest.raises(ValueError):
        draws.randint(rng, 5, 4)
    with pytest.raises(ValueError):
        draws.randrange(rng, 0)
    with pytest.raises(IndexError):
        draws.choice(rng, [])
    with pytest.raises(ValueError):
        draws.indices(rng, 0, 3)
    with pytest.raises(ValueError):
        draws.sample(rng, [1, 2], 3)


def test_fill_digits_draws_one_randrange_per_mark() -> None:
    fast, reference = _twins(7)
    assert draws.fill_digits(fast, "+1 (###) 555-##") == "+1 ({}{}{}) 555-{}{}".format(
        *(reference.randrange(10) for _ in range(5)))
    assert fast.getstate() == reference.getstate()
    assert draws.fill_digits(fast, "no marks") == "no marks" and fast.getstate() == reference.getstate()


class _Scripted(random.Random):
    """A generator whose integer draws follow a script (as the task-parameter enumerator's does)."""

    def __init__(self, script: list[int]) -> None:
        super().__init__(0)
        self.script = list(script)

    def _randbelow(self, n: int) -> int:
        return self.script.pop(0) % n


def test_bulk_draws_go_through_a_subclass_own_draws() -> None:
    assert draws.indices(_Scripted([3, 4]), 10, 2) == [3, 4]
    assert draws.fill_digits(_Scripted([7, 1]), "#-#") == "7-1"
    assert draws.sample(_Scripted([2, 0]), "abcde", 2) == random.Random.sample(_Scripted([2, 0]), "abcde", 2)


def test_sample_refuses_what_is_not_a_sequence() -> None:
    with pytest.raises(TypeError):
        draws.sample(random.Random(0), {1, 2, 3}, 2)

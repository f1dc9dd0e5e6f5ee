"""Answers spread over worlds, so that an agent answering from memory is rarely right.

A task whose answer is a count draws the count it prepares from ``COUNT_SPAN`` values (``task.spread.count``),
and :func:`fit_count` makes a list hold it; a task whose answer is a name or an amount draws it from its
candidates (``task.spread.choice``). The draws are stratified over the seeds the caller resets with: in each
block of ``span`` consecutive reset seeds every value is drawn exactly once (an order drawn per block and task),
so over the worlds 0..N-1 a value is the answer on at most ceil(N / span) of them, and an agent that memorised
other worlds' answers is right on about 1 world in ``span``. Without a reset seed (``reset()`` with no seed) the
draw is the task's own seeded ``rng``: still uniform. The bounds: a count right on at most about 1 world in 6,
a name or an amount on at most 1 in 10 (tests/test_answer_spread.py).
"""
from __future__ import annotations

import random
from typing import Any, Callable, Sequence, TypeVar

T = TypeVar("T")
COUNT_SPAN = 12  # counts: this many equally likely values (the bound: a count right on at most ~1 world in 6)
NAME_SPAN = 20  # names and amounts: at least this many candidates (the bound: 1 world in 10)


class Spread:
    """The stratified draws of one episode: ``task_id`` and the caller's reset seed (None: ``rng`` draws)."""

    def __init__(self, task_id: str, seed: int | None, rng: random.Random) -> None:
        self.task_id, self.seed, self.rng = task_id, seed, rng

    def index(self, n: int, salt: str = "") -> int:
        """An index in [0, n): within each block of ``n`` consecutive reset seeds each index once."""
        if n < 1:
            raise ValueError(f"Spread.index: need at least one choice, got {n}")
        if self.seed is None:
            return self.rng.randrange(n)
        block, place = divmod(int(self.seed), n)
        order = list(range(n))
        random.Random(f"{self.task_id}|spread|{salt}|{n}|{block}").shuffle(order)
        return order[place]

    def count(self, low: int, span: int = COUNT_SPAN, salt: str = "") -> int:
        """A count in [low, low + span - 1] (see :meth:`index`); raises ValueError when ``span`` < 1."""
        if span < 1:
            raise ValueError(f"spread count: the span must be at least 1, got {span}")
        return low + self.index(span, salt)

    def choice(self, choices: Sequence[T], salt: str = "") -> T:
        """One of ``choices`` (sort them first: the order matters), see :meth:`index`."""
        if not choices:
            raise ValueError("spread choice: no choices")
        return list(choices)[self.index(len(choices), salt)]


def spread_count(rng: random.Random, low: int, span: int = COUNT_SPAN) -> int:
    """A count drawn uniformly from [low, low + span - 1]; raises ValueError when ``span`` < 1."""
    if span < 1:
        raise ValueError(f"spread_count: the span must be at least 1, got {span}")
    return rng.randint(low, low + span - 1)


def spread_choice(rng: random.Random, choices: Sequence[T], span: int = NAME_SPAN) -> T:
    """One of ``choices`` drawn uniformly; raises ValueError when there are fewer than ``span`` of them."""
    if len(choices) < span:
        raise ValueError(f"spread_choice: {len(choices)} candidates, fewer than the {span} an answer needs")
    return rng.choice(list(choices))


def fit_count(items: list[dict[str, Any]], counted: Callable[[dict[str, Any]], bool], target: int,
              rng: random.Random, *, drop: Callable[[dict[str, Any]], dict[str, Any] | None],
              add: Callable[[int, list[dict[str, Any]]], dict[str, Any] | None],
              keep: Callable[[dict[str, Any]], bool] = lambda item: False) -> list[dict[str, Any]]:
    """``items`` changed so that exactly ``target`` of them are ``counted``.

    Surplus counted items, chosen with ``rng`` among those not to ``keep``, go through ``drop`` (None removes the item; an item returned
    replaces it, e.g. the alarm switched off). Missing ones come from ``add(k, items)`` (the k-th added: a new
    item appended, or an existing one changed, returned with the same id). Raises ValueError when ``add`` runs
    out (returns None) or an item dropped is still counted."""
    out = [dict(i) for i in items]
    chosen = [i for i, item in enumerate(out) if counted(item)]
    loose = [i for i in chosen if not keep(out[i])]
    rng.shuffle(loose)
    if len(chosen) - len(loose) > target:
        raise ValueError(f"fit_count: {len(chosen) - len(loose)} counted items must stay, more than {target}")
    surplus = sorted(loose[:max(0, len(chosen) - target)], reverse=True)
    for index in surplus:
        changed = drop(out[index])
        if changed is None:
            del out[index]
        elif counted(changed):
            raise ValueError(f"fit_count: dropping {out[index].get('id')} left it counted")
        else:
            out[index] = changed
    for k in range(max(0, target - len(chosen))):
        new = add(k, out)
        if new is None:
            raise ValueError(f"fit_count: cannot add a counted item (have {k + len(chosen)}, need {target})")
        if not counted(new):
            raise ValueError(f"fit_count: the item added ({new.get('id')}) is not counted")
        where = next((i for i, item in enumerate(out) if "id" in new and item.get("id") == new["id"]), None)
        if where is None:
            out.append(new)
        else:
            out[where] = new
    return out

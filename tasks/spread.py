"""Answers spread over worlds, so that an agent answering from memory is rarely right.

A task whose answer is a count draws the count it prepares uniformly from at least ``COUNT_SPAN`` values
(:func:`spread_count`), and :func:`fit_count` makes a list hold it; a task whose answer is a name or an amount
draws it from at least ``NAME_SPAN`` candidates (:func:`spread_choice`). An agent that memorised other worlds'
answers is then right on about 1 world in ``COUNT_SPAN`` (counts) or ``NAME_SPAN`` (names, amounts): the
bounds are 1 in 6 and 1 in 10, and the spans leave room for the luck of twenty worlds (tests/test_worlds.py).
Episode seeds are hashes of the reset seeds, so the draws are the task's own seeded ``rng``.
"""
from __future__ import annotations

import random
from typing import Any, Callable, Sequence, TypeVar

T = TypeVar("T")
COUNT_SPAN = 12  # counts: this many equally likely values (the bound: a count right on at most ~1 world in 6)
NAME_SPAN = 20  # names and amounts: at least this many candidates (the bound: 1 world in 10)


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

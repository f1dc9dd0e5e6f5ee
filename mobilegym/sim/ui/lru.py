"""A least-recently-used cache bounded by the bytes its values hold, not by their count."""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Callable, Generic, Hashable, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class ByteLRU(Generic[K, V]):
    """Keeps values while their sizes (``sizeof(key, value)``, in bytes) add up to at most ``budget``
    and, with ``max_items``, while there are at most that many, dropping the least recently used first;
    a value larger than the whole budget is never kept. Thread-safe (phones in several threads share the
    renderer's caches); two threads may both make a missing value."""

    def __init__(self, budget: int, sizeof: Callable[[K, V], int], max_items: int | None = None) -> None:
        if budget < 0:
            raise ValueError(f"budget must be >= 0 bytes, got {budget}")
        if max_items is not None and max_items < 1:
            raise ValueError(f"max_items must be None or >= 1, got {max_items}")
        self.budget = budget
        self.max_items = max_items
        self.nbytes = 0
        self._sizeof = sizeof
        self._items: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: K, make: Callable[[], V]) -> V:
        """The value kept for ``key``, else ``make()`` (kept if it fits the budget)."""
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                return found[0]
        value = make()
        size = self._sizeof(key, value)
        if size <= self.budget:
            with self._lock:
                if key not in self._items:
                    self._items[key] = (value, size)
                    self.nbytes += size
                while self.nbytes > self.budget or (self.max_items is not None and len(self._items) > self.max_items):
                    _, (_, dropped) = self._items.popitem(last=False)
                    self.nbytes -= dropped
        return value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.nbytes = 0

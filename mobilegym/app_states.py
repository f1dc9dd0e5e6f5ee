"""``doc["apps"]``: every installed app's state, each loaded from its marshal bytes the first time it is read.

A generated world makes an app's data only when something asks for it (:mod:`mobilegym.sim.worldgen`), so a reset
costs the apps an episode reads, not every installed app. :class:`AppStates` is a real ``dict`` (code
that reads ``doc["apps"][app]``, ``.get``, ``in``, iteration or ``items()`` sees every app), whose apps
not read yet wait as byte sources. Iteration follows the install order, whatever was read first.
"""
from __future__ import annotations

import marshal
from collections.abc import ItemsView, KeysView, Mapping, ValuesView
from typing import Any, Callable, Iterable, Iterator

from .jsoncopy import copy_doc

BlobSource = Callable[[], bytes]  # an app's state as marshal bytes, made (or generated) when first called


class AppStates(dict):
    """The apps' states; those not read yet are loaded from their :data:`BlobSource` on first access."""

    __slots__ = ("_order", "_pending", "_origin")

    def __init__(self, order: Iterable[str], pending: Mapping[str, BlobSource],
                 loaded: Mapping[str, Any] | None = None, origin: Mapping[str, bytes] | None = None) -> None:
        super().__init__(loaded or {})
        self._order = list(order)
        self._pending = {app: source for app, source in pending.items() if not dict.__contains__(self, app)}
        self._origin = dict(origin or {})
        missing = [app for app in (*self._pending, *dict.keys(self)) if app not in self._order]
        if missing:
            raise ValueError(f"apps {missing} are not in the install order {self._order}")

    # what a dict does, with the apps not read yet included ---------------------------------
    def __missing__(self, app: str) -> Any:
        source = self._pending.get(app)
        if source is None:
            raise KeyError(app)
        blob = source()
        state = marshal.loads(blob)
        dict.__setitem__(self, app, state)
        del self._pending[app]
        self._origin[app] = blob
        return state

    def __contains__(self, app: object) -> bool:
        return dict.__contains__(self, app) or app in self._pending

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._order))

    def __len__(self) -> int:
        return len(self._order)

    def __setitem__(self, app: str, state: Any) -> None:
        if app not in self:
            self._order.append(app)
        self._pending.pop(app, None)
        self._origin.pop(app, None)
        dict.__setitem__(self, app, state)

    def __delitem__(self, app: str) -> None:
        if self._pending.pop(app, None) is None:
            dict.__delitem__(self, app)
        self._origin.pop(app, None)
        self._order.remove(app)

    def get(self, app: str, default: Any = None) -> Any:
        return self[app] if app in self else default

    def setdefault(self, app: str, default: Any = None) -> Any:
        if app not in self:
            self[app] = default
        return self[app]

    _NO_DEFAULT = object()

    def pop(self, app: str, default: Any = _NO_DEFAULT) -> Any:
        if app not in self:
            if default is AppStates._NO_DEFAULT:
                raise KeyError(app)
            return default
        state = self[app]
        del self[app]
        return state

    def popitem(self) -> tuple[str, Any]:
        if not self._order:
            raise KeyError("popitem(): no apps")
        app = self._order[-1]
        return app, self.pop(app)

    def clear(self) -> None:
        dict.clear(self)
        self._pending.clear()
        self._origin.clear()
        self._order.clear()

    def update(self, *args: Any, **kwargs: Any) -> None:
        for app, state in dict(*args, **kwargs).items():
            self[app] = state

    def __ior__(self, other: Any) -> "AppStates":
        self.update(other)
        return self

    def __or__(self, other: Any) -> dict[str, Any]:
        return {**self, **other}

    def keys(self) -> KeysView[str]:  # type: ignore[override]
        return KeysView(self)

    def values(self) -> ValuesView[Any]:  # type: ignore[override]
        return ValuesView(self)

    def items(self) -> ItemsView[str, Any]:  # type: ignore[override]
        return ItemsView(self)

    def __reversed__(self) -> Iterator[str]:
        return reversed(list(self._order))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mapping):
            return NotImplemented
        return len(self) == len(other) and all(app in other and self[app] == other[app] for app in self)

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"AppStates(read={list(dict.keys(self))}, not read={list(self._pending)})"

    # copies: loaded apps are copied, apps not read yet share their byte source --------------------
    def copy(self) -> "AppStates":
        return AppStates(self._order, self._pending, dict(dict.items(self)), self._origin)

    __copy__ = copy

    def __deepcopy__(self, memo: dict) -> "AppStates":
        return AppStates(self._order, self._pending, copy_doc(dict(dict.items(self))), self._origin)

    def __reduce__(self) -> tuple[Any, ...]:
        return dict, (dict(self.items()),)  # pickled as a plain dict of every app

    # what the world and the judge ask ---------------------------------------------------------
    def plain(self) -> dict[str, Any]:
        """A plain dict of every app's state, in install order, for JSON's C encoder and marshal (they see only a
        dict's own storage). Read apps are copied; the others are loaded into the result only, so they stay
        unread here (a later copy of this document does not carry them)."""
        return {app: copy_doc(dict.__getitem__(self, app)) if dict.__contains__(self, app)
                else marshal.loads(self._pending[app]()) for app in self._order}

    def is_read(self, app: str) -> bool:
        """Whether the app's state has been loaded (read, or set) in this document."""
        return dict.__contains__(self, app)

    def source(self, app: str) -> BlobSource | None:
        """The byte source of an app not read yet (None once it is loaded)."""
        return self._pending.get(app)

    def origin(self, app: str) -> bytes | None:
        """The bytes a loaded app's state was loaded from (None for a state set directly)."""
        return self._origin.get(app)

"""BaseApp: the accessor a suite's app.py subclasses to read one app's state.

Accessors hold data-access logic (lookups, aggregation, init-vs-now comparisons, samplers as
``@staticmethod sample_*``, ``prepare_state_with_*`` patch builders). Missing data raises
ValueError: a task bug, never a quiet empty answer.
"""
from __future__ import annotations

from typing import Any, ClassVar, Mapping

from mobilegym.judge.result import check
from mobilegym.judge.state.paths import filter_matches, parse_path, resolve
from mobilegym.judge.python.tasks import values_equal


class BaseApp:
    """Read one app's state (``state``), and its state at task start (``init``) when given."""

    app_id: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.__dict__.get("app_id"):
            cls.app_id = cls.__name__.lower()

    def __init__(self, state: Mapping[str, Any], init: Mapping[str, Any] | None = None):
        self.state = state
        self.init = init

    def get(self, path: str, params: Mapping[str, Any] | None = None) -> Any:
        """The value at a path, None when absent."""
        return resolve(self.state, path, params)

    def require(self, path: str, params: Mapping[str, Any] | None = None) -> Any:
        """The value at a path; raises ValueError when absent or None."""
        value = resolve(self.state, path, params, strict=True)
        if value is None:
            raise ValueError(f"{self.app_id}: {path} is None")
        return value

    def initial(self, path: str, params: Mapping[str, Any] | None = None) -> Any:
        """The value at a path in the initial state (needs ``init``)."""
        if self.init is None:
            raise ValueError(f"{self.app_id}: no initial state was given to the accessor")
        return resolve(self.init, path, params)

    def changed(self, path: str, params: Mapping[str, Any] | None = None) -> bool:
        """Whether the value at a path differs from the initial state."""
        return self.get(path, params) != self.initial(path, params)

    def find_all(self, path: str, **fields: Any) -> list[Any]:
        """Items of the list at ``path`` whose fields equal the given values."""
        items = self.require(path)
        if not isinstance(items, list):
            raise ValueError(f"{self.app_id}: {path} is not a list")
        filters = [parse_path(f"[{name}={{{name}}}]").segments[0] for name in fields]
        return [i for i in items if all(filter_matches(i, f, fields) for f in filters)]

    def find(self, path: str, **fields: Any) -> Any:
        """The first matching item; raises ValueError when there is none."""
        found = self.find_all(path, **fields)
        if not found:
            raise ValueError(f"{self.app_id}: no item in {path} with {fields}")
        return found[0]

    def check_value(self, field: str, path: str, expected: Any, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """A check that the value at ``path`` equals ``expected`` (None: absent; regex: searched)."""
        actual = self.get(path, params)
        return check(field, expected, actual, values_equal(actual, expected))

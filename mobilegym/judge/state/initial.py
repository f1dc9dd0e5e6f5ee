"""The world document as a task's set-up left it, kept cheaply for the rest of the episode.

Recording it is one ``marshal.dumps`` per app the set-up read (no load), so a reset does not pay for a
full copy; an app nobody has read yet (a lazily loaded ``doc["apps"]``, see
:class:`mobilegym.app_states.AppStates`) is kept as its byte source, unread and ungenerated. Checks
read initial values through a lazily loaded mapping, and the side-effect diff only loads (and walks) the
apps whose state changed.
"""
from __future__ import annotations

import marshal
from typing import Any, Iterator, Mapping

from mobilegym.jsoncopy import copy_doc
from mobilegym.app_states import AppStates, BlobSource


def _freeze(value: Any, version: int = marshal.version) -> bytes | None:
    """A marshal blob of ``value``, or None when marshal refuses it (then the value is kept as a copy)."""
    try:
        return marshal.dumps(value, version)
    except ValueError:
        return None


class _Part:
    """One frozen part (the OS state or one app's state)."""

    __slots__ = ("blob", "copy", "source", "version")

    def __init__(self, value: Any) -> None:
        self.blob = _freeze(value)
        self.copy = copy_doc(value) if self.blob is None else None
        self.source: BlobSource | None = None
        self.version = marshal.version

    @classmethod
    def unread_app(cls, source: BlobSource) -> "_Part":
        """An app's state nobody had read, kept as the source of its (format 2) bytes, called on demand."""
        part = cls.__new__(cls)
        part.blob, part.copy, part.source, part.version = None, None, source, 2
        return part

    def bytes(self) -> bytes | None:
        """The part's marshal bytes (None when marshal refused it)."""
        if self.blob is None and self.source is not None:
            self.blob = self.source()
        return self.blob

    def thaw(self) -> Any:
        """A fresh, private copy of the part."""
        blob = self.bytes()
        return marshal.loads(blob) if blob is not None else copy_doc(self.copy)

    def unchanged_in(self, value: Any) -> bool:
        """Whether ``value`` certainly equals the part (same bytes: same values and types). False
        negatives are possible (marshal output also depends on sharing); callers then diff."""
        blob = self.bytes()
        return blob is not None and _freeze(value, self.version) == blob


class _LazyApps(Mapping[str, Any]):
    """Read-only view of the initial apps: each app is loaded the first time it is read."""

    def __init__(self, parts: Mapping[str, _Part]) -> None:
        self._parts = parts
        self._loaded: dict[str, Any] = {}

    def __getitem__(self, app: str) -> Any:
        if app not in self._loaded:
            self._loaded[app] = self._parts[app].thaw()
        return self._loaded[app]

    def __iter__(self) -> Iterator[str]:
        return iter(self._parts)

    def __len__(self) -> int:
        return len(self._parts)


class InitialState:
    """A frozen ``{"os": ..., "apps": {...}}`` document."""

    def __init__(self, doc: Mapping[str, Any]) -> None:
        self._os = _Part(doc["os"])
        apps = doc["apps"]
        self._apps = {app: _Part.unread_app(source) if isinstance(apps, AppStates) and (source := apps.source(app))
                      else _Part(apps[app]) for app in apps}
        self._shared_apps = _LazyApps(self._apps)
        self._shared_os: Any = None

    def copy(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """(apps, os): private copies that the caller may change (each app loaded when first read)."""
        sources = {app: part.bytes for app, part in self._apps.items() if part.blob is not None or part.source is not None}
        read = {app: part.thaw() for app, part in self._apps.items() if app not in sources}
        return AppStates(self._apps, sources, read), self._os.thaw()

    def shared(self) -> tuple[Mapping[str, Any], Mapping[str, Any]]:
        """(apps, os) shared by every caller (loaded once, apps one by one): read, never change."""
        if self._shared_os is None:
            self._shared_os = self._os.thaw()
        return self._shared_apps, self._shared_os

    def changed_parts(self, doc: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """(before, after): the initial and the given document restricted to the OS state and the
        apps that differ (apps added or removed included). Diffing them finds every change."""
        before: dict[str, Any] = {"os": self._os.thaw(), "apps": {}}
        after: dict[str, Any] = {"os": doc["os"], "apps": {}}
        apps = doc["apps"]
        for app, part in self._apps.items():
            if app not in apps:
                before["apps"][app] = part.thaw()
            elif part.source is not None and isinstance(apps, AppStates) and not apps.is_read(app):
                continue  # read by nobody, then or now: the world's data as generated
            elif not part.unchanged_in(apps[app]):
                before["apps"][app], after["apps"][app] = part.thaw(), apps[app]
        for app in apps:
            if app not in self._apps:
                after["apps"][app] = apps[app]
        return before, after

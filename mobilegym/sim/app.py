"""Simulated apps: a manifest, screens keyed by route, defaults.json (the canonical world), an optional
world generator, and the screen context."""
from __future__ import annotations

import datetime as dt
import importlib
import pkgutil
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import metadata
from typing import TYPE_CHECKING, Any, Callable, Iterator, MutableMapping, Protocol, Sequence
from urllib.parse import urlencode

from .clock import from_ms
from ..languages import SOURCE_LANGUAGE
from .strings import translate
from .ui import Scaffold, TextField
from .worldgen.pools import load_pool

if TYPE_CHECKING:
    import random

    from .phone import Phone
    from .worldgen import World

ScreenFn = Callable[["Ctx"], Scaffold]


def route_string(path: str, params: dict[str, Any]) -> str:
    """"/alarm/edit" + {"id": "a1"} -> "/alarm/edit?id=a1"."""
    return f"{path}?{urlencode(params)}" if params else path


@dataclass
class SimApp:
    """One app of the simulated phone. Its data lives at apps.<id> in the world document."""

    id: str
    label: str
    home: str
    defaults_package: str
    glyph: str = "●"
    color: str = "#1976D2"
    label_zh: str = ""
    package: str = ""
    screens: dict[str, ScreenFn] = field(default_factory=dict)
    # the field a screen focuses when it is opened bare (no route params), as a search screen takes the focus
    # and shows the keyboard on Android: path -> the field's focus key (see SimApp.screen)
    focus_on_open: dict[str, str] = field(default_factory=dict)
    view_state: tuple[str, ...] = ()  # state paths that are not the user's data (playback, read markers)
    generate: Callable[["World"], dict[str, Any]] | None = None  # the app's data in a generated world
    # named preconditions a task can ask for ("prepare" setup action): fn(Prep, **args) -> state patch
    preparers: dict[str, Callable[..., dict[str, Any]]] = field(default_factory=dict)
    # the notification the interruptions axis posts for this app, from its own data: fn(state document, rng) ->
    # (title, text, route a tap opens), or None (then a generic one of the axis's is posted)
    notice: Callable[[dict[str, Any], "random.Random"], tuple[str, str, str] | None] | None = None

    def __post_init__(self) -> None:
        self.package = self.package or f"com.mobilegym.{self.id}"
        self.label_zh = self.label_zh or self.label

    def screen(self, path: str, focus: str | None = None) -> Callable[[ScreenFn], ScreenFn]:
        """Decorator registering a screen function for a route path. ``focus`` names the text field (its
        rid) that takes the focus, showing the keyboard, when the screen is opened without route params
        (a search screen opened from its button; the same screen opened on a category shows results)."""

        def register(fn: ScreenFn) -> ScreenFn:
            if path in self.screens:
                raise ValueError(f"app {self.id!r} already has a screen for {path!r}")
            self.screens[path] = fn
            if focus is not None:
                self.focus_on_open[path] = focus
            return fn

        return register

    def defaults(self) -> dict[str, Any]:
        """A fresh copy of the app's defaults.json."""
        return load_pool(self.defaults_package, "defaults")

    def initial_state(self, world: "World") -> dict[str, Any]:
        """The app's data in ``world``: what its generator makes, or its defaults when it has none."""
        return self.generate(world) if self.generate is not None else self.defaults()

    def preparer(self, name: str) -> Callable[[Callable[..., dict[str, Any]]], Callable[..., dict[str, Any]]]:
        """Decorator registering a preparer: ``fn(prep: Prep, **args) -> patch`` of the world document."""

        def register(fn: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
            if name in self.preparers:
                raise ValueError(f"app {self.id!r} already has a preparer {name!r}")
            self.preparers[name] = fn
            return fn

        return register

    def names(self) -> set[str]:
        """Every name open_app accepts for this app (case-insensitive)."""
        return {n.lower() for n in (self.id, self.label, self.label_zh, self.package)}




def _app_modules() -> dict[str, str]:
    """App id -> module: the subpackages of mobilegym.envs plus entry points in group "mobilegym.apps"."""
    import mobilegym.envs as envs

    modules = {m.name: f"mobilegym.envs.{m.name}" for m in pkgutil.iter_modules(envs.__path__) if m.ispkg}
    modules.update({ep.name: ep.value for ep in metadata.entry_points(group="mobilegym.apps")})
    return modules


@lru_cache(maxsize=None)
def load_app(app_id: str) -> SimApp:
    """One app by id. A package provides an app by exposing ``APP = SimApp(...)`` in its __init__."""
    modules = _app_modules()
    if app_id not in modules:
        raise ValueError(f"unknown app {app_id!r}; available: {', '.join(sorted(modules))}")
    app = getattr(importlib.import_module(modules[app_id]), "APP", None)
    if not isinstance(app, SimApp):
        raise ValueError(f"module {modules[app_id]} does not define APP = SimApp(...)")
    if app.id != app_id:
        raise ValueError(f"module {modules[app_id]} defines app {app.id!r}, expected {app_id!r}")
    return app


def installed_apps(only: Sequence[str] | None = None) -> dict[str, SimApp]:
    """Every installed app (or just the ids in ``only``), by id."""
    ids = sorted(_app_modules()) if only is None else list(only)
    return {app_id: load_app(app_id) for app_id in ids}


class AnswerDraws(Protocol):
    """Draws of an answer spread evenly over the worlds a caller resets (the judge's ``Spread``)."""

    def count(self, low: int, span: int = ..., salt: str = "") -> int: ...

    def choice(self, choices: Sequence[Any], salt: str = "") -> Any: ...


@dataclass(frozen=True)
class Prep:
    """What a preparer reads: the world document (read only), a seeded random stream, the language and, on a
    generated world, the draws that spread a task's answer (None on the canonical phone: keep its facts)."""

    doc: dict[str, Any]
    rng: Any  # random.Random
    language: str
    spread: AnswerDraws | None = None

    @property
    def now(self) -> dt.datetime:
        return from_ms(self.doc["os"]["time_ms"])

    def state(self, app_id: str) -> dict[str, Any]:
        return self.doc["apps"][app_id]

    def t(self, en: str, zh: str) -> str:
        return zh if self.language == "zh" else en


class _ClockWatch(MutableMapping[str, Any]):
    """The ``os`` part of the document, read and written through, calling ``on_clock`` when ``time_ms`` is read."""

    def __init__(self, os_state: dict[str, Any], on_clock: Callable[[], None]) -> None:
        self._os = os_state
        self._on_clock = on_clock

    def __getitem__(self, key: str) -> Any:
        if key == "time_ms":
            self._on_clock()
        return self._os[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self._os[key] = value

    def __delitem__(self, key: str) -> None:
        del self._os[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._os)

    def __len__(self) -> int:
        return len(self._os)


class Ctx:
    """What a screen function sees and may do: its app's state, route params and local UI state.

    Screen functions read; event handlers (closures built by the screen) mutate ``state``
    and ``local`` and navigate. ``local`` belongs to this back-stack entry (drafts, tabs).
    """

    def __init__(self, phone: Phone, app: SimApp, entry: dict[str, Any]) -> None:
        self._phone = phone
        self.app = app
        self.entry = entry

    @property
    def phone(self) -> Phone:
        """The whole phone (a screen that reads it is rebuilt after every input: it may read the raw clock)."""
        self._phone.frame_cache.read_raw_clock()
        return self._phone

    @property
    def state(self) -> dict[str, Any]:
        return self._phone.world_doc.app_state(self.app.id)

    def state_of(self, app_id: str) -> dict[str, Any] | None:
        """Another app's state (None when it is not installed), e.g. Contacts' names in Messages. A change
        to it redraws this screen as a change to the app's own state does."""
        if app_id not in self._phone.apps:
            return None
        return self._phone.world_doc.app_state(app_id)

    @property
    def os(self) -> MutableMapping[str, Any]:
        """The ``os`` part of the document. While the screen is being built, a view of it that notes reads of
        the raw clock (``time_ms``): such a screen is rebuilt after every input."""
        cache = self._phone.frame_cache
        os_state = self._phone.doc["os"]
        return _ClockWatch(os_state, cache.read_raw_clock) if cache.composing else os_state

    @property
    def params(self) -> dict[str, Any]:
        return self.entry["params"]

    @property
    def local(self) -> dict[str, Any]:
        return self.entry["local"]

    @property
    def now(self) -> dt.datetime:
        """The phone's clock (a screen shows minutes at most: its frame is kept within the minute)."""
        return from_ms(self._phone.doc["os"]["time_ms"])

    @property
    def language(self) -> str:
        """The language the phone shows (its OS setting, which every screen reads)."""
        return self._phone.doc["os"]["language"]

    def t(self, text: str, /, *, context: str | None = None, **fields: Any) -> str:
        """``text`` (English, a ``str.format`` template when ``fields`` are given) in the phone's language;
        ``context`` names where it appears when its translation differs there. The catalog is that of the
        package whose code asks (as gettext binds a domain per module), so a screen part one app lends another
        brings its own strings."""
        package = sys._getframe(1).f_globals["__package__"]
        return translate(package, self.language, text, context, fields)

    def tn(self, one: str, other: str, count: int, /, *, context: str | None = None, **fields: Any) -> str:
        """A text that agrees with ``count`` (a field too): English shows ``one`` for 1 and ``other`` otherwise;
        a catalog translates ``other`` (the shipped languages have one form for the rest)."""
        fields = {"count": count, **fields}
        if self.language == SOURCE_LANGUAGE:
            return (one if count == 1 else other).format(**fields)
        package = sys._getframe(1).f_globals["__package__"]
        return translate(package, self.language, other, context, fields)

    def either(self, en: str, zh: str) -> str:
        """The English or the Chinese text by the phone's language, for text not yet in a catalog (tests list
        these calls in tests/data/language_pairs.txt and allow no new ones)."""
        return zh if self.language == "zh" else en

    def navigate(self, path: str, **params: Any) -> None:
        """Push a screen of this app."""
        self._phone.nav.push(self.app.id, path, params)

    def replace(self, path: str, **params: Any) -> None:
        """Swap the current screen for another."""
        self._phone.nav.replace(self.app.id, path, params)

    def back(self) -> None:
        """Leave the current screen (as the back key does, without dialogs)."""
        self._phone.nav.back()

    def open_app(self, app_id: str, path: str | None = None, **params: Any) -> None:
        """Switch to another app, optionally at a given screen."""
        self._phone.nav.open(app_id)
        if path is not None:
            self._phone.nav.push(app_id, path, params)

    def focus(self, rid: str) -> None:
        """Give the focus to a text field of the screen (its keyboard opens), as a picker's search box takes
        it when the picker opens."""
        self._phone.nav.focus(rid)

    def scroll_home(self, rid: str) -> None:
        """Put a list of this screen back at its resting place: the top, or the end of a ``from_end`` list (a
        message just sent shows)."""
        self.local.get("scroll", {}).pop(rid, None)

    def new_id(self, prefix: str) -> str:
        """A fresh, deterministic id such as 'alarm_7'."""
        self.os["seq"] += 1
        return f"{prefix}_{self.os['seq']}"

    def toast(self, message: str) -> None:
        """A transient message shown above the navigation bar until the next input."""
        self.os["toast"] = message

    def notify(self, title: str, text: str, route: str | None = None, *, heads_up: bool = False) -> str:
        """Post a notification of this app (see :meth:`WorldDoc.notify`); a tap on it opens ``route``."""
        return self.phone.world_doc.notify(self.app.id, title, text, route, heads_up=heads_up)

    def field(self, rid: str, key: str, default: str = "", **kw: Any) -> TextField:
        """A text field whose draft lives in ``local[key]``."""
        value = self.local.get(key, default)
        return TextField(rid, value, lambda v: self.local.__setitem__(key, v), **kw)
